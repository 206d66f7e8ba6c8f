// Force-directed graph layout in 3D: Barnes-Hut repulsion over an octree rebuilt in
// linear memory every step, Hooke springs on links, velocity integration with drag.
// The physical model is ngraph.forcelayout's (springLength, springCoefficient, gravity,
// theta, dragCoefficient, timeStep; body mass 1 + degree / 3) so that results compare
// with it directly. The multilevel driver (coarsening, prolongation, cooling) lives in
// wasm/layout.ts and calls this module level by level.
//
// Each step:
//  1. Bodies are sorted by their Morton code (10 bits per axis in the bounding cube,
//     three 10-bit radix passes) and gathered into sorted arrays (x, y, z, mass; one
//     array each, so four neighbours load as one v128).
//  2. The octree is built top-down on the sorted order: every cell is a contiguous run
//     of sorted bodies, children are stored side by side, leaves hold ≤ bucket bodies.
//  3. Repulsion is computed group by group (Barnes 1990 grouping): a group is the
//     largest cell with at most groupSize bodies (or an oversized leaf). One walk per
//     group collects an interaction list — cells far enough from the group's bounding
//     box (size < theta × distance from the cell's centre of mass to the box, so the
//     test holds for every body in the group), and the bodies of the leaves that had to
//     be opened, the group's own included — then every body of the group sums the list,
//     four entries per v128 step. Coincident bodies (only ever in one leaf) are pushed
//     apart afterwards along a fixed direction.
//  4. Springs, then integration with ngraph's drag and a speed limit.
//
// Memory (all offsets from __heap_base, 16-byte aligned), set by setup(n, m):
//   pos f32[3n] | vel f32[3n] | force f32[3n] | mass f32[n] | links u32[2m]
//   code u32[n] | code2 u32[n] | perm u32[n] | perm2 u32[n] | histogram u32[1024]
//   sx, sy, sz, sm f32[n + 4] | fx, fy, fz f32[n] (sorted order)
//   cells (CELL_BYTES each)[maxCells] | groups i32[n] | coincident leaves i32[n] | stack i32[STACK]
//   list: blocks of 4 entries x[4] y[4] z[4] mass[4] (one group's interaction list)

const CELL_BYTES: i32 = 32;
// Cell fields (byte offsets): centre of mass (x, y, z; a v128 with the mass), mass,
// opening bound (size² / theta²), first child | (child count - 1) << 28 (-1: leaf), first
// sorted body, body count.
const C_X: i32 = 0;
const C_Y: i32 = 4;
const C_Z: i32 = 8;
const C_MASS: i32 = 12;
const C_OPEN: i32 = 16;
const C_CHILD: i32 = 20;
const C_START: i32 = 24;
const C_COUNT: i32 = 28;

const BITS: i32 = 10;
const RADIX: i32 = 1 << BITS;
const STACK: i32 = 4096;
/** Squared distances below this are treated as coincident. */
const NEAR: f32 = 1e-6;

let n: i32 = 0;
let m: i32 = 0;
let maxCells: i32 = 0;
let cellCount: i32 = 0;
let leafCount: i32 = 0;
let groupCount: i32 = 0;
let coincidentCount: i32 = 0;
let listCap: i32 = 0;
let bucket: i32 = 8;
let groupSize: i32 = 64;

let posPtr: usize = 0;
let velPtr: usize = 0;
let forcePtr: usize = 0;
let massPtr: usize = 0;
let linksPtr: usize = 0;
let codePtr: usize = 0;
let code2Ptr: usize = 0;
let permPtr: usize = 0;
let perm2Ptr: usize = 0;
let histPtr: usize = 0;
let sxPtr: usize = 0;
let syPtr: usize = 0;
let szPtr: usize = 0;
let smPtr: usize = 0;
let fxPtr: usize = 0;
let fyPtr: usize = 0;
let fzPtr: usize = 0;
let cellsPtr: usize = 0;
let groupsPtr: usize = 0;
let coincidentPtr: usize = 0;
let stackPtr: usize = 0;
let listPtr: usize = 0;

let springLength: f32 = 10;
let springCoefficient: f32 = 0.8;
let gravity: f32 = -12;
let theta2: f32 = 0.64;
let dragCoefficient: f32 = 0.9;
let timeStep: f32 = 0.5;
// Pull towards the origin per unit of mass and distance (0 in ngraph): keeps nodes
// without links from drifting off, which matters on a map with isolated enterprises.
let centering: f32 = 0;

let lastEnergy: f64 = 0;
let interactions: f64 = 0;

function align16(x: usize): usize {
  return (x + 15) & ~(<usize>15);
}

/** Upper bound of octree cells: a depth holds at most min(8^depth, n) non-empty cells. */
function cellBound(bodies: i32): i32 {
  let total: i32 = 0;
  let width: i32 = 1;
  for (let d = 0; d <= BITS; d++) {
    total += min(width, bodies);
    if (width < bodies) width <<= 3;
  }
  return total + 8;
}

/** Lays out memory for n bodies and m links; grows memory as needed. Returns bytes used, -1 when memory cannot grow. */
export function setup(bodies: i32, links: i32): i32 {
  n = bodies;
  m = links;
  maxCells = cellBound(n);
  listCap = n + maxCells + 8;
  const n4 = <usize>(4 * (n + 4));
  let at = align16(__heap_base);
  posPtr = at;
  at = align16(at + <usize>(12 * n));
  velPtr = at;
  at = align16(at + <usize>(12 * n));
  forcePtr = at;
  at = align16(at + <usize>(12 * n));
  massPtr = at;
  at = align16(at + n4);
  linksPtr = at;
  at = align16(at + <usize>(8 * m));
  codePtr = at;
  at = align16(at + n4);
  code2Ptr = at;
  at = align16(at + n4);
  permPtr = at;
  at = align16(at + n4);
  perm2Ptr = at;
  at = align16(at + n4);
  histPtr = at;
  at = align16(at + <usize>(4 * RADIX));
  sxPtr = at;
  at = align16(at + n4);
  syPtr = at;
  at = align16(at + n4);
  szPtr = at;
  at = align16(at + n4);
  smPtr = at;
  at = align16(at + n4);
  fxPtr = at;
  at = align16(at + n4);
  fyPtr = at;
  at = align16(at + n4);
  fzPtr = at;
  at = align16(at + n4);
  cellsPtr = at;
  at = align16(at + <usize>(CELL_BYTES * maxCells));
  groupsPtr = at;
  at = align16(at + n4);
  coincidentPtr = at;
  at = align16(at + n4);
  stackPtr = at;
  at = align16(at + <usize>(4 * STACK));
  const l4 = <usize>(4 * listCap);
  // Blocks of four entries: x[4] y[4] z[4] mass[4] (64 bytes), one v128 load each.
  listPtr = at;
  at = align16(at + <usize>(16 * listCap + 64));
  const pages = <i32>((at + 65535) >> 16);
  const have = memory.size();
  if (pages > have) {
    if (memory.grow(pages - have) < 0) return -1;
  }
  memory.fill(velPtr, 0, <usize>(12 * n));
  return <i32>at;
}

export function positions(): usize {
  return posPtr;
}
export function velocities(): usize {
  return velPtr;
}
export function forces(): usize {
  return forcePtr;
}
export function masses(): usize {
  return massPtr;
}
export function linkPairs(): usize {
  return linksPtr;
}
export function energy(): f64 {
  return lastEnergy;
}
export function cellsUsed(): i32 {
  return cellCount;
}
export function leavesUsed(): i32 {
  return leafCount;
}
export function groupsUsed(): i32 {
  return groupCount;
}
/** Body–list interactions summed in the last tree force computation (including padding). */
export function interactionCount(): f64 {
  return interactions;
}

export function configure(length: f32, coefficient: f32, grav: f32, theta: f32, drag: f32, dt: f32, center: f32): void {
  centering = center;
  springLength = length;
  springCoefficient = coefficient;
  gravity = grav;
  theta2 = theta * theta;
  dragCoefficient = drag;
  timeStep = dt;
}

/**
 * Most bodies in an octree leaf, and in a group: the bodies of the largest cells with
 * at most groupBodies bodies share one tree walk and one interaction list.
 */
export function configureTree(leafBodies: i32, groupBodies: i32): void {
  bucket = max(1, leafBodies);
  groupSize = max(bucket, groupBodies);
}

@inline function cell(c: i32): usize {
  return cellsPtr + <usize>(c << 5);
}

@inline function px(i: i32): f32 {
  return load<f32>(posPtr + <usize>(12 * i));
}
@inline function py(i: i32): f32 {
  return load<f32>(posPtr + <usize>(12 * i), 4);
}
@inline function pz(i: i32): f32 {
  return load<f32>(posPtr + <usize>(12 * i), 8);
}
@inline function massOf(i: i32): f32 {
  return load<f32>(massPtr + (<usize>i << 2));
}
@inline function u32At(base: usize, i: i32): u32 {
  return load<u32>(base + (<usize>i << 2));
}
@inline function f32At(base: usize, i: i32): f32 {
  return load<f32>(base + (<usize>i << 2));
}

/** Spreads the low 10 bits of v to every third bit. */
@inline function spread(v: u32): u32 {
  v = (v | (v << 16)) & 0x030000ff;
  v = (v | (v << 8)) & 0x0300f00f;
  v = (v | (v << 4)) & 0x030c30c3;
  v = (v | (v << 2)) & 0x09249249;
  return v;
}

let rootSize: f32 = 1;

/** Morton codes in the bounding cube, then an LSD radix sort (3 × 10 bits) of the body indices. */
function sortBodies(): void {
  let minX = f32.MAX_VALUE, minY = f32.MAX_VALUE, minZ = f32.MAX_VALUE;
  let maxX = -f32.MAX_VALUE, maxY = -f32.MAX_VALUE, maxZ = -f32.MAX_VALUE;
  for (let i = 0; i < n; i++) {
    const x = px(i), y = py(i), z = pz(i);
    minX = min(minX, x);
    maxX = max(maxX, x);
    minY = min(minY, y);
    maxY = max(maxY, y);
    minZ = min(minZ, z);
    maxZ = max(maxZ, z);
  }
  let size = max(maxX - minX, max(maxY - minY, maxZ - minZ));
  size = size * 1.001 + 1;
  rootSize = size;
  const scale: f32 = <f32>RADIX / size;
  const top: f32 = <f32>(RADIX - 1);
  for (let i = 0; i < n; i++) {
    const qx = <u32>min(top, max(<f32>0, (px(i) - minX) * scale));
    const qy = <u32>min(top, max(<f32>0, (py(i) - minY) * scale));
    const qz = <u32>min(top, max(<f32>0, (pz(i) - minZ) * scale));
    store<u32>(codePtr + (<usize>i << 2), spread(qx) | (spread(qy) << 1) | (spread(qz) << 2));
    store<u32>(permPtr + (<usize>i << 2), <u32>i);
  }
  // Three stable counting passes; after each, (code, perm) are sorted by the digits so far.
  let inCode = codePtr, inPerm = permPtr, outCode = code2Ptr, outPerm = perm2Ptr;
  for (let pass = 0; pass < 3; pass++) {
    const shift = <u32>(pass * BITS);
    memory.fill(histPtr, 0, <usize>(4 * RADIX));
    for (let i = 0; i < n; i++) {
      const h = histPtr + (<usize>((u32At(inCode, i) >> shift) & (RADIX - 1)) << 2);
      store<u32>(h, load<u32>(h) + 1);
    }
    let sum: u32 = 0;
    for (let b = 0; b < RADIX; b++) {
      const h = histPtr + (<usize>b << 2);
      const c = load<u32>(h);
      store<u32>(h, sum);
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const code = u32At(inCode, i);
      const h = histPtr + (<usize>((code >> shift) & (RADIX - 1)) << 2);
      const to = load<u32>(h);
      store<u32>(h, to + 1);
      store<u32>(outCode + (<usize>to << 2), code);
      store<u32>(outPerm + (<usize>to << 2), u32At(inPerm, i));
    }
    const tc = inCode, tp = inPerm;
    inCode = outCode;
    inPerm = outPerm;
    outCode = tc;
    outPerm = tp;
  }
  // An odd number of passes leaves the result in the second buffers: swap the roles.
  const tc = codePtr, tp = permPtr;
  codePtr = inCode;
  permPtr = inPerm;
  code2Ptr = tc;
  perm2Ptr = tp;
  for (let k = 0; k < n; k++) {
    const i = <i32>u32At(permPtr, k);
    const o = <usize>k << 2;
    store<f32>(sxPtr + o, px(i));
    store<f32>(syPtr + o, py(i));
    store<f32>(szPtr + o, pz(i));
    store<f32>(smPtr + o, massOf(i));
  }
}

@inline function isNear(j: i32, k: i32): bool {
  const dx = f32At(sxPtr, j) - f32At(sxPtr, k);
  const dy = f32At(syPtr, j) - f32At(syPtr, k);
  const dz = f32At(szPtr, j) - f32At(szPtr, k);
  return dx * dx + dy * dy + dz * dz < NEAR;
}

function hasCoincident(start: i32, end: i32): bool {
  for (let j = start + 1; j < end; j++) {
    for (let k = start; k < j; k++) if (isNear(j, k)) return true;
  }
  return false;
}

/**
 * Coincident bodies (equal Morton codes, so always in one leaf) got nothing from each
 * other in the SIMD sums; push them apart along a direction fixed by their sorted indices.
 */
function separateCoincident(): void {
  for (let t = 0; t < coincidentCount; t++) {
    const p = cell(load<i32>(coincidentPtr + (<usize>t << 2)));
    const start = load<i32>(p, C_START);
    const end = start + load<i32>(p, C_COUNT);
    for (let k = start; k < end; k++) {
      let fx: f32 = 0, fy: f32 = 0, fz: f32 = 0;
      for (let j = start; j < end; j++) {
        if (j == k || !isNear(j, k)) continue;
        const dx = <f32>((k - j) % 7) * 0.01 + 0.005;
        const dy = <f32>((k + j) % 5) * 0.01 - 0.02;
        const dz = <f32>((k * 3 + j) % 3) * 0.01 - 0.01;
        const r2 = dx * dx + dy * dy + dz * dz;
        const w = f32At(smPtr, j) / (r2 * Mathf.sqrt(r2));
        fx += w * dx;
        fy += w * dy;
        fz += w * dz;
      }
      const s = gravity * f32At(smPtr, k);
      const o = <usize>k << 2;
      store<f32>(fxPtr + o, load<f32>(fxPtr + o) + s * fx);
      store<f32>(fyPtr + o, load<f32>(fyPtr + o) + s * fy);
      store<f32>(fzPtr + o, load<f32>(fzPtr + o) + s * fz);
    }
  }
}

/** Builds cell c over sorted bodies [start, end) at the given depth (recursively). */
function buildCell(c: i32, start: i32, end: i32, depth: i32, size: f32, isInGroup: bool): void {
  const p = cell(c);
  const isLeaf = end - start <= bucket || depth >= BITS;
  // A group: the largest cell with at most groupSize bodies, or a leaf that holds more
  // (bodies that share one Morton code at the depth limit).
  if (!isInGroup && (end - start <= groupSize || isLeaf)) {
    store<i32>(groupsPtr + (<usize>groupCount << 2), c);
    groupCount++;
    isInGroup = true;
  }
  store<f32>(p, (size * size) / theta2, C_OPEN);
  store<i32>(p, start, C_START);
  store<i32>(p, end - start, C_COUNT);
  if (isLeaf) {
    let mx: f32 = 0, my: f32 = 0, mz: f32 = 0, mass: f32 = 0;
    for (let k = start; k < end; k++) {
      const w = f32At(smPtr, k);
      mx += w * f32At(sxPtr, k);
      my += w * f32At(syPtr, k);
      mz += w * f32At(szPtr, k);
      mass += w;
    }
    const inv: f32 = mass > 0 ? <f32>1 / mass : 0;
    store<f32>(p, mx * inv, C_X);
    store<f32>(p, my * inv, C_Y);
    store<f32>(p, mz * inv, C_Z);
    store<f32>(p, mass, C_MASS);
    store<i32>(p, -1, C_CHILD);
    leafCount++;
    if (hasCoincident(start, end)) {
      store<i32>(coincidentPtr + (<usize>coincidentCount << 2), c);
      coincidentCount++;
    }
    return;
  }
  // Children: the runs of equal octant digits at this depth, allocated side by side.
  const shift = <u32>(3 * (BITS - 1 - depth));
  const first = cellCount;
  let children: i32 = 0;
  let i = start;
  while (i < end) {
    const oct = (u32At(codePtr, i) >> shift) & 7;
    let j = i + 1;
    while (j < end && ((u32At(codePtr, j) >> shift) & 7) == oct) j++;
    const q = cell(first + children);
    store<i32>(q, i, C_START);
    store<i32>(q, j - i, C_COUNT);
    children++;
    i = j;
  }
  cellCount += children;
  store<i32>(p, first | ((children - 1) << 28), C_CHILD);
  let mx: f32 = 0, my: f32 = 0, mz: f32 = 0, mass: f32 = 0;
  const half = size * 0.5;
  for (let k = 0; k < children; k++) {
    const q = cell(first + k);
    const s = load<i32>(q, C_START);
    buildCell(first + k, s, s + load<i32>(q, C_COUNT), depth + 1, half, isInGroup);
    const w = load<f32>(q, C_MASS);
    mx += w * load<f32>(q, C_X);
    my += w * load<f32>(q, C_Y);
    mz += w * load<f32>(q, C_Z);
    mass += w;
  }
  const inv: f32 = mass > 0 ? <f32>1 / mass : 0;
  store<f32>(p, mx * inv, C_X);
  store<f32>(p, my * inv, C_Y);
  store<f32>(p, mz * inv, C_Z);
  store<f32>(p, mass, C_MASS);
}

/** Sorts the bodies and rebuilds the octree over the current positions. */
export function buildTree(): void {
  sortBodies();
  cellCount = 1;
  leafCount = 0;
  groupCount = 0;
  coincidentCount = 0;
  if (n > 0) buildCell(0, 0, n, 0, rootSize, false);
}

/** Address of list entry e's x (y, z and mass follow at +16, +32, +48). */
@inline function entry(e: i32): usize {
  return listPtr + ((<usize>e >> 2) << 6) + ((<usize>e & 3) << 2);
}

@inline function appendEntry(e: i32, x: f32, y: f32, z: f32, mass: f32): void {
  const a = entry(e);
  store<f32>(a, x);
  store<f32>(a, y, 16);
  store<f32>(a, z, 32);
  store<f32>(a, mass, 48);
}

@inline function appendBodies(len: i32, start: i32, count: i32): void {
  for (let k = 0; k < count; k++) {
    const from = <usize>(start + k) << 2;
    appendEntry(len + k, load<f32>(sxPtr + from), load<f32>(syPtr + from), load<f32>(szPtr + from), load<f32>(smPtr + from));
  }
}

/** Interaction list of group l: cells accepted for every body of its bounding box, bodies of opened leaves (its own included). */
function collect(l: i32): i32 {
  const lp = cell(l);
  const ls = load<i32>(lp, C_START);
  const lc = load<i32>(lp, C_COUNT);
  let minX = f32.MAX_VALUE, minY = f32.MAX_VALUE, minZ = f32.MAX_VALUE;
  let maxX = -f32.MAX_VALUE, maxY = -f32.MAX_VALUE, maxZ = -f32.MAX_VALUE;
  for (let k = ls; k < ls + lc; k++) {
    const x = f32At(sxPtr, k), y = f32At(syPtr, k), z = f32At(szPtr, k);
    minX = min(minX, x);
    maxX = max(maxX, x);
    minY = min(minY, y);
    maxY = max(maxY, y);
    minZ = min(minZ, z);
    maxZ = max(maxZ, z);
  }
  let len: i32 = 0;
  store<i32>(stackPtr, 0);
  let sp: i32 = 1;
  while (sp > 0) {
    sp--;
    const c = load<i32>(stackPtr + (<usize>sp << 2));
    const p = cell(c);
    const child = load<i32>(p, C_CHILD);
    const start = load<i32>(p, C_START);
    const count = load<i32>(p, C_COUNT);
    if (c == l) {
      appendBodies(len, start, count);
      len += count;
      continue;
    }
    // An ancestor of the group holds its bodies: always opened.
    const isAncestor = start <= ls && ls < start + count;
    if (!isAncestor) {
      const x = load<f32>(p, C_X), y = load<f32>(p, C_Y), z = load<f32>(p, C_Z);
      const dx: f32 = x < minX ? minX - x : x > maxX ? x - maxX : 0;
      const dy: f32 = y < minY ? minY - y : y > maxY ? y - maxY : 0;
      const dz: f32 = z < minZ ? minZ - z : z > maxZ ? z - maxZ : 0;
      if (load<f32>(p, C_OPEN) < dx * dx + dy * dy + dz * dz) {
        appendEntry(len, x, y, z, load<f32>(p, C_MASS));
        len++;
        continue;
      }
      if (child < 0) {
        appendBodies(len, start, count);
        len += count;
        continue;
      }
    }
    const first = child & 0x0fffffff;
    const kids = (child >>> 28) + 1;
    for (let k = 0; k < kids; k++) {
      store<i32>(stackPtr + (<usize>sp << 2), first + k);
      sp++;
    }
  }
  // Pad to a multiple of 4 with massless entries.
  while (len & 3) {
    appendEntry(len, 0, 0, 0, 0);
    len++;
  }
  return len;
}

/** Repulsion on the bodies of group l from its interaction list (sorted order, into fx/fy/fz). */
function repulsionGroup(l: i32): void {
  const len = collect(l);
  const lp = cell(l);
  const ls = load<i32>(lp, C_START);
  const le = ls + load<i32>(lp, C_COUNT);
  const g = gravity;
  interactions += <f64>(len * (le - ls));
  let k = ls;
  if (ASC_FEATURE_SIMD) {
    // Two bodies per pass over the list: each list load serves both.
    const near = f32x4.splat(NEAR);
    for (; k < le; k++) {
      const ax0 = f32x4.splat(f32At(sxPtr, k)), ay0 = f32x4.splat(f32At(syPtr, k)), az0 = f32x4.splat(f32At(szPtr, k));
      let fx0 = f32x4.splat(0), fy0 = f32x4.splat(0), fz0 = f32x4.splat(0);
      const end = listPtr + (<usize>len << 4);
      for (let b = listPtr; b < end; b += 64) {
        const dx0 = f32x4.sub(v128.load(b), ax0), dy0 = f32x4.sub(v128.load(b, 16), ay0), dz0 = f32x4.sub(v128.load(b, 32), az0);
        const r0 = f32x4.pmax(near, f32x4.add(f32x4.add(f32x4.mul(dx0, dx0), f32x4.mul(dy0, dy0)), f32x4.mul(dz0, dz0)));
        const w0 = f32x4.div(v128.load(b, 48), f32x4.mul(r0, f32x4.sqrt(r0)));
        fx0 = f32x4.add(fx0, f32x4.mul(w0, dx0));
        fy0 = f32x4.add(fy0, f32x4.mul(w0, dy0));
        fz0 = f32x4.add(fz0, f32x4.mul(w0, dz0));
      }
      storeForce(k, fx0, fy0, fz0);
    }
  }
  for (; k < le; k++) {
    const xi = f32At(sxPtr, k), yi = f32At(syPtr, k), zi = f32At(szPtr, k);
    let fx: f32 = 0, fy: f32 = 0, fz: f32 = 0;
    for (let e = 0; e < len; e++) {
      const a = entry(e);
      const dx = load<f32>(a) - xi;
      const dy = load<f32>(a, 16) - yi;
      const dz = load<f32>(a, 32) - zi;
      const r2 = max(dx * dx + dy * dy + dz * dz, NEAR);
      const w = load<f32>(a, 48) / (r2 * Mathf.sqrt(r2));
      fx += w * dx;
      fy += w * dy;
      fz += w * dz;
    }
    const s = gravity * f32At(smPtr, k);
    const o = <usize>k << 2;
    store<f32>(fxPtr + o, s * fx);
    store<f32>(fyPtr + o, s * fy);
    store<f32>(fzPtr + o, s * fz);
  }
}

@inline function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
}

@inline function storeForce(k: i32, fx: v128, fy: v128, fz: v128): void {
  const s = gravity * f32At(smPtr, k);
  const o = <usize>k << 2;
  store<f32>(fxPtr + o, s * hsum(fx));
  store<f32>(fyPtr + o, s * hsum(fy));
  store<f32>(fzPtr + o, s * hsum(fz));
}

/** Repulsion on every body from the octree, group by group in Morton order, scattered back to body order. */
function repulsionTree(): void {
  interactions = 0;
  for (let t = 0; t < groupCount; t++) repulsionGroup(load<i32>(groupsPtr + (<usize>t << 2)));
  separateCoincident();
  for (let k = 0; k < n; k++) {
    const i = <i32>u32At(permPtr, k);
    const f = forcePtr + <usize>(12 * i);
    const o = <usize>k << 2;
    store<f32>(f, load<f32>(fxPtr + o));
    store<f32>(f, load<f32>(fyPtr + o), 4);
    store<f32>(f, load<f32>(fzPtr + o), 8);
  }
}

/** Exact O(n²) repulsion, the reference the tree is tested against. */
function repulsionExact(): void {
  for (let i = 0; i < n; i++) {
    const xi = px(i), yi = py(i), zi = pz(i);
    const mi = massOf(i);
    let fx: f32 = 0, fy: f32 = 0, fz: f32 = 0;
    for (let j = 0; j < n; j++) {
      if (j == i) continue;
      const dx = px(j) - xi, dy = py(j) - yi, dz = pz(j) - zi;
      const r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < NEAR) continue;
      const r = Mathf.sqrt(r2);
      const v = (gravity * mi * massOf(j)) / (r2 * r);
      fx += v * dx;
      fy += v * dy;
      fz += v * dz;
    }
    const f = forcePtr + <usize>(12 * i);
    store<f32>(f, fx);
    store<f32>(f, fy, 4);
    store<f32>(f, fz, 8);
  }
}

function springs(): void {
  const length = springLength;
  const k = springCoefficient;
  for (let e = 0; e < m; e++) {
    const a = load<i32>(linksPtr + <usize>(8 * e));
    const b = load<i32>(linksPtr + <usize>(8 * e), 4);
    let dx = px(b) - px(a), dy = py(b) - py(a), dz = pz(b) - pz(a);
    let r = Mathf.sqrt(dx * dx + dy * dy + dz * dz);
    if (r < 1e-4) {
      dx = 0.01;
      dy = 0.005;
      dz = -0.007;
      r = Mathf.sqrt(dx * dx + dy * dy + dz * dz);
    }
    const c = (k * (r - length)) / r;
    const fa = forcePtr + <usize>(12 * a);
    const fb = forcePtr + <usize>(12 * b);
    store<f32>(fa, load<f32>(fa) + c * dx);
    store<f32>(fa, load<f32>(fa, 4) + c * dy, 4);
    store<f32>(fa, load<f32>(fa, 8) + c * dz, 8);
    store<f32>(fb, load<f32>(fb) - c * dx);
    store<f32>(fb, load<f32>(fb, 4) - c * dy, 4);
    store<f32>(fb, load<f32>(fb, 8) - c * dz, 8);
  }
}

/** Writes the total force on every body (repulsion from the tree or exactly, plus springs). */
export function computeForces(useTree: bool): void {
  if (useTree) {
    buildTree();
    repulsionTree();
  } else {
    repulsionExact();
  }
  springs();
}

/**
 * One integration step with speed capped at maxSpeed (ngraph caps at 1). Returns
 * ngraph's movement measure, |(Σ|dx|, Σ|dy|, Σ|dz|)| / n (ngraph calls a layout stable
 * when it is ≤ 0.1); energy() then holds Σ|F|² / n.
 */
export function step(maxSpeed: f32): f64 {
  computeForces(true);
  const drag = dragCoefficient;
  const dt = timeStep;
  let tx: f64 = 0, ty: f64 = 0, tz: f64 = 0;
  let e: f64 = 0;
  for (let i = 0; i < n; i++) {
    const f = forcePtr + <usize>(12 * i);
    const v = velPtr + <usize>(12 * i);
    const p = posPtr + <usize>(12 * i);
    let vx = load<f32>(v), vy = load<f32>(v, 4), vz = load<f32>(v, 8);
    const pull = centering * massOf(i);
    const fx = load<f32>(f) - drag * vx - pull * load<f32>(p);
    const fy = load<f32>(f, 4) - drag * vy - pull * load<f32>(p, 4);
    const fz = load<f32>(f, 8) - drag * vz - pull * load<f32>(p, 8);
    e += <f64>(fx * fx + fy * fy + fz * fz);
    const coeff = dt / massOf(i);
    vx += coeff * fx;
    vy += coeff * fy;
    vz += coeff * fz;
    const speed = Mathf.sqrt(vx * vx + vy * vy + vz * vz);
    if (speed > maxSpeed) {
      const s = maxSpeed / speed;
      vx *= s;
      vy *= s;
      vz *= s;
    }
    store<f32>(v, vx);
    store<f32>(v, vy, 4);
    store<f32>(v, vz, 8);
    const dx = dt * vx, dy = dt * vy, dz = dt * vz;
    store<f32>(p, load<f32>(p) + dx);
    store<f32>(p, load<f32>(p, 4) + dy, 4);
    store<f32>(p, load<f32>(p, 8) + dz, 8);
    tx += <f64>Mathf.abs(dx);
    ty += <f64>Mathf.abs(dy);
    tz += <f64>Mathf.abs(dz);
  }
  lastEnergy = n > 0 ? e / <f64>n : 0;
  // ngraph's movement measure: sqrt(lastMove / n) with lastMove = (tx² + ty² + tz²) / n.
  return n > 0 ? Math.sqrt(tx * tx + ty * ty + tz * tz) / <f64>n : 0;
}
