import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

/**
 * A 3D graph drawn with two draw calls whatever its size: every node is one point of a
 * THREE.Points (per-node colour and size as attributes, shaded as a sphere in the
 * fragment shader) and every link one segment of an indexed THREE.LineSegments that
 * shares the nodes' position buffer, so a new layout frame is one buffer upload and no
 * per-link work on the CPU. Frames render on demand (layout frames, camera moves,
 * rotation); picking is a CPU ray test against the positions, no GPU read-back.
 */
export type GraphSceneOptions = {
  background: string;
  linkColor: string;
  linkOpacity: number;
  isAutoRotating?: boolean;
  autoRotateSpeed?: number;
};

const VERTEX = /* glsl */ `
attribute vec3 aColor;
attribute float aSize;
uniform float uScale;
varying vec3 vColor;
void main() {
  vColor = aColor;
  vec4 mv = modelViewMatrix * vec4(position, 1.0);
  gl_PointSize = max(2.0, aSize * uScale / -mv.z);
  gl_Position = projectionMatrix * mv;
}`;

const FRAGMENT = /* glsl */ `
varying vec3 vColor;
void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  // A lit sphere: light from the upper left, a soft rim.
  vec3 n = vec3(p.x, -p.y, sqrt(1.0 - r2));
  float light = 0.55 + 0.45 * max(0.0, dot(n, normalize(vec3(-0.4, 0.5, 0.8))));
  gl_FragColor = vec4(vColor * light, 1.0);
}`;

export type ProjectedPoint = { x: number; y: number; isVisible: boolean };

function easeInOut(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - Math.pow(-2 * t + 2, 3) / 2;
}

const HISTOGRAM_BINS = 4096;
const histogram = new Uint32Array(HISTOGRAM_BINS);

/**
 * The distance from (cx, cy, cz) within which a fraction `q` of the first `count` points lie,
 * in linear time: a histogram of the distances over [0, max] and the bin where the count
 * crosses q, the answer rounded up to the bin's upper edge (1/4096 of the largest distance,
 * never smaller than the exact quantile: the graph always fits). `scratch` holds the distances.
 */
export function quantileRadius(p: ArrayLike<number>, count: number, cx: number, cy: number, cz: number, q: number, scratch: Float32Array): number {
  if (count <= 0) return 0;
  let max = 0;
  for (let i = 0; i < count; i++) {
    const dx = p[3 * i] - cx;
    const dy = p[3 * i + 1] - cy;
    const dz = p[3 * i + 2] - cz;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    scratch[i] = d;
    if (d > max) max = d;
  }
  if (!(max > 0)) return 0;
  histogram.fill(0);
  const scale = HISTOGRAM_BINS / max;
  for (let i = 0; i < count; i++) histogram[Math.min(HISTOGRAM_BINS - 1, Math.floor(scratch[i] * scale))]++;
  // The same rank as the sorted version: the element at index floor(q × (count − 1)).
  const rank = Math.floor(q * (count - 1));
  let seen = 0;
  for (let bin = 0; bin < HISTOGRAM_BINS; bin++) {
    seen += histogram[bin];
    if (seen > rank) return Math.min(max, ((bin + 1) * max) / HISTOGRAM_BINS);
  }
  return max;
}

export class GraphScene {
  readonly renderer: THREE.WebGLRenderer;
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  private readonly scene = new THREE.Scene();
  private readonly container: HTMLElement;
  private readonly pointsMaterial: THREE.ShaderMaterial;
  private readonly linesMaterial: THREE.LineBasicMaterial;
  private geometry: THREE.BufferGeometry | null = null;
  private linesGeometry: THREE.BufferGeometry | null = null;
  private points: THREE.Points | null = null;
  private lines: THREE.LineSegments | null = null;
  private marker: THREE.Mesh;
  private positions = new Float32Array(0);
  private sizes: Float32Array<ArrayBufferLike> = new Float32Array(0);
  private count = 0;
  private biggestSize = 0;
  private distances = new Float32Array(0);
  private frameRequest = 0;
  private flight: { from: THREE.Vector3; fromTarget: THREE.Vector3; to: THREE.Vector3; toTarget: THREE.Vector3; start: number; ms: number } | null = null;
  private hasUserMoved = false;
  private isCompiled = false;
  private markedNode = -1;
  private readonly resizeObserver: ResizeObserver;
  /** Called after every rendered frame (labels follow their node here). */
  onRender: (() => void) | null = null;
  /** CPU time of the last frame (ms): scene update + WebGL calls. */
  lastFrameMs = 0;

  constructor(container: HTMLElement, options: GraphSceneOptions) {
    this.container = container;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(new THREE.Color(options.background), 1);
    // Shader status queries are synchronous round trips to the GPU process (over 100 ms
    // each with software GL); programs are compiled asynchronously instead (see setGraph).
    this.renderer.debug.checkShaderErrors = import.meta.env.DEV;
    this.renderer.domElement.style.display = 'block';
    this.renderer.domElement.style.touchAction = 'none';
    container.appendChild(this.renderer.domElement);
    this.camera = new THREE.PerspectiveCamera(50, 1, 1, 1e6);
    this.camera.position.set(0, 0, 600);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.autoRotate = Boolean(options.isAutoRotating);
    this.controls.autoRotateSpeed = options.autoRotateSpeed ?? 0.6;
    this.controls.addEventListener('start', () => {
      this.hasUserMoved = true;
      this.flight = null;
    });
    this.controls.addEventListener('change', () => this.invalidate());
    this.pointsMaterial = new THREE.ShaderMaterial({ vertexShader: VERTEX, fragmentShader: FRAGMENT, uniforms: { uScale: { value: 1 } } });
    this.linesMaterial = new THREE.LineBasicMaterial({ color: new THREE.Color(options.linkColor), transparent: true, opacity: options.linkOpacity, depthWrite: false });
    // The marked node's ring is drawn over everything (no depth test), so a found node is never hidden behind others.
    this.marker = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 12), new THREE.MeshBasicMaterial({ color: 0xffb347, wireframe: true, transparent: true, opacity: 0.95, depthTest: false, depthWrite: false }));
    this.marker.renderOrder = 10;
    this.marker.visible = false;
    this.scene.add(this.marker);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  private resize(): void {
    const width = Math.max(1, this.container.clientWidth);
    const height = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    // Point size in pixels = world size × uScale / depth.
    const fov = (this.camera.fov * Math.PI) / 180;
    this.pointsMaterial.uniforms.uScale.value = (height * this.renderer.getPixelRatio()) / (2 * Math.tan(fov / 2));
    this.invalidate();
  }

  /** Replaces the graph: `links` are flat pairs of node indices; `sizes` are world diameters; `colors` RGB 0–1. */
  setGraph(count: number, links: Uint32Array, sizes: Float32Array, colors: Float32Array): void {
    this.clearGraph();
    this.count = count;
    this.positions = new Float32Array(3 * count);
    this.sizes = sizes;
    this.biggestSize = 0;
    for (let i = 0; i < count; i++) this.biggestSize = Math.max(this.biggestSize, sizes[i] ?? 0);
    const position = new THREE.BufferAttribute(this.positions, 3);
    position.setUsage(THREE.DynamicDrawUsage);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', position);
    geometry.setAttribute('aColor', new THREE.BufferAttribute(colors, 3));
    geometry.setAttribute('aSize', new THREE.BufferAttribute(sizes, 1));
    const linesGeometry = new THREE.BufferGeometry();
    linesGeometry.setAttribute('position', position);
    linesGeometry.setIndex(new THREE.BufferAttribute(links, 1));
    this.geometry = geometry;
    this.linesGeometry = linesGeometry;
    this.points = new THREE.Points(geometry, this.pointsMaterial);
    this.lines = new THREE.LineSegments(linesGeometry, this.linesMaterial);
    // Bounds change every frame while the layout runs; the whole graph is always drawn.
    this.points.frustumCulled = false;
    this.lines.frustumCulled = false;
    this.scene.add(this.lines);
    this.scene.add(this.points);
    if (!this.isCompiled) {
      // Compile the programs in parallel (KHR_parallel_shader_compile) before the first
      // frame, so that no frame blocks the page on a shader compile.
      this.renderer
        .compileAsync(this.scene, this.camera)
        .catch((error: unknown) => console.warn('shader pre-compile failed', error))
        .finally(() => {
          this.isCompiled = true;
          this.invalidate();
        });
      return;
    }
    this.invalidate();
  }

  private clearGraph(): void {
    if (this.points) this.scene.remove(this.points);
    if (this.lines) this.scene.remove(this.lines);
    this.geometry?.dispose();
    this.linesGeometry?.dispose();
    this.points = null;
    this.lines = null;
  }

  /** New positions (3 floats per node), e.g. a frame from the layout worker. */
  setPositions(positions: Float32Array): void {
    if (!this.geometry || positions.length !== this.positions.length) return;
    this.positions.set(positions);
    const attribute = this.geometry.getAttribute('position') as THREE.BufferAttribute;
    attribute.needsUpdate = true;
    if (this.markedNode >= 0) this.placeMarker();
    if (!this.hasUserMoved && !this.flight) this.fitAll();
    this.invalidate();
  }

  getPositions(): Float32Array {
    return this.positions;
  }

  setNodeColor(index: number, rgb: readonly [number, number, number]): void {
    if (!this.geometry || index < 0 || index >= this.count) return;
    const colors = this.geometry.getAttribute('aColor') as THREE.BufferAttribute;
    colors.setXYZ(index, rgb[0], rgb[1], rgb[2]);
    colors.needsUpdate = true;
    this.invalidate();
  }

  setAutoRotate(isOn: boolean): void {
    this.controls.autoRotate = isOn;
    this.invalidate();
  }

  /** Frames the whole graph (until the visitor moves the camera). */
  fitAll(): void {
    if (!this.count) return;
    let cx = 0, cy = 0, cz = 0;
    const p = this.positions;
    for (let i = 0; i < this.count; i++) {
      cx += p[3 * i];
      cy += p[3 * i + 1];
      cz += p[3 * i + 2];
    }
    cx /= this.count;
    cy /= this.count;
    cz /= this.count;
    // Radius holding ~98 % of the nodes (a few far-flung leaves should not shrink the rest).
    // Linear time, no allocation: this runs on every layout frame, and sorting every node's
    // distance each time was the map's longest main-thread task while the layout settled.
    if (this.distances.length < this.count) this.distances = new Float32Array(this.count);
    const radius = Math.max(20, quantileRadius(p, this.count, cx, cy, cz, 0.98, this.distances) + this.biggestSize);
    const fov = (this.camera.fov * Math.PI) / 180;
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    const distance = radius / Math.sin(fit / 2);
    const direction = this.camera.position.clone().sub(this.controls.target).normalize();
    if (!Number.isFinite(direction.x) || direction.lengthSq() === 0) direction.set(0, 0, 1);
    this.controls.target.set(cx, cy, cz);
    this.camera.position.set(cx, cy, cz).addScaledVector(direction, distance);
    this.camera.far = distance * 10 + radius * 4;
    this.camera.near = Math.max(0.1, distance / 1000);
    this.camera.updateProjectionMatrix();
    this.controls.update();
  }

  /** Flies the camera to a node and marks it. */
  flyTo(index: number, ms = 1200): void {
    if (index < 0 || index >= this.count) return;
    const p = this.positions;
    const target = new THREE.Vector3(p[3 * index], p[3 * index + 1], p[3 * index + 2]);
    const size = this.sizes[index] || 4;
    const direction = this.camera.position.clone().sub(this.controls.target).normalize();
    if (direction.lengthSq() === 0) direction.set(0, 0, 1);
    const distance = Math.max(60, size * 14);
    this.flight = {
      from: this.camera.position.clone(),
      fromTarget: this.controls.target.clone(),
      to: target.clone().addScaledVector(direction, distance),
      toTarget: target,
      start: performance.now(),
      ms,
    };
    this.hasUserMoved = true;
    this.mark(index);
    this.invalidate();
  }

  mark(index: number): void {
    this.markedNode = index;
    this.placeMarker();
    this.invalidate();
  }

  private placeMarker(): void {
    const i = this.markedNode;
    if (i < 0 || i >= this.count) {
      this.marker.visible = false;
      return;
    }
    const p = this.positions;
    this.marker.position.set(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    this.marker.scale.setScalar(Math.max(3, this.sizes[i]) * 1.1);
    this.marker.visible = true;
  }

  /** Screen position (CSS pixels in the container) of a node. */
  project(index: number): ProjectedPoint {
    if (index < 0 || index >= this.count) return { x: 0, y: 0, isVisible: false };
    const p = this.positions;
    const v = new THREE.Vector3(p[3 * index], p[3 * index + 1], p[3 * index + 2]).project(this.camera);
    return { x: ((v.x + 1) / 2) * this.container.clientWidth, y: ((1 - v.y) / 2) * this.container.clientHeight, isVisible: v.z < 1 && v.z > -1 };
  }

  /**
   * The node under a point of the canvas (client coordinates), or -1: the nearest node
   * whose sphere (at least a few pixels wide) the view ray crosses.
   */
  pick(clientX: number, clientY: number): number {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const ox = ray.ray.origin.x, oy = ray.ray.origin.y, oz = ray.ray.origin.z;
    const dx = ray.ray.direction.x, dy = ray.ray.direction.y, dz = ray.ray.direction.z;
    // World size of 6 CSS pixels at unit depth: small nodes stay clickable from afar.
    const pixel = (2 * Math.tan((this.camera.fov * Math.PI) / 360) * 6) / Math.max(1, rect.height);
    const p = this.positions;
    let best = -1;
    let bestT = Infinity;
    for (let i = 0; i < this.count; i++) {
      const vx = p[3 * i] - ox, vy = p[3 * i + 1] - oy, vz = p[3 * i + 2] - oz;
      const t = vx * dx + vy * dy + vz * dz;
      if (t <= 0 || t >= bestT) continue;
      const r = Math.max(this.sizes[i] / 2, t * pixel);
      if (vx * vx + vy * vy + vz * vz - t * t <= r * r) {
        best = i;
        bestT = t;
      }
    }
    return best;
  }

  invalidate(): void {
    if (this.frameRequest) return;
    this.frameRequest = requestAnimationFrame(() => this.frame());
  }

  private frame(): void {
    this.frameRequest = 0;
    if (!this.isCompiled) return;
    const started = performance.now();
    let isMoving = this.controls.autoRotate;
    if (this.flight) {
      const t = Math.min(1, (started - this.flight.start) / this.flight.ms);
      const e = easeInOut(t);
      this.camera.position.lerpVectors(this.flight.from, this.flight.to, e);
      this.controls.target.lerpVectors(this.flight.fromTarget, this.flight.toTarget, e);
      if (t >= 1) this.flight = null;
      isMoving = true;
    }
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
    this.lastFrameMs = performance.now() - started;
    this.onRender?.();
    if (isMoving) this.invalidate();
  }

  /** Renders one frame now and returns its CPU time (benchmarks). */
  renderNow(): number {
    const started = performance.now();
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
    return performance.now() - started;
  }

  dispose(): void {
    cancelAnimationFrame(this.frameRequest);
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.clearGraph();
    this.pointsMaterial.dispose();
    this.linesMaterial.dispose();
    this.marker.geometry.dispose();
    (this.marker.material as THREE.Material).dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
