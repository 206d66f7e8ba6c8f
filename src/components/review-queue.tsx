import type { ReactNode } from 'react';
import { Group, SegmentedControl, Table, Text, type MantineSpacing } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { PageLoader } from './page-loader.tsx';

/**
 * An operator console queue (enterprise applications, key custody, top-up orders): a filter
 * by status — '1' pending, '2' done (approved, completed, confirmed: `doneLabel`), '3'
 * rejected, '0' all — then a loader until the first answer, the empty text, or the table.
 */
export function ReviewQueue<T>({
  status,
  onStatusChange,
  doneLabel,
  items,
  empty,
  emptyTestId,
  testId,
  verticalSpacing,
  head,
  renderRow,
}: {
  status: string;
  onStatusChange: (status: string) => void;
  doneLabel: string;
  items: readonly T[] | null;
  empty: string;
  emptyTestId?: string;
  testId: string;
  verticalSpacing?: MantineSpacing;
  /** The header row (`<Table.Tr>` of `<Table.Th>`). */
  head: ReactNode;
  renderRow: (item: T) => ReactNode;
}) {
  const { t } = useLingui();
  return (
    <>
      <SegmentedControl
        w="fit-content"
        value={status}
        onChange={onStatusChange}
        data={[
          { value: '1', label: t`Pending` },
          { value: '2', label: doneLabel },
          { value: '3', label: t`Rejected` },
          { value: '0', label: t`All` },
        ]}
      />
      {items === null ? (
        <PageLoader />
      ) : items.length === 0 ? (
        <Text c="dimmed" data-testid={emptyTestId}>
          {empty}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing={verticalSpacing} data-testid={testId}>
            <Table.Thead>{head}</Table.Thead>
            <Table.Tbody>{items.map(renderRow)}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

/** A queued item's status: its badge, and the reviewer's note under it. */
export function ReviewStatus({ badge, note }: { badge: ReactNode; note: string | null | undefined }) {
  return (
    <>
      {badge}
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </>
  );
}

/** The decisions on a pending item, side by side; nothing once it is decided. */
export function ReviewActions({ isPending, children }: { isPending: boolean; children: ReactNode }) {
  if (!isPending) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      {children}
    </Group>
  );
}
