import type { ReactNode } from 'react';
import { Card, Group, Pagination, Stack, Table } from '@mantine/core';
import type { Paged } from '../../core/api-types.ts';

/** The page numbers under a paged list, centred; nothing while everything fits on one page. */
export function ListPager({ data, page, onChange, testId }: { data: Paged<unknown> | null; page: number; onChange: (page: number) => void; testId?: string }) {
  const pages = data ? Math.ceil(data.total / data.page_size) : 1;
  if (pages <= 1) return null;
  return (
    <Group justify="center">
      <Pagination total={pages} value={page} onChange={onChange} size="sm" data-testid={testId} />
    </Group>
  );
}

/** What an empty list says: a bordered card, its icon above the words, centred. */
export function EmptyState({ icon, testId, children }: { icon: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="xl" data-testid={testId}>
      <Stack align="center" gap="xs">
        {icon}
        {children}
      </Stack>
    </Card>
  );
}

/** A list's table on wider screens: in a bordered card, scrolling sideways below `minWidth`. */
export function TableCard({ minWidth, testId, isHoverable = true, children }: { minWidth: number; testId: string; isHoverable?: boolean; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding={0}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" highlightOnHover={isHoverable} data-testid={testId}>
          {children}
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
