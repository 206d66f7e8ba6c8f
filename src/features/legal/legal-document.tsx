import { Anchor, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';

export type LegalSection = { id: string; title: MessageDescriptor; paragraphs: MessageDescriptor[] };

type Props = { title: string; updated: string; intro: MessageDescriptor; sections: LegalSection[] };

/** A legal document: title, last-updated date, a linked table of contents, numbered sections. */
export function LegalDocument({ title, updated, intro, sections }: Props) {
  const { i18n, t } = useLingui();
  return (
    <Container size={1180} py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={860} mx="auto">
        <Stack gap="lg">
          <div>
            <Title order={1} size="h2">
              {title}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {t`Last updated: ${updated}`}
            </Text>
          </div>
          <Text>{i18n._(intro)}</Text>
          <nav aria-label={t`Contents`}>
            <Text fw={600} mb={4}>
              {t`Contents`}
            </Text>
            <List type="ordered" size="sm" spacing={2}>
              {sections.map((section) => (
                <List.Item key={section.id}>
                  <Anchor href={`#${section.id}`} size="sm">
                    {i18n._(section.title)}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </nav>
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} style={{ scrollMarginTop: 80 }}>
              <Title order={2} size="h4" mb="xs">
                {index + 1}. {i18n._(section.title)}
              </Title>
              <Stack gap="xs">
                {section.paragraphs.map((paragraph) => (
                  <Text key={paragraph.id} style={{ lineHeight: 1.75, overflowWrap: 'anywhere' }}>
                    {i18n._(paragraph)}
                  </Text>
                ))}
              </Stack>
            </section>
          ))}
        </Stack>
      </Paper>
    </Container>
  );
}
