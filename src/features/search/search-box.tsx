import { useId, useRef, type ReactNode } from 'react';
import { ActionIcon, Loader, Popover, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconFileSearch, IconSearch } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { WorkProgress } from '@/components/progress/work-progress.tsx';
import { SEARCH_KEYWORD_MAX } from '../../../core/search.ts';
import type { SearchField, SearchState } from './use-search.ts';

type Props = {
  /** The text and the search (useSearchField), owned by the caller. */
  field: SearchField;
  /** `nav`: a compact box whose messages and progress open below it; `page`: everything in the flow. */
  variant: 'nav' | 'page';
  autoFocus?: boolean;
  testId?: string;
};

function Feedback({ state, onCancel, messageId }: { state: SearchState; onCancel: () => void; messageId: string }) {
  const { t } = useLingui();
  let message: ReactNode = null;
  const fileName = 'fileName' in state ? state.fileName : '';
  if (state.kind === 'invalid') message = t`Enter a file fingerprint (0x and 64 hexadecimal digits) or a digital asset DNA (pv and 20 letters or digits).`;
  else if (state.kind === 'cancelled') message = t`Fingerprinting of ${fileName} was cancelled; nothing was searched.`;
  else if (state.kind === 'unreadable') message = t`${fileName} could not be read.`;
  return (
    <Stack gap="xs">
      {message && (
        <Text size="sm" c={state.kind === 'cancelled' ? 'dimmed' : 'red'} id={messageId} role={state.kind === 'cancelled' ? 'status' : 'alert'} data-testid="search-message">
          {message}
        </Text>
      )}
      {state.kind === 'hashing' && (
        <div data-testid="search-progress">
          <WorkProgress label={t`Fingerprinting ${fileName}`} value={state.progress} onCancel={onCancel} />
          <Text size="xs" c="dimmed" mt={6}>
            {t`The file is fingerprinted in your browser and is not uploaded.`}
          </Text>
        </div>
      )}
    </Stack>
  );
}

/**
 * §2 search box: a fingerprint or DNA (Enter searches), and a file icon that fingerprints a
 * chosen file and searches by it. Bad input is explained without asking the server.
 */
export function SearchBox({ field: search, variant, autoFocus, testId = 'search' }: Props) {
  const { t } = useLingui();
  const { value, setValue } = search;
  const fileInput = useRef<HTMLInputElement>(null);
  const messageId = useId();
  const { state } = search;
  const hasFeedback = state.kind === 'invalid' || state.kind === 'cancelled' || state.kind === 'unreadable' || state.kind === 'hashing';
  const isInvalid = state.kind === 'invalid';

  const fileButton = search.isBusy ? (
    <Loader size="xs" aria-label={t`Searching`} />
  ) : (
    <Tooltip label={t`Search by file: choose a file to fingerprint`} withArrow>
      <ActionIcon variant="subtle" color="gray" onClick={() => fileInput.current?.click()} aria-label={t`Search by file`} data-testid={`${testId}-file-button`}>
        <IconFileSearch size={18} stroke={1.6} />
      </ActionIcon>
    </Tooltip>
  );

  const input = (
    <TextInput
      value={value}
      onChange={(event) => {
        setValue(event.currentTarget.value);
        search.clear();
      }}
      onBlur={() => {
        if (variant === 'nav' && state.kind !== 'hashing') search.clear();
      }}
      placeholder={t`Fingerprint or DNA`}
      aria-label={t`Search by fingerprint or DNA`}
      aria-invalid={isInvalid}
      aria-describedby={hasFeedback ? messageId : undefined}
      error={isInvalid}
      maxLength={SEARCH_KEYWORD_MAX + 20}
      disabled={search.isBusy}
      autoFocus={autoFocus}
      // Mantine's focus trap (the mobile panel) focuses the element marked so.
      data-autofocus={autoFocus || undefined}
      leftSection={<IconSearch size={16} stroke={1.6} />}
      rightSection={fileButton}
      rightSectionPointerEvents="all"
      size={variant === 'page' ? 'md' : 'sm'}
      radius={variant === 'nav' ? 'xl' : 'md'}
      spellCheck={false}
      autoComplete="off"
      enterKeyHint="search"
      data-testid={`${testId}-input`}
    />
  );

  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        void search.submit(value);
      }}
      style={{ width: '100%' }}
      data-testid={testId}
    >
      {variant === 'nav' ? (
        // withRoles off: the target is a plain wrapper, not a button that opens a dialog, so it must not carry aria-expanded.
        <Popover opened={hasFeedback} position="bottom-start" width={340} shadow="md" withinPortal trapFocus={false} returnFocus={false} withRoles={false}>
          <Popover.Target>
            <div>{input}</div>
          </Popover.Target>
          <Popover.Dropdown>
            <Feedback state={state} onCancel={search.cancel} messageId={messageId} />
          </Popover.Dropdown>
        </Popover>
      ) : (
        <Stack gap="sm">
          {input}
          {hasFeedback && <Feedback state={state} onCancel={search.cancel} messageId={messageId} />}
        </Stack>
      )}
      <input
        ref={fileInput}
        type="file"
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) void search.searchFile(file);
        }}
        data-testid={`${testId}-file-input`}
      />
      <button type="submit" hidden aria-hidden tabIndex={-1} />
    </form>
  );
}
