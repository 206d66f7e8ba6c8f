import { useCallback, useEffect, useState, type DependencyList } from 'react';
import { useLingui } from '@lingui/react/macro';
import { notifyError } from './error-messages.ts';

/**
 * What `load` answers, asked again whenever `deps` change (a page, a filter, a version) or
 * `reload` is called. The request before is cancelled and its late answer dropped, so an old
 * page never replaces a newer one; the last answer stays shown while the next loads (null
 * before the first). A failure other than the cancel goes to `onError` (by default the §8
 * message as a notification). With `load` null nothing is asked (and the last answer stays).
 * `deps` name everything `load` reads.
 */
export function useLoaded<T>(
  load: ((signal: AbortSignal) => Promise<T>) | null,
  deps: DependencyList,
  onError?: (error: unknown) => void,
): { data: T | null; reload: () => void } {
  const { i18n } = useLingui();
  const [data, setData] = useState<T | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!load) return;
    const controller = new AbortController();
    load(controller.signal).then(
      (answer) => {
        if (!controller.signal.aborted) setData(answer);
      },
      (error: unknown) => {
        if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) return;
        if (onError) onError(error);
        else notifyError(error, i18n);
      },
    );
    return () => controller.abort();
    // `deps` stand for what `load` reads; `load` itself is a new closure on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, version, load === null]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, reload };
}
