import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, FileInput, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconCoins, IconFile } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { Link, useLocation } from 'wouter';
import { isApiError } from '@/api/client.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { describeError } from '@/api/error-messages.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { WorkProgress, type WorkProgressValue } from '@/components/progress/work-progress.tsx';
import { formatBytes } from '@/components/progress/format.ts';
import { hashFile } from '../../../workers/hash/hash-service.ts';
import { ASSET_DESCRIPTION_MAX, ASSET_TYPE_VALUES, checkAssetDescription, checkAssetName, checkAssetType, nameFromFileName } from '../../../core/assets.ts';
import { registerAsset } from './asset-api.ts';
import { useAssetPrice } from './use-asset-price.ts';
import { typeLabel } from './asset-parts.tsx';
import { assetDetailPath } from './asset-labels.ts';
import { localizedMessage } from '@/components/localized.ts';

type Values = { file: File | null; name: string; type: string | null; description: string };

/** The chosen file's fingerprint: worked out in a worker as soon as the file is chosen. */
type Fingerprint =
  | { kind: 'none' }
  | { kind: 'hashing'; progress: WorkProgressValue; done: Promise<string | null> }
  | { kind: 'ready'; identity: string }
  | { kind: 'failed' };

/**
 * Registering one file: the file is hashed in the browser while the user fills in name, type
 * and description (bytes, speed, time left, cancel); only its fingerprint and size are sent.
 */
export function AssetRegisterForm() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const { price: cost, available, reload: reloadCredits } = useAssetPrice();
  const form = useForm<Values>({ mode: 'controlled', initialValues: { file: null, name: '', type: null, description: '' } });
  const [fingerprint, setFingerprint] = useState<Fingerprint>({ kind: 'none' });
  const [isSending, setIsSending] = useState(false);
  const [isShort, setIsShort] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const autoName = useRef('');
  useEffect(() => () => abort.current?.abort(), []);

  function fingerprintOf(file: File) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const done = hashFile(file, {
      signal: controller.signal,
      onProgress: (progress) => setFingerprint((f) => (f.kind === 'hashing' && abort.current === controller ? { ...f, progress } : f)),
    }).then(
      (result) => {
        if (abort.current !== controller) return null;
        setFingerprint({ kind: 'ready', identity: result.identity });
        return result.identity;
      },
      (error: unknown) => {
        if (abort.current !== controller) return null;
        if ((error as Error)?.name === 'AbortError') {
          setFingerprint({ kind: 'none' });
          form.setFieldValue('file', null);
          notifications.show({ color: 'gray', message: t`Fingerprinting cancelled, nothing was registered` });
        } else {
          setFingerprint({ kind: 'failed' });
          form.setFieldError('file', localizedMessage(msg`The file could not be read`));
        }
        return null;
      },
    );
    setFingerprint({ kind: 'hashing', progress: { bytes: 0, totalBytes: file.size, mbPerSecond: 0, secondsLeft: null }, done });
  }

  const onFile = (file: File | null) => {
    form.setFieldValue('file', file);
    form.clearFieldError('file');
    setIsShort(false);
    if (!file) {
      abort.current?.abort();
      abort.current = null;
      setFingerprint({ kind: 'none' });
      return;
    }
    // The name follows the file until the user writes their own.
    const current = form.getValues().name.trim();
    if (!current || current === autoName.current) {
      autoName.current = nameFromFileName(file.name);
      form.setFieldValue('name', autoName.current);
      form.clearFieldError('name');
    }
    fingerprintOf(file);
  };

  const onSubmit = form.onSubmit(async (values) => {
    setIsShort(false);
    const isValid = applyRuleVerdicts(
      form,
      {
        file: values.file ? null : { message: msg`Please choose a file to register` },
        name: checkAssetName(values.name),
        type: checkAssetType(values.type === null ? null : Number(values.type)) ? { message: msg`Please choose the type of the asset` } : null,
        description: checkAssetDescription(values.description),
      },
      i18n,
    );
    if (!isValid || !values.file) return;
    const file = values.file;
    setIsSending(true);
    try {
      const identity = fingerprint.kind === 'ready' ? fingerprint.identity : fingerprint.kind === 'hashing' ? await fingerprint.done : null;
      if (!identity) {
        if (fingerprint.kind !== 'hashing') form.setFieldError('file', localizedMessage(msg`Please choose the file again`));
        return;
      }
      const asset = await registerAsset({ name: values.name.trim(), type: Number(values.type), description: values.description.trim(), file_hash: identity, size: file.size });
      notifications.show({ color: 'green', message: t`Registered. The proof certificate is being generated.` });
      navigate(assetDetailPath(asset.dip_id));
    } catch (error) {
      if (isApiError(error) && error.key === 'integrals_not_enough') {
        setIsShort(true);
        reloadCredits();
      } else applyServerErrors(form, error, { i18n, fieldAliases: { file_hash: 'file' } });
    } finally {
      setIsSending(false);
    }
  });

  const typeOptions = ASSET_TYPE_VALUES.map((v) => ({ value: String(v), label: typeLabel(v, i18n) }));
  const isHashing = fingerprint.kind === 'hashing';
  const description = form.values.description;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="form" onSubmit={onSubmit} noValidate data-testid="asset-register-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <Trans>The file is fingerprinted in your browser; only its fingerprint is sent. The file itself stays on your computer unless you choose to store it afterwards.</Trans>
        </Text>
        <FileInput
          label={t`File`}
          required
          placeholder={t`Choose a file`}
          leftSection={<IconFile size={16} />}
          clearable
          disabled={isSending}
          {...form.getInputProps('file')}
          onChange={onFile}
          data-testid="asset-file-input"
        />
        {fingerprint.kind === 'hashing' && <WorkProgress label={t`Fingerprinting ${form.values.file?.name ?? ''}`} value={fingerprint.progress} onCancel={() => abort.current?.abort()} />}
        {fingerprint.kind === 'ready' && form.values.file && (
          <Group gap={6} wrap="nowrap" align="flex-start" data-testid="asset-fingerprint" data-identity={fingerprint.identity}>
            <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" style={{ flexShrink: 0 }} />
            <Text size="xs" c="dimmed" ff="monospace" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {formatBytes(form.values.file.size)} · {fingerprint.identity}
            </Text>
          </Group>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label={t`Asset name`} required placeholder={t`How the asset is listed`} disabled={isSending} {...form.getInputProps('name')} data-testid="asset-name-input" />
          <Select label={t`Type`} required placeholder={t`Choose a type`} data={typeOptions} disabled={isSending} {...form.getInputProps('type')} data-testid="asset-type-input" />
        </SimpleGrid>
        <Textarea
          label={t`Description`}
          placeholder={t`What this asset is (optional)`}
          autosize
          minRows={2}
          maxRows={6}
          disabled={isSending}
          {...form.getInputProps('description')}
          description={t`${Array.from(description.trim()).length} / ${ASSET_DESCRIPTION_MAX}`}
          data-testid="asset-description-input"
        />
        {(isShort || (available !== null && available < cost)) && (
          <Alert color={isShort ? 'red' : 'orange'} variant="light" icon={<IconCoins size={18} />} data-testid={isShort ? 'asset-credits-error' : 'asset-credits-short'}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm">{describeError('integrals_not_enough', i18n)}</Text>
              <Anchor component={Link} href="/dashboard/credit" size="sm">
                <Trans>Top up credits</Trans>
              </Anchor>
            </Group>
          </Alert>
        )}
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap={6} wrap="nowrap">
            <IconCoins size={16} />
            <Text size="sm" data-testid="asset-price" data-price={cost}>
              {cost > 0 ? <Trans>Registering costs {cost} credits</Trans> : <Trans>Registering is free</Trans>}
              {available !== null && cost > 0 && <Text span size="sm" c="dimmed" data-testid="asset-available" data-value={available}>{` · ${t`available: ${i18n.number(available)}`}`}</Text>}
            </Text>
          </Group>
          <Button type="submit" loading={isSending} data-testid="asset-register-submit">
            {isHashing ? <Trans>Register when fingerprinted</Trans> : cost > 0 ? <Trans>Register ({cost} credits)</Trans> : <Trans context="register a file on the ledger">Register</Trans>}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
