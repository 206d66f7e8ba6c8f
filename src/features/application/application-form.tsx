import { Button, Group, NumberInput, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { APPLICATION_DESCRIPTION_MAX, APPLICATION_NAME_MAX, INTERVAL_MAX_SECONDS, INTERVAL_MIN_SECONDS, isWebhookUrl } from '../../../core/applications.ts';
import type { ApplicationForm } from './application-api.ts';

export const EMPTY_FORM: ApplicationForm = { name: '', description: '', interval_seconds: 300, grace_seconds: 60, alarm_phones: [], webhook_urls: [] };

/** Create and edit: name (unique in the enterprise), description, expected interval and grace, alarm phones and webhooks. */
export function ApplicationFormFields({ initial, submitLabel, onSubmit, onCancel }: { initial: ApplicationForm; submitLabel: string; onSubmit: (form: ApplicationForm) => Promise<void>; onCancel?: () => void }) {
  const { t, i18n } = useLingui();
  const [isBusy, setIsBusy] = useState(false);
  const form = useForm<ApplicationForm>({
    initialValues: initial,
    validate: {
      name: (v) => (!v.trim() ? t`Enter a name` : v.trim().length > APPLICATION_NAME_MAX ? t`At most ${APPLICATION_NAME_MAX} characters` : null),
      description: (v) => (v.length > APPLICATION_DESCRIPTION_MAX ? t`At most ${APPLICATION_DESCRIPTION_MAX} characters` : null),
      interval_seconds: (v) => (!Number.isInteger(v) || v < INTERVAL_MIN_SECONDS || v > INTERVAL_MAX_SECONDS ? t`From 5 seconds to 30 days` : null),
      grace_seconds: (v) => (!Number.isInteger(v) || v < INTERVAL_MIN_SECONDS || v > INTERVAL_MAX_SECONDS ? t`From 5 seconds to 30 days` : null),
      alarm_phones: (v) => (v.every((p) => /^1\d{10}$/.test(p)) ? null : t`Enter 11-digit mobile numbers`),
      webhook_urls: (v) => (v.every((u) => isWebhookUrl(u)) ? null : t`Enter http:// or https:// addresses`),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setIsBusy(true);
    try {
      await onSubmit({ ...values, name: values.name.trim(), description: values.description.trim() });
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    } finally {
      setIsBusy(false);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="application-form">
      <Stack gap="sm">
        <TextInput label={t`Application name`} required maxLength={APPLICATION_NAME_MAX} data-testid="application-name-input" {...form.getInputProps('name')} />
        <Textarea label={t`Description`} autosize minRows={2} maxLength={APPLICATION_DESCRIPTION_MAX} {...form.getInputProps('description')} />
        <Group grow align="flex-end" wrap="wrap" gap="sm">
          <NumberInput
            label={t`Expected push interval (seconds)`}
            description={t`How often the application sends data or a heartbeat`}
            min={INTERVAL_MIN_SECONDS}
            max={INTERVAL_MAX_SECONDS}
            allowDecimal={false}
            data-testid="application-interval-input"
            style={{ minWidth: 200 }}
            {...form.getInputProps('interval_seconds')}
          />
          <NumberInput
            label={t`Grace period (seconds)`}
            description={t`Extra wait before "data interrupted"`}
            min={INTERVAL_MIN_SECONDS}
            max={INTERVAL_MAX_SECONDS}
            allowDecimal={false}
            data-testid="application-grace-input"
            style={{ minWidth: 200 }}
            {...form.getInputProps('grace_seconds')}
          />
        </Group>
        <TagsInput label={t`Alarm SMS recipients`} description={t`Mobile numbers; press Enter after each`} data-testid="application-phones-input" {...form.getInputProps('alarm_phones')} />
        <TagsInput label={t`Alarm webhooks`} description={t`Signed POSTs, retried with backoff; press Enter after each`} data-testid="application-webhooks-input" {...form.getInputProps('webhook_urls')} />
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              <Trans>Cancel</Trans>
            </Button>
          )}
          <Button type="submit" loading={isBusy} data-testid="application-submit">
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
