import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Anchor, Button, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconExternalLink, IconShieldCheck } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { DetailHeading, DetailTrail, NotFoundPanel } from '@/components/detail-page.tsx';
import { Copyable } from '@/components/copyable.tsx';
import { formatBytes } from '@/components/progress/format.ts';
import { ProofBadge, useProofPoll } from '@/components/proof-status.tsx';
import { StoreFileAction } from '@/components/store-file/store-file-action.tsx';
import type { AssetDto } from '../../../core/assets.ts';
import { downloadAssetProof, fetchAsset } from './asset-api.ts';
import { ASSET_LIST_PATH } from './asset-labels.ts';
import { formatTime, typeLabel } from './asset-parts.tsx';

function Field({ label, children, testId, span = 1 }: { label: string; children: ReactNode; testId?: string; span?: 1 | 2 }) {
  return (
    <Stack gap={2} style={{ minWidth: 0, gridColumn: span === 2 ? '1 / -1' : undefined }} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</div>
    </Stack>
  );
}

/** /dashboard/asset/detail/:asset_id — the asset (its id is its DNA), its proof as it is generated, and storing the file. */
export function AssetDetailPage({ dna }: { dna: string }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const [asset, setAsset] = useState<AssetDto | null>(null);
  const [isMissing, setIsMissing] = useState(false);
  const [isDownloading, setIsDownloading] = useState(false);

  const load = useCallback(
    (signal?: AbortSignal) =>
      fetchAsset(dna, signal)
        .then((a) => setAsset(a))
        .catch((error: unknown) => {
          if ((error as Error)?.name === 'AbortError') return;
          if (isApiError(error) && (error.key === 'not_found' || error.status === 403)) setIsMissing(true);
          else notifyError(error, i18n);
        }),
    [dna, i18n],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  useProofPoll(asset !== null && !asset.is_generated, () => void load());

  const trail = <DetailTrail steps={[{ label: <Trans>Digital assets</Trans>, href: ASSET_LIST_PATH }, asset && { label: asset.name }]} />;

  if (isMissing) {
    return (
      <NotFoundPanel trail={trail} testId="asset-missing" title={<Trans>Asset not found</Trans>} text={<Trans>This asset does not exist, or you may not see it.</Trans>}>
        {/* A DNA that is not an asset of this company (a certificate, a receipt, another company's file) may still be a public ledger entry. */}
        <Anchor component={Link} href={`/explorer/entries/${encodeURIComponent(dna)}`} size="sm" data-testid="asset-missing-explorer">
          <Trans>Look this DNA up in the block explorer</Trans>
        </Anchor>
      </NotFoundPanel>
    );
  }
  if (!asset) return <PageLoader />;

  const onDownload = async () => {
    setIsDownloading(true);
    try {
      await downloadAssetProof(config.api.base, asset);
    } catch (error) {
      notifyError(error, i18n);
    } finally {
      setIsDownloading(false);
    }
  };

  const height = asset.block_height;
  return (
    <Stack gap="lg" data-testid="asset-detail" data-dna={asset.dip_id}>
      <DetailHeading trail={trail} title={asset.name} titleTestId="asset-name" aside={<ProofBadge isGenerated={asset.is_generated} size="lg" />} />

      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
          <Field label={t`Digital asset DNA`}>
            <Copyable value={asset.dip_id} label={t`DNA`} testId="asset-dna" />
          </Field>
          <Field label={t`File fingerprint (SHA-256)`}>
            <Copyable value={asset.file_hash} label={t`fingerprint`} testId="asset-hash" isWrapped />
          </Field>
          <Field label={t`Type`} testId="asset-type">
            <Text size="sm">{typeLabel(asset.type, i18n)}</Text>
          </Field>
          <Field label={t`File size`}>
            <Text size="sm">{formatBytes(asset.size)}</Text>
          </Field>
          <Field label={t`Registrant`} testId="asset-registrant">
            <Text size="sm">{asset.registrant_name}</Text>
          </Field>
          <Field label={t`Registration time`} testId="asset-registered-at">
            <Text size="sm">{formatTime(asset.registered_at, i18n, 'medium')}</Text>
          </Field>
          <Field label={t`Description`} span={2}>
            <Text size="sm" c={asset.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }} data-testid="asset-description">
              {asset.description || t`No description`}
            </Text>
          </Field>
        </SimpleGrid>
      </Paper>

      <Card withBorder radius="md" padding="lg" data-testid="asset-proof">
        <Stack gap="md">
          <Group gap="xs">
            <IconShieldCheck size={20} />
            <Title order={2} size="h4">
              <Trans>Proof certificate</Trans>
            </Title>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
            <Field label={t`Proof status`}>
              <ProofBadge isGenerated={asset.is_generated} />
            </Field>
            <Field label={t`Valid until`}>
              <Text size="sm" data-testid="asset-expires">
                {asset.expired_at !== null ? formatTime(asset.expired_at, i18n) : t`Once generated`}
              </Text>
            </Field>
            <Field label={t`Block address`} span={2} testId="asset-block">
              {height !== null ? (
                <Stack gap={2}>
                  <Anchor component={Link} href={`/explorer/blocks/${height}`} size="sm" data-testid="asset-block-link">
                    {t`Block #${height}`}
                  </Anchor>
                  {asset.block_hash && (
                    <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {asset.block_hash}
                    </Text>
                  )}
                  <Anchor component={Link} href={`/explorer/entries/${asset.dip_id}`} size="xs" data-testid="asset-entry-link">
                    <Trans>Ledger entry in the block explorer</Trans>
                  </Anchor>
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  <Trans>Waiting for the next block</Trans>
                </Text>
              )}
            </Field>
          </SimpleGrid>
          <Group gap="sm" wrap="wrap">
            <Button leftSection={<IconDownload size={16} />} disabled={!asset.is_generated} loading={isDownloading} onClick={() => void onDownload()} data-testid="download-proof">
              <Trans>Download proof (PDF)</Trans>
            </Button>
            <Button variant="default" component="a" href="/verify-file" target="_blank" rel="noopener" leftSection={<IconExternalLink size={16} />}>
              <Trans>Verification centre</Trans>
            </Button>
          </Group>
          {!asset.is_generated && (
            <Text size="xs" c="dimmed">
              <Trans>The certificate is generated once the entry is sealed in a block; this page updates by itself.</Trans>
            </Text>
          )}
        </Stack>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Stack gap="xs">
          <Text fw={600}>
            <Trans>Store the file</Trans>
          </Text>
          <Text size="sm" c="dimmed">
            <Trans>Only the fingerprint was registered. Store the file itself on the platform (encrypted) to disclose it to someone outside the company later.</Trans>
          </Text>
          <StoreFileAction expectedIdentity={asset.file_hash} />
        </Stack>
      </Card>
    </Stack>
  );
}
