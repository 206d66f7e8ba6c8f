/**
 * isomorphic-git reads and writes through Node's Buffer; browsers have none. This module is
 * imported first by the repository worker so that the global exists before isomorphic-git loads.
 */
import { Buffer } from 'buffer';

const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= Buffer;
