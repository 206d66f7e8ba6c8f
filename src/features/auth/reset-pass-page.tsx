import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import { SMS_TYPES } from '../../../core/constants.ts';
import { checkNewPassword, checkPhone, checkRepeatPassword, checkSmsCode } from '../../../core/validation.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { useConfig } from '@/config/config-atom.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import { AuthCard } from './auth-card.tsx';
import { PhoneAndNewPassword } from './account-fields.tsx';
import { resetPassword, sendPublicCode } from './auth-api.ts';

/** §2 reset password: phone, new password, repeat, SMS code (when the deployment requires it). */
export function ResetPassPage() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const [, navigate] = useLocation();
  const needsCode = config.requirePhoneValidation;
  const form = useForm({
    mode: 'controlled',
    initialValues: { phonenumber: '', password: '', repeatPassword: '', validation_code: '' },
  });

  const onBack = () => {
    // Back goes one page; a visitor who opened this page directly goes to login instead.
    if (window.history.length > 1) window.history.back();
    else navigate('/user/login');
  };

  const onSend = async () => {
    const phone = form.values.phonenumber.trim();
    const verdict = checkPhone(phone);
    if (verdict) {
      applyRuleVerdicts(form, { phonenumber: verdict }, i18n);
      return false;
    }
    await sendPublicCode(phone, SMS_TYPES.reset);
    return true;
  };

  const onSubmit = form.onSubmit(async (values) => {
    const phone = values.phonenumber.trim();
    const isValid = applyRuleVerdicts(
      form,
      {
        phonenumber: checkPhone(phone),
        password: checkNewPassword(values.password, { strongPassword: config.strongPassword }),
        repeatPassword: checkRepeatPassword(values.password, values.repeatPassword),
        validation_code: needsCode ? checkSmsCode(values.validation_code) : null,
      },
      i18n,
    );
    if (!isValid) return;
    try {
      await resetPassword({
        phonenumber: phone,
        password: values.password,
        repeat_password: values.repeatPassword,
        ...(needsCode ? { validation_code: values.validation_code } : {}),
      });
      notifications.show({ color: 'green', message: t`Your password has been reset. Please log in with the new password.` });
      navigate('/user/login', { replace: true });
    } catch (error) {
      applyServerErrors(form, error, { fieldAliases: { repeat_password: 'repeatPassword' } });
    }
  });

  const v = form.values;
  const isFilled = v.phonenumber.trim() !== '' && v.password !== '' && v.repeatPassword !== '' && (!needsCode || v.validation_code !== '');
  return (
    <AuthCard title={t`Reset password`} subtitle={t`Set a new password for your account`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PhoneAndNewPassword form={form} passwordLabel={t`New password`} repeatLabel={t`Repeat new password`} />
          {needsCode && (
            <SmsCodeInput
              value={v.validation_code}
              onChange={(value) => form.setFieldValue('validation_code', value)}
              error={form.errors.validation_code}
              onSend={onSend}
              onSendError={(error) => applyServerErrors(form, error)}
              sendTestId="send-code"
            />
          )}
          <Group grow gap="sm" wrap="nowrap">
            <Button variant="default" size="md" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
              <Trans>Back</Trans>
            </Button>
            <Button type="submit" size="md" disabled={!isFilled} loading={form.submitting}>
              <Trans>Reset password</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
