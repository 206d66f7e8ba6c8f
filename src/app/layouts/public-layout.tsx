import type { ReactNode } from 'react';
import { Box } from '@mantine/core';
import { NavBar } from './nav-bar.tsx';
import { Footer } from './footer.tsx';

/** §2 public layout: nav bar, the page, footer. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <NavBar />
      <Box component="main" style={{ flex: 1 }}>
        {children}
      </Box>
      <Footer />
    </Box>
  );
}
