import { useState } from 'react';
import { Button, Group, SimpleGrid, Stepper, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconBuildingPlus, IconUsersPlus } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Redirect, useLocation } from 'wouter';
import type { CompanyDto, UserDto } from '../../../core/api-types.ts';
import { EMPLOYEE_STATUS } from '../../../core/enterprise.ts';
import { checkCardNo, checkRealName } from '../../../core/identity.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { describeError } from '@/api/error-messages.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { EnterpriseCard } from './enterprise-card.tsx';
import { commitUserAuth, isApiError, joinByCode, joinByName } from './enterprise-api.ts';
import { useCompany } from './use-company.ts';
import classes from './enterprise.module.css';

type Props = { user: UserDto; defaultPath: string; onUserChange: (user: UserDto) => void };

function RealNameForm({ onDone }: { onDone: (user: UserDto) => void }) {
  const { t, i18n } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { card_no: '', name: '' } });
  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(form, { card_no: checkCardNo(values.card_no), name: checkRealName(values.name) }, i18n);
    if (!isValid) return;
    try {
      onDone(await commitUserAuth({ card_no: values.card_no.trim(), name: values.name.trim() }));
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>Enter the number and name on your resident identity card. They must belong to the owner of this phone number.</Trans>
      </Text>
      <TextInput label={t`ID card number`} placeholder={t`18-digit ID card number`} required mb="md" {...form.getInputProps('card_no')} />
      <TextInput label={t`Real name`} placeholder={t`Name as on the ID card`} required mb="lg" {...form.getInputProps('name')} />
      <Button type="submit" fullWidth loading={form.submitting} disabled={!form.values.card_no.trim() || !form.values.name.trim()}>
        <Trans>Authenticate</Trans>
      </Button>
    </form>
  );
}

function JoinByCodeForm({ onJoined, onBack }: { onJoined: (c: CompanyDto) => void; onBack: () => void }) {
  const { t } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { invitation_code: '' } });
  const onSubmit = form.onSubmit(async (values) => {
    const code = values.invitation_code.trim();
    if (!code) {
      form.setFieldError('invitation_code', t`Please enter the invitation code`);
      return;
    }
    try {
      onJoined(await joinByCode(code));
    } catch (error) {
      // §8: a wrong code says so; anything else is "network abnormal, try later".
      if (isApiError(error) && error.key === 'invitation_code_invalid') form.setFieldError('invitation_code', describeError(error));
      else if (isApiError(error) && error.kind === 'client' && error.fieldName === 'invitation_code') form.setFieldError('invitation_code', describeError(error));
      else form.setFieldError('invitation_code', t`Network abnormal, please try again later`);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <TextInput
        label={t`Invitation code`}
        description={t`8 letters and digits, from your company's administrator`}
        placeholder={t`Enter the invitation code`}
        maxLength={16}
        mb="lg"
        {...form.getInputProps('invitation_code')}
      />
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          <Trans>Back</Trans>
        </Button>
        <Button type="submit" loading={form.submitting}>
          <Trans>Join</Trans>
        </Button>
      </Group>
    </form>
  );
}

function JoinByNameForm({ onJoined, onBack }: { onJoined: (c: CompanyDto) => void; onBack: () => void }) {
  const { t } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { name: '' } });
  const onSubmit = form.onSubmit(async (values) => {
    if (!values.name.trim()) {
      form.setFieldError('name', t`Please enter the company name`);
      return;
    }
    try {
      onJoined(await joinByName(values.name.trim()));
    } catch (error) {
      // §5: the server message is shown on the field (§8: and as a toast).
      if (isApiError(error) && error.kind === 'client') {
        form.setFieldError('name', describeError(error));
        notifications.show({ color: 'red', message: describeError(error) });
      } else applyServerErrors(form, error);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <TextInput label={t`Company name`} placeholder={t`The full registered name`} mb="lg" {...form.getInputProps('name')} />
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          <Trans>Back</Trans>
        </Button>
        <Button type="submit" loading={form.submitting}>
          <Trans>Apply to join</Trans>
        </Button>
      </Group>
    </form>
  );
}

type Choice = 'choose' | 'code' | 'name';

/** §2 real-auth: step 1 real-name authentication, step 2 join or create (header not clickable). */
export function RealAuthPage({ user, defaultPath, onUserChange }: Props) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const { company, setCompany } = useCompany(user.id);
  const [choice, setChoice] = useState<Choice>('choose');
  if (company === undefined) return <PageLoader />;
  // §2 entry: a user already in a confirmed company goes on to the default page.
  if (company && company.name && company.member_confirmed_status === EMPLOYEE_STATUS.confirmed && choice === 'choose') return <Redirect to={defaultPath} replace />;
  const step = user.card_no ? 1 : 0;
  const onJoined = (next: CompanyDto) => {
    setCompany(next);
    navigate(next.member_confirmed_status === EMPLOYEE_STATUS.confirmed ? defaultPath : '/in-review');
  };
  return (
    <EnterpriseCard title={t`Real-name and company authentication`} width={640}>
      <Stepper active={step} allowNextStepsSelect={false} size="sm">
        <Stepper.Step label={t`Real-name authentication`} allowStepSelect={false}>
          <RealNameForm onDone={onUserChange} />
        </Stepper.Step>
        <Stepper.Step label={t`Join or create a company`} allowStepSelect={false}>
          {choice === 'choose' && (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <UnstyledButton onClick={() => setChoice('code')} data-testid="choose-join-code" className={classes.choice}>
                <IconUsersPlus size={28} />
                <Text fw={600}>
                  <Trans>Join with an invitation code</Trans>
                </Text>
                <Text size="sm" c="dimmed">
                  <Trans>Your administrator gives you an 8-character code</Trans>
                </Text>
              </UnstyledButton>
              <UnstyledButton onClick={() => setChoice('name')} data-testid="choose-join-name" className={classes.choice}>
                <IconUsersPlus size={28} />
                <Text fw={600}>
                  <Trans>Join by company name</Trans>
                </Text>
                <Text size="sm" c="dimmed">
                  <Trans>An administrator reviews your application</Trans>
                </Text>
              </UnstyledButton>
              <UnstyledButton onClick={() => navigate('/add-company')} data-testid="choose-create" className={classes.choice}>
                <IconBuildingPlus size={28} />
                <Text fw={600}>
                  <Trans>Create a company</Trans>
                </Text>
                <Text size="sm" c="dimmed">
                  <Trans>Authenticate your enterprise with its business licence</Trans>
                </Text>
              </UnstyledButton>
            </SimpleGrid>
          )}
          {choice === 'code' && <JoinByCodeForm onJoined={onJoined} onBack={() => setChoice('choose')} />}
          {choice === 'name' && <JoinByNameForm onJoined={onJoined} onBack={() => setChoice('choose')} />}
        </Stepper.Step>
      </Stepper>
    </EnterpriseCard>
  );
}
