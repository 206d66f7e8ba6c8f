import { useEffect, useRef } from 'react';
import type { CommunitySnapshot, GraphSnapshot } from '../../../core/score-api.ts';
import { nodeRadius } from '../../../core/asset-map.ts';
import { openLayoutSession, type LayoutSession } from '../../../workers/layout/layout-service.ts';
import { GraphScene } from './graph-scene.ts';
import classes from './map.module.css';

/** Community colours (stable by community id); nodes outside any community are grey. */
export const COMMUNITY_COLORS = ['#ff8c1a', '#3b82f6', '#22c55e', '#e11d48', '#a855f7', '#14b8a6', '#eab308', '#f472b6', '#64748b', '#84cc16', '#06b6d4', '#f97316'];

function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

export function communityColor(id: number): string {
  return COMMUNITY_COLORS[((id % COMMUNITY_COLORS.length) + COMMUNITY_COLORS.length) % COMMUNITY_COLORS.length];
}

/** World units per radius unit of §9 (repos up to 40, developers up to 15). */
const RADIUS_SCALE = 0.6;
/** Bigger nodes need longer springs: ngraph's model scaled by 3 (gravity by 3³ keeps its shape). */
const SNAPSHOT_PHYSICS = { springLength: 30, gravity: -12 * 27 };

type Props = {
  snapshot: GraphSnapshot | null;
  communities: CommunitySnapshot | null;
  isRotating: boolean;
  /** Called once the layout of the shown snapshot has settled. */
  onSettled(timestamp: number): void;
};

/** One week's repository/developer graph, laid out in the worker, starting from the previous week's positions. */
export function ScoreGraphView({ snapshot, communities, isRotating, onSettled }: Props) {
  const boxRef = useRef<HTMLDivElement>(null);
  const sceneRef = useRef<GraphScene | null>(null);
  const sessionRef = useRef<LayoutSession | null>(null);
  const previous = useRef(new Map<string, [number, number, number]>());
  const onSettledRef = useRef(onSettled);
  onSettledRef.current = onSettled;

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const scene = new GraphScene(box, { background: '#0f172a', linkColor: '#94a3b8', linkOpacity: 0.45 });
    sceneRef.current = scene;
    sessionRef.current = openLayoutSession();
    return () => {
      sessionRef.current?.close();
      sessionRef.current = null;
      scene.dispose();
      sceneRef.current = null;
    };
  }, []);

  useEffect(() => {
    sceneRef.current?.setAutoRotate(isRotating);
  }, [isRotating]);

  useEffect(() => {
    const scene = sceneRef.current;
    const session = sessionRef.current;
    if (!scene || !session || !snapshot) return;
    const count = snapshot.nodes.length;
    const index = new Map<string, number>();
    snapshot.nodes.forEach((node, i) => index.set(node.id, i));
    const links: number[] = [];
    for (const link of snapshot.links) {
      const a = index.get(link.source);
      const b = index.get(link.target);
      if (a !== undefined && b !== undefined && a !== b) links.push(a, b);
    }
    const linkArray = Uint32Array.from(links);
    const maxWeight = { repo: 0, developer: 0 };
    for (const node of snapshot.nodes) maxWeight[node.category] = Math.max(maxWeight[node.category], node.weight);
    const sizes = new Float32Array(count);
    snapshot.nodes.forEach((node, i) => (sizes[i] = 2 * RADIUS_SCALE * nodeRadius(node.category, node.weight, maxWeight[node.category])));
    const community = new Map<string, number>();
    communities?.communities.forEach((members, k) => members.forEach((id) => community.set(id, communities.community_ids[k] ?? k)));
    const colors = new Float32Array(3 * count);
    snapshot.nodes.forEach((node, i) => {
      const c = community.get(node.id);
      colors.set(c === undefined ? [0.6, 0.64, 0.7] : hexToRgb(communityColor(c)), 3 * i);
    });
    // Start from last week's positions; a new node starts beside a neighbour that was there.
    const initial = new Float32Array(3 * count);
    const placed = new Uint8Array(count);
    snapshot.nodes.forEach((node, i) => {
      const p = previous.current.get(node.id);
      if (p) {
        initial.set(p, 3 * i);
        placed[i] = 1;
      }
    });
    const hasHistory = placed.some((v) => v === 1);
    for (let e = 0; e < linkArray.length; e += 2) {
      for (const [a, b] of [
        [linkArray[e], linkArray[e + 1]],
        [linkArray[e + 1], linkArray[e]],
      ]) {
        if (!placed[a] && placed[b] === 1) {
          for (let d = 0; d < 3; d++) initial[3 * a + d] = initial[3 * b + d] + (Math.random() - 0.5) * SNAPSHOT_PHYSICS.springLength;
          placed[a] = 2;
        }
      }
    }
    for (let i = 0; i < count; i++) {
      if (!placed[i]) for (let d = 0; d < 3; d++) initial[3 * i + d] = (Math.random() - 0.5) * SNAPSHOT_PHYSICS.springLength * Math.cbrt(count) * 2;
    }
    scene.setGraph(count, linkArray, sizes, colors);
    scene.setPositions(initial);
    const abort = new AbortController();
    const timestamp = snapshot.timestamp;
    const remember = (positions: Float32Array) => {
      const map = new Map<string, [number, number, number]>();
      snapshot.nodes.forEach((node, i) => map.set(node.id, [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]]));
      previous.current = map;
    };
    let last: Float32Array = initial;
    session
      .run(
        { count, links: linkArray },
        { cacheKey: null, initial: hasHistory ? initial : null, physics: SNAPSHOT_PHYSICS, sliceMs: 16 },
        (frame) => {
          last = frame.positions;
          scene.setPositions(frame.positions);
        },
        abort.signal,
      )
      .then((progress) => {
        if (!progress || abort.signal.aborted) return;
        remember(last);
        onSettledRef.current(timestamp);
      })
      .catch((error: unknown) => console.error('snapshot layout failed', error));
    return () => abort.abort();
  }, [snapshot, communities]);

  return <div ref={boxRef} className={classes.canvasBox} style={{ height: 'min(60vh, 460px)', borderRadius: 8 }} data-testid="score-graph" />;
}
