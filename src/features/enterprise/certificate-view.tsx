import type { ReactNode } from 'react';
import { ActionIcon, Anchor, Badge, Button, CopyButton, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { CertificateDto } from '../../../core/enterprise-keys.ts';
import { CERTIFICATE_STATUS_COLORS, CERTIFICATE_STATUS_LABELS, REVOCATION_REASON_LABELS } from './key-labels.ts';
import { derOfPem, fileSafe, saveFile } from './enterprise-keys-api.ts';
import classes from './enterprise.module.css';

/** Label/value pairs that stack on phones (a `<dl>`). */
export function Fields({ rows, testId }: { rows: Array<[label: string, value: ReactNode] | null | false>; testId?: string }) {
  return (
    <dl className={classes.fields} data-testid={testId}>
      {rows.filter((r): r is [string, ReactNode] => Boolean(r)).map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Mono({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const { t } = useLingui();
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <span className={classes.mono} data-testid={testId}>
        {value}
      </span>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t`Copied` : t`Copy ${label}`} withArrow>
            <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={t`Copy ${label}`}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** Serial numbers read in pairs, as OpenSSL prints them. */
export function pairs(hex: string): string {
  return (hex.match(/.{1,2}/g) ?? []).join(':');
}

export function certificateDownloads(cert: CertificateDto, enterpriseName: string) {
  const base = `${fileSafe(enterpriseName)}-${cert.serial_number.slice(0, 12)}`;
  return {
    pem: () => saveFile(`${base}.pem`, cert.pem, 'application/x-pem-file'),
    der: () => saveFile(`${base}.cer`, derOfPem(cert.pem), 'application/pkix-cert'),
    chain: () => saveFile(`${base}-chain.pem`, cert.pem + cert.chain_pem, 'application/x-pem-file'),
  };
}

/** An enterprise certificate: every field a reader checks, downloads, and its ledger DNA. */
export function CertificateView({ cert, enterpriseName, isCompact = false }: { cert: CertificateDto; enterpriseName: string; isCompact?: boolean }) {
  const { t, i18n } = useLingui();
  const when = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'short' });
  const downloads = certificateDownloads(cert, enterpriseName);
  const status = (
    <Badge color={CERTIFICATE_STATUS_COLORS[cert.status]} variant="light" data-testid="certificate-status" data-status={cert.status}>
      {i18n._(CERTIFICATE_STATUS_LABELS[cert.status]!)}
    </Badge>
  );
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid={`certificate-${cert.serial_number}`}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Title order={3} size="h4">
              <Trans>Enterprise certificate</Trans>
            </Title>
            {status}
          </Group>
          {isCompact && (
            <Anchor component={Link} href={`/dashboard/company/certificate/${cert.certificate_id}/${cert.serial_number}`} size="sm" data-testid="certificate-detail-link">
              <Trans>Certificate details</Trans>
            </Anchor>
          )}
        </Group>
        <Fields
          testId="certificate-fields"
          rows={[
            [t`Subject`, <span data-testid="certificate-subject">{cert.subject_text}</span>],
            [t`Issuer`, cert.issuer_text],
            [t`Serial number`, <Mono value={pairs(cert.serial_number)} label={t`Serial number`} testId="certificate-serial" />],
            [t`Valid from`, when(cert.not_before)],
            [t`Valid until`, when(cert.not_after)],
            [t`SHA-256 fingerprint`, <Mono value={cert.fingerprint} label={t`SHA-256 fingerprint`} testId="certificate-fingerprint" />],
            !isCompact && [t`Key usage`, cert.key_usage.join(', ')],
            !isCompact && [t`Public key`, cert.public_key],
            !isCompact && [t`Signature algorithm`, cert.signature_algorithm],
            [
              t`Ledger DNA`,
              <Anchor component={Link} href={`/explorer/entries/${cert.dna}`} ff="monospace" size="sm" data-testid="certificate-dna">
                {cert.dna}
              </Anchor>,
            ],
            cert.revoked_at !== null && [t({ message: 'Revoked', context: 'certificate' }), `${when(cert.revoked_at)} · ${i18n._(REVOCATION_REASON_LABELS[cert.revocation_reason ?? 0] ?? REVOCATION_REASON_LABELS[0]!)}`],
          ]}
        />
        <Group gap="xs">
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={downloads.pem} data-testid="download-certificate-pem">
            <Trans>Certificate (PEM)</Trans>
          </Button>
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={downloads.der} data-testid="download-certificate-der">
            <Trans>Certificate (DER)</Trans>
          </Button>
          <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} onClick={downloads.chain}>
            <Trans>With the CA chain (PEM)</Trans>
          </Button>
        </Group>
        {!isCompact && (
          <Text size="xs" c="dimmed">
            <Trans>
              The certificate's SHA-256 is registered on the ledger under its DNA, so anyone can check when the platform issued it. The chain ends in the Provena platform root, whose fingerprint is published with the ledger's platform keys.
            </Trans>
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
