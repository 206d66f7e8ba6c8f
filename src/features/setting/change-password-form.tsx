import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Trans, useLingui } from '@lingui/react/macro';
import { checkChangedPassword, checkRepeatPassword } from '../../../core/validation.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { usePasswordHint } from '@/components/password-hint.ts';
import { useConfig } from '@/config/config-atom.ts';
import { changePassword } from './setting-api.ts';

/** §2 change password: old password; new ≥ 7 characters (§9, with a special character under strongPassword) and different from the old; repeat. */
export function ChangePasswordForm({ isReadOnly }: { isReadOnly: boolean }) {
  const { t, i18n } = useLingui();
  const { strongPassword } = useConfig();
  const passwordHint = usePasswordHint('change');
  const form = useForm({ mode: 'controlled', initialValues: { old_password: '', new_password: '', repeatPassword: '' } });

  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(
      form,
      {
        old_password: values.old_password ? null : 'required',
        new_password: checkChangedPassword(values.old_password, values.new_password, { strongPassword }),
        repeatPassword: checkRepeatPassword(values.new_password, values.repeatPassword),
      },
      i18n,
    );
    if (!isValid) return;
    try {
      await changePassword({ old_password: values.old_password, new_password: values.new_password });
      form.reset();
      notifications.show({ color: 'green', message: t`Password changed. Other devices have been logged out.` });
    } catch (error) {
      applyServerErrors(form, error);
    }
  });

  const v = form.values;
  const isFilled = v.old_password !== '' && v.new_password !== '' && v.repeatPassword !== '';
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={420}>
        <PasswordInput label={t`Original password`} autoComplete="current-password" required disabled={isReadOnly} {...form.getInputProps('old_password')} />
        <PasswordInput
          label={t`New password`}
          description={passwordHint}
          autoComplete="new-password"
          required
          disabled={isReadOnly}
          {...form.getInputProps('new_password')}
        />
        <PasswordInput label={t`Repeat new password`} autoComplete="new-password" required disabled={isReadOnly} {...form.getInputProps('repeatPassword')} />
        <Group>
          <Button type="submit" disabled={isReadOnly || !isFilled} loading={form.submitting}>
            <Trans>Change password</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
