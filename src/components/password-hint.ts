import { useLingui } from '@lingui/react/macro';
import { passwordRule, type PasswordContext } from '../../core/validation.ts';
import { useConfig } from '@/config/config-atom.ts';

/**
 * The rule a password field enforces, in words, from the same `passwordRule` the check
 * uses: every field that sets a password says what it needs, special character included
 * when the deployment turns `strongPassword` on.
 */
export function usePasswordHint(context: PasswordContext): string {
  const { t } = useLingui();
  const { strongPassword } = useConfig();
  const rule = passwordRule(context, { strongPassword });
  if (rule.needsCase) {
    return rule.needsSpecial
      ? t`At least ${rule.minLength} characters, with upper and lower case letters, a digit and a special character (such as ! @ # $ %)`
      : t`At least ${rule.minLength} characters, with upper and lower case letters and a digit`;
  }
  return rule.needsSpecial
    ? t`At least ${rule.minLength} characters, with letters, digits and a special character (such as ! @ # $ %), different from the original`
    : t`At least ${rule.minLength} characters, with letters and digits, different from the original`;
}
