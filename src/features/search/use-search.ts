import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { notifyError } from '@/api/error-messages.ts';
import type { WorkProgressValue } from '@/components/progress/work-progress.tsx';
import { hashFile } from '../../../workers/hash/hash-service.ts';
import { classifySearchInput, searchResultPath } from '../../../core/search.ts';
import { searchDipData } from './search-api.ts';

export type SearchState =
  | { kind: 'idle' }
  /** The typed text is neither a DNA nor a fingerprint (nothing was sent). */
  | { kind: 'invalid' }
  | { kind: 'hashing'; fileName: string; progress: WorkProgressValue }
  | { kind: 'cancelled'; fileName: string }
  | { kind: 'unreadable'; fileName: string }
  | { kind: 'searching' };

/**
 * The nav-bar search (§2): a typed fingerprint or DNA is checked here and only then sent; a
 * chosen file is fingerprinted in the hashing workers (progress, cancel) and searched by its
 * identity. The §3 result leads to its screen, or to the empty page (entity_type 0).
 */
export function useSearch(opts: { onNavigate?: () => void } = {}) {
  const [, navigate] = useLocation();
  const [state, setState] = useState<SearchState>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const onNavigateRef = useRef(opts.onNavigate);
  onNavigateRef.current = opts.onNavigate;
  useEffect(() => () => abort.current?.abort(), []);

  const run = useCallback(
    async (keyword: string, controller: AbortController, fileName?: string) => {
      setState({ kind: 'searching' });
      try {
        const result = await searchDipData(keyword, controller.signal);
        setState({ kind: 'idle' });
        onNavigateRef.current?.();
        navigate(searchResultPath(result, { keyword, fileName }));
        return true;
      } catch (error) {
        // A newer search replaced this one: its state is the newer one's.
        if (abort.current !== controller) return false;
        setState({ kind: 'idle' });
        if ((error as Error)?.name === 'AbortError') return false;
        notifyError(error);
        return false;
      }
    },
    [navigate],
  );

  /** Searches the typed text. Empty input does nothing; an invalid one only says so. Resolves true when it navigated. */
  const submit = useCallback(
    async (text: string): Promise<boolean> => {
      const input = classifySearchInput(text);
      if (input.kind === 'empty') {
        setState({ kind: 'idle' });
        return false;
      }
      if (input.kind === 'invalid') {
        setState({ kind: 'invalid' });
        return false;
      }
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      return run(input.keyword, controller);
    },
    [run],
  );

  const searchFile = useCallback(
    async (file: File): Promise<boolean> => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setState({ kind: 'hashing', fileName: file.name, progress: { bytes: 0, totalBytes: file.size, mbPerSecond: 0, secondsLeft: null } });
      let identity: string;
      try {
        identity = (
          await hashFile(file, {
            signal: controller.signal,
            onProgress: (progress) => {
              if (!controller.signal.aborted) setState({ kind: 'hashing', fileName: file.name, progress });
            },
          })
        ).identity;
      } catch (error) {
        if (abort.current !== controller) return false;
        setState((error as Error)?.name === 'AbortError' ? { kind: 'cancelled', fileName: file.name } : { kind: 'unreadable', fileName: file.name });
        return false;
      }
      return run(identity, controller, file.name);
    },
    [run],
  );

  const cancel = useCallback(() => abort.current?.abort(), []);
  const clear = useCallback(() => setState((s) => (s.kind === 'hashing' || s.kind === 'searching' ? s : { kind: 'idle' })), []);

  return { state, submit, searchFile, cancel, clear, isBusy: state.kind === 'hashing' || state.kind === 'searching' };
}

/**
 * The text and the search behind one search box, kept by its owner: the nav bar keeps them
 * while its box moves between the inline and the narrow-screen panel (a window resized or a
 * phone turned mid-hashing neither loses the text nor cancels the work).
 */
export function useSearchField(opts: { initialValue?: string; onNavigate?: () => void } = {}) {
  const [value, setValue] = useState(opts.initialValue ?? '');
  const onNavigate = opts.onNavigate;
  const search = useSearch({
    onNavigate: () => {
      setValue('');
      onNavigate?.();
    },
  });
  return { ...search, value, setValue };
}
export type SearchField = ReturnType<typeof useSearchField>;
