import type { PickedFile } from '../../../workers/repos/repo-service.ts';

/** What this module needs of the File System Access API (not in TypeScript's DOM library yet). */
type DirectoryHandle = {
  readonly kind: 'directory';
  readonly name: string;
  entries(): AsyncIterable<[string, DirectoryHandle | FileHandle]>;
  getDirectoryHandle(name: string): Promise<DirectoryHandle>;
  getFileHandle(name: string): Promise<FileHandle>;
};
type FileHandle = { readonly kind: 'file'; readonly name: string; getFile(): Promise<File> };
type DirectoryPicker = (options?: { id?: string; mode?: 'read' | 'readwrite' }) => Promise<DirectoryHandle>;

/** Whether the browser can pick a folder without listing every file in it (Chromium-based browsers). */
export function canPickDirectory(): boolean {
  return typeof (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker === 'function';
}

/** Only the names git keeps in its folder: enough to tell a picked `.git` (or bare repository) from a working tree. */
async function looksLikeGitDir(dir: DirectoryHandle): Promise<boolean> {
  try {
    await dir.getFileHandle('HEAD');
    await dir.getDirectoryHandle('objects');
    return true;
  } catch {
    return false;
  }
}

async function collect(dir: DirectoryHandle, prefix: string, into: PickedFile[], signal: AbortSignal): Promise<void> {
  for await (const [name, handle] of dir.entries()) {
    if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
    const path = `${prefix}/${name}`;
    if (handle.kind === 'file') into.push({ path, file: await handle.getFile() });
    else await collect(handle, path, into, signal);
  }
}

/**
 * Picks the repository folder with the File System Access API and lists only its `.git`
 * folder (or the picked folder itself when it is a `.git` folder or a bare repository).
 * `<input webkitdirectory>` lists every file of the working tree first (and Chromium asks to
 * "upload" all of them): a checkout with node_modules means hundreds of thousands of Files
 * before the first commit is read. Paths look like webkitRelativePath (`repo/.git/HEAD`).
 * Null when the user closed the picker; an empty list when the folder holds no repository.
 */
export async function pickRepositoryDirectory(signal: AbortSignal): Promise<PickedFile[] | null> {
  let root: DirectoryHandle;
  try {
    root = await (window as unknown as { showDirectoryPicker: DirectoryPicker }).showDirectoryPicker({ id: 'provena-repository', mode: 'read' });
  } catch (error) {
    if ((error as DOMException)?.name === 'AbortError') return null;
    throw error;
  }
  const files: PickedFile[] = [];
  let gitDir: DirectoryHandle | null = null;
  try {
    gitDir = await root.getDirectoryHandle('.git');
  } catch {
    // No .git folder (or a .git file pointing elsewhere, as in a linked worktree).
  }
  if (gitDir) await collect(gitDir, `${root.name}/.git`, files, signal);
  else if (await looksLikeGitDir(root)) await collect(root, root.name, files, signal);
  return files;
}
