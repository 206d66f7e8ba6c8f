#!/usr/bin/env node
/**
 * The `provena` command line's entry: the commands are in bin/provena-main.ts.
 *
 * Node runs the CLI from its TypeScript sources and strips the types of every file it loads:
 * about half a second of CPU before `provena repo push` does any work (a profile of one push:
 * amaro's type stripping and its WebAssembly took more than reading the repository). Node's
 * compile cache keeps the stripped and compiled code between runs, keyed by each file's
 * contents (a changed file is compiled again); it lives in the user's cache folder
 * (NODE_COMPILE_CACHE chooses another, NODE_DISABLE_COMPILE_CACHE=1 turns it off). Where the
 * folder cannot be written, the CLI runs as before. CI pipelines run the packed CLI (cli/),
 * which is JavaScript already.
 */
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'provena', 'node-compile-cache'));
await import('./provena-main.ts');
