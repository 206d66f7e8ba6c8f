import type { I18n } from '@lingui/core';
import type { RuleResult } from '../../core/validation.ts';
import { errorKeyText } from '@/api/error-messages.ts';

/** A field's client-side verdict: a §8 key, a ready message, or null when it passes. */
export type FieldVerdict = RuleResult | { text: string } | null;

/**
 * Runs the §5 rules of a form before it is sent: sets every failing field's error
 * (localized now, so the messages follow the active language) and tells whether all passed.
 */
export function applyRuleVerdicts(
  form: { setErrors: (errors: Record<string, string>) => void },
  verdicts: Record<string, FieldVerdict>,
  i18n: I18n,
): boolean {
  const errors: Record<string, string> = {};
  for (const [field, verdict] of Object.entries(verdicts)) {
    if (!verdict) continue;
    errors[field] = typeof verdict === 'string' ? errorKeyText(verdict, i18n) : verdict.text;
  }
  form.setErrors(errors);
  return Object.keys(errors).length === 0;
}
