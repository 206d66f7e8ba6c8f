import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Code, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { describeError } from '@/api/error-messages.ts';
import { fetchBlock, fetchBlockEntries, fetchBlocks, fetchEntry, type BlockDto, type BlockEntryDto, type EntryDto } from './explorer-api.ts';

/** Loads once per key; errors become the §8 text. */
function useLoad<T>(load: () => Promise<T>, key: string): { data: T | null; error: string | null } {
  const [state, setState] = useState<{ data: T | null; error: string | null }>({ data: null, error: null });
  useEffect(() => {
    let isCurrent = true;
    setState({ data: null, error: null });
    load().then(
      (data) => isCurrent && setState({ data, error: null }),
      (error: unknown) => isCurrent && setState({ data: null, error: describeError(error) }),
    );
    return () => {
      isCurrent = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state;
}

function Shell({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={1100} mx="auto" py="lg" px="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Anchor component={Link} href="/explorer" size="sm">
          <Trans>Latest blocks</Trans>
        </Anchor>
      </Group>
      {children}
    </Stack>
  );
}

function Loading({ error }: { error: string | null }) {
  return error ? <Alert color="red">{error}</Alert> : <Loader />;
}

const short = (hex: string) => `${hex.slice(0, 12)}…${hex.slice(-6)}`;
const time = (ms: number, locale: string) => new Date(ms).toLocaleString(locale);

function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={160}>{label}</Table.Th>
      <Table.Td style={{ wordBreak: 'break-all' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

/** Latest blocks, newest first, with paging back in time. */
export function ExplorerHomePage() {
  const { i18n } = useLingui();
  const [before, setBefore] = useState<number | undefined>(undefined);
  const { data, error } = useLoad(() => fetchBlocks(before), String(before));
  return (
    <Shell title={<Trans>Block explorer</Trans>}>
      {!data ? (
        <Loading error={error} />
      ) : (
        <>
          <Text c="dimmed" size="sm">
            <Trans>
              {data.latest_height} blocks, {data.tree_size} entries in the log.
            </Trans>
          </Text>
          <Paper withBorder radius="md">
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
                    <Table.Td>{time(b.sealed_at, i18n.locale)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
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

function BlockHeaderTable({ block }: { block: BlockDto }) {
  const { i18n } = useLingui();
  return (
    <Table variant="vertical" withTableBorder layout="fixed">
      <Table.Tbody>
        <Field label={<Trans>Height</Trans>}>#{block.height}</Field>
        <Field label={<Trans>Block hash</Trans>}>
          <Code>{block.hash}</Code>
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
        <Field label={<Trans>Tree size</Trans>}>{block.tree_size}</Field>
        <Field label={<Trans>Merkle root</Trans>}>
          <Code>{block.root}</Code>
        </Field>
        <Field label={<Trans>Sealed at</Trans>}>{time(block.sealed_at, i18n.locale)}</Field>
        <Field label={<Trans>Signing key</Trans>}>
          <Code>{block.key_id}</Code>
        </Field>
        <Field label={<Trans>Signature</Trans>}>
          <Code>{block.signature}</Code>
        </Field>
        <Field label={<Trans>Anchor</Trans>}>
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

/** One block: its signed header and its entries. */
export function ExplorerBlockPage({ height }: { height: string }) {
  const { i18n } = useLingui();
  const [page, setPage] = useState(1);
  const block = useLoad(() => fetchBlock(height), height);
  const entries = useLoad<BlockEntryDto[]>(() => (block.data ? fetchBlockEntries(block.data.height, page) : Promise.resolve([])), `${block.data?.hash}:${page}`);
  return (
    <Shell title={<Trans>Block #{height}</Trans>}>
      {!block.data ? (
        <Loading error={block.error} />
      ) : (
        <>
          <BlockHeaderTable block={block.data} />
          <Title order={2} size="h4">
            <Trans>Entries</Trans>
          </Title>
          <Paper withBorder radius="md">
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
                    <Table.Td>{e.enterprise_name}</Table.Td>
                    <Table.Td>{time(e.registered_at, i18n.locale)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
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

/** One entry: its record, its block and its inclusion proof. The file hash is never shown here. */
export function ExplorerEntryPage({ dna }: { dna: string }) {
  const { i18n } = useLingui();
  const { data, error } = useLoad<EntryDto>(() => fetchEntry(dna), dna);
  return (
    <Shell title={<Trans>Entry {dna}</Trans>}>
      {!data ? (
        <Loading error={error} />
      ) : (
        <>
          <Table variant="vertical" withTableBorder layout="fixed" data-testid="explorer-entry">
            <Table.Tbody>
              <Field label={<Trans>Asset DNA</Trans>}>
                <Code>{data.asset_dna}</Code>
              </Field>
              <Field label={<Trans>Registered at</Trans>}>{time(data.registered_at, i18n.locale)}</Field>
              <Field label={<Trans>Enterprise</Trans>}>{data.enterprise_name}</Field>
              <Field label={<Trans>Kind</Trans>}>{data.kind}</Field>
              <Field label={<Trans>Block</Trans>}>
                {data.block ? (
                  <Anchor component={Link} href={`/explorer/blocks/${data.block.height}`}>
                    #{data.block.height} <Code>{short(data.block.hash)}</Code>
                  </Anchor>
                ) : (
                  <Trans>Waiting for the next block</Trans>
                )}
              </Field>
              <Field label={<Trans>Leaf index</Trans>}>{data.leaf_index ?? '—'}</Field>
              <Field label={<Trans>Leaf hash</Trans>}>
                <Code>{data.leaf_hash}</Code>
              </Field>
              <Field label={<Trans>Record</Trans>}>
                <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  {data.record}
                </Code>
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
                  RFC 6962 audit path from the leaf to the root of a tree of {data.inclusion.tree_size} leaves.
                </Trans>
              </Text>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {data.inclusion.path.join('\n') || '—'}
              </Code>
            </Stack>
          )}
        </>
      )}
    </Shell>
  );
}
