import type { ReactNode } from 'react';
import { Anchor, Breadcrumbs, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';

/** One step of a detail page's trail: a link back, or (without href) where the user is. */
export type TrailStep = { label: ReactNode; href?: string; maxWidth?: number };

/** The breadcrumb trail above a detail page's title; wraps on narrow screens, truncates the current step. */
export function DetailTrail({ steps }: { steps: Array<TrailStep | false | null | undefined> }) {
  return (
    <Breadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap' } }}>
      {steps
        .filter((s): s is TrailStep => Boolean(s))
        .map((s, i) =>
          s.href ? (
            <Anchor key={i} component={Link} href={s.href} size="sm">
              {s.label}
            </Anchor>
          ) : (
            <Text key={i} size="sm" c="dimmed" truncate maw={s.maxWidth ?? 260}>
              {s.label}
            </Text>
          ),
        )}
    </Breadcrumbs>
  );
}

/** A detail page's head: the trail, the title (long names wrap anywhere) and what sits at its right (state badges). */
export function DetailHeading({ trail, title, titleTestId, aside }: { trail: ReactNode; title: ReactNode; titleTestId?: string; aside?: ReactNode }) {
  return (
    <Stack gap={4}>
      {trail}
      <Group justify="space-between" gap="sm" align="flex-start" wrap="wrap">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere', minWidth: 0, flex: '1 1 260px' }} data-testid={titleTestId}>
          {title}
        </Title>
        {aside}
      </Group>
    </Stack>
  );
}

/** What a detail page shows when the thing does not exist or the user may not see it (the same answer for both, on purpose). */
export function NotFoundPanel({ trail, title, text, testId, children }: { trail: ReactNode; title: ReactNode; text: ReactNode; testId: string; children?: ReactNode }) {
  return (
    <Stack gap="lg">
      {trail}
      <Paper withBorder radius="md" p="xl" data-testid={testId}>
        <Stack gap="sm">
          <Title order={1} size="h3">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {text}
          </Text>
          {children}
        </Stack>
      </Paper>
    </Stack>
  );
}
