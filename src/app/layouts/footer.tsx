import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { LocaleSwitch } from '../locale-switch.tsx';
import { useFrontVariant } from './use-front-variant.ts';

/** §2 footer: contact, filing number (by variant), language switch, e-mail and the Xi'an address; terms and privacy. */
export function Footer() {
  const config = useConfig();
  const { t } = useLingui();
  const variant = useFrontVariant();
  const year = new Date().getFullYear();
  const email = config.contactEmail;
  const filingNumber = config.filingNumber[variant];
  const hasFront = config.frontPageAvailable;
  return (
    <Box component="footer" bg="gray.0" py="xl" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }} data-testid="site-footer">
      <Container size={1180}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" mb="lg">
          <Stack gap={6}>
            <Text fw={700}>{config.webTitle}</Text>
            <Text size="sm" c="dimmed">
              <Trans>Address: Xi'an, Shaanxi, China</Trans>
            </Text>
          </Stack>
          <Stack gap={6} component="nav" aria-label={t`Footer`}>
            <Text fw={700} size="sm">
              <Trans>About</Trans>
            </Text>
            <Group gap="md" wrap="wrap">
              {hasFront && (
                <Anchor component={Link} href="/insurance" size="sm" c="dark.6">
                  <Trans>Assessment and insurance</Trans>
                </Anchor>
              )}
              {config.cooperation && (
                <Anchor component={Link} href="/partners" size="sm" c="dark.6">
                  <Trans>Partners</Trans>
                </Anchor>
              )}
              <Anchor component={Link} href="/terms" size="sm" c="dark.6">
                <Trans>User agreement</Trans>
              </Anchor>
              <Anchor component={Link} href="/privacy" size="sm" c="dark.6">
                <Trans>Privacy policy</Trans>
              </Anchor>
            </Group>
          </Stack>
          <Stack gap={6}>
            <Text fw={700} size="sm">
              <Trans>Contact</Trans>
            </Text>
            <Text size="sm" c="dark.6">
              <Trans>
                Contact us: <Anchor href={`mailto:${email}`} size="sm">{email}</Anchor>
              </Trans>
            </Text>
            <div>
              <LocaleSwitch variant="default" testId="footer-locale" />
            </div>
          </Stack>
        </SimpleGrid>
        <Text size="xs" c="dark.4" data-testid="footer-filing">
          © {year} {config.webTitle} · {filingNumber}
        </Text>
      </Container>
    </Box>
  );
}
