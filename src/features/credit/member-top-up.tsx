import { useEffect, useState } from 'react';
import { Badge, Button, Card, Group, Modal, Pagination, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSearch } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useConfig } from '@/config/config-atom.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { notifyError } from '@/api/error-messages.ts';
import { EMPLOYEE_STATUS } from '../../../core/enterprise.ts';
import type { AllocationDirection, CreditMemberDto, CreditSummaryDto, Paged } from '../../../core/credits.ts';
import { allocateCredits, fetchCreditMembers } from './credit-api.ts';
import { amountProblem } from './credit-format.tsx';

type Target = { member: CreditMemberDto; direction: AllocationDirection };

function AllocationModal({ target, pool, onClose, onDone }: { target: Target | null; pool: number; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const isReclaim = target?.direction === 'reclaim';
  const name = target?.member.name ?? '';
  const form = useForm({
    mode: 'controlled',
    initialValues: { amount: '' },
    validate: {
      amount: (v) =>
        amountProblem(
          i18n,
          v,
          isReclaim
            ? { available: target?.member.available ?? 0, message: (n) => t`${name} has only ${n} credits` }
            : { available: pool, message: (n) => t`The pool has only ${n} credits; top it up first` },
        ),
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const onSubmit = form.onSubmit(async (values) => {
    if (!target) return;
    try {
      const result = await allocateCredits({ employee_id: target.member.employee_id, amount: Number(values.amount.trim()), direction: target.direction });
      const amount = i18n.number(Number(values.amount.trim()));
      const now = i18n.number(result.member_available);
      notifications.show({ color: 'green', message: isReclaim ? t`Took ${amount} credits back from ${name}; they now have ${now}.` : t`Gave ${name} ${amount} credits; they now have ${now}.` });
      form.reset();
      onDone();
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  const member = target?.member;
  return (
    <Modal opened={target !== null} onClose={close} title={isReclaim ? t`Take credits back` : t`Give credits`} centered>
      {member && (
        <form onSubmit={onSubmit} noValidate data-testid="allocation-form">
          <Stack gap="sm">
            <Text size="sm">
              <b>{member.name}</b> · {member.phone}
            </Text>
            <Group gap="lg">
              <Text size="sm" c="dimmed">
                {t`Member has: ${i18n.number(member.available)}`}
              </Text>
              <Text size="sm" c="dimmed">
                {t`Pool: ${i18n.number(pool)}`}
              </Text>
            </Group>
            <TextInput
              label={isReclaim ? t`Credits to take back into the pool` : t`Credits to give from the pool`}
              inputMode="numeric"
              autoComplete="off"
              data-autofocus
              withAsterisk
              {...form.getInputProps('amount')}
              data-testid="allocation-amount"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                <Trans>Close</Trans>
              </Button>
              <Button type="submit" loading={form.submitting} color={isReclaim ? 'grape' : undefined} data-testid="allocation-submit">
                {isReclaim ? t`Take back` : t`Give`}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/**
 * Member top-up (administrators): each member's credits, and giving them credits from the
 * company's pool or taking credits back into it. A frozen member can only be taken back from.
 */
export function MemberTopUp({ summary, onChange, version }: { summary: CreditSummaryDto; onChange: () => void; version: number }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const isMobile = useMediaQuery('(max-width: 48em)');
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Paged<CreditMemberDto> | null>(null);
  const [target, setTarget] = useState<Target | null>(null);
  const pool = summary.enterprise?.pool_available ?? 0;

  useEffect(() => {
    const controller = new AbortController();
    fetchCreditMembers({ page, page_size: config.tablePageSize, keyword: debounced || undefined }, controller.signal)
      .then(setData)
      .catch((e: unknown) => {
        if ((e as Error)?.name !== 'AbortError') notifyError(e, i18n);
      });
    return () => controller.abort();
  }, [page, debounced, config.tablePageSize, version, i18n]);

  const items = data?.items ?? [];
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const actions = (m: CreditMemberDto) => (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      <Button size="compact-sm" variant="light" disabled={m.status !== EMPLOYEE_STATUS.confirmed} onClick={() => setTarget({ member: m, direction: 'allocate' })} data-testid="give-credits">
        <Trans>Give</Trans>
      </Button>
      <Button size="compact-sm" variant="subtle" color="grape" disabled={m.available === 0} onClick={() => setTarget({ member: m, direction: 'reclaim' })} data-testid="take-back-credits">
        <Trans>Take back</Trans>
      </Button>
    </Group>
  );
  const frozen = (m: CreditMemberDto) =>
    m.status === EMPLOYEE_STATUS.frozen ? (
      <Badge color="gray" variant="light" tt="none" ml={6}>
        {t`Frozen`}
      </Badge>
    ) : null;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" data-testid="member-top-up-pool">
          <Trans>
            Pool balance: <b>{i18n.number(pool)}</b> credits
          </Trans>
        </Text>
        <TextInput
          placeholder={t`Search by name or phone`}
          leftSection={<IconSearch size={16} />}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.currentTarget.value);
            setPage(1);
          }}
          aria-label={t`Search members`}
          w={{ base: '100%', xs: 260 }}
        />
      </Group>

      {data && items.length === 0 && (
        <Text c="dimmed" size="sm">
          <Trans>No members found.</Trans>
        </Text>
      )}
      {items.length > 0 && isMobile && (
        <Stack gap="sm" data-testid="credit-members">
          {items.map((m) => (
            <Card key={m.employee_id} withBorder radius="md" padding="md" data-testid={`credit-member-${m.phone}`}>
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={600} truncate>
                    {m.name}
                    {frozen(m)}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {m.phone}
                  </Text>
                </Group>
                <Group gap="lg">
                  <Text size="sm">
                    <Trans>
                      Available: <b data-testid="member-available">{i18n.number(m.available)}</b>
                    </Trans>
                  </Text>
                  <Text size="sm" c="dimmed">
                    {t`Consumed: ${i18n.number(m.consumed)}`}
                  </Text>
                </Group>
                {actions(m)}
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
      {items.length > 0 && !isMobile && (
        <Card withBorder radius="md" padding={0}>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" highlightOnHover data-testid="credit-members">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t`Member`}</Table.Th>
                  <Table.Th>{t`Phone`}</Table.Th>
                  <Table.Th ta="right">{t`Available`}</Table.Th>
                  <Table.Th ta="right">{t`Consumed`}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((m) => (
                  <Table.Tr key={m.employee_id} data-testid={`credit-member-${m.phone}`}>
                    <Table.Td>
                      {m.name}
                      {frozen(m)}
                    </Table.Td>
                    <Table.Td>{m.phone}</Table.Td>
                    <Table.Td ta="right" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="member-available">
                      {i18n.number(m.available)}
                    </Table.Td>
                    <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {i18n.number(m.consumed)}
                    </Table.Td>
                    <Table.Td>{actions(m)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
      <AllocationModal
        target={target}
        pool={pool}
        onClose={() => setTarget(null)}
        onDone={() => {
          setTarget(null);
          onChange();
        }}
      />
    </Stack>
  );
}
