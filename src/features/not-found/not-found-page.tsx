import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { Trans } from '@lingui/react/macro';
import { Link } from 'wouter';

/** A real not-found page: what happened and the way home. */
export function NotFoundPage({ homePath = '/' }: { homePath?: string }) {
  return (
    <Center py={80} px="md">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <Text fz={72} fw={800} c="brand.1" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1} size="h2">
          <Trans>Page not found</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>The page you are looking for does not exist or has been moved. Check the address, or go back to the home page.</Trans>
        </Text>
        <Button component={Link} href={homePath} leftSection={<IconHome size={16} />} mt="sm">
          <Trans>Back to home</Trans>
        </Button>
      </Stack>
    </Center>
  );
}
