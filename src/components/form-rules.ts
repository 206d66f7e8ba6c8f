import type { ReactNode } from 'react';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { RuleResult } from '../../core/validation.ts';
import { errorKeyText } from '@/api/error-messages.ts';
import { localized } from './localized.ts';

/** A field's client-side verdict: a §8 key, a message of the form's own, or null when it passes. */
export type FieldVerdict = RuleResult | { message: MessageDescriptor } | null;

/**
 * Runs the §5 rules of a form before it is sent: sets every failing field's error
 * (translated as it is drawn, so the messages follow a language switch) and tells whether all passed.
 */
export function applyRuleVerdicts(
  form: { setErrors: (errors: Record<string, ReactNode>) => void },
  verdicts: Record<string, FieldVerdict>,
  _i18n?: I18n,
): boolean {
  const errors: Record<string, ReactNode> = {};
  for (const [field, verdict] of Object.entries(verdicts)) {
    if (!verdict) continue;
    errors[field] = typeof verdict === 'string' ? localized((i18n) => errorKeyText(verdict, i18n)) : localized((i18n) => i18n._(verdict.message));
  }
  form.setErrors(errors);
  return Object.keys(errors).length === 0;
}
