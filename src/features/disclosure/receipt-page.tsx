import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Box, Button, Card, Checkbox, Container, Group, Loader, Progress, Stack, Stepper, Text, ThemeIcon, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconFileDownload, IconLinkOff, IconShieldCheck } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { describeError } from '@/api/error-messages.ts';
import { isApiError } from '@/api/client.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import { formatBytes } from '@/components/progress/format.ts';
import { SMS_CODE_LENGTH, DOWNLOAD_POLL_MS } from '../../../core/constants.ts';
import { isDisclosureDead } from '../../../core/disclosure.ts';
import { acceptProtocol, checkIdentify, fetchDisclosure, fetchFileLink, sendReceiverCode, type DisclosureDetail } from './disclosure-api.ts';

/** §2/§9: a dead or unknown link — "link expired, please contact the other party to regenerate". */
function ExpiredResult() {
  return (
    <Stack align="center" gap="sm" py="xl" data-testid="receipt-expired">
      <Text fz={64} fw={800} c="gray.4" lh={1}>
        404
      </Text>
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        <IconLinkOff size={30} />
      </ThemeIcon>
      <Title order={3} ta="center">
        <Trans>This link has expired</Trans>
      </Title>
      <Text c="dimmed" ta="center" maw={420}>
        <Trans>Please contact the other party to regenerate the link.</Trans>
      </Text>
    </Stack>
  );
}

type Step = 1 | 2 | 3;

/** Step 1: the phone on record (last 4 digits only), a code sent to it, verify enabled at exactly 6 characters. */
function VerifyStep({ detail, onVerified, isMobile }: { detail: DisclosureDetail; onVerified: () => void; isMobile: boolean }) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const onVerify = async () => {
    setIsBusy(true);
    setError(null);
    try {
      await checkIdentify(detail.disclosure_id, code);
      onVerified();
    } catch (e) {
      // §8: code errors go on the validation_code field (the mobile layout words it as a sentence).
      const text = describeError(e, i18n);
      setError(isMobile && isApiError(e) && e.fieldName === 'validation_code' ? t`Verification failed: ${text}` : text);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Stack gap="md">
      <Text>
        <Trans>
          {detail.enterprise_name} has sent you a file. To receive it, verify the phone number it was sent to.
        </Trans>
      </Text>
      <Box>
        <Text size="sm" c="dimmed">
          <Trans>Phone number on record</Trans>
        </Text>
        <Text fz="xl" fw={600} ff="monospace" data-testid="receipt-phone">
          {detail.received_phone}
        </Text>
      </Box>
      <SmsCodeInput
        value={code}
        onChange={(v) => {
          setCode(v);
          setError(null);
        }}
        error={error ?? undefined}
        onSend={async () => {
          await sendReceiverCode(detail.disclosure_id);
          return true;
        }}
        onSendError={(e) => setError(describeError(e, i18n))}
        sendTestId="receipt-send-code"
      />
      <Button size={isMobile ? 'md' : 'sm'} fullWidth={isMobile} disabled={code.length !== SMS_CODE_LENGTH} loading={isBusy} onClick={() => void onVerify()} data-testid="receipt-verify">
        <Trans>Verify and continue</Trans>
      </Button>
    </Stack>
  );
}

/** Step 2: the confidentiality agreement — three pledges and the legal warning; reject goes back to step 1. */
function AgreementStep({ detail, onAccepted, onRejected, isMobile }: { detail: DisclosureDetail; onAccepted: () => void; onRejected: () => void; isMobile: boolean }) {
  const { i18n } = useLingui();
  const [pledges, setPledges] = useState([false, false, false]);
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = (i: number) => setPledges((p) => p.map((v, j) => (j === i ? !v : v)));
  const onAccept = async () => {
    setIsBusy(true);
    setError(null);
    try {
      await acceptProtocol(detail.disclosure_id);
      onAccepted();
    } catch (e) {
      setError(describeError(e, i18n));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Stack gap="md">
      <Group gap="xs" wrap="nowrap">
        <ThemeIcon variant="light" radius="xl">
          <IconShieldCheck size={18} />
        </ThemeIcon>
        <Text fw={600}>
          <Trans>Confidentiality agreement</Trans>
        </Text>
      </Group>
      <Text size="sm">
        <Trans>
          Before receiving “{detail.name}” from {detail.enterprise_name}, you pledge to:
        </Trans>
      </Text>
      <Stack gap="sm" data-testid="pledges">
        <Checkbox checked={pledges[0]} onChange={() => toggle(0)} label={<Trans>Keep the file strictly confidential</Trans>} />
        <Checkbox checked={pledges[1]} onChange={() => toggle(1)} label={<Trans>Not disclose its content to anyone</Trans>} />
        <Checkbox checked={pledges[2]} onChange={() => toggle(2)} label={<Trans>Not reproduce it or create new works from it</Trans>} />
      </Stack>
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="legal-warning">
        <Trans>By receiving this file you bear legal responsibility for it. Your receipt — phone number, time, file fingerprint and this agreement — is recorded on the ledger as evidence.</Trans>
      </Alert>
      {error && (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
      <Group justify={isMobile ? 'stretch' : 'flex-end'} grow={isMobile}>
        <Button variant="default" onClick={onRejected} data-testid="receipt-reject">
          <Trans>Reject and go back</Trans>
        </Button>
        <Button disabled={!pledges.every(Boolean)} loading={isBusy} onClick={() => void onAccept()} data-testid="receipt-accept">
          <Trans>Accept and receive</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

/** Step 3: polls the download link every second (errors ignored, §7) and opens it in this window. */
function DownloadStep({ detail, onDead }: { detail: DisclosureDetail; onDead: () => void }) {
  const [link, setLink] = useState<string | null>(null);
  const hasOpened = useRef(false);
  useEffect(() => {
    if (link) return;
    let isLive = true;
    let timer = 0;
    const poll = async () => {
      try {
        const { file_link: fileLink } = await fetchFileLink(detail.disclosure_id);
        if (!isLive) return;
        if (fileLink) {
          setLink(fileLink);
          return;
        }
      } catch {
        // §7: polling errors are ignored — but a link that died meanwhile shows the expired result.
        const fresh = await fetchDisclosure(detail.disclosure_id).catch(() => null);
        if (isLive && fresh && isDisclosureDead(fresh.disclosure_status)) {
          onDead();
          return;
        }
      }
      if (isLive) timer = window.setTimeout(() => void poll(), DOWNLOAD_POLL_MS);
    };
    void poll();
    return () => {
      isLive = false;
      window.clearTimeout(timer);
    };
  }, [detail.disclosure_id, link, onDead]);

  useEffect(() => {
    if (link && !hasOpened.current) {
      hasOpened.current = true;
      window.location.assign(link);
    }
  }, [link]);

  return (
    <Stack gap="md" align="center" py="md" data-testid="receipt-downloading" data-link={link ?? ''}>
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconFileDownload size={30} />
      </ThemeIcon>
      <Group gap="xs">
        {!link && <Loader size="sm" />}
        <Title order={4}>{link ? <Trans>Your download has started</Trans> : <Trans>Downloading file…</Trans>}</Title>
      </Group>
      <Text size="sm" c="dimmed" ta="center">
        {detail.name} · {formatBytes(detail.size)}
      </Text>
      {link && (
        <Anchor size="sm" onClick={() => setLink(null)} component="button" type="button">
          <Trans>Download did not start? Get a new link</Trans>
        </Anchor>
      )}
      <Card withBorder radius="md" padding="md" bg="var(--mantine-color-blue-light)" w="100%">
        <Text size="sm" fw={600}>
          <Trans>Protect your own files with Provena</Trans>
        </Text>
        <Text size="sm" c="dimmed">
          <Trans>Register designs, code and data on a tamper-evident ledger, get proof certificates anyone can verify, and share files with receipts like this one.</Trans>
        </Text>
      </Card>
    </Stack>
  );
}

/** /disclosures/:disclosureId — receiving a disclosed file without an account (§2, §4, §6). */
export function ReceiptPage({ disclosureId }: { disclosureId: string }) {
  const { t } = useLingui();
  const isMobile = Boolean(useMediaQuery('(max-width: 48em)'));
  const [detail, setDetail] = useState<DisclosureDetail | null>(null);
  const [isDead, setIsDead] = useState(false);
  const [step, setStep] = useState<Step>(1);

  useEffect(() => {
    const controller = new AbortController();
    fetchDisclosure(disclosureId, controller.signal)
      .then((d) => {
        setDetail(d);
        if (isDisclosureDead(d.disclosure_status)) setIsDead(true);
        else setStep(d.step >= 3 ? 3 : d.step === 2 ? 2 : 1);
      })
      .catch((error: unknown) => {
        if ((error as Error)?.name !== 'AbortError') setIsDead(true);
      });
    return () => controller.abort();
  }, [disclosureId]);

  const onDead = useCallback(() => setIsDead(true), []);
  const labels = [t`Verify phone`, t`Confidentiality agreement`, t`Download`];
  let body: React.ReactNode = (
    <Group justify="center" py="xl">
      <Loader />
    </Group>
  );
  if (isDead) body = <ExpiredResult />;
  else if (detail && step === 1) body = <VerifyStep detail={detail} isMobile={isMobile} onVerified={() => setStep(2)} />;
  else if (detail && step === 2) body = <AgreementStep detail={detail} isMobile={isMobile} onAccepted={() => setStep(3)} onRejected={() => setStep(1)} />;
  else if (detail && step === 3) body = <DownloadStep detail={detail} onDead={onDead} />;

  const header = detail && !isDead && (
    <Stack gap={2}>
      <Title order={isMobile ? 3 : 2} style={{ overflowWrap: 'anywhere' }}>
        <Trans>Receive “{detail.name}”</Trans>
      </Title>
      <Text size="sm" c="dimmed">
        <Trans>From {detail.enterprise_name}</Trans>
      </Text>
    </Stack>
  );

  if (isMobile) {
    return (
      <Box px="md" py="lg" data-testid="receipt-page" data-layout="mobile" data-step={isDead ? 'expired' : step}>
        <Stack gap="md">
          {header}
          {!isDead && detail && (
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                {t`Step ${step} of 3`} · {labels[step - 1]}
              </Text>
              <Progress value={(step / 3) * 100} size="sm" />
            </Stack>
          )}
          {body}
        </Stack>
      </Box>
    );
  }
  return (
    <Container size={760} py={48} data-testid="receipt-page" data-layout="desktop" data-step={isDead ? 'expired' : step}>
      <Card withBorder radius="lg" padding="xl" shadow="sm">
        <Stack gap="xl">
          {header}
          {!isDead && detail && (
            <Stepper active={step - 1} size="sm" allowNextStepsSelect={false}>
              {labels.map((label) => (
                <Stepper.Step key={label} label={label} />
              ))}
            </Stepper>
          )}
          {body}
        </Stack>
      </Card>
    </Container>
  );
}
