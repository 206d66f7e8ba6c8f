import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Divider, FileInput, Group, List, Paper, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleMinus, IconCircleX, IconFile, IconFileTypePdf, IconShieldCheck, IconShieldQuestion, IconShieldX } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Verdict } from '../../../core/ledger/package.ts';
import { ERROR_MESSAGES } from '@/api/error-messages.ts';
import { WorkProgress, type WorkProgressValue } from '@/components/progress/work-progress.tsx';
import { hashFile } from '../../../workers/hash/hash-service.ts';
import { holdVerifyWorker, sha256InVerifyWorker, verifyProofPdf } from '../../../workers/verify/verify-service.ts';
import { CHECK_LABELS } from './check-labels.ts';
import { fetchPlatformTrust } from './verify-api.ts';
import type { Trust } from '../../../workers/verify/verify.worker.ts';
import { StandardToolsExplainer } from './standard-tools.tsx';
import { checkDetail, nextStep } from './check-details.ts';

type Phase = { kind: 'idle' } | { kind: 'hashing'; progress: WorkProgressValue } | { kind: 'verifying' } | { kind: 'done'; verdict: Verdict & { ms: number } } | { kind: 'error'; text: string };

function formatTime(ms: number, locale: string): string {
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** §2 verification centre: original + PDF proof, every check in workers, no login, works offline once loaded. */
export function VerifyPage() {
  const { t, i18n } = useLingui();
  const [original, setOriginal] = useState<File | null>(null);
  const [proof, setProof] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  // The roots and keys of the platform serving this page (same origin), kept for offline
  // visits; a proof under any other root is "issued by another platform", never a success.
  const trust = useRef<Promise<Trust> | null>(null);
  const abort = useRef<AbortController | null>(null);
  const dna = new URLSearchParams(window.location.search).get('dna');

  useEffect(() => {
    const release = holdVerifyWorker();
    // Online: pin the platform's published keys and roots (kept for later offline visits).
    // Offline with nothing kept: verify anyway and say the key is not pinned.
    trust.current = fetchPlatformTrust().catch(() => ({}));
    return () => {
      abort.current?.abort();
      release();
    };
  }, []);

  const onVerify = async () => {
    if (!original || !proof) return;
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'hashing', progress: { bytes: 0, totalBytes: original.size, mbPerSecond: 0, secondsLeft: null } });
    try {
      // Online: the hash service (our WebAssembly in its workers). Offline, its workers may not
      // be loadable, so the verify worker, started with the page, hashes instead.
      const started = performance.now();
      const hash = navigator.onLine
        ? (await hashFile(original, { signal: controller.signal, onProgress: (progress) => setPhase({ kind: 'hashing', progress }) })).hash
        : await sha256InVerifyWorker(original, (bytes) => {
            const seconds = (performance.now() - started) / 1000;
            const mbPerSecond = seconds > 0 ? bytes / 1e6 / seconds : 0;
            setPhase({ kind: 'hashing', progress: { bytes, totalBytes: original.size, mbPerSecond, secondsLeft: mbPerSecond > 0 ? (original.size - bytes) / 1e6 / mbPerSecond : null } });
          });
      setPhase({ kind: 'verifying' });
      const pinned = await (trust.current ?? Promise.resolve<Trust>({}));
      const verdict = await verifyProofPdf(proof, hash, { trust: pinned, signal: controller.signal });
      setPhase({ kind: 'done', verdict });
    } catch (error) {
      if (controller.signal.aborted) setPhase({ kind: 'idle' });
      else setPhase({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  };

  const isBusy = phase.kind === 'hashing' || phase.kind === 'verifying';
  return (
    <Stack gap="lg" maw={880} mx="auto" py="lg" px="md">
      <div>
        <Title order={1} size="h2">
          <Trans>Verification centre</Trans>
        </Title>
        <Text c="dimmed" mt={4}>
          <Trans>Choose the original file and its PDF proof. Every check runs in your browser; neither file is uploaded.</Trans>
        </Text>
        {dna && (
          <Text size="sm" mt={4}>
            <Trans>Certificate for asset DNA {dna}</Trans>
          </Text>
        )}
      </div>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <FileInput label={t`Original file`} placeholder={t`Choose the original file`} leftSection={<IconFile size={16} />} value={original} onChange={setOriginal} clearable disabled={isBusy} data-testid="verify-original" />
          <FileInput label={t`PDF proof`} placeholder={t`Choose the PDF proof file`} accept="application/pdf,.pdf" leftSection={<IconFileTypePdf size={16} />} value={proof} onChange={setProof} clearable disabled={isBusy} data-testid="verify-proof" />
          <Group>
            <Button onClick={onVerify} disabled={!original || !proof || isBusy} loading={phase.kind === 'verifying'} leftSection={<IconShieldCheck size={18} />}>
              <Trans>Verify</Trans>
            </Button>
          </Group>
          {phase.kind === 'hashing' && <WorkProgress label={t`Hashing the original`} value={phase.progress} onCancel={() => abort.current?.abort()} />}
          {phase.kind === 'error' && (
            <Alert color="red" title={t`Verification failed`}>
              <Trans>This file did not pass verification and may have an authenticity risk.</Trans> {phase.text}
            </Alert>
          )}
        </Stack>
      </Paper>
      {phase.kind === 'done' && <VerdictView verdict={phase.verdict} locale={i18n.locale} />}
      <Divider />
      <StandardToolsExplainer />
    </Stack>
  );
}

function VerdictView({ verdict, locale }: { verdict: Verdict & { ms: number }; locale: string }) {
  const { t, i18n } = useLingui();
  const s = verdict.summary;
  const signingRoot = verdict.signer?.root_fingerprint ?? null;
  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      data-testid="verify-result"
      data-valid={verdict.isValid ? 'true' : 'false'}
      data-untrusted={verdict.isUntrusted ? 'true' : 'false'}
      data-failed-check={verdict.failedCheck}
      data-message={verdict.message}
      data-verify-ms={verdict.ms.toFixed(1)}
    >
      <Stack gap="md">
        {verdict.isValid && s ? (
          <>
            <Alert color="green" icon={<IconShieldCheck />} title={t`Verification passed`}>
              <Trans>The original file is registered on the ledger exactly as this proof states.</Trans>
            </Alert>
            <Table variant="vertical" layout="fixed" withTableBorder>
              <Table.Tbody>
                {[
                  [t`File hash`, s.file_hash],
                  [t`Asset DNA`, s.asset_dna],
                  [t`Registered at`, formatTime(s.registered_at, locale)],
                  [t`Block address`, `#${s.block_address.height} ${s.block_address.hash}`],
                  [t`Enterprise`, s.enterprise_name],
                  [t`Expires at`, formatTime(s.expired_at, locale)],
                ].map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w={140}>{label}</Table.Th>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Anchor href={`/explorer/entries/${s.asset_dna}`} size="sm">
              <Trans>See this entry in the block explorer</Trans>
            </Anchor>
          </>
        ) : verdict.isUntrusted ? (
          <Alert color="orange" icon={<IconShieldQuestion />} title={t`Issued by another platform: untrusted`} data-testid="verify-untrusted">
            <Trans>Every other check passed, but this proof was not signed under the root certificate of the platform serving this page. It may come from another platform, or be forged: it is not verified here.</Trans>
            {signingRoot && (
              <Text size="xs" mt={6} style={{ wordBreak: 'break-all' }} data-testid="verify-untrusted-root">
                <Trans>Signing root fingerprint (SHA-256): {signingRoot}</Trans>
              </Text>
            )}
          </Alert>
        ) : (
          <Alert color="red" icon={<IconShieldX />} title={t`Verification failed`} data-testid="verify-failure">
            {verdict.message ? i18n._(ERROR_MESSAGES[verdict.message]) : t`Proof verification failed`}
          </Alert>
        )}
        <List spacing={6} size="sm" center>
          {verdict.checks.map((c) => (
            <List.Item
              key={c.id}
              data-check={c.id}
              data-ok={c.isOk ? 'true' : 'false'}
              icon={
                <ThemeIcon size={20} radius="xl" color={c.isSkipped ? 'gray' : c.isOk ? 'green' : c.isUntrusted ? 'orange' : 'red'}>
                  {c.isSkipped ? <IconCircleMinus size={14} /> : c.isOk ? <IconCircleCheck size={14} /> : c.isUntrusted ? <IconShieldQuestion size={14} /> : <IconCircleX size={14} />}
                </ThemeIcon>
              }
            >
              <Text size="sm" fw={500} span>
                {i18n._(CHECK_LABELS[c.id])}
              </Text>
              {c.message && (
                <Text size="sm" c={c.isUntrusted ? 'orange' : 'red'} span>
                  {' — '}
                  {i18n._(ERROR_MESSAGES[c.message])}
                </Text>
              )}
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} data-testid="check-detail">
                {checkDetail(c, i18n)}
              </Text>
              {nextStep(c, i18n) && (
                <Text size="sm" mt={2} data-testid="check-next-step">
                  {nextStep(c, i18n)}
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}
