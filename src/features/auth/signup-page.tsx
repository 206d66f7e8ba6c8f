import { Anchor, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { useSetAtom } from 'jotai';
import { Link } from 'wouter';
import { SMS_TYPES } from '../../../core/constants.ts';
import { NAME_MAX_LENGTH, checkName, checkNewPassword, checkPhone, checkRepeatPassword, checkSmsCode } from '../../../core/validation.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { useConfig } from '@/config/config-atom.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { localizedMessage } from '@/components/localized.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import { AuthCard } from './auth-card.tsx';
import { PhoneAndNewPassword } from './account-fields.tsx';
import { register, sendPublicCode } from './auth-api.ts';
import { currentUserAtom } from './user-atom.ts';

/** §2 register: phone, password, repeat, optional name, SMS code, agree-terms. */
export function SignupPage() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const setUser = useSetAtom(currentUserAtom);
  const form = useForm({
    mode: 'controlled',
    initialValues: { phonenumber: '', password: '', repeatPassword: '', name: '', validation_code: '', agree: false },
  });
  // §5: in register a bad phone reads "phone or password wrong".
  const phoneFailure = { message: msg`Phone or password wrong` };
  const siteName = config.webTitle;

  const onSend = async () => {
    const phone = form.values.phonenumber.trim();
    if (checkPhone(phone)) {
      form.setFieldError('phonenumber', localizedMessage(phoneFailure.message));
      return false;
    }
    await sendPublicCode(phone, SMS_TYPES.register);
    return true;
  };

  const onSubmit = form.onSubmit(async (values) => {
    const phone = values.phonenumber.trim();
    const isValid = applyRuleVerdicts(
      form,
      {
        phonenumber: checkPhone(phone) ? phoneFailure : null,
        password: checkNewPassword(values.password, { strongPassword: config.strongPassword }),
        repeatPassword: checkRepeatPassword(values.password, values.repeatPassword),
        name: config.allowRegisterName ? checkName(values.name, { required: false }) : null,
        validation_code: checkSmsCode(values.validation_code),
        agree: values.agree ? null : 'terms_not_agreed',
      },
      i18n,
    );
    if (!isValid) return;
    try {
      const user = await register({
        phonenumber: phone,
        password: values.password,
        validation_code: values.validation_code,
        ...(config.allowRegisterName && values.name.trim() ? { name: values.name.trim() } : {}),
      });
      // §4: a new account has no real-name authentication yet; the after-login guard of this page sends it there.
      setUser(user);
    } catch (error) {
      applyServerErrors(form, error, { fieldAliases: { repeat_password: 'repeatPassword' } });
    }
  });

  const v = form.values;
  const isFilled = v.phonenumber.trim() !== '' && v.password !== '' && v.repeatPassword !== '' && v.validation_code !== '';
  return (
    <AuthCard title={t`Register`} subtitle={t`Create your ${siteName} account`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PhoneAndNewPassword form={form} passwordLabel={t`Password`} repeatLabel={t`Repeat password`} />
          {config.allowRegisterName && (
            <TextInput
              label={t`Name`}
              description={t`Optional`}
              maxLength={NAME_MAX_LENGTH}
              autoComplete="name"
              {...form.getInputProps('name')}
            />
          )}
          <SmsCodeInput
            value={v.validation_code}
            onChange={(value) => form.setFieldValue('validation_code', value)}
            error={form.errors.validation_code}
            onSend={onSend}
            onSendError={(error) => applyServerErrors(form, error)}
            sendTestId="send-code"
          />
          <Checkbox
            label={
              <Trans>
                I have read and agree to the{' '}
                <Anchor component={Link} href="/terms" target="_blank" inherit>
                  user agreement
                </Anchor>
              </Trans>
            }
            {...form.getInputProps('agree', { type: 'checkbox' })}
          />
          <Button type="submit" fullWidth size="md" disabled={!isFilled} loading={form.submitting}>
            <Trans>Register</Trans>
          </Button>
          <Text size="sm" c="dimmed" ta="center">
            <Trans>
              Already have an account?{' '}
              <Anchor component={Link} href="/user/login" size="sm">
                Log in
              </Anchor>
            </Trans>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
