import { ActionIcon, Drawer, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { SearchBox } from './search-box.tsx';
import { useSearchField } from './use-search.ts';

/**
 * The nav bar's search (§2). Wide screens get the box itself; narrow ones an icon that opens a
 * full-width search panel from the top (the box, its messages and the file's progress).
 */
export function NavSearch({ isCompact }: { isCompact: boolean }) {
  const { t } = useLingui();
  const [isOpen, panel] = useDisclosure(false);
  const field = useSearchField({ onNavigate: panel.close });
  if (!isCompact) {
    return (
      <div style={{ width: 'clamp(180px, 16vw, 240px)', minWidth: 0 }}>
        <SearchBox field={field} variant="nav" testId="nav-search" />
      </div>
    );
  }
  return (
    <>
      <ActionIcon variant="subtle" color="gray" size="lg" onClick={panel.open} aria-label={t`Search`} data-testid="nav-search-open">
        <IconSearch size={20} stroke={1.6} />
      </ActionIcon>
      <Drawer
        opened={isOpen}
        onClose={panel.close}
        position="top"
        title={t`Search`}
        // As tall as its content: the page stays visible (dimmed) below the panel.
        styles={{ content: { height: 'auto', flex: '0 0 auto' } }}
        data-testid="nav-search-panel"
      >
        <Stack gap="sm" pb="sm">
          <SearchBox field={field} variant="page" autoFocus testId="nav-search" />
          <Text size="xs" c="dimmed">
            {t`Search your registrations by file fingerprint or digital asset DNA, or choose a file to fingerprint it here.`}
          </Text>
        </Stack>
      </Drawer>
    </>
  );
}
