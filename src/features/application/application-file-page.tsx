import { useState } from 'react';
import { Button, Code, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { Copyable } from '@/components/copyable.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { DetailHeading, DetailTrail, NotFoundPanel } from '@/components/detail-page.tsx';
import { ProofBadge, useProofPoll } from '@/components/proof-status.tsx';
import { formatBytes } from '@/components/progress/format.ts';
import { downloadFileProof, fetchFile } from './application-api.ts';
import { Field } from './application-parts.tsx';
import { APPLICATION_LIST_PATH, applicationDetailPath, formatTime } from './application-labels.ts';

/** /dashboard/application/detail/file/:application_id/:file_id — one registered file (its id is its DNA) and its proof. */
export function ApplicationFilePage({ applicationId, fileId }: { applicationId: string; fileId: string }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const [isMissing, setIsMissing] = useState(false);
  const [isDownloading, setIsDownloading] = useState(false);
  const [version, setVersion] = useState(0);
  const { data: file } = useLoaded(
    (signal) => fetchFile(applicationId, fileId, signal),
    [applicationId, fileId, version],
    (error) => {
      if (isApiError(error) && (error.key === 'not_found' || error.status === 403 || error.key === 'invalid_param')) setIsMissing(true);
      else notifyError(error, i18n);
    },
  );
  useProofPoll(file !== null && !file.is_generated, () => setVersion((v) => v + 1));

  const trail = (
    <DetailTrail
      steps={[
        { label: <Trans>External applications</Trans>, href: APPLICATION_LIST_PATH },
        file && { label: file.application_name, href: applicationDetailPath(applicationId, 'data') },
        file && { label: file.name, maxWidth: 220 },
      ]}
    />
  );
  if (isMissing) {
    return (
      <NotFoundPanel
        trail={trail}
        testId="application-file-missing"
        title={<Trans>File not found</Trans>}
        text={<Trans>This file does not exist, or you may not see it.</Trans>}
      />
    );
  }
  if (!file) return <PageLoader />;
  const onDownload = async () => {
    setIsDownloading(true);
    try {
      await downloadFileProof(config.api.base, applicationId, file.dip_id);
    } catch (error) {
      notifyError(error, i18n);
    } finally {
      setIsDownloading(false);
    }
  };
  return (
    <Stack gap="lg" data-testid="application-file" data-dna={file.dip_id}>
      <DetailHeading trail={trail} title={file.name} aside={<ProofBadge isGenerated={file.is_generated} size="lg" />} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
          <Field label={t`Digital asset DNA`}>
            <Copyable value={file.dip_id} label={t`DNA`} testId="application-file-dna" />
          </Field>
          <Field label={t`File fingerprint (SHA-256)`}>
            <Copyable value={file.file_hash} label={t`fingerprint`} isWrapped />
          </Field>
          <Field label={t`File size`}>
            <Text size="sm">{formatBytes(file.size)}</Text>
          </Field>
          <Field label={t`Registration time`}>
            <Text size="sm">{formatTime(file.registered_at, i18n)}</Text>
          </Field>
          <Field label={t`Block height`}>
            <Text size="sm">{file.block_height ?? t`Waiting for the next block`}</Text>
          </Field>
          <Field label={t`Credits charged`}>
            <Text size="sm">{file.credits}</Text>
          </Field>
          {file.metadata && (
            <Field label={t`Metadata`}>
              <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {JSON.stringify(file.metadata, null, 2)}
              </Code>
            </Field>
          )}
        </SimpleGrid>
      </Paper>
      <Group gap="sm" wrap="wrap">
        <Button leftSection={<IconDownload size={16} />} disabled={!file.is_generated} loading={isDownloading} onClick={() => void onDownload()} data-testid="application-file-download">
          <Trans>Download the proof (PDF)</Trans>
        </Button>
        <Button variant="light" leftSection={<IconShieldCheck size={16} />} component={Link} href="/verify-file">
          <Trans>Verify a file and its proof</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
