import { Anchor, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Trans } from '@lingui/react/macro';
import { Link } from 'wouter';
import { REPOS_PATH } from './repos-labels.ts';

/** /dashboard/repos/intro: what a commit proof proves and what it does not, for a lawyer and for an engineer. */
export function ReposIntroPage() {
  return (
    <Stack gap="lg" maw={1100}>
      <Anchor component={Link} href={REPOS_PATH} size="sm">
        <Trans>Source-code projects</Trans>
      </Anchor>
      <Title order={1} size="h2">
        <Trans>What a commit proof proves</Trans>
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="md" padding="lg" data-testid="intro-lawyer">
          <Stack gap="sm">
            <Title order={2} size="h4">
              <Trans>For a lawyer</Trans>
            </Title>
            <Text size="sm">
              <Trans>Each registered commit gets a certificate signed by the platform. It proves that, at the registration time shown, your enterprise held a version of the software whose every file had exactly the fingerprints recorded, under that commit.</Trans>
            </Text>
            <List size="sm" spacing={4}>
              <List.Item>
                <Trans>Proven: the content of every file (by its SHA-256 fingerprint), the commit and its history, and the time of registration.</Trans>
              </List.Item>
              <List.Item>
                <Trans>Not proven: who wrote the code (author names and dates are what the commit says), nor that it existed before it was registered.</Trans>
              </List.Item>
              <List.Item>
                <Trans>The code itself is never sent to the platform; to show what it was, you produce the repository and anyone can check it against the certificate.</Trans>
              </List.Item>
            </List>
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="lg" data-testid="intro-engineer">
          <Stack gap="sm">
            <Title order={2} size="h4">
              <Trans>For an engineer</Trans>
            </Title>
            <Text size="sm">
              <Trans>The registered record holds the commit and tree ids, the parents, author and committer (name, e-mail as SHA-256, time, zone), the SHA-256 of the message and of the commit object, and a SHA-256 digest of the tree: one line per file with its mode, the SHA-256 of its content and its path, sorted by path. So the proof does not rest on git's SHA-1 alone.</Trans>
            </Text>
            <List size="sm" spacing={4}>
              <List.Item>
                <Trans>From the browser: pick the repository folder; the .git directory is read in your browser and only the records are sent.</Trans>
              </List.Item>
              <List.Item>
                <Trans>From CI: provena repo push --project ID with a project token; only new commits are sent.</Trans>
              </List.Item>
              <List.Item>
                <Trans>To check: provena verify-commit CLONE COMMIT PROOF.pdf recomputes the record from a clone and runs every check; one changed byte in one file fails it.</Trans>
              </List.Item>
              <List.Item>
                <Trans>Repositories in the SHA-256 object format cannot be read yet.</Trans>
              </List.Item>
            </List>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
