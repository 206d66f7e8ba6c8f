import { Button, Code, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconFileSearch, IconFingerprint, IconDna2, IconZoomQuestion } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useSearch as useQueryString } from 'wouter';
import { classifySearchInput } from '../../../core/search.ts';
import { SearchBox } from './search-box.tsx';
import { useSearchField } from './use-search.ts';

function SearchAgain({ initialValue }: { initialValue: string }) {
  const field = useSearchField({ initialValue });
  return <SearchBox field={field} variant="page" testId="empty-search-box" />;
}

/**
 * §2 dashboard `empty`: "no search results found!", what was searched (the keyword, and the
 * file's name when a file was chosen), and the search again.
 */
export function EmptySearchPage({ canSearch, homePath }: { canSearch: boolean; homePath: string }) {
  const { t } = useLingui();
  const query = new URLSearchParams(useQueryString());
  const keyword = query.get('keyword') ?? '';
  const fileName = query.get('file') ?? '';
  const kind = classifySearchInput(keyword).kind;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={760} mx="auto" data-testid="empty-search">
      <Stack gap="lg">
        <Stack gap="xs" align="center" ta="center">
          <ThemeIcon size={64} radius="xl" variant="light" color="gray">
            <IconZoomQuestion size={36} stroke={1.5} />
          </ThemeIcon>
          <Title order={1} size="h2" data-testid="empty-search-title">
            <Trans>No search results found!</Trans>
          </Title>
          <Text c="dimmed" maw={560}>
            <Trans>Nothing you may see matches this search. You find your own registrations, and your company’s when your role lets you see them.</Trans>
          </Text>
        </Stack>
        {keyword && (
          <Paper bg="gray.0" radius="md" p="md">
            <Stack gap={6}>
              <Text size="sm" fw={600}>
                {fileName ? t`You searched for the file` : kind === 'dna' ? t`You searched for the DNA` : t`You searched for the fingerprint`}
              </Text>
              {fileName && (
                <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="empty-search-file">
                  {fileName}
                </Text>
              )}
              <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="empty-search-keyword">
                {keyword}
              </Code>
            </Stack>
          </Paper>
        )}
        {canSearch && (
          <Stack gap="sm">
            <Text fw={600}>
              <Trans>Search again</Trans>
            </Text>
            <SearchAgain key={`${keyword} ${fileName}`} initialValue={fileName ? '' : keyword} />
            <List size="sm" c="dimmed" spacing={6} center>
              <List.Item icon={<IconFingerprint size={16} />}>
                <Trans>A file fingerprint: 0x and 64 hexadecimal digits, with or without the file’s extension.</Trans>
              </List.Item>
              <List.Item icon={<IconDna2 size={16} />}>
                <Trans>A digital asset DNA: pv and 20 letters or digits, as printed on the proof certificate.</Trans>
              </List.Item>
              <List.Item icon={<IconFileSearch size={16} />}>
                <Trans>Or choose a file: it is fingerprinted in your browser and never uploaded.</Trans>
              </List.Item>
            </List>
          </Stack>
        )}
        <Group justify="center">
          <Button component={Link} href={homePath} variant="default" leftSection={<IconArrowLeft size={16} />}>
            <Trans>Back to home</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
