import { useMemo, useState } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Alert, Button, Code, Group, Pagination, PasswordInput, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import qrcode from 'qrcode-generator';
import type { OperatorDto } from '../../../core/api-types.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { isApiError } from '@/api/client.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { EnterpriseCard } from './enterprise-card.tsx';
import { fetchOperatorAudit, operatorLogin } from './enterprise-api.ts';

/** The otpauth URI as a QR code, drawn as SVG rectangles (no inline script or data URL). */
function QrCode({ text, size = 200 }: { text: string; size?: number }) {
  const { cells, count } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    const n = qr.getModuleCount();
    const dark: Array<[number, number]> = [];
    for (let r = 0; r < n; r += 1) for (let c = 0; c < n; c += 1) if (qr.isDark(r, c)) dark.push([r, c]);
    return { cells: dark, count: n };
  }, [text]);
  const margin = 4;
  const total = count + margin * 2;
  return (
    <svg width={size} height={size} viewBox={`0 0 ${total} ${total}`} role="img" data-testid="operator-totp-qr" shapeRendering="crispEdges">
      <rect width={total} height={total} fill="#fff" />
      {cells.map(([r, c]) => (
        <rect key={`${r}-${c}`} x={c + margin} y={r + margin} width={1} height={1} fill="#000" />
      ))}
    </svg>
  );
}

type Stage = { kind: 'password' } | { kind: 'enroll'; secret: string; uri: string } | { kind: 'code' } | { kind: 'recovery'; operator: OperatorDto; codes: string[] };

/**
 * Console login: password, then the authenticator. At first login the operator scans a
 * QR code (or types the secret) into an authenticator app, confirms with a code, and is
 * shown ten recovery codes once; afterwards every login asks for a code.
 */
export function OperatorLogin({ onLogin }: { onLogin: (op: OperatorDto) => void }) {
  const { t, i18n } = useLingui();
  const [stage, setStage] = useState<Stage>({ kind: 'password' });
  const [isRecovery, setIsRecovery] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: { login_id: '', password: '', totp_code: '', recovery_code: '' } });

  const onSubmit = form.onSubmit(async (values) => {
    const second = stage.kind === 'password' ? {} : isRecovery ? { recovery_code: values.recovery_code.trim() } : { totp_code: values.totp_code.trim() };
    try {
      const result = await operatorLogin({ login_id: values.login_id.trim(), password: values.password, ...second });
      if ('enroll' in result) {
        setStage({ kind: 'enroll', ...result.enroll });
        return;
      }
      if (result.recovery_codes) {
        setStage({ kind: 'recovery', operator: result, codes: result.recovery_codes });
        return;
      }
      onLogin(result);
    } catch (error) {
      if (isApiError(error) && error.key === 'totp_required') {
        setStage({ kind: 'code' });
        return;
      }
      applyServerErrors(form, error, { i18n });
    }
  });

  if (stage.kind === 'recovery') {
    return (
      <EnterpriseCard title={t`Recovery codes`} subtitle={t`Keep these codes somewhere safe. Each one opens the console once if you lose your authenticator; they are not shown again.`} width={480}>
        <Stack gap="md">
          <SimpleGrid cols={2} spacing="xs" data-testid="operator-recovery-codes">
            {stage.codes.map((c) => (
              <Code key={c} fz="sm">
                {c}
              </Code>
            ))}
          </SimpleGrid>
          <Button onClick={() => onLogin(stage.operator)} data-testid="operator-recovery-done">
            <Trans>I have saved them</Trans>
          </Button>
        </Stack>
      </EnterpriseCard>
    );
  }

  const codeField = isRecovery ? (
    <TextInput key="recovery" label={t`Recovery code`} autoComplete="off" data-testid="operator-recovery-input" {...form.getInputProps('recovery_code')} />
  ) : (
    <TextInput key="totp" label={t`Authenticator code`} inputMode="numeric" autoComplete="one-time-code" maxLength={6} data-testid="operator-totp-input" {...form.getInputProps('totp_code')} />
  );
  const secondValue = isRecovery ? form.values.recovery_code : form.values.totp_code;

  return (
    <EnterpriseCard title={t`Operator console`} subtitle={t`For platform operators only.`} width={stage.kind === 'enroll' ? 520 : 440}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {stage.kind === 'password' && (
            <>
              <TextInput label={t`Operator account`} autoComplete="username" {...form.getInputProps('login_id')} />
              <PasswordInput label={t`Password`} autoComplete="current-password" {...form.getInputProps('password')} />
            </>
          )}
          {stage.kind === 'enroll' && (
            <>
              <Alert color="blue" title={t`Set up your authenticator`}>
                <Trans>Every operator logs in with a second factor. Scan this code with an authenticator app (or enter the key by hand), then type the 6-digit code it shows.</Trans>
              </Alert>
              <Group justify="center">
                <QrCode text={stage.uri} />
              </Group>
              <Text size="sm" ta="center">
                <Trans>Key:</Trans>{' '}
                <Code data-testid="operator-totp-secret" style={{ wordBreak: 'break-all' }}>
                  {stage.secret}
                </Code>
              </Text>
              {codeField}
            </>
          )}
          {stage.kind === 'code' && (
            <>
              {codeField}
              <Button variant="subtle" size="xs" onClick={() => setIsRecovery((v) => !v)} data-testid="operator-use-recovery">
                {isRecovery ? t`Use the authenticator code` : t`Use a recovery code`}
              </Button>
            </>
          )}
          <Button type="submit" loading={form.submitting} disabled={!form.values.login_id || !form.values.password || (stage.kind !== 'password' && !secondValue.trim())}>
            {stage.kind === 'enroll' ? t`Confirm and log in` : t`Log in`}
          </Button>
        </Stack>
      </form>
    </EnterpriseCard>
  );
}

const AUDIT_ACTIONS: Record<string, MessageDescriptor> = {
  login: msg`Logged in`,
  login_failed: msg`Failed login`,
  logout: msg`Logged out`,
  totp_enrolled: msg`Authenticator enrolled`,
  recovery_code_used: msg`Recovery code used`,
  application_approved: msg`Application approved`,
  application_rejected: msg`Application rejected`,
  credit_order_confirmed: msg`Top-up order confirmed`,
  credit_order_rejected: msg`Top-up order rejected`,
  key_custody_completed: msg`Key custody cancellation completed`,
  key_custody_rejected: msg`Key custody cancellation rejected`,
  partner_contracts_exported: msg`Partner applications exported`,
};

const AUDIT_PAGE_SIZE = 50;

/** The append-only log of what operators did, newest first. */
export function OperatorAudit() {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const { data } = useLoaded(() => fetchOperatorAudit(page, AUDIT_PAGE_SIZE), [page]);
  const pages = data ? Math.max(1, Math.ceil(data.total / AUDIT_PAGE_SIZE)) : 1;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        <Trans>Every console login and decision is recorded here and cannot be changed or deleted.</Trans>
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="operator-audit">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Time`}</Table.Th>
              <Table.Th>{t`Operator`}</Table.Th>
              <Table.Th>{t`Action`}</Table.Th>
              <Table.Th>{t`Record`}</Table.Th>
              <Table.Th>{t`Address`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.items ?? []).map((e) => {
              const label = AUDIT_ACTIONS[e.action];
              const reason = e.action !== 'login_failed' && typeof e.detail.reason === 'string' ? e.detail.reason : '';
              return (
                <Table.Tr key={e.id} data-testid={`operator-audit-${e.id}`} data-action={e.action}>
                  <Table.Td>{new Date(e.created_at).toLocaleString(i18n.locale)}</Table.Td>
                  <Table.Td>{e.login_id}</Table.Td>
                  <Table.Td>{label ? i18n._(label) : e.action}</Table.Td>
                  <Table.Td>
                    {e.target}
                    {reason ? ` — ${reason}` : ''}
                  </Table.Td>
                  <Table.Td>{e.ip}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && data.items.length === 0 && <Text c="dimmed">{t`Nothing recorded yet.`}</Text>}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
