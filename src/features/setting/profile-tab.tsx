import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Collapse, Divider, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { UserDto } from '../../../core/api-types.ts';
import { maskName, maskPhone } from '../../../core/masking.ts';
import { NAME_MAX_LENGTH, checkName, checkUserName } from '../../../core/validation.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { useConfig } from '@/config/config-atom.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { ChangePhoneForm } from './change-phone-form.tsx';
import { changeName, changeUserName } from './setting-api.ts';

type Props = { user: UserDto; isReadOnly: boolean; onUserChange: (user: UserDto) => void };

function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" mb={2}>
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </div>
  );
}

export function Section({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function ChangeNameForm({ user, isReadOnly, onUserChange }: Props) {
  const { t, i18n } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { name: user.name } });
  const onSubmit = form.onSubmit(async (values) => {
    if (!applyRuleVerdicts(form, { name: checkName(values.name, { required: true }) }, i18n)) return;
    try {
      const updated = await changeName(values.name.trim());
      onUserChange(updated);
      form.setInitialValues({ name: updated.name });
      form.reset();
      notifications.show({ color: 'green', message: t`Your name has been changed` });
    } catch (error) {
      applyServerErrors(form, error);
    }
  });
  const isUnchanged = form.values.name.trim() === user.name || form.values.name.trim() === '';
  return (
    <form onSubmit={onSubmit} noValidate>
      <Group align="flex-start" gap="sm" wrap="nowrap" maw={480}>
        <TextInput label={t`Name`} maxLength={NAME_MAX_LENGTH} style={{ flex: 1 }} disabled={isReadOnly} {...form.getInputProps('name')} />
        <Button type="submit" mt={25} disabled={isReadOnly || isUnchanged} loading={form.submitting}>
          <Trans>Save name</Trans>
        </Button>
      </Group>
    </form>
  );
}

function ChangeUserNameForm({ user, isReadOnly, onUserChange }: Props) {
  const { t, i18n } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { login_id: user.login_id ?? '' } });
  const onSubmit = form.onSubmit(async (values) => {
    const loginId = values.login_id.trim();
    if (!applyRuleVerdicts(form, { login_id: checkUserName(loginId) }, i18n)) return;
    try {
      const updated = await changeUserName(loginId);
      onUserChange(updated);
      form.setInitialValues({ login_id: updated.login_id ?? '' });
      form.reset();
      notifications.show({ color: 'green', message: t`Your username has been changed` });
    } catch (error) {
      applyServerErrors(form, error);
    }
  });
  const isUnchanged = form.values.login_id.trim() === (user.login_id ?? '') || form.values.login_id.trim() === '';
  return (
    <form onSubmit={onSubmit} noValidate>
      <Group align="flex-start" gap="sm" wrap="nowrap" maw={480}>
        <TextInput
          label={t`Username`}
          description={t`4–32 letters, digits, "_", "." or "-"; used to log in`}
          style={{ flex: 1 }}
          disabled={isReadOnly}
          {...form.getInputProps('login_id')}
        />
        <Button type="submit" mt={46} disabled={isReadOnly || isUnchanged} loading={form.submitting}>
          <Trans>Save username</Trans>
        </Button>
      </Group>
    </form>
  );
}

/** Personal centre, tab info: the profile, change name, username and phone. */
export function ProfileTab({ user, isReadOnly, onUserChange }: Props) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const [isChangingPhone, setIsChangingPhone] = useState(false);
  const isVerified = user.card_no !== '';
  const maskedPhone = maskPhone(user.phonenumber);
  const maskedRealName = maskName(user.real_name);
  return (
    <Stack gap="lg">
      {isReadOnly && (
        <Alert icon={<IconInfoCircle size={18} />} color="gray">
          <Trans>Your profile is managed by your organisation and cannot be edited here.</Trans>
        </Alert>
      )}
      <Section title={t`Basic profile`}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Field label={t`Phone number`}>{maskPhone(user.phonenumber)}</Field>
          <Field label={t`Name`}>{user.name ? maskName(user.name) : <Text span c="dimmed" size="sm">{t`Not set`}</Text>}</Field>
          {config.allowUserNameLogin && (
            <Field label={t`Username`}>{user.login_id || <Text span c="dimmed" size="sm">{t`Not set`}</Text>}</Field>
          )}
          <Field label={t`Real-name authentication`}>
            {isVerified ? (
              <Badge color="green" variant="light" tt="none">
                {user.real_name ? t`Verified (${maskedRealName})` : t`Verified`}
              </Badge>
            ) : (
              <Badge color="gray" variant="light" tt="none">
                {t`Not verified`}
              </Badge>
            )}
          </Field>
          <Field label={t`Registered on`}>{i18n.date(new Date(user.created_at), { dateStyle: 'long' })}</Field>
        </SimpleGrid>
      </Section>
      <Section title={t`Change name`}>
        <ChangeNameForm user={user} isReadOnly={isReadOnly} onUserChange={onUserChange} />
        {config.allowUserNameLogin && (
          <>
            <Divider my="lg" />
            <ChangeUserNameForm user={user} isReadOnly={isReadOnly} onUserChange={onUserChange} />
          </>
        )}
      </Section>
      <Section title={t`Phone number`}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            <Trans>Bound phone: {maskedPhone}</Trans>
          </Text>
          {!isChangingPhone && (
            <Button variant="light" onClick={() => setIsChangingPhone(true)} disabled={isReadOnly}>
              <Trans>Change phone number</Trans>
            </Button>
          )}
        </Group>
        <Collapse expanded={isChangingPhone}>
          <Divider my="md" />
          {isChangingPhone && (
            <ChangePhoneForm user={user} isReadOnly={isReadOnly} onChanged={onUserChange} onDone={() => setIsChangingPhone(false)} />
          )}
        </Collapse>
      </Section>
    </Stack>
  );
}
