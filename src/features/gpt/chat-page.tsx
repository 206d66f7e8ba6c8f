import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Anchor, Badge, Box, Button, Card, CopyButton, FileInput, Group, Loader, Modal, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconCheck, IconCopy, IconFileCertificate, IconPaperclip, IconPencil, IconPlayerStopFilled, IconRefresh, IconSend, IconX } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { useFileHash } from '@/components/progress/use-file-hash.ts';
import { WorkProgress } from '@/components/progress/work-progress.tsx';
import { GPT_ATTACHMENT_MAX_BYTES, GPT_CONTENT_MAX, type GptAttachment, type GptCitation, type GptMessageDto, type GptStreamEvent } from '../../../core/gpt.ts';
import { createConversation, fetchConversation, fetchGptInfo, streamAnswer, type AnswerRequest } from './gpt-api.ts';
import { AnswerMarkdown } from './answer-markdown.tsx';
import { SourceNote } from './source-note.tsx';
import classes from './chat-page.module.css';

type ShownMessage = Omit<GptMessageDto, 'status'> & { status: GptMessageDto['status'] | 'streaming' };

let tempId = -1;
const nextTempId = () => (tempId -= 1);

function CitationList({ citations }: { citations: GptCitation[] }) {
  const { t, i18n } = useLingui();
  if (citations.length === 0) return null;
  return (
    <Group gap={6} mt={6} data-testid="gpt-citations">
      {citations.map((c, i) => {
        const when = c.proof_at ? i18n.date(new Date(c.proof_at), { dateStyle: 'medium' }) : null;
        const label = [c.title, c.dna ? `DNA ${c.dna}` : null, when ? t`proof ${when}` : null].filter(Boolean).join(' · ');
        const badge = (
          <Badge variant="light" color={c.kind === 'help' ? 'gray' : 'blue'} tt="none" radius="sm" className={classes.citation} data-testid="gpt-citation" data-kind={c.kind}>
            {label}
          </Badge>
        );
        return c.link ? (
          <Anchor key={i} component={Link} href={c.link} underline="never">
            {badge}
          </Anchor>
        ) : (
          <span key={i}>{badge}</span>
        );
      })}
    </Group>
  );
}

function AttachModal({ isOpen, onClose, onAttached }: { isOpen: boolean; onClose: () => void; onAttached: (a: GptAttachment) => void }) {
  const { t } = useLingui();
  const [proof, setProof] = useState<File | null>(null);
  const [original, setOriginal] = useState<File | null>(null);
  const [error, setError] = useState<{ field: 'proof' | 'original'; text: string } | null>(null);
  const { progress, hash, cancel } = useFileHash(t`Attaching was cancelled`);
  const onAttach = async () => {
    if (!proof) return setError({ field: 'proof', text: t`Please choose the proof file` });
    if (!/\.pdf$/i.test(proof.name) && proof.type !== 'application/pdf') return setError({ field: 'proof', text: t`The proof must be a PDF` });
    if (proof.size > GPT_ATTACHMENT_MAX_BYTES) return setError({ field: 'proof', text: t`The proof file is too large` });
    if (!original) return setError({ field: 'original', text: t`Please choose the original file` });
    const hashed = await hash(original);
    if (!hashed) return;
    const bytes = new Uint8Array(await proof.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    onAttached({ name: proof.name, proof_base64: btoa(binary), original_hash: hashed.identity });
    setProof(null);
    setOriginal(null);
  };
  return (
    <Modal opened={isOpen} onClose={onClose} title={t`Attach a proof to check`}>
      <Stack>
        <Text size="sm" c="dimmed">
          <Trans>The assistant runs the verification on the PDF proof and the original file’s fingerprint, and explains the result. The original file is fingerprinted in your browser and not uploaded.</Trans>
        </Text>
        <FileInput label={t`PDF proof`} accept="application/pdf,.pdf" value={proof} onChange={(f) => (setProof(f), setError(null))} error={error?.field === 'proof' ? error.text : null} clearable data-testid="gpt-attach-proof" />
        <FileInput label={t`Original file`} value={original} onChange={(f) => (setOriginal(f), setError(null))} error={error?.field === 'original' ? error.text : null} clearable data-testid="gpt-attach-original" />
        {progress && <WorkProgress label={t`Fingerprinting the original`} value={progress} onCancel={cancel} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => void onAttach()} loading={progress !== null} data-testid="gpt-attach-confirm">
            <Trans>Attach</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** /dashboard/gpt/detail/:id? — without an id a new conversation starts with the first question. */
export function ChatPage({ id }: { id: number | null }) {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [conversationId, setConversationId] = useState<number | null>(id);
  const [title, setTitle] = useState('');
  const [messages, setMessages] = useState<ShownMessage[]>([]);
  const [isMissing, setIsMissing] = useState(false);
  const [input, setInput] = useState('');
  const [isEditing, setIsEditing] = useState(false);
  const [attachment, setAttachment] = useState<GptAttachment | null>(null);
  const [isAttaching, setIsAttaching] = useState(false);
  const [tool, setTool] = useState<string | null>(null);
  const [isStreaming, setIsStreaming] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const createdId = useRef<number | null>(null);
  const bottom = useRef<HTMLDivElement | null>(null);
  const isNearBottom = useRef(true);
  const { data: info } = useLoaded((signal) => fetchGptInfo(signal), []);

  // Another conversation chosen (not the one this screen just created): load it.
  useEffect(() => {
    setConversationId(id);
    if (id !== null && id === createdId.current) return;
    controller.current?.abort();
    setMessages([]);
    setTitle('');
    setIsMissing(false);
    setIsEditing(false);
    if (id === null) return;
    const load = new AbortController();
    fetchConversation(id, load.signal).then(
      (c) => {
        setMessages(c.messages);
        setTitle(c.title);
      },
      (error: unknown) => {
        if ((error as Error)?.name === 'AbortError') return;
        if (isApiError(error) && error.key === 'not_found') setIsMissing(true);
        else notifyError(error, i18n);
      },
    );
    return () => load.abort();
  }, [id, i18n]);

  useEffect(() => () => controller.current?.abort(), []);

  // Follow the answer as it grows, unless the reader scrolled up to read.
  useEffect(() => {
    const onScroll = () => {
      isNearBottom.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 160;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useEffect(() => {
    if (isNearBottom.current) bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  const patchLast = (patch: (m: ShownMessage) => ShownMessage) =>
    setMessages((list) => {
      const last = list[list.length - 1];
      return last && last.role === 'assistant' ? [...list.slice(0, -1), patch(last)] : list;
    });

  const onEvent = (event: GptStreamEvent) => {
    if ('delta' in event) {
      setTool(null);
      patchLast((m) => ({ ...m, content: m.content + event.delta }));
    } else if ('tool' in event) setTool(event.tool);
    else if ('done' in event) patchLast((m) => ({ ...m, id: event.message_id, citations: event.citations, status: event.status }));
    else if ('error' in event) patchLast((m) => ({ ...m, status: 'error' }));
  };

  /** Runs one answer; `before` is the message list to restore when the question is refused before any answer. */
  const run = async (targetId: number, request: AnswerRequest, before: ShownMessage[]) => {
    const ctrl = new AbortController();
    controller.current = ctrl;
    setIsStreaming(true);
    isNearBottom.current = true;
    try {
      await streamAnswer(targetId, request, onEvent, ctrl.signal);
      // A stop cancels the reader, which then ends like a finished stream.
      const ended = ctrl.signal.aborted ? 'stopped' : 'done';
      patchLast((m) => (m.status === 'streaming' ? { ...m, status: ended } : m));
    } catch (error) {
      if ((error as Error)?.name === 'AbortError' || ctrl.signal.aborted) {
        patchLast((m) => ({ ...m, status: 'stopped' }));
      } else if (isApiError(error) && error.status === 400) {
        // Refused before answering (limits, a bad attachment): nothing was stored.
        setMessages(before);
        if (request.kind !== 'regenerate') setInput(request.content);
        notifyError(error, i18n);
      } else {
        patchLast((m) => ({ ...m, status: 'error' }));
        notifyError(error, i18n);
      }
    } finally {
      if (controller.current === ctrl) controller.current = null;
      setIsStreaming(false);
      setTool(null);
    }
  };

  const placeholder = (): ShownMessage => ({ id: nextTempId(), role: 'assistant', content: '', citations: [], status: 'streaming', engine: info?.engine ?? null, created_at: Date.now() });

  const onSend = async () => {
    if (isStreaming) return;
    const content = input.trim() || (attachment ? t`Why does this proof not pass verification?` : '');
    if (!content) return;
    if (content.length > GPT_CONTENT_MAX) return;
    const before = messages;
    if (isEditing) {
      const lastUser = messages.map((m) => m.role).lastIndexOf('user');
      if (lastUser < 0 || conversationId === null) return;
      setIsEditing(false);
      setInput('');
      setMessages([...messages.slice(0, lastUser), { ...messages[lastUser]!, content }, placeholder()]);
      await run(conversationId, { kind: 'edit', content }, before);
      return;
    }
    let target = conversationId;
    if (target === null) {
      try {
        target = (await createConversation()).id;
      } catch (error) {
        notifyError(error, i18n);
        return;
      }
      createdId.current = target;
      setConversationId(target);
      setTitle(Array.from(content).slice(0, 40).join(''));
      navigate(`/dashboard/gpt/detail/${target}`, { replace: true });
    }
    const sent = attachment;
    setInput('');
    setAttachment(null);
    setMessages([...messages, { id: nextTempId(), role: 'user', content, citations: [], status: 'done', engine: null, created_at: Date.now() }, placeholder()]);
    await run(target, { kind: 'ask', content, ...(sent ? { attachment: sent } : {}) }, before);
  };

  const onRegenerate = async () => {
    if (isStreaming || conversationId === null) return;
    const before = messages;
    const last = messages[messages.length - 1];
    const kept = last?.role === 'assistant' ? messages.slice(0, -1) : messages;
    setMessages([...kept, placeholder()]);
    await run(conversationId, { kind: 'regenerate' }, before);
  };

  const onEditLast = () => {
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    if (!lastUser) return;
    setIsEditing(true);
    setInput(lastUser.content);
  };

  if (isMissing) {
    return (
      <Stack gap="md" align="flex-start">
        <Text>
          <Trans>This conversation does not exist or is not yours.</Trans>
        </Text>
        <Button component={Link} href="/dashboard/gpt/list" variant="light" leftSection={<IconArrowLeft size={16} />}>
          <Trans>All conversations</Trans>
        </Button>
      </Stack>
    );
  }

  const lastUserIndex = messages.map((m) => m.role).lastIndexOf('user');
  const lastIndex = messages.length - 1;
  return (
    <Stack gap="md" className={classes.page}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Tooltip label={t`All conversations`}>
            <ActionIcon component={Link} href="/dashboard/gpt/list" variant="subtle" color="gray" aria-label={t`All conversations`} data-testid="gpt-back">
              <IconArrowLeft size={20} />
            </ActionIcon>
          </Tooltip>
          <Title order={3} className={classes.title} data-testid="gpt-title">
            {title || t`New conversation`}
          </Title>
        </Group>
        <Button component={Link} href="/dashboard/gpt/detail" variant="default" size="xs" data-testid="gpt-new-chat">
          <Trans>New</Trans>
        </Button>
      </Group>
      <SourceNote info={info} />

      {messages.length === 0 && (
        <Card withBorder radius="md" padding="lg" data-testid="gpt-welcome">
          <Stack gap="xs">
            <Text fw={600}>
              <Trans>Ask about the platform or your own data</Trans>
            </Text>
            <Group gap="xs">
              {[t`What does a registration cost?`, t`Show my latest proof`, t`How does verification work?`, t`What do I do about “The original file and the proof file do not match”?`].map((q) => (
                <Button key={q} variant="light" size="compact-sm" radius="xl" onClick={() => setInput(q)} className={classes.suggestion}>
                  {q}
                </Button>
              ))}
            </Group>
          </Stack>
        </Card>
      )}

      <Stack gap="sm" data-testid="gpt-messages" aria-live="polite">
        {messages.map((m, i) => (
          <Box key={m.id} className={m.role === 'user' ? classes.userRow : classes.assistantRow} data-testid={m.role === 'user' ? 'gpt-question' : 'gpt-answer'} data-status={m.status}>
            <Box className={m.role === 'user' ? classes.userBubble : classes.assistantBubble}>
              {m.role === 'user' ? (
                <Text className={classes.userText}>{m.content}</Text>
              ) : (
                <>
                  {m.content ? <AnswerMarkdown text={m.content} /> : m.status === 'streaming' ? null : <Text c="dimmed">…</Text>}
                  {m.status === 'streaming' && (
                    <Group gap={6} mt={m.content ? 4 : 0}>
                      <Loader size="xs" type="dots" />
                      {tool && (
                        <Text size="xs" c="dimmed" data-testid="gpt-tool">
                          <Trans>Looking up your data…</Trans>
                        </Text>
                      )}
                    </Group>
                  )}
                  {m.status === 'stopped' && (
                    <Text size="xs" c="dimmed" mt={4} data-testid="gpt-stopped">
                      <Trans>Stopped</Trans>
                    </Text>
                  )}
                  {m.status === 'error' && (
                    <Text size="xs" c="red" mt={4}>
                      <Trans>The answer failed. Try regenerating it.</Trans>
                    </Text>
                  )}
                  <CitationList citations={m.citations} />
                </>
              )}
            </Box>
            {m.status !== 'streaming' && (
              <Group gap={2} className={m.role === 'user' ? classes.userActions : undefined}>
                <CopyButton value={m.content}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? t`Copied` : t`Copy`}>
                      <ActionIcon variant="subtle" color="gray" size="sm" onClick={copy} aria-label={t`Copy`} data-testid="gpt-copy">
                        {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
                {m.role === 'user' && i === lastUserIndex && !isStreaming && (
                  <Tooltip label={t`Edit the question`}>
                    <ActionIcon variant="subtle" color="gray" size="sm" onClick={onEditLast} aria-label={t`Edit the question`} data-testid="gpt-edit">
                      <IconPencil size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {m.role === 'assistant' && i === lastIndex && !isStreaming && (
                  <Tooltip label={t`Regenerate`}>
                    <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => void onRegenerate()} aria-label={t`Regenerate`} data-testid="gpt-regenerate">
                      <IconRefresh size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            )}
          </Box>
        ))}
        <div ref={bottom} />
      </Stack>

      <Box className={classes.composer}>
        {isEditing && (
          <Group justify="space-between" gap="xs" mb={6}>
            <Text size="xs" c="dimmed">
              <Trans>Editing your last question: sending replaces it and its answer.</Trans>
            </Text>
            <Button variant="subtle" size="compact-xs" onClick={() => (setIsEditing(false), setInput(''))}>
              <Trans>Cancel</Trans>
            </Button>
          </Group>
        )}
        {attachment && (
          <Group gap="xs" mb={6}>
            <Badge variant="light" leftSection={<IconFileCertificate size={14} />} rightSection={<IconX size={12} style={{ cursor: 'pointer' }} onClick={() => setAttachment(null)} aria-label={t`Remove`} />} tt="none" data-testid="gpt-attachment">
              {attachment.name}
            </Badge>
          </Group>
        )}
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Tooltip label={t`Attach a proof to check`}>
            <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => setIsAttaching(true)} disabled={isStreaming || isEditing} aria-label={t`Attach a proof to check`} data-testid="gpt-attach">
              <IconPaperclip size={20} />
            </ActionIcon>
          </Tooltip>
          <Textarea
            className={classes.input}
            value={input}
            onChange={(e) => setInput(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Enter sends, Shift+Enter breaks the line; an IME composing Chinese or Japanese keeps its Enter.
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void onSend();
              }
            }}
            placeholder={t`Ask a question (Enter sends, Shift+Enter adds a line)`}
            autosize
            minRows={1}
            maxRows={8}
            maxLength={GPT_CONTENT_MAX}
            aria-label={t`Your question`}
            data-testid="gpt-input"
          />
          {isStreaming ? (
            <Button color="red" variant="light" onClick={() => controller.current?.abort()} leftSection={<IconPlayerStopFilled size={14} />} data-testid="gpt-stop">
              <Trans>Stop</Trans>
            </Button>
          ) : (
            <Button onClick={() => void onSend()} disabled={!input.trim() && !attachment} leftSection={<IconSend size={14} />} data-testid="gpt-send">
              {isEditing ? <Trans>Resend</Trans> : <Trans>Send</Trans>}
            </Button>
          )}
        </Group>
      </Box>
      <AttachModal
        isOpen={isAttaching}
        onClose={() => setIsAttaching(false)}
        onAttached={(a) => {
          setAttachment(a);
          setIsAttaching(false);
        }}
      />
    </Stack>
  );
}
