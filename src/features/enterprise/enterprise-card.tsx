import type { ReactNode } from 'react';
import { Container, Paper, Stack, Text, Title } from '@mantine/core';

/** The frame of the standalone identity and company screens. */
export function EnterpriseCard({ title, subtitle, children, width = 560 }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode; width?: number }) {
  return (
    <Container size={width} py={{ base: 'md', sm: 40 }} px={{ base: 'xs', sm: 'md' }}>
      <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <div>
            <Title order={2} size="h3">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm" mt={4}>
                {subtitle}
              </Text>
            )}
          </div>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
