import { useEffect, useRef, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useLingui } from '@lingui/react/macro';
import { hashFile } from '../../../workers/hash/hash-service.ts';
import type { WorkProgressValue } from './work-progress.tsx';

/**
 * Fingerprinting a file in the hash worker for a form that hashes on submit: `hash(file)`
 * answers the worker's result, or null once the user cancelled (a grey notice says
 * `cancelledMessage`: what did not happen) or the file could not be read (a red notice).
 * `progress` feeds a WorkProgress while it runs (null otherwise), `cancel` stops it, and
 * leaving the form stops it too.
 */
export function useFileHash(cancelledMessage: string) {
  const { t } = useLingui();
  const [progress, setProgress] = useState<WorkProgressValue | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const hash = async (file: File) => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ bytes: 0, totalBytes: file.size, mbPerSecond: 0, secondsLeft: null });
    try {
      return await hashFile(file, { signal: controller.signal, onProgress: setProgress });
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') notifications.show({ color: 'gray', message: cancelledMessage });
      else notifications.show({ color: 'red', message: t`The file could not be read` });
      return null;
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };
  return { progress, hash, cancel: () => abort.current?.abort() };
}
