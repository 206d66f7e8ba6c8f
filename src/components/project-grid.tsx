import { useState, type ReactNode } from 'react';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { Paged } from '../../core/api-types.ts';
import { EmptyState, ListPager } from './paged-list.tsx';

/**
 * The project lists (trade-secret vault, source-code projects) share one shape: a search by
 * name that goes back to page 1, a grid of cards, an empty state that says whether the search or
 * the enterprise has nothing, and the pager. What differs (the icon, the card's figures, the words)
 * comes in as props.
 */

/** The search box and page of a project list; `debounced` is what the list is fetched with. */
export function useProjectSearch() {
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  return { page, setPage, keyword, debounced, setKeyword: (value: string) => (setKeyword(value), setPage(1)) };
}

export type ProjectSearch = ReturnType<typeof useProjectSearch>;

export function ProjectSearchInput({ search }: { search: ProjectSearch }) {
  const { t } = useLingui();
  return (
    <TextInput
      leftSection={<IconSearch size={16} />}
      placeholder={t`Search projects by name`}
      aria-label={t`Search projects by name`}
      value={search.keyword}
      onChange={(event) => search.setKeyword(event.currentTarget.value)}
      w={{ base: '100%', xs: 320 }}
    />
  );
}

/** One project: its icon, name (a link), owner, description, a figures row and an optional footer. */
export function ProjectCard(props: { testId: string; icon: ReactNode; href: string; name: string; ownerName: string; description: string; figures: ReactNode; footer?: ReactNode }) {
  const { t } = useLingui();
  return (
    <Card withBorder radius="md" padding="lg" data-testid={props.testId}>
      <Stack gap="xs" h="100%">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" radius="md">
            {props.icon}
          </ThemeIcon>
          <div style={{ minWidth: 0, flex: 1 }}>
            <Anchor component={Link} href={props.href} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {props.name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {t`Owner: ${props.ownerName}`}
            </Text>
          </div>
        </Group>
        <Text size="sm" c={props.description ? undefined : 'dimmed'} lineClamp={3} style={{ flex: 1, overflowWrap: 'anywhere' }}>
          {props.description || t`No description`}
        </Text>
        <Group justify="space-between" gap="xs">
          {props.figures}
        </Group>
        {props.footer}
      </Stack>
    </Card>
  );
}

/** The grid of cards, or the empty state (a search with no match, or no project yet), then the pager. */
export function ProjectGrid<T>(props: {
  data: Paged<T> | null;
  search: ProjectSearch;
  testId: string;
  emptyIcon: ReactNode;
  emptyTitle: ReactNode;
  emptyHint: ReactNode;
  renderCard: (item: T) => ReactNode;
}) {
  const { data, search } = props;
  return (
    <>
      {data && data.items.length === 0 ? (
        <EmptyState
          icon={
            <ThemeIcon variant="light" size={48} radius="xl">
              {props.emptyIcon}
            </ThemeIcon>
          }
        >
          <Text fw={600}>{search.debounced ? <Trans>No project matches this name</Trans> : props.emptyTitle}</Text>
          {!search.debounced && (
            <Text size="sm" c="dimmed" ta="center">
              {props.emptyHint}
            </Text>
          )}
        </EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid={props.testId}>
          {data?.items.map((item) => props.renderCard(item))}
        </SimpleGrid>
      )}
      <ListPager data={data} page={search.page} onChange={search.setPage} />
    </>
  );
}
