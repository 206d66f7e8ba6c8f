import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Checkbox, Divider, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { APPLICATION_STATUS, CHANNELS, checkEnterpriseName, checkLicenseNo } from '../../../core/enterprise.ts';
import { checkRealName } from '../../../core/identity.ts';
import { maskLicense, maskPhone } from '../../../core/masking.ts';
import { checkSmsCode } from '../../../core/validation.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { describeError } from '@/api/error-messages.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { EnterpriseCard } from './enterprise-card.tsx';
import { FileSlot } from './file-slot.tsx';
import { applicationFormUrl, createByLegalPerson, createByTable, isApiError, ocrLicence, recommitByTable, sendLegalPersonCode } from './enterprise-api.ts';
import { useCompany } from './use-company.ts';
import { localizedError } from '@/components/localized.ts';

const IMAGE_ACCEPT = 'image/jpeg,image/png,image/bmp,image/gif';
const FORM_ACCEPT = `${IMAGE_ACCEPT},application/pdf`;

/** §2 create company: licence upload read by OCR (or typed), then channel 1 (legal person) or channel 2 (application form). */
export function AddCompanyPage({ user, defaultPath }: { user: UserDto; defaultPath: string }) {
  const { t, i18n } = useLingui();
  const isNarrow = useMediaQuery('(max-width: 36em)') ?? false;
  const [, navigate] = useLocation();
  const { company, setCompany } = useCompany(user.id);
  const [ocrState, setOcrState] = useState<'none' | 'recognised' | 'manual'>('none');
  const [ocrMessage, setOcrMessage] = useState('');
  const [mustUploadLicence, setMustUploadLicence] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { license_image_id: '', name: '', license: '', legal_person: '', agree: false, validation_code: '', apply_book_id: '', organization_code_certificate_id: '' },
  });
  const v = form.values;
  // §4: the licence sets the channel: 1 for the legal person, else 2.
  const channel = v.legal_person.trim() && v.legal_person.trim() === user.real_name ? CHANNELS.legalPerson : CHANNELS.agent;
  if (company === undefined) return <PageLoader />;
  const isRecommit = company?.application?.status === APPLICATION_STATUS.rejected;

  const onLicence = async (id: string) => {
    form.setFieldValue('license_image_id', id);
    setMustUploadLicence(false);
    try {
      const r = await ocrLicence(id);
      form.setValues({ name: r.name, license: r.license, legal_person: r.legal_person });
      setOcrState('recognised');
    } catch (error) {
      // §8: OCR errors show as an alert above the upload; the fields are then typed.
      setOcrMessage(isApiError(error) ? describeError(error) : t`Upload failed`);
      setOcrState('manual');
    }
  };

  const onSubmit = form.onSubmit(async (values) => {
    if (!values.license_image_id) {
      setMustUploadLicence(true);
      return;
    }
    const isValid = applyRuleVerdicts(
      form,
      {
        name: checkEnterpriseName(values.name),
        license: checkLicenseNo(values.license),
        legal_person: checkRealName(values.legal_person),
        validation_code: channel === CHANNELS.legalPerson ? checkSmsCode(values.validation_code) : null,
      },
      i18n,
    );
    if (!isValid) return;
    const licence = { name: values.name.trim(), license: values.license.trim().toUpperCase(), legal_person: values.legal_person.trim(), license_image_id: values.license_image_id };
    try {
      if (channel === CHANNELS.legalPerson) {
        setCompany(await createByLegalPerson({ ...licence, validation_code: values.validation_code }));
        navigate('/dashboard/company');
      } else {
        const files = { apply_book_id: values.apply_book_id, organization_code_certificate_id: values.organization_code_certificate_id || null };
        setCompany(await (isRecommit ? recommitByTable : createByTable)({ ...licence, ...files }));
        notifications.show({ color: 'green', message: isRecommit ? t`Application resubmitted. The platform reviews it again.` : t`Application submitted. The platform reviews it.` });
        navigate('/in-review');
      }
    } catch (error) {
      applyServerErrors(form, error, { i18n, fieldAliases: { license_image_id: 'license_image_id' } });
    }
  });

  const hasFields = ocrState !== 'none';
  const maskedPhone = maskPhone(user.phonenumber);
  const legalName = v.legal_person.trim() || '-';
  const companyName = v.name.trim() || '-';
  const isSubmitEnabled = channel === CHANNELS.legalPerson ? v.agree && v.validation_code !== '' : v.apply_book_id !== '';
  return (
    <EnterpriseCard title={t`Create a company`} subtitle={t`Authenticate your enterprise with its business licence.`} width={680}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {ocrState === 'manual' && (
            <Alert color="orange" icon={<IconInfoCircle size={18} />} data-testid="ocr-alert">
              {ocrMessage}
            </Alert>
          )}
          <FileSlot label={t`Business licence (JPEG, PNG, BMP or GIF, under 3 MB)`} accept={IMAGE_ACCEPT} testId="licence-file" onUploaded={(id) => void onLicence(id)} />
          {mustUploadLicence && (
            <Text c="red" size="sm" role="alert">
              <Trans>Please upload the business licence first</Trans>
            </Text>
          )}
          {hasFields && (
            <>
              <TextInput label={t`Company name`} readOnly={ocrState === 'recognised'} {...form.getInputProps('name')} />
              {ocrState === 'recognised' ? (
                <TextInput label={t`Licence number`} readOnly value={maskLicense(v.license)} />
              ) : (
                <TextInput label={t`Licence number`} placeholder={t`18-character unified social credit code`} {...form.getInputProps('license')} />
              )}
              <TextInput label={t`Legal representative`} readOnly={ocrState === 'recognised'} {...form.getInputProps('legal_person')} />
              <Divider />
              <Group gap="sm">
                <Text fw={600}>
                  <Trans>Review channel</Trans>
                </Text>
                {/* Both labels side by side do not fit a phone in English or Japanese: stacked there. */}
                <SegmentedControl
                  data-testid="review-channel"
                  orientation={isNarrow ? 'vertical' : 'horizontal'}
                  fullWidth={isNarrow}
                  value={String(channel)}
                  data={[
                    { value: '1', label: t`Legal person (fast online review)`, disabled: channel !== CHANNELS.legalPerson },
                    { value: '2', label: t`Other review (application form)`, disabled: channel !== CHANNELS.agent },
                  ]}
                />
              </Group>
              {channel === CHANNELS.legalPerson ? (
                <Stack gap="sm" data-testid="channel-1">
                  <SmsCodeInput
                    value={v.validation_code}
                    onChange={(value) => form.setFieldValue('validation_code', value)}
                    error={form.errors.validation_code}
                    label={t`SMS code sent to ${maskedPhone}`}
                    onSend={async () => {
                      await sendLegalPersonCode();
                      return true;
                    }}
                    onSendError={(error) => form.setFieldError('validation_code', localizedError(error))}
                    sendTestId="send-legal-code"
                  />
                  <Checkbox
                    {...form.getInputProps('agree', { type: 'checkbox' })}
                    label={
                      <Trans>
                        I have read and agree to the{' '}
                        <Anchor component={Link} href={`/company-auth-protocol/${encodeURIComponent(legalName)}/${encodeURIComponent(companyName)}`} target="_blank">
                          enterprise authorisation agreement
                        </Anchor>
                      </Trans>
                    }
                  />
                </Stack>
              ) : (
                <Stack gap="sm" data-testid="channel-2">
                  {isRecommit && company?.application && (
                    <Alert color="red" title={t`The platform rejected the previous application`}>
                      {company.application.reason}
                    </Alert>
                  )}
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Badge variant="light">1</Badge>
                    <Text size="sm">
                      <Trans>Download and print the application form, fill it in, sign and stamp it.</Trans>
                    </Text>
                  </Group>
                  <Button component="a" href={applicationFormUrl(v.name, v.license)} variant="light" leftSection={<IconDownload size={16} />} w="fit-content" download>
                    <Trans>Download the application form</Trans>
                  </Button>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Badge variant="light">2</Badge>
                    <Text size="sm">
                      <Trans>Upload the signed form, and the organisation code certificate if you have one.</Trans>
                    </Text>
                  </Group>
                  <FileSlot label={t`Signed application form`} accept={FORM_ACCEPT} testId="apply-book-file" onUploaded={(id) => form.setFieldValue('apply_book_id', id)} />
                  <FileSlot label={t`Organisation code certificate (optional)`} accept={FORM_ACCEPT} testId="org-cert-file" onUploaded={(id) => form.setFieldValue('organization_code_certificate_id', id)} />
                  {form.errors.apply_book_id && (
                    <Text size="sm" c="red">
                      {form.errors.apply_book_id}
                    </Text>
                  )}
                </Stack>
              )}
              <Button type="submit" loading={form.submitting} disabled={!isSubmitEnabled}>
                {isRecommit && channel === CHANNELS.agent ? <Trans>Recommit</Trans> : <Trans>Authenticate</Trans>}
              </Button>
            </>
          )}
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={() => navigate(company?.name ? defaultPath : '/real-auth')}>
              <Trans>Back</Trans>
            </Anchor>
          </Group>
        </Stack>
      </form>
    </EnterpriseCard>
  );
}
