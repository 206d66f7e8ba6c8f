import { useCallback, useEffect, useRef, useState } from 'react';
import type { MetricBinary } from '../../../core/score-api.ts';
import { decideActivation, MAP_ACTIVATION_POLL_MS, MAP_LIGHT_UP_DELAY_MS, type LatestActivation } from '../../../core/asset-map.ts';
import { fetchLatestActivation, fetchMetric } from './map-api.ts';

export const ORANGE: readonly [number, number, number] = [1, 0.55, 0.1];
export const PALE: readonly [number, number, number] = [0.72, 0.78, 0.86];

/** Node world diameters from capital (sqrt: area follows capital), 3 to 9 units. */
export function nodeSizes(metric: MetricBinary): Float32Array {
  let max = 0;
  for (let i = 0; i < metric.count; i++) max = Math.max(max, metric.capital[i]);
  const sizes = new Float32Array(metric.count);
  for (let i = 0; i < metric.count; i++) sizes[i] = 3 + 6 * (max > 0 ? Math.sqrt(Math.max(0, metric.capital[i]) / max) : 0);
  return sizes;
}

export function nodeColors(metric: MetricBinary): Float32Array {
  const colors = new Float32Array(3 * metric.count);
  for (let i = 0; i < metric.count; i++) colors.set(metric.activated[i] ? ORANGE : PALE, 3 * i);
  return colors;
}

/** A key of the graph's structure (not of activation states), for the position cache. */
export function graphKey(count: number, links: Uint32Array): string {
  let h = 0x811c9dc5 ^ count;
  for (let i = 0; i < links.length; i++) h = Math.imul(h ^ links[i], 0x01000193);
  return `map-${count}-${links.length}-${(h >>> 0).toString(16)}`;
}

export type MetricState = { metric: MetricBinary | null; error: unknown; reload: () => void };

export function useMetric(scoreBase: string): MetricState {
  const [state, setState] = useState<{ metric: MetricBinary | null; error: unknown }>({ metric: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    setState({ metric: null, error: null });
    fetchMetric(scoreBase, abort.signal).then(
      (metric) => setState({ metric, error: null }),
      (error: unknown) => !abort.signal.aborted && setState({ metric: null, error }),
    );
    return () => abort.abort();
  }, [scoreBase, attempt]);
  const reload = useCallback(() => setAttempt((a) => a + 1), []);
  return { ...state, reload };
}

export type ActivationEvent = { index: number; name: string; uuid: string; at: number; isNew: boolean };

export type ActivationHandlers = {
  /** Fly the camera to the node. */
  focus(index: number): void;
  /** Turn the node orange (also in the metric). */
  light(index: number): void;
  onEvent?(event: ActivationEvent): void;
};

/**
 * §4 asset map polling: latest-activate every 2 s; a newly activated enterprise is
 * focused and lit 2 s later; one already lit and activated within 30 s is focused.
 */
export function useActivationPolling(metric: MetricBinary | null, handlers: ActivationHandlers): void {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  useEffect(() => {
    if (!metric) return;
    const indexById = new Map<number, number>();
    for (let i = 0; i < metric.count; i++) indexById.set(metric.id[i], i);
    let handled: LatestActivation | null = null;
    let isStopped = false;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const abort = new AbortController();
    async function poll() {
      try {
        const latest = await fetchLatestActivation(abort.signal);
        if (isStopped || !metric) return;
        const index = indexById.get(latest.id);
        const decision = decideActivation(latest, handled, index === undefined ? null : metric.activated[index] === 1, Date.now());
        if (latest.id) handled = { id: latest.id, updated_at: latest.updated_at };
        if (decision.action === 'none' || index === undefined) return;
        const h = handlersRef.current;
        h.focus(index);
        const event = { index, name: metric.name[index], uuid: metric.uuid[index], at: latest.updated_at, isNew: decision.action === 'focus-then-light' };
        if (decision.action === 'focus-then-light') {
          const timer = setTimeout(() => {
            timers.delete(timer);
            metric.activated[index] = 1;
            metric.updated_at[index] = latest.updated_at;
            handlersRef.current.light(index);
            handlersRef.current.onEvent?.(event);
          }, MAP_LIGHT_UP_DELAY_MS);
          timers.add(timer);
        } else {
          h.onEvent?.(event);
        }
      } catch (error) {
        if (!isStopped) console.warn('latest-activate poll failed', error);
      }
    }
    void poll();
    const interval = setInterval(() => void poll(), MAP_ACTIVATION_POLL_MS);
    return () => {
      isStopped = true;
      abort.abort();
      clearInterval(interval);
      for (const t of timers) clearTimeout(t);
    };
  }, [metric]);
}
