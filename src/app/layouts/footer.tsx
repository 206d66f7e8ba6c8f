import { Anchor, Box, Container, Group, Stack, Text } from '@mantine/core';
import { Trans } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { LocaleSwitch } from '../locale-switch.tsx';

/** §2 footer: contact, filing number (by variant), language switch, e-mail and address. */
export function Footer() {
  const config = useConfig();
  const year = new Date().getFullYear();
  const email = config.contactEmail;
  const filingNumber = config.filingNumber[config.frontPageVersion];
  return (
    <Box component="footer" bg="gray.0" py="lg" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
      <Container size={1180}>
        <Stack gap="xs">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Group gap="md" wrap="wrap">
              <Anchor component={Link} href="/terms" size="sm" c="dimmed">
                <Trans>User agreement</Trans>
              </Anchor>
              <Anchor component={Link} href="/privacy" size="sm" c="dimmed">
                <Trans>Privacy policy</Trans>
              </Anchor>
              <Text size="sm" c="dimmed">
                <Trans>
                  Contact us: <Anchor href={`mailto:${email}`} size="sm">{email}</Anchor>
                </Trans>
              </Text>
            </Group>
            <LocaleSwitch variant="default" testId="footer-locale" />
          </Group>
          <Text size="xs" c="dimmed">
            <Trans>Address: Xi'an, Shaanxi, China</Trans>
          </Text>
          <Text size="xs" c="dimmed">
            © {year} {config.webTitle} · {filingNumber}
          </Text>
        </Stack>
      </Container>
    </Box>
  );
}
