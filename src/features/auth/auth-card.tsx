import type { ReactNode } from 'react';
import { Box, Paper, Text, Title } from '@mantine/core';

/** The frame of the account screens: a centred card on a quiet background. */
export function AuthCard({ title, subtitle, children }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <Box
      px={{ base: 10, sm: 'md' }}
      py={{ base: 24, sm: 56 }}
      style={{ background: 'linear-gradient(180deg, var(--mantine-color-brand-0) 0%, var(--mantine-color-body) 70%)' }}
    >
      <Paper maw={460} mx="auto" p={{ base: 'md', sm: 'xl' }} radius="lg" withBorder shadow="sm">
        <Title order={1} size="h2" mb={subtitle ? 4 : 'lg'}>
          {title}
        </Title>
        {subtitle && (
          <Text c="dimmed" size="sm" mb="lg">
            {subtitle}
          </Text>
        )}
        {children}
      </Paper>
    </Box>
  );
}
