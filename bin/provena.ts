#!/usr/bin/env node
/**
 * The `provena` command line's entry: the commands are in bin/provena-main.ts.
 *
 * Node runs the CLI from its TypeScript sources and strips the types of every file it loads:
 * about half a second of CPU before `provena repo push` does any work (a profile of one push:
 * amaro's type stripping and its WebAssembly took more than reading the repository). Node's
 * compile cache keeps the stripped and compiled code between runs, keyed by each file's
 * contents (a changed file is compiled again), in `provena/node-compile-cache` of the user's
 * cache folder (XDG_CACHE_HOME or ~/.cache), made 0700. Only a cache folder that exists is used
 * and only those two levels are made in it: Node's recursive mkdir never returns under /proc
 * (HOME=/proc/… hung `node -e "fs.mkdirSync('/proc/x/y', { recursive: true })"` on Node 24.21).
 * NODE_COMPILE_CACHE set: Node has already turned it on there; NODE_DISABLE_COMPILE_CACHE=1 turns
 * it off. Where no folder can be had, the CLI runs as before. CI pipelines run the packed CLI
 * (cli/), which is JavaScript already.
 */
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** The compile cache's folder in the user's existing cache folder, made if needed; null when there is none to use. */
function compileCacheDir(): string | null {
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return null;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  if (!path.isAbsolute(base) || !fs.statSync(base, { throwIfNoEntry: false })?.isDirectory()) return null;
  const dir = path.join(base, 'provena', 'node-compile-cache');
  for (const level of [path.dirname(dir), dir]) {
    try {
      fs.mkdirSync(level, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
  }
  return dir;
}

const cacheDir = compileCacheDir();
if (cacheDir) module.enableCompileCache?.(cacheDir);
await import('./provena-main.ts');
