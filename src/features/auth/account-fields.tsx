import { PasswordInput, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useLingui } from '@lingui/react/macro';
import { usePasswordHint } from '@/components/password-hint.ts';

type PhoneAndPassword = { phonenumber: string; password: string; repeatPassword: string };

/**
 * The phone number and the new password twice, as registering and resetting a password ask for
 * them (§2): the same input modes, autocomplete hints and password rule under the first password.
 * The labels differ ("Password" when registering, "New password" when resetting).
 */
export function PhoneAndNewPassword<T extends PhoneAndPassword>({ form, passwordLabel, repeatLabel }: { form: UseFormReturnType<T>; passwordLabel: string; repeatLabel: string }) {
  const { t } = useLingui();
  const passwordHint = usePasswordHint('new');
  return (
    <>
      <TextInput label={t`Phone number`} placeholder={t`11-digit mobile number`} inputMode="tel" autoComplete="tel" required {...form.getInputProps('phonenumber')} />
      <PasswordInput label={passwordLabel} description={passwordHint} autoComplete="new-password" required {...form.getInputProps('password')} />
      <PasswordInput label={repeatLabel} autoComplete="new-password" required {...form.getInputProps('repeatPassword')} />
    </>
  );
}
