import { useState } from 'react';
import { Alert, Button, Group, SimpleGrid, Stack, Stepper, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconBuildingPlus, IconInfoCircle, IconUsersPlus } from '@tabler/icons-react';
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
import { commitUserAuth, isApiError, joinByCode, joinByName, ocrIdCard } from './enterprise-api.ts';
import { FileSlot } from './file-slot.tsx';
import { useConfig } from '@/config/config-atom.ts';
import { useCompany } from './use-company.ts';
import classes from './enterprise.module.css';
import { localizedError, localizedMessage } from '@/components/localized.ts';
import { msg } from '@lingui/core/macro';

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

const ID_PHOTO_ACCEPT = 'image/jpeg,image/png,image/bmp,image/gif';

/**
 * §2 OCR variant: ID front and back photos (one per slot, under 3 MB, images checked by content on
 * the server). The front fills number and name. A name OCR could not read is typed beside the number
 * it did read; a front it could not read at all is photographed again (the server checks the number
 * against the photo, so typed fields would be refused); where the server has no recognition the
 * fields are typed. Authenticate needs both photos and both fields.
 */
function OcrRealNameForm({ onDone }: { onDone: (user: UserDto) => void }) {
  const { t, i18n } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { front_image_id: '', back_image_id: '', card_no: '', name: '' } });
  // recognised: number and name read; numberOnly: the number read (the field the server checks), the name typed;
  // manual: recognition is unavailable on this server, both typed (the server then checks neither against the photo).
  const [frontState, setFrontState] = useState<'none' | 'reading' | 'recognised' | 'numberOnly' | 'manual'>('none');
  const [alerts, setAlerts] = useState<{ front?: string; back?: string }>({});
  const [isBackRefused, setIsBackRefused] = useState(false);
  const v = form.values;
  const ocrMessage = (error: unknown, side: 'front' | 'back') => {
    if (isApiError(error) && error.key === 'recognition_unavailable') return t`Recognition is unavailable on this server. Type the number and name from your ID card.`;
    if (isApiError(error) && error.key === 'identity_card_recognition_failed')
      return side === 'front' ? t`The front of the ID card could not be recognised. Retake the photo and upload it again.` : t`The back of the ID card could not be recognised. Retake the photo and upload it again.`;
    return describeError(error) || t`Upload failed`;
  };
  const onFront = async (id: string) => {
    form.setFieldValue('front_image_id', id);
    form.clearFieldError('front_image_id');
    setFrontState('reading');
    try {
      const r = await ocrIdCard(id, 'front');
      form.setValues({ card_no: r.card_no, name: r.name });
      setAlerts((a) => ({ ...a, front: r.name ? undefined : t`The number was read from the photo, the name could not be. Type your name as it is printed on the card.` }));
      setFrontState(r.name ? 'recognised' : 'numberOnly');
    } catch (error) {
      setAlerts((a) => ({ ...a, front: ocrMessage(error, 'front') }));
      // Typed fields can only pass where the server cannot read photos either: after a failed reading the
      // server would refuse them again, so the way on is another photo.
      const isUnavailable = isApiError(error) && error.key === 'recognition_unavailable';
      setFrontState(isUnavailable ? 'manual' : 'none');
      if (!isUnavailable) form.setValues({ card_no: '', name: '' });
    }
  };
  const onBack = async (id: string) => {
    form.setFieldValue('back_image_id', id);
    form.clearFieldError('back_image_id');
    setIsBackRefused(false);
    try {
      await ocrIdCard(id, 'back');
      setAlerts((a) => ({ ...a, back: undefined }));
    } catch (error) {
      // Unavailable recognition is not the back's fault: say nothing more than the front already says.
      const isUnavailable = isApiError(error) && error.key === 'recognition_unavailable';
      setAlerts((a) => ({ ...a, back: isUnavailable ? undefined : ocrMessage(error, 'back') }));
      // An expired or unreadable back would be refused by the server again: Authenticate waits for another photo.
      setIsBackRefused(!isUnavailable);
    }
  };
  const onSubmit = form.onSubmit(async (values) => {
    if (!values.front_image_id || !values.back_image_id) {
      form.setFieldError(values.front_image_id ? 'back_image_id' : 'front_image_id', localizedMessage(msg`The front and back of the ID card are both required`));
      return;
    }
    const isValid = applyRuleVerdicts(form, { card_no: checkCardNo(values.card_no), name: checkRealName(values.name) }, i18n);
    if (!isValid) return;
    try {
      onDone(await commitUserAuth({ card_no: values.card_no.trim(), name: values.name.trim(), front_image_id: values.front_image_id, back_image_id: values.back_image_id }));
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  // The back's own alert already says what is wrong with it: the same words are not repeated under the photos.
  const photoError = form.errors.front_image_id || (alerts.back ? undefined : form.errors.back_image_id);
  const hasFields = frontState === 'recognised' || frontState === 'numberOnly' || frontState === 'manual';
  const canSubmit = Boolean(v.front_image_id && v.back_image_id && !isBackRefused && v.card_no.trim() && v.name.trim());
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <Trans>Upload clear photos of the front and back of your resident identity card (JPG, PNG, BMP or GIF, under 3 MB each). The card must belong to the owner of this phone number.</Trans>
        </Text>
        {alerts.front && (
          <Alert color="orange" icon={<IconInfoCircle size={18} />} data-testid="id-ocr-alert">
            {alerts.front}
          </Alert>
        )}
        {alerts.back && (
          <Alert color="orange" icon={<IconInfoCircle size={18} />} data-testid="id-ocr-back-alert">
            {alerts.back}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <FileSlot label={t`ID card front (with the photo)`} accept={ID_PHOTO_ACCEPT} testId="id-front" onUploaded={(id) => void onFront(id)} />
          <FileSlot label={t`ID card back (national emblem)`} accept={ID_PHOTO_ACCEPT} testId="id-back" onUploaded={(id) => void onBack(id)} />
        </SimpleGrid>
        {photoError && (
          <Text size="sm" c="red" role="alert" data-testid="id-photo-error">
            {photoError}
          </Text>
        )}
        {frontState === 'reading' && (
          <Text size="sm" c="dimmed">
            <Trans>Reading the ID card…</Trans>
          </Text>
        )}
        {hasFields && (
          <>
            <TextInput label={t`ID card number`} placeholder={t`18-digit ID card number`} required readOnly={frontState === 'recognised' || frontState === 'numberOnly'} {...form.getInputProps('card_no')} />
            <TextInput label={t`Real name`} placeholder={t`Name as on the ID card`} required description={frontState === 'recognised' ? t`Read from the photo; correct it if a character was misread` : undefined} {...form.getInputProps('name')} />
          </>
        )}
        <Button type="submit" fullWidth loading={form.submitting} disabled={!canSubmit} data-testid="real-auth-submit">
          <Trans>Authenticate</Trans>
        </Button>
      </Stack>
    </form>
  );
}

function JoinByCodeForm({ onJoined, onBack }: { onJoined: (c: CompanyDto) => void; onBack: () => void }) {
  const { t } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { invitation_code: '' } });
  const onSubmit = form.onSubmit(async (values) => {
    const code = values.invitation_code.trim();
    if (!code) {
      form.setFieldError('invitation_code', localizedMessage(msg`Please enter the invitation code`));
      return;
    }
    try {
      onJoined(await joinByCode(code));
    } catch (error) {
      // §8: a wrong code says so; anything else is "network abnormal, try later".
      if (isApiError(error) && error.key === 'invitation_code_invalid') form.setFieldError('invitation_code', localizedError(error));
      else if (isApiError(error) && error.kind === 'client' && error.fieldName === 'invitation_code') form.setFieldError('invitation_code', localizedError(error));
      else form.setFieldError('invitation_code', localizedMessage(msg`Network abnormal, please try again later`));
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
      form.setFieldError('name', localizedMessage(msg`Please enter the company name`));
      return;
    }
    try {
      onJoined(await joinByName(values.name.trim()));
    } catch (error) {
      // §5: the server message is shown on the field (§8: and as a toast).
      if (isApiError(error) && error.kind === 'client') {
        form.setFieldError('name', localizedError(error));
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
  const config = useConfig();
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
          {config.realAuthNeedOCR ? <OcrRealNameForm onDone={onUserChange} /> : <RealNameForm onDone={onUserChange} />}
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
