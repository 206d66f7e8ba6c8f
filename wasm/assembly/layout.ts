// Force-directed graph layout in 3D: Barnes-Hut repulsion over an octree rebuilt in
// linear memory every step, Hooke springs on links, velocity integration with drag.
// The physical model is ngraph.forcelayout's (springLength, springCoefficient, gravity,
// theta, dragCoefficient, timeStep; body mass 1 + degree / 3) so that results compare
// with it directly; the speed comes from flat arrays, bucketed octree leaves and no
// allocation per step. The multilevel driver (coarsening, prolongation) lives in
// workers/layout/layout-engine.ts and calls this module level by level.
//
// Memory (all offsets from __heap_base, 16-byte aligned), set by setup(n, m):
//   pos f32[3n] | vel f32[3n] | force f32[3n] | mass f32[n] | next i32[n] |
//   links u32[2m] | cells (CELL_BYTES each)[maxCells] | stack i32[STACK]

const CELL_BYTES: i32 = 48;
// Cell fields (byte offsets): weighted position sums, mass, box origin, box size,
// first child (-1: leaf), head of the leaf's body list (-1: empty), bodies in the leaf.
const C_MX: i32 = 0;
const C_MY: i32 = 4;
const C_MZ: i32 = 8;
const C_MASS: i32 = 12;
const C_OX: i32 = 16;
const C_OY: i32 = 20;
const C_OZ: i32 = 24;
const C_SIZE: i32 = 28;
const C_CHILD: i32 = 32;
const C_HEAD: i32 = 36;
const C_COUNT: i32 = 40;

const BUCKET: i32 = 6;
const MAX_DEPTH: i32 = 24;
const STACK: i32 = 1024;

let n: i32 = 0;
let m: i32 = 0;
let maxCells: i32 = 0;
let cellCount: i32 = 0;

let posPtr: usize = 0;
let velPtr: usize = 0;
let forcePtr: usize = 0;
let massPtr: usize = 0;
let nextPtr: usize = 0;
let linksPtr: usize = 0;
let cellsPtr: usize = 0;
let stackPtr: usize = 0;

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

function align16(x: usize): usize {
  return (x + 15) & ~(<usize>15);
}

/** Lays out memory for n bodies and m links; grows memory as needed. Returns bytes used. */
export function setup(bodies: i32, links: i32): i32 {
  n = bodies;
  m = links;
  maxCells = 2 * n + 64;
  let at = align16(__heap_base);
  posPtr = at;
  at = align16(at + <usize>(12 * n));
  velPtr = at;
  at = align16(at + <usize>(12 * n));
  forcePtr = at;
  at = align16(at + <usize>(12 * n));
  massPtr = at;
  at = align16(at + <usize>(4 * n));
  nextPtr = at;
  at = align16(at + <usize>(4 * n));
  linksPtr = at;
  at = align16(at + <usize>(8 * m));
  cellsPtr = at;
  at = align16(at + <usize>(CELL_BYTES * maxCells));
  stackPtr = at;
  at = align16(at + <usize>(4 * STACK));
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

export function configure(length: f32, coefficient: f32, grav: f32, theta: f32, drag: f32, dt: f32, center: f32): void {
  centering = center;
  springLength = length;
  springCoefficient = coefficient;
  gravity = grav;
  theta2 = theta * theta;
  dragCoefficient = drag;
  timeStep = dt;
}

@inline function cell(c: i32): usize {
  return cellsPtr + <usize>(c * CELL_BYTES);
}

@inline function initCell(c: i32, ox: f32, oy: f32, oz: f32, size: f32): void {
  const p = cell(c);
  store<f32>(p, 0, C_MX);
  store<f32>(p, 0, C_MY);
  store<f32>(p, 0, C_MZ);
  store<f32>(p, 0, C_MASS);
  store<f32>(p, ox, C_OX);
  store<f32>(p, oy, C_OY);
  store<f32>(p, oz, C_OZ);
  store<f32>(p, size, C_SIZE);
  store<i32>(p, -1, C_CHILD);
  store<i32>(p, -1, C_HEAD);
  store<i32>(p, 0, C_COUNT);
}

@inline function octant(p: usize, x: f32, y: f32, z: f32): i32 {
  const half = load<f32>(p, C_SIZE) * 0.5;
  let k: i32 = 0;
  if (x >= load<f32>(p, C_OX) + half) k |= 1;
  if (y >= load<f32>(p, C_OY) + half) k |= 2;
  if (z >= load<f32>(p, C_OZ) + half) k |= 4;
  return k;
}

@inline function addMass(p: usize, w: f32, x: f32, y: f32, z: f32): void {
  store<f32>(p, load<f32>(p, C_MX) + w * x, C_MX);
  store<f32>(p, load<f32>(p, C_MY) + w * y, C_MY);
  store<f32>(p, load<f32>(p, C_MZ) + w * z, C_MZ);
  store<f32>(p, load<f32>(p, C_MASS) + w, C_MASS);
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
  return load<f32>(massPtr + <usize>(4 * i));
}

function split(c: i32): void {
  const p = cell(c);
  const first = cellCount;
  cellCount += 8;
  const half = load<f32>(p, C_SIZE) * 0.5;
  const ox = load<f32>(p, C_OX);
  const oy = load<f32>(p, C_OY);
  const oz = load<f32>(p, C_OZ);
  for (let k = 0; k < 8; k++) {
    initCell(first + k, ox + (k & 1 ? half : 0), oy + (k & 2 ? half : 0), oz + (k & 4 ? half : 0), half);
  }
  store<i32>(p, first, C_CHILD);
  // Move the leaf's bodies down one level.
  let j = load<i32>(p, C_HEAD);
  while (j >= 0) {
    const after = load<i32>(nextPtr + <usize>(4 * j));
    const x = px(j);
    const y = py(j);
    const z = pz(j);
    const q = cell(first + octant(p, x, y, z));
    addMass(q, massOf(j), x, y, z);
    store<i32>(nextPtr + <usize>(4 * j), load<i32>(q, C_HEAD));
    store<i32>(q, j, C_HEAD);
    store<i32>(q, load<i32>(q, C_COUNT) + 1, C_COUNT);
    j = after;
  }
  store<i32>(p, -1, C_HEAD);
  store<i32>(p, 0, C_COUNT);
}

function insert(i: i32): void {
  const x = px(i);
  const y = py(i);
  const z = pz(i);
  const w = massOf(i);
  let c: i32 = 0;
  let depth: i32 = 0;
  while (true) {
    const p = cell(c);
    addMass(p, w, x, y, z);
    const child = load<i32>(p, C_CHILD);
    if (child >= 0) {
      c = child + octant(p, x, y, z);
      depth++;
      continue;
    }
    const count = load<i32>(p, C_COUNT);
    if (count < BUCKET || depth >= MAX_DEPTH || cellCount + 8 > maxCells) {
      store<i32>(nextPtr + <usize>(4 * i), load<i32>(p, C_HEAD));
      store<i32>(p, i, C_HEAD);
      store<i32>(p, count + 1, C_COUNT);
      return;
    }
    split(c);
    c = load<i32>(p, C_CHILD) + octant(p, x, y, z);
    depth++;
  }
}

/** Rebuilds the octree over the current positions. */
export function buildTree(): void {
  let minX = f32.MAX_VALUE, minY = f32.MAX_VALUE, minZ = f32.MAX_VALUE;
  let maxX = -f32.MAX_VALUE, maxY = -f32.MAX_VALUE, maxZ = -f32.MAX_VALUE;
  for (let i = 0; i < n; i++) {
    const x = px(i), y = py(i), z = pz(i);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  let size = max(maxX - minX, max(maxY - minY, maxZ - minZ));
  size = size * 1.001 + 1;
  cellCount = 1;
  initCell(0, minX - 0.5, minY - 0.5, minZ - 0.5, size);
  for (let i = 0; i < n; i++) insert(i);
}

/** Repulsion on body i from the octree (Barnes-Hut, opening criterion size/r < theta). */
function repulsionOn(i: i32): void {
  const g = gravity;
  const t2 = theta2;
  const xi = px(i), yi = py(i), zi = pz(i);
  const mi = massOf(i);
  let fx: f32 = 0, fy: f32 = 0, fz: f32 = 0;
  store<i32>(stackPtr, 0);
  let sp: i32 = 1;
  while (sp > 0) {
    sp--;
    const p = cell(load<i32>(stackPtr + <usize>(4 * sp)));
    const cm = load<f32>(p, C_MASS);
    const child = load<i32>(p, C_CHILD);
    if (child < 0) {
      let j = load<i32>(p, C_HEAD);
      while (j >= 0) {
        if (j != i) {
          let dx = px(j) - xi, dy = py(j) - yi, dz = pz(j) - zi;
          let r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < 1e-6) {
            // Coincident bodies: push apart along a direction fixed by their indices.
            dx = <f32>((i - j) % 7) * 0.01 + 0.005;
            dy = <f32>((i + j) % 5) * 0.01 - 0.02;
            dz = <f32>((i * 3 + j) % 3) * 0.01 - 0.01;
            r2 = dx * dx + dy * dy + dz * dz;
          }
          const r = Mathf.sqrt(r2);
          const v = (g * mi * massOf(j)) / (r2 * r);
          fx += v * dx;
          fy += v * dy;
          fz += v * dz;
        }
        j = load<i32>(nextPtr + <usize>(4 * j));
      }
      continue;
    }
    const inv: f32 = <f32>1 / cm;
    const dx = load<f32>(p, C_MX) * inv - xi;
    const dy = load<f32>(p, C_MY) * inv - yi;
    const dz = load<f32>(p, C_MZ) * inv - zi;
    const r2 = dx * dx + dy * dy + dz * dz;
    const s = load<f32>(p, C_SIZE);
    if (s * s < t2 * r2) {
      const r = Mathf.sqrt(r2);
      const v = (g * mi * cm) / (r2 * r);
      fx += v * dx;
      fy += v * dy;
      fz += v * dz;
    } else {
      for (let k = 0; k < 8; k++) {
        if (load<f32>(cell(child + k), C_MASS) != 0) {
          store<i32>(stackPtr + <usize>(4 * sp), child + k);
          sp++;
        }
      }
    }
  }
  const f = forcePtr + <usize>(12 * i);
  store<f32>(f, fx);
  store<f32>(f, fy, 4);
  store<f32>(f, fz, 8);
}

/**
 * Repulsion on every body, visiting bodies leaf by leaf in the tree's order (siblings
 * sit side by side in memory) so that consecutive walks touch the same cells in cache.
 */
function repulsionTree(): void {
  for (let c = 0; c < cellCount; c++) {
    const p = cell(c);
    if (load<i32>(p, C_CHILD) >= 0) continue;
    let j = load<i32>(p, C_HEAD);
    while (j >= 0) {
      repulsionOn(j);
      j = load<i32>(nextPtr + <usize>(4 * j));
    }
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
      if (r2 < 1e-6) continue;
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
