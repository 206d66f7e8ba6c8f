import { ApiError, SERVER_EXCEPTION } from './client.ts';

/** Saves bytes, text or a blob as a file in the browser. */
export function saveFile(name: string, content: BlobPart, type: string): void {
  const url = URL.createObjectURL(content instanceof Blob && content.type === type ? content : new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads a file the API serves (a proof PDF, …) and saves it as `name`. The answer is the
 * file or a §8 JSON error, so it is fetched and checked before the browser saves it: an error
 * rejects as the same ApiError a JSON call would.
 */
export async function downloadFile(url: string, name: string): Promise<void> {
  const response = await fetch(url, { credentials: 'include' });
  if (response.status !== 200) {
    const body = (await response.json().catch(() => null)) as { message?: string; field_name?: string } | null;
    throw new ApiError({ status: response.status, kind: response.status === 400 || response.status === 401 ? 'client' : 'exception', rawMessage: body?.message ?? SERVER_EXCEPTION, fieldName: body?.field_name, body });
  }
  const blob = await response.blob();
  saveFile(name, blob, blob.type);
}
