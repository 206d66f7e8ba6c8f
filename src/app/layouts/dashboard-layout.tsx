import type { ReactNode } from 'react';
import { Box, NavLink as MantineNavLink, ScrollArea, Stack } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { isEntryActive, visibleSidebarEntries } from '../sidebar-registry.ts';
import { NavBar } from './nav-bar.tsx';
import classes from './dashboard-layout.module.css';

function Sidebar() {
  const config = useConfig();
  const { i18n, t } = useLingui();
  const [location] = useLocation();
  const entries = visibleSidebarEntries(config);
  return (
    <nav className={classes.sidebar} aria-label={t`Dashboard`}>
      <ScrollArea type="never" className={classes.sidebarScroll}>
        <Stack gap={4} className={classes.sidebarList}>
          {entries.map((entry) => {
            const Icon = entry.icon;
            return (
              <MantineNavLink
                key={entry.key}
                component={Link}
                href={entry.path}
                label={i18n._(entry.label)}
                leftSection={<Icon size={18} stroke={1.6} />}
                active={isEntryActive(entry, location)}
                className={classes.sidebarLink}
                data-sidebar-index={entry.index}
              />
            );
          })}
        </Stack>
      </ScrollArea>
    </nav>
  );
}

/** §2 dashboard layout: nav bar, the sidebar groups, the screen. */
export function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" bg="gray.0">
      <NavBar />
      <div className={classes.body}>
        <Sidebar />
        <Box component="main" className={classes.main}>
          {children}
        </Box>
      </div>
    </Box>
  );
}
