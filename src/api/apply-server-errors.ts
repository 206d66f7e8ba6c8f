import type { ReactNode } from 'react';
import type { I18n } from '@lingui/core';
import { i18n as globalI18n } from '@/i18n/i18n.ts';
import { localizedError } from '@/components/localized.ts';
import { isApiError } from './client.ts';
import { notifyError } from './error-messages.ts';

/** The part of a Mantine form this needs; any useForm() result fits. */
export type FieldErrorTarget = {
  getValues: () => object;
  setFieldError: (path: never, error: ReactNode) => void;
};

type Options = {
  /** Server field names that this form calls differently, e.g. { phonenumber: 'login_id' }. */
  fieldAliases?: Record<string, string>;
  i18n?: I18n;
};

/**
 * §5 "server field errors show on the matching field": puts a `field_name` error on the
 * form field of that API name; anything else is shown as a notification.
 * Returns the field the error went to, or null when it was notified.
 */
export function applyServerErrors(form: FieldErrorTarget, error: unknown, options: Options = {}): string | null {
  const i18n = options.i18n ?? globalI18n;
  if (isApiError(error) && error.kind === 'client' && error.fieldName) {
    const field = options.fieldAliases?.[error.fieldName] ?? error.fieldName;
    if (Object.hasOwn(form.getValues(), field)) {
      (form.setFieldError as (path: string, error: ReactNode) => void)(field, localizedError(error));
      return field;
    }
  }
  notifyError(error, i18n);
  return null;
}
