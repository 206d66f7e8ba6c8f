import { useRef, useState } from 'react';
import { Alert, Anchor, Badge, Breadcrumbs, Button, FileInput, Group, Loader, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconCertificate, IconFileSearch, IconKey, IconLock } from '@tabler/icons-react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { notifyError } from '@/api/error-messages.ts';
import { keysWorker } from '../../../workers/keys/keys-service.ts';
import type { LocalCertificate, LocalItem, LocalKey, TrustMaterial } from '../../../workers/keys/keys.worker.ts';
import { Fields, Mono, pairs } from './certificate-view.tsx';
import { fetchCrl, fetchPkiCa, keyErrorText } from './enterprise-keys-api.ts';
import { REVOCATION_REASON_LABELS } from './key-labels.ts';

const CHAIN_PROBLEMS: Record<string, MessageDescriptor> = {
  no_issuer: msg`It was not issued under the Provena platform root`,
  expired: msg`It, or a certificate above it, is not valid at this time`,
  not_yet_valid: msg`It is not valid yet`,
  issuer_not_ca: msg`A certificate in its chain is not a certification authority`,
  unreadable: msg`A certificate in its chain could not be read`,
};

function CertificateCard({ item }: { item: LocalCertificate }) {
  const { t, i18n } = useLingui();
  const when = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'short' });
  const name = item.subject.find((a) => a.type === 'CN')?.value || item.subjectText;
  const validity = item.validity === 'valid' ? t`Valid now` : item.validity === 'expired' ? t`Expired` : t`Not valid yet`;
  const revocation = item.revocation;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="local-certificate">
      <Stack gap="sm">
        <Group gap="xs">
          <IconCertificate size={20} />
          <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
        </Group>
        <Group gap="xs">
          <Badge variant="light" color={item.validity === 'valid' ? 'green' : 'red'}>
            {validity}
          </Badge>
          {item.chain.isOk ? (
            <Badge variant="light" color="green" data-testid="local-chain" data-ok="true">
              {item.isPlatformRoot ? t`The Provena platform root` : t`Chains to the Provena platform root`}
            </Badge>
          ) : (
            <Badge variant="light" color="red" data-testid="local-chain" data-ok="false">
              {t`Does not chain to the platform root`}
            </Badge>
          )}
          {revocation.isChecked &&
            (revocation.isRevoked ? (
              <Badge variant="light" color="red" data-testid="local-revocation" data-revoked="true">
                {t({ message: 'Revoked', context: 'certificate' })}
              </Badge>
            ) : (
              <Badge variant="light" color="green" data-testid="local-revocation" data-revoked="false">
                {t`Not revoked`}
              </Badge>
            ))}
        </Group>
        {!item.chain.isOk && (
          <Text size="sm" c="red">
            {i18n._(CHAIN_PROBLEMS[item.chain.reason] ?? CHAIN_PROBLEMS.no_issuer!)}
          </Text>
        )}
        {revocation.isChecked && revocation.isRevoked && revocation.revokedAt !== null && (
          <Text size="sm" c="red">
            {t`The platform's revocation list names it: revoked ${when(revocation.revokedAt)} (${i18n._(REVOCATION_REASON_LABELS[revocation.reason ?? 0] ?? REVOCATION_REASON_LABELS[0]!)}).`}
          </Text>
        )}
        <Fields
          rows={[
            [t`Subject`, <span data-testid="local-subject">{item.subjectText}</span>],
            [t`Issuer`, item.issuerText],
            [t`Serial number`, <Mono value={pairs(item.serialNumber)} label={t`Serial number`} />],
            [t`Valid from`, when(item.notBefore)],
            [t`Valid until`, when(item.notAfter)],
            [t`SHA-256 fingerprint`, <Mono value={item.fingerprint} label={t`SHA-256 fingerprint`} />],
            [t`Key usage`, item.keyUsage.join(', ') || '—'],
            [t`Public key`, item.publicKey],
            [t`File`, item.source],
          ]}
        />
      </Stack>
    </Paper>
  );
}

function KeyCard({ item, certificates }: { item: LocalKey; certificates: LocalCertificate[] }) {
  const { t, i18n } = useLingui();
  const [passphrase, setPassphrase] = useState('');
  const [isChecking, setIsChecking] = useState(false);
  const [verdict, setVerdict] = useState<{ opens: boolean; matchingFingerprint: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onCheck = async () => {
    setIsChecking(true);
    setError(null);
    setVerdict(null);
    try {
      setVerdict(await keysWorker().tryPassphrase(item.pem, passphrase, certificates.map((c) => c.pem)));
    } catch (e) {
      setError(keyErrorText(e, i18n));
    } finally {
      setIsChecking(false);
    }
  };
  const match = verdict?.matchingFingerprint ? certificates.find((c) => c.fingerprint === verdict.matchingFingerprint) : undefined;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="local-key">
      <Stack gap="sm">
        <Group gap="xs">
          <IconKey size={20} />
          <Title order={3} size="h5">
            <Trans>Encrypted private key</Trans>
          </Title>
        </Group>
        <Fields
          rows={[
            [t`Protection`, t`Encrypted PKCS#8 · PBKDF2-HMAC-SHA256, ${i18n.number(item.iterations)} iterations · AES-256-CBC`],
            [t`File`, item.source],
          ]}
        />
        <Group align="flex-end" gap="xs">
          <PasswordInput
            label={t`Key passphrase`}
            value={passphrase}
            onChange={(e) => setPassphrase(e.currentTarget.value)}
            autoComplete="off"
            style={{ flex: '1 1 220px' }}
            data-testid="local-passphrase"
          />
          <Button onClick={() => void onCheck()} loading={isChecking} disabled={!passphrase} leftSection={<IconLock size={16} />} data-testid="local-try-passphrase">
            <Trans>Check the passphrase</Trans>
          </Button>
        </Group>
        {verdict && (
          <Alert color={verdict.opens ? 'green' : 'red'} data-testid="local-passphrase-verdict" data-opens={String(verdict.opens)}>
            <Stack gap={4}>
              <Text size="sm">{verdict.opens ? t`The passphrase opens this key.` : t`The passphrase does not open this key.`}</Text>
              {verdict.opens && certificates.length > 0 && (
                <Text size="sm">
                  {match ? t`It is the key of the certificate for ${match.subject.find((a) => a.type === 'CN')?.value ?? match.subjectText}.` : t`It is not the key of any certificate you chose.`}
                </Text>
              )}
            </Stack>
          </Alert>
        )}
        {error && <Alert color="red">{error}</Alert>}
      </Stack>
    </Paper>
  );
}

/** dashboard company/certificate/detail: a certificate or key file on this computer, read entirely in the keys worker. */
export function LocalCertificatePage() {
  const { t } = useLingui();
  const config = useConfig();
  const [files, setFiles] = useState<File[]>([]);
  const [items, setItems] = useState<LocalItem[] | null>(null);
  const [isReading, setIsReading] = useState(false);
  const [trustNote, setTrustNote] = useState<string | null>(null);
  const trust = useRef<TrustMaterial | null>(null);

  const onChoose = async (chosen: File[]) => {
    setFiles(chosen);
    setItems(null);
    if (chosen.length === 0) return;
    setIsReading(true);
    try {
      // Public material only: the platform's CA certificates (once) and its current revocation list. The chosen files stay here.
      if (!trust.current) {
        try {
          const ca = await fetchPkiCa();
          trust.current = { roots: ca.roots.map((r) => r.pem), issuingCas: ca.issuing_cas.map((c) => c.pem), crl: null };
        } catch {
          trust.current = null;
        }
      }
      const crl = trust.current ? await fetchCrl(config.api.base) : null;
      setTrustNote(!trust.current ? t`The platform's CA certificates could not be fetched; the chain was not checked.` : crl ? null : t`The revocation list could not be fetched; revocation was not checked.`);
      setItems(await keysWorker().inspectFiles(chosen, trust.current ? { ...trust.current, crl } : { roots: [], issuingCas: [], crl: null }));
    } catch (error) {
      notifyError(error);
    } finally {
      setIsReading(false);
    }
  };

  const certificates = (items ?? []).filter((i): i is LocalCertificate => i.kind === 'certificate');
  return (
    <Stack gap="md" maw={960}>
      <Breadcrumbs>
        <Anchor component={Link} href="/dashboard/company/identity" size="sm">
          {t`Digital identity`}
        </Anchor>
        <Text size="sm">{t`Check a local file`}</Text>
      </Breadcrumbs>
      <Title order={2} size="h3">
        <Trans>Check a certificate or key file</Trans>
      </Title>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            <Trans>Choose certificates (PEM, CRT, CER or DER) and encrypted keys (PEM). They are read in your browser and never sent anywhere; only the platform's public CA certificates and revocation list are fetched to check them against.</Trans>
          </Text>
          <FileInput
            multiple
            clearable
            label={t`Files`}
            placeholder={t`Choose certificate or key files`}
            leftSection={<IconFileSearch size={16} />}
            accept=".pem,.crt,.cer,.der,.key,.p8,.csr,application/x-pem-file,application/pkix-cert"
            value={files}
            onChange={(chosen) => void onChoose(chosen)}
            data-testid="local-files"
          />
          {isReading && (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                <Trans>Reading the files in your browser…</Trans>
              </Text>
            </Group>
          )}
          {trustNote && <Alert color="orange">{trustNote}</Alert>}
        </Stack>
      </Paper>
      {items?.length === 0 && <Alert color="gray">{t`Nothing to show.`}</Alert>}
      {items?.map((item, index) => {
        if (item.kind === 'certificate') return <CertificateCard key={index} item={item} />;
        if (item.kind === 'encrypted_key') return <KeyCard key={index} item={item} certificates={certificates} />;
        if (item.kind === 'plain_key')
          return (
            <Alert key={index} color="red" title={t`Unencrypted private key`} data-testid="local-plain-key">
              {t`${item.source} holds a private key without encryption: anyone who has the file can use the key. Keep keys only in encrypted form.`}
            </Alert>
          );
        if (item.kind === 'certificate_request')
          return (
            <Alert key={index} color="gray" title={t`Certificate request`}>
              {t`${item.source} is a certificate request (PKCS#10), not a certificate.`}
            </Alert>
          );
        return (
          <Alert key={index} color="red" title={item.source} data-testid="local-unreadable">
            {item.reason === 'too_large' ? t`The file is too large to be a certificate or key (at most 1 MB).` : item.reason === 'damaged' ? t`The file looks like a certificate or key but is damaged.` : t`This is not a certificate or key file this page can read.`}
          </Alert>
        );
      })}
    </Stack>
  );
}
