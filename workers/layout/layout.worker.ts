/// <reference lib="webworker" />
import { expose, transfer, type ProxyOrClone } from 'comlink';
import { createLayout, instantiateLayoutCore, type Layout, type LayoutGraph, type LayoutPhysics, type LayoutProgress } from '../../wasm/layout.ts';
import { isSimdSupported } from '../../wasm/sha256.ts';
import layoutUrl from '../../wasm/build/layout.wasm?url';
import layoutScalarUrl from '../../wasm/build/layout-scalar.wasm?url';
import { readCachedPositions, writeCachedPositions } from './position-cache.ts';

/**
 * The layout worker: runs our WebAssembly force layout (multilevel Barnes-Hut) in slices
 * of a few steps and hands each frame's positions to the page as a transferred
 * Float32Array. A graph seen before (same cache key) starts from its cached positions,
 * so a returning visitor sees the map at once; settled positions are cached again.
 */
let saved: Promise<WebAssembly.Module> | null = null;
function loadModule(): Promise<WebAssembly.Module> {
  // The SIMD build sums four interactions at a time; engines without SIMD get the same code scalar.
  saved ??= WebAssembly.compileStreaming(fetch(isSimdSupported() ? layoutUrl : layoutScalarUrl));
  return saved;
}

export type LayoutFrame = { positions: Float32Array; progress: LayoutProgress; isWarm: boolean };
export type LayoutRunOptions = {
  /** IndexedDB key of the positions (the data version); null: no cache. */
  cacheKey: string | null;
  /** Time per slice before a frame is sent (ms). */
  sliceMs?: number;
  seed?: number;
  /** Starting positions (e.g. the previous week's graph): used when there is no cached layout. */
  initial?: Float32Array | null;
  physics?: Partial<LayoutPhysics>;
};

let run = 0;
let current: Layout | null = null;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const api = {
  /**
   * Lays out the graph, calling onFrame with the positions after every slice (once at
   * the finest level) until settled or stop(). Resolves with the final progress.
   */
  async start(graph: LayoutGraph, options: LayoutRunOptions, onFrame: ProxyOrClone<(frame: LayoutFrame) => void>): Promise<LayoutProgress | null> {
    const id = ++run;
    const module = await loadModule();
    const cached = (options.cacheKey ? await readCachedPositions(options.cacheKey, graph.count) : null) ?? options.initial ?? null;
    if (id !== run) return null;
    const layout = createLayout(instantiateLayoutCore(module), graph, { initial: cached, seed: options.seed, physics: options.physics });
    current = layout;
    const isWarm = Boolean(cached);
    if (cached) {
      const first = cached.slice();
      await onFrame(transfer({ positions: first, progress: layout.progress(), isWarm }, [first.buffer]));
    }
    const sliceMs = options.sliceMs ?? 24;
    let progress = layout.progress();
    while (!progress.isSettled && id === run) {
      progress = layout.advance(sliceMs);
      if (layout.isAtFinest()) {
        const positions = layout.positions();
        await onFrame(transfer({ positions, progress, isWarm }, [positions.buffer]));
      }
      // Yield so stop() and other calls get through between slices.
      await pause(0);
    }
    if (id !== run) return null;
    if (options.cacheKey) await writeCachedPositions(options.cacheKey, layout.positions()).catch(() => undefined);
    current = null;
    return progress;
  },
  stop(): void {
    run++;
    current = null;
  },
  isRunning(): boolean {
    return current !== null;
  },
};

export type LayoutWorkerApi = typeof api;
expose(api);
