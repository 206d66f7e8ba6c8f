import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconCloudCheck, IconCloudUpload } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import * as tus from 'tus-js-client';
import { hashFile } from '../../../workers/hash/hash-service.ts';
import { api } from '@/api/client.ts';
import { describeError, errorKeyText } from '@/api/error-messages.ts';
import { WorkProgress, type WorkProgressValue } from '../progress/work-progress.tsx';
import { formatBytes } from '../progress/format.ts';

export const UPLOAD_ENDPOINT = '/api/v1/storage/uploads';
/** Bytes per PATCH request: a dropped connection costs at most this much. */
const UPLOAD_CHUNK_BYTES = 64 * 1024 * 1024;
/** Retries after a dropped network (ms), before the user is asked to try again (which resumes). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000];

type StoredState = { hash: string; is_stored: boolean; is_registered: boolean; size: number | null; name: string | null };
export const fetchStoredState = (identity: string) => api.get<StoredState>(`/v1/storage/files/${encodeURIComponent(identity)}`);

type Phase =
  | { kind: 'idle' }
  | { kind: 'hashing'; progress: WorkProgressValue }
  | { kind: 'uploading'; progress: WorkProgressValue; resumedFrom: number; fileName: string }
  | { kind: 'done'; identity: string; size: number }
  | { kind: 'error'; message: string };

type Props = {
  /** The registered identity the chosen file must hash to (asset detail page); omitted: any file registered in the company. */
  expectedIdentity?: string;
  onStored?: (identity: string) => void;
  /** Label of the button; defaults to "Store the file". */
  label?: string;
};

/** Where an earlier attempt at this file stopped (tus HEAD), or 0. */
async function serverOffset(uploadUrl: string): Promise<number> {
  const res = await fetch(uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' }, credentials: 'include' });
  return res.ok ? Number(res.headers.get('upload-offset') ?? 0) : 0;
}

/**
 * "Store the file": the user picks the file, it is hashed in a worker and must be the
 * registered file, then it is uploaded with tus. An upload cut off by a reload or a lost
 * network resumes where the server stopped the next time the same file is chosen (the
 * fingerprint is its identity). Progress shows bytes, speed and time left; cancel stops
 * hashing or ends the upload and discards what the server had.
 */
export function StoreFileAction({ expectedIdentity, onStored, label }: Props) {
  const { t, i18n } = useLingui();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [stored, setStored] = useState<StoredState | null>(null);
  const hashAbort = useRef<AbortController | null>(null);
  const uploadRef = useRef<tus.Upload | null>(null);
  /** Requests retried after a dropped connection during this upload (shown to tests as data-retries). */
  const [retries, setRetries] = useState(0);

  useEffect(() => {
    if (!expectedIdentity) return;
    let isLive = true;
    fetchStoredState(expectedIdentity)
      .then((s) => isLive && setStored(s))
      .catch(() => undefined);
    return () => {
      isLive = false;
    };
  }, [expectedIdentity]);

  useEffect(
    () => () => {
      hashAbort.current?.abort();
      void uploadRef.current?.abort(false);
    },
    [],
  );

  const fail = (message: string) => setPhase({ kind: 'error', message });

  async function onPick(file: File | null) {
    if (!file) return;
    const controller = new AbortController();
    hashAbort.current = controller;
    setPhase({ kind: 'hashing', progress: { bytes: 0, totalBytes: file.size, mbPerSecond: 0, secondsLeft: null } });
    let identity: string;
    try {
      const result = await hashFile(file, { signal: controller.signal, onProgress: (progress) => setPhase({ kind: 'hashing', progress }) });
      identity = result.identity;
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') setPhase({ kind: 'idle' });
      else fail(describeError(error, i18n));
      return;
    } finally {
      hashAbort.current = null;
    }
    if (expectedIdentity && identity !== expectedIdentity) {
      fail(t`This is not the registered file: its fingerprint differs from the registered one.`);
      return;
    }
    let state: StoredState;
    try {
      state = await fetchStoredState(identity);
    } catch (error) {
      fail(describeError(error, i18n));
      return;
    }
    if (!state.is_registered) {
      fail(t`This file is not registered in your company. Register it first, then store it.`);
      return;
    }
    if (state.is_stored) {
      setStored(state);
      setPhase({ kind: 'done', identity, size: state.size ?? file.size });
      onStored?.(identity);
      return;
    }
    await upload(file, identity);
  }

  async function upload(file: File, identity: string) {
    const startedAt = performance.now();
    let baseline: number | null = null;
    const upload = new tus.Upload(file, {
      endpoint: UPLOAD_ENDPOINT,
      chunkSize: UPLOAD_CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { identity, filename: file.name },
      // The identity names the bytes: a reload or another pick of the same file finds the upload again.
      fingerprint: async () => `provena-store:${identity}:${file.size}`,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onShouldRetry: (error) => {
        const status = (error as tus.DetailedError).originalResponse?.getStatus() ?? 0;
        const isRetried = status === 0 || status >= 500 || status === 409 || status === 423;
        if (isRetried) setRetries((n) => n + 1);
        return isRetried;
      },
      onProgress: (sent, total) => {
        if (baseline === null) baseline = sent;
        const seconds = (performance.now() - startedAt) / 1000;
        const rate = seconds > 0.2 ? (sent - baseline) / seconds : 0;
        setPhase((p) => ({
          kind: 'uploading',
          resumedFrom: p.kind === 'uploading' ? p.resumedFrom : 0,
          fileName: file.name,
          progress: { bytes: sent, totalBytes: total, mbPerSecond: rate / 1e6, secondsLeft: rate > 0 ? (total - sent) / rate : null },
        }));
      },
      onSuccess: () => {
        uploadRef.current = null;
        setPhase({ kind: 'done', identity, size: file.size });
        setStored({ hash: identity, is_stored: true, is_registered: true, size: file.size, name: file.name });
        onStored?.(identity);
      },
      onError: (error) => {
        uploadRef.current = null;
        const body = (error as tus.DetailedError).originalResponse?.getBody();
        let message = t`Upload failed. Choose the same file again to resume where it stopped.`;
        try {
          const parsed = body ? (JSON.parse(body) as { message?: string }) : null;
          if (parsed?.message) message = errorKeyText(parsed.message, i18n);
        } catch {
          /* not JSON: keep the generic message */
        }
        fail(message);
      },
    });
    uploadRef.current = upload;
    let resumedFrom = 0;
    const previous = await upload.findPreviousUploads();
    if (previous[0]) {
      upload.resumeFromPreviousUpload(previous[0]);
      if (previous[0].uploadUrl) resumedFrom = await serverOffset(previous[0].uploadUrl).catch(() => 0);
    }
    setPhase({ kind: 'uploading', resumedFrom, fileName: file.name, progress: { bytes: resumedFrom, totalBytes: file.size, mbPerSecond: 0, secondsLeft: null } });
    upload.start();
  }

  const onCancel = () => {
    if (phase.kind === 'hashing') hashAbort.current?.abort();
    if (phase.kind === 'uploading') {
      void uploadRef.current?.abort(true);
      uploadRef.current = null;
      setPhase({ kind: 'idle' });
    }
  };

  const isBusy = phase.kind === 'hashing' || phase.kind === 'uploading';
  // With a registered file to match, a stored file replaces the button; otherwise another file may follow.
  const isStored = Boolean(expectedIdentity) && (stored?.is_stored === true || phase.kind === 'done');
  return (
    <Stack gap="sm" data-testid="store-file" data-phase={phase.kind} data-bytes={phase.kind === 'uploading' || phase.kind === 'hashing' ? phase.progress.bytes : undefined} data-retries={retries}>
      <Group gap="sm" wrap="wrap">
        {isStored ? (
          <Badge color="teal" variant="light" tt="none" size="lg" leftSection={<IconCloudCheck size={14} />} data-testid="stored-badge">
            <Trans>Stored (encrypted)</Trans>
          </Badge>
        ) : (
          <FileButton onChange={(file) => void onPick(file)} disabled={isBusy}>
            {(props) => (
              <Button {...props} leftSection={<IconCloudUpload size={16} />} loading={false} disabled={isBusy} data-testid="store-file-button">
                {label ?? t`Store the file`}
              </Button>
            )}
          </FileButton>
        )}
        {!isStored && !isBusy && (
          <Text size="xs" c="dimmed">
            <Trans>The file is checked against its registered fingerprint, uploaded resumably and kept encrypted.</Trans>
          </Text>
        )}
      </Group>
      {phase.kind === 'hashing' && <WorkProgress label={t`Checking the file's fingerprint`} value={phase.progress} onCancel={onCancel} />}
      {phase.kind === 'uploading' && (
        <Stack gap={4}>
          <WorkProgress label={t`Uploading ${phase.fileName}`} value={phase.progress} onCancel={onCancel} />
          {phase.resumedFrom > 0 && (
            <Text size="xs" c="dimmed" data-testid="resumed-from" data-offset={phase.resumedFrom}>
              {t`Resumed at ${formatBytes(phase.resumedFrom)}: the part already on the server is not sent again.`}
            </Text>
          )}
        </Stack>
      )}
      {phase.kind === 'done' && (
        <Text size="sm" c="teal" data-testid="store-done">
          {t`Stored: ${formatBytes(phase.size)}, encrypted at rest.`}
        </Text>
      )}
      {phase.kind === 'error' && (
        <Alert color="red" variant="light" data-testid="store-error" withCloseButton onClose={() => setPhase({ kind: 'idle' })}>
          {phase.message}
        </Alert>
      )}
    </Stack>
  );
}

