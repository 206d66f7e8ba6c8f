import { useState } from 'react';
import { Alert, Button, Code, FileInput, Group, Loader, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDownload, IconSignature } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { WorkProgress } from '@/components/progress/work-progress.tsx';
import { useFileHash } from '@/components/progress/use-file-hash.ts';
import { keysWorker } from '../../../workers/keys/keys-service.ts';
import type { CertificateDto } from '../../../core/enterprise-keys.ts';
import { base64Of, fileSafe, keyErrorText, reportSignature, startKeyUsage } from './enterprise-keys-api.ts';
import { saveFile } from '@/api/download.ts';
import { Fields } from './certificate-view.tsx';
import { Copyable } from '@/components/copyable.tsx';
import { localized } from '@/components/localized.ts';

type Signed = { fileName: string; digest: string; signature: Uint8Array; certificate: CertificateDto };

/**
 * Signs a file with the custodied enterprise key: the hash worker streams the file to its
 * SHA-256; the platform logs the use (who, when, which hash) and hands over the encrypted
 * key; the keys worker opens it with the passphrase and signs the digest. The file never
 * leaves the browser; the result is a detached DER signature that
 * `openssl dgst -sha256 -verify` accepts with the certificate's key.
 */
export function SignFilePanel({ enterpriseName, onSigned }: { enterpriseName: string; onSigned: () => void }) {
  const { t, i18n } = useLingui();
  const form = useForm<{ file: File | null; passphrase: string }>({ mode: 'controlled', initialValues: { file: null, passphrase: '' } });
  const { progress, hash, cancel } = useFileHash(t`Cancelled, nothing was signed`);
  const [isSigning, setIsSigning] = useState(false);
  const [signed, setSigned] = useState<Signed | null>(null);

  const downloadSignature = (s: Signed) => saveFile(`${s.fileName}.sig`, s.signature.slice(), 'application/octet-stream');
  const downloadCertificate = (s: Signed) => saveFile(`${fileSafe(enterpriseName)}-${s.certificate.serial_number.slice(0, 12)}.pem`, s.certificate.pem, 'application/x-pem-file');

  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(form, { file: values.file ? null : { message: msg`Please choose a file to sign` }, passphrase: values.passphrase ? null : 'required' }, i18n);
    if (!isValid || !values.file) return;
    const file = values.file;
    setSigned(null);
    const hashed = await hash(file);
    if (!hashed) return;
    setIsSigning(true);
    try {
      const usage = await startKeyUsage({ file_hash: hashed.identity, file_name: file.name, file_size: file.size });
      let signature: Uint8Array;
      try {
        signature = await keysWorker().signDigest(usage.encrypted_private_key, values.passphrase, hashed.hash, usage.certificate.pem);
      } catch (error) {
        form.setFieldError('passphrase', localized((i18n) => keyErrorText(error, i18n)));
        return;
      }
      await reportSignature(usage.usage_id, base64Of(signature));
      const result = { fileName: file.name, digest: hashed.hash.replace(/^0x/, ''), signature, certificate: usage.certificate };
      setSigned(result);
      form.setFieldValue('passphrase', '');
      downloadSignature(result);
      onSigned();
    } catch (error) {
      applyServerErrors(form, error, { i18n, fieldAliases: { file_hash: 'file' } });
    } finally {
      setIsSigning(false);
    }
  });

  const isBusy = progress !== null || isSigning;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="form" onSubmit={onSubmit} noValidate data-testid="sign-form">
      <Stack gap="md">
        <Group gap="xs">
          <IconSignature size={20} />
          <Title order={3} size="h4">
            <Trans>Sign a file with the enterprise key</Trans>
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          <Trans>The file is fingerprinted in your browser and never uploaded. The platform records who used the key and for which fingerprint; the key is opened with the passphrase only in your browser.</Trans>
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <FileInput
            label={t`File`}
            required
            placeholder={t`Choose a file`}
            clearable
            disabled={isBusy}
            {...form.getInputProps('file')}
            data-testid="sign-file-input"
          />
          <PasswordInput label={t`Key passphrase`} required autoComplete="off" disabled={isBusy} {...form.getInputProps('passphrase')} data-testid="sign-passphrase" />
        </SimpleGrid>
        {progress && <WorkProgress label={t`Fingerprinting ${form.values.file?.name ?? ''}`} value={progress} onCancel={cancel} />}
        {isSigning && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              <Trans>Opening the key and signing…</Trans>
            </Text>
          </Group>
        )}
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconSignature size={16} />} loading={isSigning} disabled={progress !== null} data-testid="sign-submit">
            <Trans>Sign</Trans>
          </Button>
        </Group>
        {signed && (
          <Alert color="green" title={t`Signed`} data-testid="sign-result">
            <Stack gap="xs">
              <Fields
                rows={[
                  [t`File`, signed.fileName],
                  [t`SHA-256`, <Copyable value={signed.digest} label="SHA-256" testId="signed-digest" size="xs" isWrapped />],
                  [t`Signature (DER, base64)`, <Copyable value={base64Of(signed.signature)} label={t`Signature`} size="xs" isWrapped />],
                ]}
              />
              <Group gap="xs">
                <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => downloadSignature(signed)} data-testid="download-signature">
                  <Trans>Signature (.sig)</Trans>
                </Button>
                <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => downloadCertificate(signed)} data-testid="download-signer-certificate">
                  <Trans>Certificate (PEM)</Trans>
                </Button>
              </Group>
              <Text size="xs">
                <Trans>Anyone can check the signature with OpenSSL:</Trans>
              </Text>
              <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {`openssl x509 -in certificate.pem -pubkey -noout > key.pub\nopenssl dgst -sha256 -verify key.pub -signature "${signed.fileName}.sig" "${signed.fileName}"`}
              </Code>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
