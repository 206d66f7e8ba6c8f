import { Anchor, Button, Group, PasswordInput, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { useSetAtom } from 'jotai';
import { Link, useLocation, useSearch } from 'wouter';
import { SMS_TYPES } from '../../../core/constants.ts';
import { checkPasswordLogin, checkPhone, checkSmsCode } from '../../../core/validation.ts';
import { isApiError } from '@/api/client.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useConfig } from '@/config/config-atom.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { localizedError, localizedMessage } from '@/components/localized.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import { AuthCard } from './auth-card.tsx';
import { loginWithCode, loginWithPassword, sendPublicCode } from './auth-api.ts';
import { currentUserAtom } from './user-atom.ts';

export type LoginTab = 'login' | 'code';

export function toLoginTab(active: string | undefined): LoginTab {
  return active === 'code' ? 'code' : 'login';
}

function PasswordLoginForm() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const [, navigate] = useLocation();
  const setUser = useSetAtom(currentUserAtom);
  const form = useForm({ mode: 'controlled', initialValues: { login_id: '', password: '' } });

  const isUserNameMode = config.allowUserNameLogin;
  const loginIdLabel =
    config.allowUserNameLogin && config.allowPhoneLogin
      ? t`Username or phone number`
      : config.allowUserNameLogin
        ? t`Username`
        : t`Phone number`;
  const loginIdPlaceholder =
    config.allowUserNameLogin && config.allowPhoneLogin
      ? t`Enter your username or phone number`
      : config.allowUserNameLogin
        ? t`Enter your username`
        : t`Enter your phone number`;
  // §8: the login form never says which of the two was wrong.
  const wrongCredentials = isUserNameMode ? msg`Account or password wrong` : msg`Phone or password wrong`;

  const openWeakPasswordDialog = () => {
    modals.openConfirmModal({
      title: t`Password strength hint`,
      centered: true,
      children: <Text size="sm">{t`Your password is weak, please upgrade it first`}</Text>,
      labels: { confirm: t`Upgrade password`, cancel: t`Cancel` },
      onConfirm: () => navigate('/reset-pass'),
    });
  };

  const onSubmit = form.onSubmit(async (values) => {
    const loginId = values.login_id.trim();
    const verdict = checkPasswordLogin(loginId, values.password, { allowUserNameLogin: config.allowUserNameLogin });
    if (verdict) {
      applyRuleVerdicts(form, { [verdict.field]: verdict.key === 'login_failed' ? { message: wrongCredentials } : verdict.key }, i18n);
      return;
    }
    try {
      setUser(await loginWithPassword({ login_id: loginId, password: values.password }));
    } catch (error) {
      if (!isApiError(error) || error.kind !== 'client' || !error.fieldName) {
        notifyError(error);
        return;
      }
      const { key, fieldName } = error;
      if (fieldName === 'password' && key === 'invalid_password_format') openWeakPasswordDialog();
      else if (fieldName === 'login_id' && (key === 'operating_too_frequently' || key === 'employee_locked' || key === 'too_frequent_operation')) {
        form.setFieldError('login_id', localizedError(error));
      } else if (fieldName === 'login_id' || fieldName === 'password') form.setFieldError('password', localizedMessage(wrongCredentials));
      else applyServerErrors(form, error);
    }
  });

  const isFilled = form.values.login_id.trim() !== '' && form.values.password !== '';
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={loginIdLabel}
          placeholder={loginIdPlaceholder}
          autoComplete="username"
          required
          {...form.getInputProps('login_id')}
        />
        <PasswordInput
          label={t`Password`}
          placeholder={t`Enter your password`}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth size="md" disabled={!isFilled} loading={form.submitting}>
          <Trans>Log in</Trans>
        </Button>
      </Stack>
    </form>
  );
}

function CodeLoginForm() {
  const { t, i18n } = useLingui();
  const setUser = useSetAtom(currentUserAtom);
  const form = useForm({ mode: 'controlled', initialValues: { login_id: '', validation_code: '' } });
  const phoneWrong = msg`Phone number wrong`;

  const onSend = async () => {
    const phone = form.values.login_id.trim();
    if (checkPhone(phone)) {
      form.setFieldError('login_id', localizedMessage(phoneWrong));
      return false;
    }
    await sendPublicCode(phone, SMS_TYPES.codeLogin);
    return true;
  };

  const onSubmit = form.onSubmit(async (values) => {
    const phone = values.login_id.trim();
    const isValid = applyRuleVerdicts(
      form,
      { login_id: checkPhone(phone) ? { message: phoneWrong } : null, validation_code: checkSmsCode(values.validation_code) },
      i18n,
    );
    if (!isValid) return;
    try {
      setUser(await loginWithCode({ login_id: phone, validation_code: values.validation_code }));
    } catch (error) {
      // §8 code login: a login_id error reads "phone wrong", or the frozen message; code errors show the server message.
      if (isApiError(error) && error.kind === 'client' && (error.fieldName === 'login_id' || error.fieldName === 'phonenumber')) {
        form.setFieldError('login_id', error.key === 'employee_locked' || error.key === 'too_frequent_operation' ? localizedError(error) : localizedMessage(phoneWrong));
      } else applyServerErrors(form, error);
    }
  });

  const isFilled = form.values.login_id.trim() !== '' && form.values.validation_code !== '';
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t`Phone number`}
          placeholder={t`Enter your phone number`}
          inputMode="tel"
          autoComplete="tel"
          required
          {...form.getInputProps('login_id')}
        />
        <SmsCodeInput
          value={form.values.validation_code}
          onChange={(value) => form.setFieldValue('validation_code', value)}
          error={form.errors.validation_code}
          onSend={onSend}
          onSendError={(error) => applyServerErrors(form, error, { fieldAliases: { phonenumber: 'login_id' } })}
          sendTestId="send-code"
        />
        <Button type="submit" fullWidth size="md" disabled={!isFilled} loading={form.submitting}>
          <Trans>Log in</Trans>
        </Button>
      </Stack>
    </form>
  );
}

/** §2 login, route user/:active? (login = password tab, code = code tab). */
export function LoginPage({ active }: { active: LoginTab }) {
  const { t } = useLingui();
  const config = useConfig();
  const [, navigate] = useLocation();
  const search = useSearch();
  const hasCodeTab = config.allowPhoneLogin;
  const tab = hasCodeTab ? active : 'login';
  const siteName = config.webTitle;

  const onTabChange = (value: string | null) => {
    if (!value) return;
    navigate(`/user/${value}${search ? `?${search}` : ''}`, { replace: true });
  };

  return (
    <AuthCard title={t`Log in`} subtitle={t`Welcome to ${siteName}`}>
      <Tabs value={tab} onChange={onTabChange} keepMounted={false}>
        <Tabs.List grow mb="lg">
          <Tabs.Tab value="login">
            <Trans>Password login</Trans>
          </Tabs.Tab>
          {hasCodeTab && (
            <Tabs.Tab value="code">
              <Trans>Code login</Trans>
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="login">
          <PasswordLoginForm />
        </Tabs.Panel>
        {hasCodeTab && (
          <Tabs.Panel value="code">
            <CodeLoginForm />
          </Tabs.Panel>
        )}
      </Tabs>
      {(config.allowResetPassword || config.allowRegister) && (
        <Group justify="space-between" mt="lg" gap="xs">
          {config.allowResetPassword ? (
            <Anchor component={Link} href="/reset-pass" size="sm">
              <Trans>Forgot password?</Trans>
            </Anchor>
          ) : (
            <span />
          )}
          {config.allowRegister && (
            <Text size="sm" c="dimmed">
              <Trans>
                No account yet?{' '}
                <Anchor component={Link} href="/signup" size="sm">
                  Register now
                </Anchor>
              </Trans>
            </Text>
          )}
        </Group>
      )}
    </AuthCard>
  );
}
