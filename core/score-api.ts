/**
 * Shapes of the enterprise-score API (§7 "Enterprise-score API", §3 enterprise node,
 * score point, graph snapshot, community snapshot, structural hole, bridge), shared by
 * the score service (server/score/) and the browser (asset map, bigscreen, score page).
 *
 * Base: the deployment configuration's `api.scoreBase` (default `/score-api`); every
 * path below is relative to it. The main server serves it, and `node server/score/server.ts`
 * serves the same routes as a process of its own.
 *
 * Envelope (as everywhere in the API): 200 `{ "data": <payload> }`; the browser client
 * resolves with `<payload>`. The types named `…Payload` are that unwrapped payload.
 * Errors: 400 `{ message: <§8 key>, field_name }`; an unknown uuid is
 * `{ message: 'enterprise_not_found', field_name: 'uuid' }`, a bad query parameter
 * `{ message: 'invalid_param', field_name: <param> }`.
 *
 * Times: integer milliseconds since the epoch (the §3 rule "values above 9999999999 are
 * milliseconds" is honoured on input: `start`/`end` may be seconds or milliseconds).
 * Weeks start on Monday 00:00 UTC; a week's `timestamp` is that instant.
 */

export const SCORE_API_VERSION = 'v1';

/** Default and maximum page sizes of the paged calls (`page` is 1-based). */
export const SCORE_PAGE_SIZE = 100;
export const SCORE_PAGE_SIZE_MAX = 500;
/** §9: at most 30 graph (or community) snapshots per call. */
export const SCORE_GRAPH_SNAPSHOTS_MAX = 30;

// ---------------------------------------------------------------------------------
// Enterprises and the map

/** §3 Enterprise node. `is_demo` marks generated demo data (the UI may label it). */
export type EnterpriseNode = {
  id: number;
  uuid: string;
  name: string;
  activated: boolean;
  /** Last change of the node (activation time once activated), ms. */
  updated_at: number;
  is_demo: boolean;
};

/** GET v1/enterprise?uuid= */
export type EnterpriseQuery = { uuid: string };
export type EnterprisePayload = { name: string; activated: boolean; uuid: string; is_demo: boolean };

/**
 * GET v1/enterprise/activate/{uuid} (§7 says GET, kept working) and POST of the same
 * path (preferred: it changes state). Idempotent: activating an activated enterprise
 * answers 200 with the same body and leaves `updated_at` as it was.
 */
export type ActivatePayload = { id: number; uuid: string; activated: true; updated_at: number };

/** GET v1/enterprise/latest-activate: id 0 means none has been activated yet. */
export type LatestActivatePayload = { id: number; updated_at: number; uuid: string | null; name: string | null };

/**
 * GET v1/metric (no query): the §3 enterprise nodes, every enterprise, ordered by id.
 * Payload: EnterpriseNode[] (exactly §7).
 *
 * How enterprises are linked on the map: two enterprises are linked when at least one
 * developer contributed (within the last 52 weeks of data) to repositories of both;
 * the link's weight is the number of such shared developers. Each enterprise keeps
 * its 4 strongest links (see docs/score.md): 20 000 demo enterprises have 31 877 links.
 *
 * GET v1/metric/links → MetricLinksPayload (links by enterprise id).
 * GET v1/metric?format=columnar → MetricColumns (nodes and links in one compact JSON).
 * GET v1/metric?format=binary → application/octet-stream, decode with decodeMetricBinary().
 * All three carry an ETag (the data version); send If-None-Match to get 304.
 */
export type MetricQuery = { format?: 'json' | 'columnar' | 'binary' };
export type MetricPayload = EnterpriseNode[];

/** Links as flat pairs of enterprise ids: [a0, b0, a1, b1, …], with a weight per pair. */
export type MetricLinksPayload = { links: number[]; weights: number[]; version: string };

/**
 * Columnar form of the whole map: row i of every column is one enterprise; `links`
 * holds flat pairs of row indices (not ids) so they index the columns directly.
 */
export type MetricColumns = {
  version: string;
  count: number;
  id: number[];
  uuid: string[];
  name: string[];
  /** 0 or 1. */
  activated: number[];
  updated_at: number[];
  /** 0 or 1. */
  is_demo: number[];
  /** Latest weekly capital (0 when no score yet): lets the map size or tint nodes. */
  capital: number[];
  links: number[];
  link_weight: number[];
};

/** The decoded binary metric: typed arrays, ready to move to a worker by transfer. */
export type MetricBinary = {
  version: string;
  count: number;
  id: Uint32Array;
  activated: Uint8Array;
  is_demo: Uint8Array;
  updated_at: Float64Array;
  capital: Float32Array;
  /** Flat pairs of row indices. */
  links: Uint32Array;
  link_weight: Uint16Array;
  uuid: string[];
  name: string[];
};

const METRIC_MAGIC = 0x314d5650; // "PVM1" little-endian

/**
 * Binary layout (little-endian), chosen so each typed array starts aligned:
 *   u32 magic "PVM1", u32 count n, u32 link count m, u32 version byte length v,
 *   f64 updated_at[n], f32 capital[n], u32 id[n], u32 links[2m], u16 link_weight[m],
 *   u8 activated[n], u8 is_demo[n], utf-8 version[v],
 *   u32 strings byte length s, utf-8 strings[s]: uuid\tname per row joined by \n.
 */
export function encodeMetricBinary(c: MetricColumns): Uint8Array {
  const enc = new TextEncoder();
  const version = enc.encode(c.version);
  const strings = enc.encode(c.id.map((_, i) => `${c.uuid[i]}\t${c.name[i].replace(/[\t\n]/g, ' ')}`).join('\n'));
  const n = c.count;
  const m = c.link_weight.length;
  const size = 16 + 8 * n + 4 * n + 4 * n + 8 * m + 2 * m + n + n + version.length + 4 + strings.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, METRIC_MAGIC, true);
  view.setUint32(4, n, true);
  view.setUint32(8, m, true);
  view.setUint32(12, version.length, true);
  let at = 16;
  for (let i = 0; i < n; i++, at += 8) view.setFloat64(at, c.updated_at[i], true);
  for (let i = 0; i < n; i++, at += 4) view.setFloat32(at, c.capital[i], true);
  for (let i = 0; i < n; i++, at += 4) view.setUint32(at, c.id[i], true);
  for (let i = 0; i < 2 * m; i++, at += 4) view.setUint32(at, c.links[i], true);
  for (let i = 0; i < m; i++, at += 2) view.setUint16(at, Math.min(65535, c.link_weight[i]), true);
  for (let i = 0; i < n; i++) out[at++] = c.activated[i];
  for (let i = 0; i < n; i++) out[at++] = c.is_demo[i];
  out.set(version, at);
  at += version.length;
  view.setUint32(at, strings.length, true);
  at += 4;
  out.set(strings, at);
  return out;
}

/** Inverse of encodeMetricBinary; throws on a buffer that is not one. */
export function decodeMetricBinary(buffer: ArrayBuffer | Uint8Array): MetricBinary {
  // A plain view (a Node Buffer's slice() would share its pool instead of copying).
  const bytes = buffer instanceof Uint8Array ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : new Uint8Array(buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 16 || view.getUint32(0, true) !== METRIC_MAGIC) throw new Error('not a metric binary');
  const n = view.getUint32(4, true);
  const m = view.getUint32(8, true);
  const v = view.getUint32(12, true);
  // Copy into fresh, aligned buffers (the source may sit at any offset).
  const take = (at: number, length: number) => bytes.slice(at, at + length).buffer;
  let at = 16;
  const updated_at = new Float64Array(take(at, 8 * n));
  at += 8 * n;
  const capital = new Float32Array(take(at, 4 * n));
  at += 4 * n;
  const id = new Uint32Array(take(at, 4 * n));
  at += 4 * n;
  const links = new Uint32Array(take(at, 8 * m));
  at += 8 * m;
  const link_weight = new Uint16Array(take(at, 2 * m));
  at += 2 * m;
  const activated = bytes.slice(at, at + n);
  at += n;
  const is_demo = bytes.slice(at, at + n);
  at += n;
  const dec = new TextDecoder();
  const version = dec.decode(bytes.subarray(at, at + v));
  at += v;
  const s = view.getUint32(at, true);
  at += 4;
  const rows = n === 0 ? [] : dec.decode(bytes.subarray(at, at + s)).split('\n');
  const uuid: string[] = new Array(n);
  const name: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i] ?? '';
    const tab = row.indexOf('\t');
    uuid[i] = row.slice(0, tab);
    name[i] = row.slice(tab + 1);
  }
  return { version, count: n, id, activated, is_demo, updated_at, capital, links, link_weight, uuid, name };
}

// ---------------------------------------------------------------------------------
// Scores of one enterprise

/** `page` is 1-based (default 1); `page_size` defaults to SCORE_PAGE_SIZE, at most SCORE_PAGE_SIZE_MAX. */
export type PageQuery = { page?: number; page_size?: number };

/** A page of items with the total count across all pages: `{ data, total }`. */
export type Paged<T> = { data: T[]; total: number };

/** §3 Score point: one week of one enterprise (formulas in docs/score.md). */
export type ScorePoint = {
  timestamp: number;
  /** Asset trend: depreciated accumulated digital capital (perpetual inventory). */
  capital: number;
  /** Stock: registered assets + repositories held at the end of the week. */
  amount: number;
  /** Flow: contributions during the week (commits + registrations). */
  flow: number;
  /** Bipartite density of the repository/developer graph, 0–1. */
  density: number;
  /** Freeman degree centralization of that graph, 0–1. */
  centralization: number;
};

/** GET v1/score/{uuid}?page&page_size → Paged<ScorePoint>, oldest first. */
export type ScorePayload = Paged<ScorePoint>;

/** One week of the timeline (the playback slider's steps), oldest first. */
export type TimelineEntry = {
  timestamp: number;
  repos: number;
  developers: number;
  links: number;
  communities: number;
  structural_holes: number;
  bridges: number;
};

/** GET v1/score/timeline/{uuid}?page&page_size → Paged<TimelineEntry>; page until all loaded. */
export type TimelinePayload = Paged<TimelineEntry>;

/**
 * GET v1/score/graph/{uuid} and v1/score/community/{uuid}: `start`, `end` bound the
 * weeks (inclusive; seconds or ms; default: all); `page_size` (default and max 30) is
 * how many snapshots come back: when more weeks fall in the range they are picked
 * evenly across it, always including the last one.
 */
export type SnapshotQuery = { page_size?: number; start?: number; end?: number };

/** Node ids are stable across weeks: `r<repo id>` and `d<developer id>`. */
export type GraphNode = {
  id: string;
  category: 'repo' | 'developer';
  name: string;
  /** Commits in the snapshot's window (repos: received, developers: made). */
  weight: number;
  /** Burt's constraint (weighted, as networkx.constraint), 0–1; lower = more brokerage. */
  constraint: number;
};
export type GraphLink = { source: string; target: string; weight: number };
/** §3 Graph snapshot. */
export type GraphSnapshot = { timestamp: number; nodes: GraphNode[]; links: GraphLink[] };
export type GraphPayload = GraphSnapshot[];

/**
 * §3 Community snapshot: `communities[k]` lists node ids; `community_ids[k]` is its id,
 * stable across weeks (maximum-overlap matching with the previous week).
 */
export type CommunitySnapshot = { timestamp: number; communities: string[][]; community_ids: number[]; modularity: number };
export type CommunityPayload = CommunitySnapshot[];

/** §3 Structural hole: a broker node in one week (rule in docs/score.md). */
export type StructuralHole = { id: string; timestamp: number; name: string; category: 'repo' | 'developer'; constraint: number; degree: number };
/** GET v1/score/structual_hole/{uuid}?page&page_size (the spec's spelling), newest week first. */
export type StructuralHolePayload = { structual_holes: StructuralHole[]; total: number };

export type LinkRef = { source: string; target: string };
/**
 * §3 Bridge: `link1` is an edge whose removal disconnects the week's graph (Tarjan),
 * oriented from the smaller side; `link2` is the strongest tie continuing from its far
 * end into the larger side. `cut_size` is how many nodes the smaller side holds.
 */
export type Bridge = { timestamp: number; link1: LinkRef; link2: LinkRef; cut_size: number };
/** GET v1/score/bridge/{uuid}?page&page_size, newest week first. */
export type BridgePayload = { bridges: Bridge[]; total: number };
