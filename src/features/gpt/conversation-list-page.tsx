import { useEffect, useState } from 'react';
import { ActionIcon, Button, Card, Group, Modal, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconMessageChatbot, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { notifyError } from '@/api/error-messages.ts';
import { EmptyState, ListPager } from '@/components/paged-list.tsx';
import { GPT_TITLE_MAX, type GptConversationDto } from '../../../core/gpt.ts';
import { deleteConversation, fetchConversations, fetchGptInfo, renameConversation } from './gpt-api.ts';
import { SourceNote } from './source-note.tsx';

function RenameModal({ conversation, onClose, onRenamed }: { conversation: GptConversationDto | null; onClose: () => void; onRenamed: () => void }) {
  const { t, i18n } = useLingui();
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  useEffect(() => {
    setTitle(conversation?.title ?? '');
    setError(null);
  }, [conversation]);
  const onSave = async () => {
    if (!conversation) return;
    if (!title.trim()) {
      setError(t`Please enter a title`);
      return;
    }
    setIsSaving(true);
    try {
      await renameConversation(conversation.id, title.trim());
      onRenamed();
    } catch (e) {
      notifyError(e, i18n);
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <Modal opened={conversation !== null} onClose={onClose} title={t`Rename the conversation`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void onSave();
        }}
      >
        <Stack>
          <TextInput
            label={t`Title`}
            value={title}
            onChange={(e) => {
              setTitle(e.currentTarget.value);
              setError(null);
            }}
            maxLength={GPT_TITLE_MAX}
            error={error}
            data-autofocus
            data-testid="gpt-rename-input"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={isSaving} data-testid="gpt-rename-save">
              <Trans>Save</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** /dashboard/gpt/list: the caller's conversations, newest first, with search, rename and delete. */
export function ConversationListPage() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  const [renaming, setRenaming] = useState<GptConversationDto | null>(null);
  const { data: info } = useLoaded((signal) => fetchGptInfo(signal), []);
  const { data, reload } = useLoaded((signal) => fetchConversations({ page, page_size: config.tablePageSize, ...(debounced ? { keyword: debounced } : {}) }, signal), [page, debounced, config.tablePageSize]);

  const onDelete = (c: GptConversationDto) => {
    const title = c.title || t`New conversation`;
    modals.openConfirmModal({
      title: t`Delete the conversation?`,
      children: <Text size="sm">{t`“${title}” and all its messages will be deleted. This cannot be undone.`}</Text>,
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red', 'data-testid': 'gpt-delete-confirm' } as Record<string, string>,
      onConfirm: async () => {
        try {
          await deleteConversation(c.id);
          notifications.show({ color: 'green', message: t`Conversation deleted` });
          reload();
        } catch (e) {
          notifyError(e, i18n);
        }
      },
    });
  };

  const items = data?.items ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Title order={2}>
            <Trans>Chat assistant</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Your conversations with the assistant. Only you can see them.</Trans>
          </Text>
        </div>
        <Button component={Link} href="/dashboard/gpt/detail" leftSection={<IconPlus size={16} />} data-testid="gpt-new">
          <Trans>New conversation</Trans>
        </Button>
      </Group>
      <SourceNote info={info} />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t`Search titles and messages`}
        value={keyword}
        onChange={(e) => {
          setKeyword(e.currentTarget.value);
          setPage(1);
        }}
        maxLength={100}
        data-testid="gpt-search"
      />
      {data && items.length === 0 && (
        <EmptyState icon={<IconMessageChatbot size={36} stroke={1.4} />} testId="gpt-empty">
          <Text c="dimmed">{debounced ? <Trans>No conversation matches.</Trans> : <Trans>No conversations yet. Ask the assistant anything about the platform or your data.</Trans>}</Text>
        </EmptyState>
      )}
      {items.length > 0 && (
        <Stack gap="xs" data-testid="gpt-conversations">
          {items.map((c) => (
            <Card key={c.id} withBorder radius="md" padding="sm" data-testid="gpt-conversation" data-id={c.id}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Link href={`/dashboard/gpt/detail/${c.id}`} style={{ minWidth: 0, flex: 1, color: 'inherit', textDecoration: 'none' }} data-testid="gpt-conversation-link">
                  <Stack gap={2}>
                    <Text fw={600} truncate data-testid="gpt-conversation-title">
                      {c.title || t`New conversation`}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {i18n.date(new Date(c.last_message_at), { dateStyle: 'medium', timeStyle: 'short' })} · {t`Messages: ${c.message_count}`}
                    </Text>
                  </Stack>
                </Link>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t`Rename`}>
                    <ActionIcon variant="subtle" color="gray" aria-label={t`Rename`} onClick={() => setRenaming(c)} data-testid="gpt-rename">
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t`Delete`}>
                    <ActionIcon variant="subtle" color="red" aria-label={t`Delete`} onClick={() => onDelete(c)} data-testid="gpt-delete">
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <ListPager data={data} page={page} onChange={setPage} />
      <RenameModal
        conversation={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={() => {
          setRenaming(null);
          reload();
        }}
      />
    </Stack>
  );
}
