import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Select, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import { formatBytes } from '@/components/progress/format.ts';
import { checkPhone, checkSmsCode } from '../../../core/validation.ts';
import { ASSET_TYPE_IDS, EXPIRY_DAY_CHOICES, type DisclosureRecordDto, type StoredFileDto } from '../../../core/disclosure.ts';
import { createDisclosure, fetchDisclosableFiles, sendSenderCode } from './disclosure-api.ts';
import { ASSET_TYPE_LABELS } from './disclosure-labels.ts';

type Props = { opened: boolean; onClose: () => void; onCreated: (record: DisclosureRecordDto) => void };

const stripExtension = (name: string) => name.replace(/\.[^.]{1,16}$/, '');

/** New disclosure (§7 POST /disclosures): a registered and stored file, the receiver, and the sender's own SMS code. */
export function CreateDisclosureModal({ opened, onClose, onCreated }: Props) {
  const { t, i18n } = useLingui();
  const isMobile = useMediaQuery('(max-width: 48em)');
  const [files, setFiles] = useState<StoredFileDto[] | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { hash: '', name: '', received_phone: '', store_name: '', type: '8', store_forever: 'forever', expires_in_days: '7', validation_code: '' },
  });
  const { setValues, clearErrors } = form;

  useEffect(() => {
    if (!opened) return;
    clearErrors();
    const controller = new AbortController();
    fetchDisclosableFiles(controller.signal)
      .then((list) => {
        setFiles(list);
        if (list[0]) setValues({ hash: list[0].hash, name: stripExtension(list[0].name) });
      })
      .catch(() => setFiles([]));
    return () => controller.abort();
    // Only when the dialog opens.
  }, [opened]);

  const onPickFile = (hash: string | null) => {
    const file = files?.find((f) => f.hash === hash);
    form.setValues({ hash: hash ?? '', name: file ? stripExtension(file.name) : form.getValues().name });
  };

  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(
      form,
      {
        hash: values.hash ? null : { message: msg`Choose a stored file` },
        name: values.name.trim() ? null : 'required',
        received_phone: checkPhone(values.received_phone.trim()),
        store_name: values.store_name.trim() ? null : 'required',
        validation_code: checkSmsCode(values.validation_code),
      },
      i18n,
    );
    if (!isValid) return;
    setIsBusy(true);
    try {
      const record = await createDisclosure({
        hash: values.hash,
        name: values.name.trim(),
        received_phone: values.received_phone.trim(),
        store_name: values.store_name.trim(),
        type: Number(values.type),
        validation_code: values.validation_code,
        store_forever: values.store_forever === 'forever',
        ...(values.store_forever === 'forever' ? {} : { expires_at: Date.now() + Number(values.expires_in_days) * 24 * 60 * 60 * 1000 }),
      });
      form.reset();
      onCreated(record);
    } catch (error) {
      applyServerErrors(form, error, { i18n, fieldAliases: { expires_at: 'expires_in_days' } });
    } finally {
      setIsBusy(false);
    }
  });

  const fileOptions = (files ?? []).map((f) => ({ value: f.hash, label: `${f.name} · ${formatBytes(f.size)}` }));
  return (
    <Modal opened={opened} onClose={onClose} title={t`New disclosure`} size="lg" fullScreen={Boolean(isMobile)}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {files && files.length === 0 && (
            <Alert color="yellow" variant="light" data-testid="no-stored-files">
              <Trans>No file can be disclosed yet. Only files registered in your company and stored (encrypted) on the platform can be disclosed: store one first.</Trans>
            </Alert>
          )}
          <Select
            label={t`File`}
            required
            data={fileOptions}
            value={form.getValues().hash || null}
            onChange={onPickFile}
            // Choosing the chosen file again keeps it (Mantine would deselect it and empty the field).
            allowDeselect={false}
            error={form.errors.hash}
            placeholder={t`Choose a stored file`}
            searchable
            comboboxProps={{ withinPortal: true }}
            data-testid="disclosure-file"
          />
          <TextInput label={t`Name shown to the receiver`} required maxLength={100} {...form.getInputProps('name')} />
          <TextInput label={t`Receiver's phone number`} required inputMode="numeric" maxLength={11} {...form.getInputProps('received_phone')} />
          <Group grow align="flex-start" wrap={isMobile ? 'wrap' : 'nowrap'}>
            <TextInput label={t`Store name`} description={t`Where the receiver keeps it, e.g. a department or archive`} required maxLength={64} {...form.getInputProps('store_name')} />
            <Select
              label={t`Type`}
              required
              allowDeselect={false}
              data={ASSET_TYPE_IDS.map((id) => ({ value: String(id), label: i18n._(ASSET_TYPE_LABELS[id]!) }))}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('type')}
            />
          </Group>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              <Trans>Availability</Trans>
            </Text>
            <SegmentedControl
              data={[
                { value: 'forever', label: t`Keep forever` },
                { value: 'dated', label: t`Expires` },
              ]}
              {...form.getInputProps('store_forever')}
            />
            {form.getValues().store_forever === 'dated' && (
              <Select
                aria-label={t`Expires after`}
                allowDeselect={false}
                data={EXPIRY_DAY_CHOICES.map((d) => ({ value: String(d), label: t`After ${d} days` }))}
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('expires_in_days')}
                error={form.errors.expires_in_days ?? form.errors.expires_at}
              />
            )}
          </Stack>
          <SmsCodeInput
            label={t`Your SMS verification code`}
            value={form.getValues().validation_code}
            onChange={(v) => form.setFieldValue('validation_code', v)}
            error={form.errors.validation_code}
            onSend={async () => {
              await sendSenderCode();
              return true;
            }}
            onSendError={(error) => applyServerErrors(form, error, { i18n })}
            sendTestId="sender-send-code"
          />
          <Text size="xs" c="dimmed">
            <Trans>The code goes to your own phone and confirms that you disclose this file. The receiver then gets an SMS with the link.</Trans>
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={isBusy} disabled={files?.length === 0}>
              <Trans>Disclose</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
