import { useCallback, useEffect, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, CopyButton, Group, Modal, Pagination, Paper, PasswordInput, Select, Stack, Table, Tabs, Text, TextInput, Title, Tooltip, FileButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { modals } from '@mantine/modals';
import { useMediaQuery } from '@mantine/hooks';
import { IconCopy, IconLock, IconRefresh, IconSearch } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import type { BulkRowResult, CompanyDto, EmployeeDto, InvitationDto, UserDto } from '../../../core/api-types.ts';
import { ADD_MEMBER_TIMEOUT_MS } from '../../../core/constants.ts';
import { EMPLOYEE_STATUS, INVITATION_STATUS } from '../../../core/enterprise.ts';
import { maskPhone } from '../../../core/masking.ts';
import { checkName, checkPhone } from '../../../core/validation.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { errorKeyText, notifyError } from '@/api/error-messages.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { usePasswordHint } from '@/components/password-hint.ts';
import { useConfig } from '@/config/config-atom.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { addMember, addMembers, fetchEmployees, fetchInvitations, regenerateInvitationCode, setEmployeeStatus, setMemberRole, type EmployeePage } from './enterprise-api.ts';
import { ROLE_LABELS } from './role-labels.ts';
import { MEMBER_SHEET_MAX_ROWS, readMemberSheet } from './member-sheet.ts';
import { useCompany } from './use-company.ts';
import { IdentityTab } from './identity-tab.tsx';
import { KeyTab } from './key-tab.tsx';
import { KEY_STATUS_LABELS } from './key-labels.ts';

export type CompanyTab = 'info' | 'identity' | 'key' | 'members' | 'applications' | 'invitations';
export function toCompanyTab(active: string | undefined): CompanyTab {
  return active === 'identity' || active === 'key' || active === 'members' || active === 'applications' || active === 'invitations' ? active : 'info';
}

type ConfirmedChange = { title: string; body: string; confirm: string; isDanger?: boolean; run: () => Promise<unknown>; done: string };

/**
 * Asks before a change that takes effect at once for someone else (a role, a freeze, a new
 * invitation code), runs it, and says that it was done; a refusal goes to the §8 handler.
 */
function useConfirmedChange(): (change: ConfirmedChange) => void {
  const { t } = useLingui();
  return ({ title, body, confirm, isDanger, run, done }) =>
    modals.openConfirmModal({
      title,
      centered: true,
      children: <Text size="sm">{body}</Text>,
      labels: { confirm, cancel: t`Cancel` },
      confirmProps: { color: isDanger ? 'red' : undefined },
      onConfirm: async () => {
        try {
          await run();
          notifications.show({ color: 'green', message: done });
        } catch (error) {
          notifyError(error);
        }
      },
    });
}

function InfoTab({ company, onCodeChange }: { company: CompanyDto; onCodeChange: (code: string) => void }) {
  const { t, i18n } = useLingui();
  const rows: Array<[string, string]> = [
    [t`Company name`, company.name],
    [t`Licence number`, company.license],
    [t`Legal representative`, company.legal_person],
    [t`My role`, i18n._(ROLE_LABELS[company.role] ?? ROLE_LABELS[0]!)],
    [t`Private key`, i18n._(KEY_STATUS_LABELS[company.private_key_status] ?? KEY_STATUS_LABELS[0]!)],
  ];
  const confirmChange = useConfirmedChange();
  const onRegenerate = () =>
    confirmChange({
      title: t`Generate a new invitation code?`,
      body: t`The current code stops working at once; people who have it can no longer join with it.`,
      confirm: t`Generate a new code`,
      run: async () => onCodeChange((await regenerateInvitationCode()).invitation_code),
      done: t`A new invitation code was generated`,
    });
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Title order={3} size="h4">
          {company.name}
        </Title>
        <Badge color={company.verified ? 'green' : 'orange'}>{company.verified ? t`Verified` : t`Verifying`}</Badge>
      </Group>
      <Table variant="vertical" withTableBorder maw={560}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={180}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
          {company.is_admin && (
            <Table.Tr>
              <Table.Th>{t`Invitation code`}</Table.Th>
              <Table.Td>
                <Group gap="xs">
                  <Text ff="monospace" fw={600} data-testid="invitation-code">
                    {company.invitation_code}
                  </Text>
                  <CopyButton value={company.invitation_code}>
                    {({ copy }) => (
                      <ActionIcon variant="subtle" onClick={copy} aria-label={t`Copy`}>
                        <IconCopy size={16} />
                      </ActionIcon>
                    )}
                  </CopyButton>
                  <Tooltip label={t`Generate a new code; the old one stops working`}>
                    <ActionIcon variant="subtle" onClick={onRegenerate} aria-label={t`Regenerate`} data-testid="regenerate-code">
                      <IconRefresh size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function useEmployees(status: number | undefined) {
  const config = useConfig();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<EmployeePage | null>(null);
  const load = useCallback(async () => {
    try {
      setData(await fetchEmployees({ keyword: keyword || undefined, status, page, page_size: config.tablePageSize }));
    } catch (error) {
      notifyError(error);
    }
  }, [keyword, status, page, config.tablePageSize]);
  useEffect(() => {
    void load();
  }, [load]);
  return { data, keyword, setKeyword: (k: string) => { setKeyword(k); setPage(1); }, page, setPage, reload: load, pageSize: config.tablePageSize };
}

function MembersTab({ company, user }: { company: CompanyDto; user: UserDto }) {
  const { t, i18n } = useLingui();
  const list = useEmployees(undefined);
  const [search, setSearch] = useState('');
  const confirmChange = useConfirmedChange();
  // At phone width a table of five columns would hide status and actions off-screen: each member is a card.
  const isNarrow = useMediaQuery('(max-width: 48em)') ?? false;
  const statusLabel = (e: EmployeeDto) =>
    e.status === EMPLOYEE_STATUS.frozen ? t`Frozen` : e.status === EMPLOYEE_STATUS.applied ? t`Applied` : e.status === EMPLOYEE_STATUS.rejected ? t`Declined` : t`Normal`;
  const roleOptions = Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label: i18n._(label) }));
  const who = (e: EmployeeDto) => e.real_name || e.name || maskPhone(e.phone);
  const onRole = (e: EmployeeDto, value: string | null) => {
    if (value === null || Number(value) === e.role) return;
    const role = i18n._(ROLE_LABELS[Number(value)] ?? ROLE_LABELS[0]!);
    const name = who(e);
    confirmChange({
      title: t`Change the role of ${name}?`,
      body: Number(value) === 1 ? t`${name} becomes a super administrator, with every right in this enterprise, including over you.` : t`${name} becomes ${role}. The new rights apply at once.`,
      confirm: t`Change role`,
      isDanger: Number(value) === 1,
      run: async () => {
        await setMemberRole(e.employee_id, Number(value));
        await list.reload();
      },
      done: t`${name} is now ${role}`,
    });
  };
  const onFreeze = (e: EmployeeDto, isFreezing: boolean) => {
    const name = who(e);
    confirmChange({
      title: isFreezing ? t`Freeze ${name}?` : t`Unfreeze ${name}?`,
      body: isFreezing ? t`${name} is logged out of this enterprise and cannot register, view or disclose anything in it until unfrozen.` : t`${name} can work in this enterprise again.`,
      confirm: isFreezing ? t`Freeze` : t`Unfreeze`,
      isDanger: isFreezing,
      run: async () => {
        await setEmployeeStatus(e.employee_id, isFreezing ? EMPLOYEE_STATUS.frozen : EMPLOYEE_STATUS.confirmed);
        await list.reload();
      },
      done: isFreezing ? t`${name} was frozen` : t`${name} was unfrozen`,
    });
  };
  const roleCell = (e: EmployeeDto, canManage: boolean) =>
    canManage && e.status === EMPLOYEE_STATUS.confirmed ? (
      <Select
        size="xs"
        w={170}
        data={company.role === 1 ? roleOptions : roleOptions.filter((o) => o.value !== '1')}
        value={String(e.role)}
        aria-label={t`Role`}
        allowDeselect={false}
        onChange={(value) => onRole(e, value)}
      />
    ) : (
      i18n._(ROLE_LABELS[e.role] ?? ROLE_LABELS[0]!)
    );
  const statusBadge = (e: EmployeeDto) => (
    <Badge variant="light" color={e.status === EMPLOYEE_STATUS.frozen ? 'red' : e.status === EMPLOYEE_STATUS.confirmed ? 'green' : 'gray'}>
      {statusLabel(e)}
    </Badge>
  );
  const actions = (e: EmployeeDto, canManage: boolean) => (
    <>
      {canManage && e.status === EMPLOYEE_STATUS.confirmed && (
        <Button size="xs" variant="light" color="red" onClick={() => onFreeze(e, true)}>
          <Trans>Freeze</Trans>
        </Button>
      )}
      {canManage && e.status === EMPLOYEE_STATUS.frozen && (
        <Button size="xs" variant="light" onClick={() => onFreeze(e, false)}>
          <Trans>Unfreeze</Trans>
        </Button>
      )}
    </>
  );
  const canManageOf = (e: EmployeeDto) => company.is_admin && e.user_id !== user.id && (e.role !== 1 || company.role === 1);
  return (
    <Stack gap="sm">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          list.setKeyword(search.trim());
        }}
      >
        <TextInput placeholder={t`Search by name or phone`} leftSection={<IconSearch size={16} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={320} aria-label={t`Search members`} />
      </form>
      {!list.data ? (
        <PageLoader />
      ) : isNarrow ? (
        <Stack gap="xs" data-testid="members-table">
          {list.data.items.map((e) => {
            const canManage = canManageOf(e);
            return (
              <Paper key={e.employee_id} withBorder p="sm" radius="md" data-testid={`member-${e.phone}`}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} truncate>
                      {e.real_name || e.name || '-'}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {maskPhone(e.phone)}
                    </Text>
                  </Stack>
                  {statusBadge(e)}
                </Group>
                <Group justify="space-between" mt="xs" gap="xs">
                  <Text size="sm" component="div">
                    {roleCell(e, canManage)}
                  </Text>
                  <Group gap="xs">{actions(e, canManage)}</Group>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover data-testid="members-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Name`}</Table.Th>
                <Table.Th>{t`Phone`}</Table.Th>
                <Table.Th>{t`Role`}</Table.Th>
                <Table.Th>{t`Status`}</Table.Th>
                {company.is_admin && <Table.Th>{t`Actions`}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((e) => {
                const canManage = canManageOf(e);
                return (
                  <Table.Tr key={e.employee_id} data-testid={`member-${e.phone}`}>
                    <Table.Td>{e.real_name || e.name || '-'}</Table.Td>
                    <Table.Td>{maskPhone(e.phone)}</Table.Td>
                    <Table.Td>{roleCell(e, canManage)}</Table.Td>
                    <Table.Td>{statusBadge(e)}</Table.Td>
                    {company.is_admin && <Table.Td>{actions(e, canManage)}</Table.Td>}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.total > list.pageSize && <Pagination total={Math.ceil(list.data.total / list.pageSize)} value={list.page} onChange={list.setPage} />}
    </Stack>
  );
}

function ApplicationsTab() {
  const { t } = useLingui();
  const list = useEmployees(EMPLOYEE_STATUS.applied);
  const act = async (employeeId: number, status: number) => {
    try {
      await setEmployeeStatus(employeeId, status);
      await list.reload();
    } catch (error) {
      notifyError(error);
    }
  };
  if (!list.data) return <PageLoader />;
  if (list.data.items.length === 0) return <Text c="dimmed">{t`No applications waiting for review.`}</Text>;
  return (
    <Table data-testid="applications-table">
      <Table.Tbody>
        {list.data.items.map((e) => (
          <Table.Tr key={e.employee_id} data-testid={`application-${e.phone}`}>
            <Table.Td>{e.real_name || e.name}</Table.Td>
            <Table.Td>{maskPhone(e.phone)}</Table.Td>
            <Table.Td>
              <Group gap="xs">
                <Button size="xs" onClick={() => void act(e.employee_id, EMPLOYEE_STATUS.confirmed)}>
                  <Trans>Approve</Trans>
                </Button>
                <Button size="xs" variant="default" onClick={() => void act(e.employee_id, EMPLOYEE_STATUS.rejected)}>
                  <Trans>Decline</Trans>
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function AddMemberModal({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const passwordHint = usePasswordHint('new');
  const form = useForm({ mode: 'controlled', initialValues: { phone: '', name: '', password: '', role: '0' } });
  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(form, { phone: checkPhone(values.phone.trim()), name: checkName(values.name.trim(), { required: true }) }, i18n);
    if (!isValid) return;
    try {
      // §9: adding a member gives up after 10 s.
      const r = await addMember({ phone: values.phone.trim(), name: values.name.trim(), password: values.password, role: Number(values.role) }, AbortSignal.timeout(ADD_MEMBER_TIMEOUT_MS));
      notifications.show({ color: 'green', message: r.outcome === 'invited' ? t`The user has an account and was invited` : t`Member added` });
      form.reset();
      onDone();
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError') notifications.show({ color: 'red', message: t`Network request timed out` });
      else applyServerErrors(form, error, { i18n });
    }
  });
  const roleOptions = Object.entries(ROLE_LABELS).filter(([v]) => v !== '1').map(([value, label]) => ({ value, label: i18n._(label) }));
  return (
    <Modal opened={opened} onClose={onClose} title={t`Add a member`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label={t`Phone number`} required {...form.getInputProps('phone')} />
          <TextInput label={t`Name`} required {...form.getInputProps('name')} />
          <PasswordInput
            label={t`Initial password`}
            description={
              <>
                {t`Only needed when the phone number has no account yet`}
                <br />
                {passwordHint}
              </>
            }
            {...form.getInputProps('password')}
          />
          <Select label={t`Role`} data={roleOptions} allowDeselect={false} {...form.getInputProps('role')} />
          <Button type="submit" loading={form.submitting}>
            <Trans>Add</Trans>
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

function InvitationsTab() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const [items, setItems] = useState<InvitationDto[] | null>(null);
  const [isAdding, setAdding] = useState(false);
  const [bulk, setBulk] = useState<{ imported: boolean; results: BulkRowResult[] } | null>(null);
  const [isImporting, setImporting] = useState(false);
  const load = useCallback(async () => {
    try {
      setItems(await fetchInvitations());
    } catch (error) {
      notifyError(error);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const onBulk = async (file: File | null) => {
    if (!file) return;
    setBulk(null);
    if (file.size > 5 * 1024 * 1024) {
      notifications.show({ color: 'red', message: t`The file is too large (at most 5 MB)` });
      return;
    }
    setImporting(true);
    try {
      let rows;
      try {
        rows = await readMemberSheet(new Uint8Array(await file.arrayBuffer()), file.name);
      } catch {
        notifications.show({ color: 'red', message: t`The file could not be read as a spreadsheet (XLSX or CSV)` });
        return;
      }
      if (rows.length === 0) {
        notifications.show({ color: 'red', message: t`The file has no rows` });
        return;
      }
      if (rows.length > MEMBER_SHEET_MAX_ROWS) {
        notifications.show({ color: 'red', message: t`At most ${MEMBER_SHEET_MAX_ROWS} rows can be added at once` });
        return;
      }
      const outcome = await addMembers(rows);
      setBulk(outcome);
      if (outcome.imported) await load();
    } catch (error) {
      notifyError(error);
    } finally {
      setImporting(false);
    }
  };
  const fieldLabel = (field?: string) =>
    field === 'phone' ? `${t`Phone`}: ` : field === 'name' ? `${t`Name`}: ` : field === 'role' ? `${t`Role`}: ` : field === 'password' ? `${t`Password`}: ` : '';
  const statusText = (s: number) => (s === INVITATION_STATUS.accepted ? t`Accepted` : s === INVITATION_STATUS.refused ? t`Refused` : t`Pending`);
  return (
    <Stack gap="sm">
      {config.allowAddMember && (
        <Group>
          <Button onClick={() => setAdding(true)}>
            <Trans>Add a member</Trans>
          </Button>
          <FileButton
            onChange={(f) => void onBulk(f)}
            accept=".xlsx,.xls,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
            inputProps={{ 'data-testid': 'bulk-file' } as never}
          >
            {(props) => (
              <Button variant="default" loading={isImporting} {...props}>
                <Trans>Add in bulk (XLSX or CSV)</Trans>
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            <Trans>Columns: phone, name, role (0 member, 2 administrator, 3 confidentiality officer, 4 enterprise member), password for new accounts</Trans>
          </Text>
        </Group>
      )}
      {bulk && (
        <Alert color={bulk.imported ? 'green' : 'red'} data-testid="bulk-summary">
          {bulk.imported
            ? t`${bulk.results.length} rows imported.`
            : t`Nothing was imported: ${bulk.results.filter((r) => !r.ok).length} of ${bulk.results.length} rows have problems. Correct the rows marked below and upload the file again.`}
        </Alert>
      )}
      {bulk && (
        <Table.ScrollContainer minWidth={420}>
          <Table withTableBorder data-testid="bulk-results">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Row`}</Table.Th>
                <Table.Th>{t`Phone`}</Table.Th>
                <Table.Th>{t`Result`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bulk.results.map((r) => (
                <Table.Tr key={r.row}>
                  <Table.Td>{r.row}</Table.Td>
                  <Table.Td>{r.phone}</Table.Td>
                  <Table.Td c={r.ok ? (bulk.imported ? 'green' : 'dimmed') : 'red'}>
                    {r.ok
                      ? bulk.imported
                        ? r.outcome === 'invited'
                          ? t`Invited`
                          : t`Added`
                        : t`OK, not imported`
                      : `${fieldLabel(r.field_name)}${errorKeyText(r.message ?? '', i18n)}`}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {items === null ? (
        <PageLoader />
      ) : items.length === 0 ? (
        <Text c="dimmed">{t`No invitations yet.`}</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Name`}</Table.Th>
              <Table.Th>{t`Phone`}</Table.Th>
              <Table.Th>{t`Role`}</Table.Th>
              <Table.Th>{t`Status`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td>{i.name || '-'}</Table.Td>
                <Table.Td>{maskPhone(i.phone)}</Table.Td>
                <Table.Td>{i18n._(ROLE_LABELS[i.role] ?? ROLE_LABELS[0]!)}</Table.Td>
                <Table.Td>{statusText(i.status)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <AddMemberModal opened={isAdding} onClose={() => setAdding(false)} onDone={() => { setAdding(false); void load(); }} />
    </Stack>
  );
}

/** Dashboard company/:active? — enterprise info, digital identity and certificates, private key, members, applications and invitations (§2, §6). */
export function CompanyPage({ user, active }: { user: UserDto; active: CompanyTab }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const { company, setCompany, reload } = useCompany(user.id);
  if (company === undefined) return <PageLoader />;
  if (!company || !company.name) {
    return (
      <Stack align="flex-start">
        <Text>{t`You have not joined a company yet.`}</Text>
        <Button onClick={() => navigate('/real-auth')}>{t`Join or create a company`}</Button>
      </Stack>
    );
  }
  const canSeeMembers = company.is_admin || company.role === 3;
  // A tab opened by its address that this role may not see says so, instead of an empty panel.
  const isRestricted = (active === 'members' && !canSeeMembers) || ((active === 'applications' || active === 'invitations') && !company.is_admin);
  return (
    <Tabs value={active} onChange={(value) => navigate(`/dashboard/company/${value ?? 'info'}`)} keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="info">{t`Enterprise`}</Tabs.Tab>
        <Tabs.Tab value="identity">{t`Digital identity`}</Tabs.Tab>
        <Tabs.Tab value="key">{t`Private key`}</Tabs.Tab>
        {canSeeMembers && <Tabs.Tab value="members">{t`Members`}</Tabs.Tab>}
        {company.is_admin && <Tabs.Tab value="applications">{t`Applications`}</Tabs.Tab>}
        {company.is_admin && <Tabs.Tab value="invitations">{t`Invitations`}</Tabs.Tab>}
      </Tabs.List>
      <Tabs.Panel value="info">
        <InfoTab company={company} onCodeChange={(code) => setCompany({ ...company, invitation_code: code })} />
      </Tabs.Panel>
      <Tabs.Panel value="identity">
        <IdentityTab company={company} user={user} onCompanyChange={() => void reload()} />
      </Tabs.Panel>
      <Tabs.Panel value="key">
        <KeyTab company={company} onCompanyChange={() => void reload()} />
      </Tabs.Panel>
      {canSeeMembers && (
        <Tabs.Panel value="members">
          <MembersTab company={company} user={user} />
        </Tabs.Panel>
      )}
      {company.is_admin && (
        <Tabs.Panel value="applications">
          <ApplicationsTab />
        </Tabs.Panel>
      )}
      {company.is_admin && (
        <Tabs.Panel value="invitations">
          <InvitationsTab />
        </Tabs.Panel>
      )}
      {isRestricted && (
        <Alert color="gray" icon={<IconLock size={18} />} data-testid="tab-for-admins">
          {active === 'members' ? t`The member list is for the enterprise's administrators and its confidentiality officer.` : t`This tab is for the enterprise's administrators.`}
        </Alert>
      )}
    </Tabs>
  );
}
