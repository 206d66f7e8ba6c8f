import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Code, Group, Loader, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconArrowLeft, IconArrowRight, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'wouter';
import { isApiError } from '@/api/client.ts';
import { describeError } from '@/api/error-messages.ts';
import { Copyable } from '@/components/copyable.tsx';
import { fetchBlock, fetchBlockEntries, fetchBlocks, fetchEntry, type BlockDto, type BlockEntryDto, type EntryDto } from './explorer-api.ts';

type Loaded<T> = { data: T | null; error: unknown };

/** Loads once per key (and again every `refreshMs` when given, keeping what is shown until the answer). */
function useLoad<T>(load: () => Promise<T>, key: string, refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null });
  useEffect(() => {
    let isCurrent = true;
    setState({ data: null, error: null });
    const run = () =>
      load().then(
        (data) => isCurrent && setState({ data, error: null }),
        (error: unknown) => isCurrent && setState((s) => (s.data && refreshMs ? s : { data: null, error })),
      );
    void run();
    const timer = refreshMs ? window.setInterval(() => void run(), refreshMs) : undefined;
    return () => {
      isCurrent = false;
      window.clearInterval(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, refreshMs]);
  return state;
}

/** What a newcomer needs to read this page: one line on what the thing is. */
function Explainer({ children }: { children: ReactNode }) {
  return (
    <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} data-testid="explorer-explainer">
      {children}
    </Alert>
  );
}

function Shell({ title, intro, children }: { title: ReactNode; intro?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={1100} mx="auto" py="lg" px="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        <Anchor component={Link} href="/explorer" size="sm">
          <Trans>Latest blocks</Trans>
        </Anchor>
      </Group>
      {intro && <Explainer>{intro}</Explainer>}
      {children}
    </Stack>
  );
}

/** A block or entry that does not exist is a not-found page of its own, with the way back; other failures say what went wrong. */
function Loading({ error, what }: { error: unknown; what: 'block' | 'entry' | 'list' }) {
  const { i18n } = useLingui();
  if (!error) return <Loader />;
  const isMissing = isApiError(error) && error.kind === 'client' && (error.key === 'not_found' || error.key === 'proof_record_not_found' || error.key === 'invalid_param');
  if (isMissing && what !== 'list') {
    return (
      <Paper withBorder radius="md" p="xl" data-testid="explorer-not-found">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h3">
            {what === 'block' ? <Trans>No such block</Trans> : <Trans>No such entry</Trans>}
          </Title>
          <Text c="dimmed">
            {what === 'block' ? (
              <Trans>This ledger has no block with that height or hash. Blocks are numbered from 1; the newest are listed on the explorer's first page.</Trans>
            ) : (
              <Trans>This ledger has no entry with that DNA. Check that it was copied whole (pv followed by 20 characters); an entry registered a moment ago appears within a few seconds.</Trans>
            )}
          </Text>
          <Button component={Link} href="/explorer" variant="light" leftSection={<IconArrowLeft size={16} />}>
            <Trans>Latest blocks</Trans>
          </Button>
        </Stack>
      </Paper>
    );
  }
  return <Alert color="red">{describeError(error, i18n)}</Alert>;
}

const short = (hex: string) => `${hex.slice(0, 12)}…${hex.slice(-6)}`;

/** A moment in the viewer's own time zone; the UTC value on hover. */
function Moment({ ms }: { ms: number }) {
  const { i18n } = useLingui();
  const local = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(ms);
  return (
    <Tooltip label={`UTC ${new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')}`} withArrow>
      <Text span size="sm" style={{ textDecoration: 'underline dotted', cursor: 'help' }} data-utc={new Date(ms).toISOString()}>
        {local}
      </Text>
    </Tooltip>
  );
}

/** The ledger kinds as people say them. */
const KIND_LABELS: Record<string, MessageDescriptor> = {
  asset: msg`Digital asset`,
  vault: msg`Vault file`,
  receipt: msg`Disclosure receipt`,
  certificate: msg`Enterprise certificate`,
  commit: msg`Source-code commit`,
  application_file: msg`Application file`,
  file: msg`File`,
};

export function KindLabel({ kind }: { kind: string }) {
  const { i18n } = useLingui();
  const label = KIND_LABELS[kind];
  return <Badge variant="light">{label ? i18n._(label) : kind}</Badge>;
}

function Field({ label, help, children }: { label: ReactNode; help?: ReactNode; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={150} style={{ verticalAlign: 'top' }}>
        {label}
        {help && (
          <Text size="xs" c="dimmed" fw={400} mt={2}>
            {help}
          </Text>
        )}
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-all', minWidth: 0 }}>{children}</Table.Td>
    </Table.Tr>
  );
}

/** Latest blocks, newest first, refreshed while the page is open, with paging back in time. */
export function ExplorerHomePage() {
  const [before, setBefore] = useState<number | undefined>(undefined);
  // Only the first page follows the head of the log; an older page stays as it is.
  const { data, error } = useLoad(() => fetchBlocks(before), String(before), before === undefined ? 5000 : undefined);
  return (
    <Shell
      title={<Trans>Block explorer</Trans>}
      intro={
        <Trans>
          Every registration on this platform is an entry in a public, append-only log. Every few seconds the newest entries are sealed into a block, signed by the platform and chained to the block before it, so no entry can be changed or removed later without every verifier noticing. File contents and fingerprints are never shown here.
        </Trans>
      }
    >
      {!data ? (
        <Loading error={error} what="list" />
      ) : (
        <>
          <Group justify="space-between">
            <Text c="dimmed" size="sm">
              <Trans>
                {data.latest_height} blocks, {data.tree_size} entries in the log.
              </Trans>
            </Text>
            {before === undefined ? (
              <Badge variant="dot" color="green" data-testid="explorer-live">
                <Trans>Updates live</Trans>
              </Badge>
            ) : (
              <Button variant="subtle" size="compact-sm" onClick={() => setBefore(undefined)}>
                <Trans>Back to the newest</Trans>
              </Button>
            )}
          </Group>
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={560}>
              <Table striped highlightOnHover data-testid="explorer-blocks">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <Trans>Height</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Block hash</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Entries</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Sealed at</Trans>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.blocks.map((b) => (
                    <Table.Tr key={b.height}>
                      <Table.Td>
                        <Anchor component={Link} href={`/explorer/blocks/${b.height}`}>
                          #{b.height}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Code>{short(b.hash)}</Code>
                      </Table.Td>
                      <Table.Td>{b.entry_count}</Table.Td>
                      <Table.Td>
                        <Moment ms={b.sealed_at} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          {data.blocks.length === 20 && (
            <Group>
              <Button variant="light" onClick={() => setBefore(data.blocks[data.blocks.length - 1]?.height)}>
                <Trans>Older blocks</Trans>
              </Button>
            </Group>
          )}
        </>
      )}
    </Shell>
  );
}

/** Previous and next block, so the chain can be walked from any block. */
function BlockNeighbours({ height, latest }: { height: number; latest: number | null }) {
  return (
    <Group justify="space-between" data-testid="block-neighbours">
      {height > 1 ? (
        <Button component={Link} href={`/explorer/blocks/${height - 1}`} variant="default" size="compact-md" leftSection={<IconArrowLeft size={16} />}>
          <Trans>Block #{height - 1}</Trans>
        </Button>
      ) : (
        <span />
      )}
      {latest !== null && height < latest && (
        <Button component={Link} href={`/explorer/blocks/${height + 1}`} variant="default" size="compact-md" rightSection={<IconArrowRight size={16} />}>
          <Trans>Block #{height + 1}</Trans>
        </Button>
      )}
    </Group>
  );
}

function BlockHeaderTable({ block }: { block: BlockDto }) {
  const { t } = useLingui();
  return (
    <Table variant="vertical" withTableBorder layout="fixed">
      <Table.Tbody>
        <Field label={<Trans>Height</Trans>} help={<Trans>Its place in the chain, counted from 1.</Trans>}>
          #{block.height}
        </Field>
        <Field label={<Trans>Block hash</Trans>} help={<Trans>The block's fingerprint; the next block repeats it.</Trans>}>
          <Copyable value={block.hash} label={t`block hash`} isWrapped />
        </Field>
        <Field label={<Trans>Previous block</Trans>}>
          {block.height > 1 ? (
            <Anchor component={Link} href={`/explorer/blocks/${block.height - 1}`}>
              <Code>{block.prev_hash}</Code>
            </Anchor>
          ) : (
            <Code>{block.prev_hash}</Code>
          )}
        </Field>
        <Field label={<Trans>Tree size</Trans>} help={<Trans>Entries in the whole log up to this block.</Trans>}>
          {block.tree_size}
        </Field>
        <Field label={<Trans>Merkle root</Trans>} help={<Trans>One hash that sums up every entry so far; any change to any entry changes it.</Trans>}>
          <Copyable value={block.root} label={t`Merkle root`} isWrapped />
        </Field>
        <Field label={<Trans>Sealed at</Trans>}>
          <Moment ms={block.sealed_at} />
        </Field>
        <Field label={<Trans>Signing key</Trans>} help={<Trans>The platform key that signed this block.</Trans>}>
          <Copyable value={block.key_id} label={t`signing key`} isWrapped />
        </Field>
        <Field label={<Trans>Signature</Trans>}>
          <Copyable value={block.signature} label={t`signature`} isWrapped />
        </Field>
        <Field label={<Trans>Anchor</Trans>} help={<Trans>A public blockchain transaction that also records this point of the log.</Trans>}>
          {block.anchor ? (
            <Text size="sm" component="div">
              <Trans>
                Chain {block.anchor.chain_id}, block {block.anchor.block_number}, transaction <Code>{block.anchor.tx_hash}</Code>
              </Trans>
            </Text>
          ) : (
            <Badge color="gray" variant="light">
              <Trans>Not anchored</Trans>
            </Badge>
          )}
        </Field>
      </Table.Tbody>
    </Table>
  );
}

/** One block: what a block is, its signed header, its neighbours and its entries. */
export function ExplorerBlockPage({ height }: { height: string }) {
  const [page, setPage] = useState(1);
  const block = useLoad(() => fetchBlock(height), height);
  const latest = useLoad(() => fetchBlock('latest'), `latest:${height}`);
  const entries = useLoad<BlockEntryDto[]>(() => (block.data ? fetchBlockEntries(block.data.height, page) : Promise.resolve([])), `${block.data?.hash}:${page}`);
  return (
    <Shell
      title={<Trans>Block #{height}</Trans>}
      intro={
        <Trans>
          A block seals a batch of entries: it names the block before it by its hash, sums up every entry so far in one Merkle root, and carries the platform's signature over both. Changing any earlier entry would change this block's hash and break the chain.
        </Trans>
      }
    >
      {!block.data ? (
        <Loading error={block.error} what="block" />
      ) : (
        <>
          <BlockNeighbours height={block.data.height} latest={latest.data?.height ?? null} />
          <BlockHeaderTable block={block.data} />
          <Title order={2} size="h4">
            <Trans>Entries</Trans>
          </Title>
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={640}>
              <Table striped data-testid="explorer-entries">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <Trans>Leaf</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Asset DNA</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Kind</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Enterprise</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Registered at</Trans>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {(entries.data ?? []).map((e) => (
                    <Table.Tr key={e.asset_dna}>
                      <Table.Td>{e.leaf_index}</Table.Td>
                      <Table.Td>
                        <Anchor component={Link} href={`/explorer/entries/${e.asset_dna}`}>
                          <Code>{e.asset_dna}</Code>
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <KindLabel kind={e.kind} />
                      </Table.Td>
                      <Table.Td>{e.enterprise_name}</Table.Td>
                      <Table.Td>
                        <Moment ms={e.registered_at} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          <Group>
            {page > 1 && (
              <Button variant="light" onClick={() => setPage(page - 1)}>
                <Trans>Previous page</Trans>
              </Button>
            )}
            {(entries.data?.length ?? 0) === 50 && (
              <Button variant="light" onClick={() => setPage(page + 1)}>
                <Trans>Next page</Trans>
              </Button>
            )}
          </Group>
        </>
      )}
    </Shell>
  );
}

/** The record's fields (canonical JSON) as labelled rows, with the exact text to copy. */
function RecordView({ record }: { record: string }) {
  const { t } = useLingui();
  let fields: Array<[string, string]> = [];
  try {
    const parsed = JSON.parse(record) as Record<string, unknown>;
    fields = Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  } catch {
    fields = [];
  }
  return (
    <Stack gap={6}>
      {fields.length > 0 && (
        <Table withRowBorders={false} verticalSpacing={2} data-testid="explorer-record-fields">
          <Table.Tbody>
            {fields.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Td w={150} style={{ verticalAlign: 'top' }}>
                  <Code>{k}</Code>
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  <Text size="sm" ff="monospace">
                    {v}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Copyable value={record} label={t`record`} size="xs" isWrapped />
    </Stack>
  );
}

/** One entry: what an entry and a DNA are, its record, its block and its inclusion proof. The file hash is never shown here. */
export function ExplorerEntryPage({ dna }: { dna: string }) {
  const { t } = useLingui();
  const { data, error } = useLoad<EntryDto>(() => fetchEntry(dna), dna);
  return (
    <Shell
      title={<Trans>Entry {dna}</Trans>}
      intro={
        <Trans>
          An entry is one registration. Its DNA is a short identifier computed from the entry's record, so it names exactly this record. The record holds a salted commitment to the file's fingerprint, not the fingerprint itself: only the holder of the proof certificate can show which file it is.
        </Trans>
      }
    >
      {!data ? (
        <Loading error={error} what="entry" />
      ) : (
        <>
          <Table variant="vertical" withTableBorder layout="fixed" data-testid="explorer-entry">
            <Table.Tbody>
              <Field label={<Trans>Asset DNA</Trans>} help={<Trans>This entry's identifier, derived from its record.</Trans>}>
                <Copyable value={data.asset_dna} label={t`DNA`} isWrapped />
              </Field>
              <Field label={<Trans>Kind</Trans>}>
                <KindLabel kind={data.kind} />
              </Field>
              <Field label={<Trans>Registered at</Trans>}>
                <Moment ms={data.registered_at} />
              </Field>
              <Field label={<Trans>Enterprise</Trans>}>{data.enterprise_name}</Field>
              <Field label={<Trans>Block</Trans>}>
                {data.block ? (
                  <Anchor component={Link} href={`/explorer/blocks/${data.block.height}`} data-testid="entry-block-link">
                    #{data.block.height} <Code>{short(data.block.hash)}</Code>
                  </Anchor>
                ) : (
                  <Trans>Waiting for the next block</Trans>
                )}
              </Field>
              <Field label={<Trans>Leaf index</Trans>} help={<Trans>Its position in the log, from 0.</Trans>}>
                {data.leaf_index ?? '—'}
              </Field>
              <Field label={<Trans>Leaf hash</Trans>}>
                <Copyable value={data.leaf_hash} label={t`leaf hash`} isWrapped />
              </Field>
              <Field label={<Trans>Record</Trans>} help={<Trans>Exactly the text that was hashed into the log.</Trans>}>
                <RecordView record={data.record} />
              </Field>
            </Table.Tbody>
          </Table>
          {data.inclusion && (
            <Stack gap="xs">
              <Title order={2} size="h4">
                <Trans>Inclusion proof</Trans>
              </Title>
              <Text size="sm" c="dimmed">
                <Trans>
                  The hashes needed to recompute the block's Merkle root from this entry alone (an RFC 6962 audit path, tree of {data.inclusion.tree_size} entries): if the result equals the root the platform signed, the entry is in the log.
                </Trans>
              </Text>
              <Paper withBorder p="sm" radius="md">
                {data.inclusion.path.length === 0 ? (
                  <Text size="sm">—</Text>
                ) : (
                  <Stack gap={4} data-testid="inclusion-path">
                    {data.inclusion.path.map((h, i) => (
                      <Group key={`${i}:${h}`} gap="xs" wrap="nowrap">
                        <Text size="xs" c="dimmed" w={24}>
                          {i + 1}
                        </Text>
                        <Copyable value={h} label={t`hash`} size="xs" />
                      </Group>
                    ))}
                  </Stack>
                )}
              </Paper>
            </Stack>
          )}
        </>
      )}
    </Shell>
  );
}
