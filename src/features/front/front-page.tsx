import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Trans } from '@lingui/react/macro';
import { Link } from 'wouter';

/**
 * The front page headline of §2. The full front page (advantage cards, assessment and
 * insurance, the four asset kinds, solutions, compute centre, the xian variant) is a
 * later issue.
 */
export function FrontPage({ isLoggedIn, defaultPath }: { isLoggedIn: boolean; defaultPath: string }) {
  return (
    <Container size={1180} py={{ base: 56, sm: 120 }}>
      <Stack align="center" ta="center" gap="lg">
        <Title order={1} fz={{ base: 32, sm: 48 }} lh={1.2}>
          <Trans>Digital intellectual property, registered and provable</Trans>
        </Title>
        <Text size="lg" c="dimmed" maw={640}>
          <Trans>A full chain of service from creation and use to protection and financing.</Trans>
        </Text>
        <Group gap="md" justify="center">
          {isLoggedIn ? (
            <Button component={Link} href={defaultPath} size="md">
              <Trans>Go to my dashboard</Trans>
            </Button>
          ) : (
            <>
              <Button component={Link} href="/signup" size="md">
                <Trans>Register now</Trans>
              </Button>
              <Button component={Link} href="/user/login" size="md" variant="default">
                <Trans>Log in</Trans>
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </Container>
  );
}
