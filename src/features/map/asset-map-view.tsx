import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type { MetricBinary } from '../../../core/score-api.ts';
import { MAP_DOUBLE_CLICK_MS } from '../../../core/asset-map.ts';
import { openLayoutSession } from '../../../workers/layout/layout-service.ts';
import { GraphScene } from './graph-scene.ts';
import { graphKey, nodeColors, nodeSizes, ORANGE } from './map-data.ts';
import classes from './map.module.css';

export type AssetMapHandle = {
  flyTo(index: number): void;
  light(index: number): void;
};

type Props = {
  metric: MetricBinary;
  isAutoRotating?: boolean;
  /** Single click on a node (after the camera starts flying to it). */
  onSelect?(index: number): void;
  /** Two clicks on one node within 500 ms. */
  onDoubleClick?(index: number): void;
  /** Layout state for the page (e.g. "arranging…"). */
  onLayout?(state: { isSettled: boolean; isWarm: boolean }): void;
  /** Index of the node whose name floats beside it (-1: none). */
  labelIndex?: number;
  label?: string;
};

/** Clicks that move the pointer further than this are drags (camera), not clicks. */
const CLICK_SLOP_PX = 5;

/** The 3D enterprise graph: three.js scene + layout worker + picking. */
export const AssetMapView = forwardRef<AssetMapHandle, Props>(function AssetMapView({ metric, isAutoRotating = false, onSelect, onDoubleClick, onLayout, labelIndex = -1, label }, ref) {
  const containerRef = useRef<HTMLDivElement>(null);
  const labelRef = useRef<HTMLDivElement>(null);
  const sceneRef = useRef<GraphScene | null>(null);
  const labelIndexRef = useRef(labelIndex);
  labelIndexRef.current = labelIndex;
  const callbacks = useRef({ onSelect, onDoubleClick, onLayout });
  callbacks.current = { onSelect, onDoubleClick, onLayout };

  useImperativeHandle(ref, () => ({
    flyTo: (index) => sceneRef.current?.flyTo(index),
    light: (index) => sceneRef.current?.setNodeColor(index, ORANGE),
  }));

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const scene = new GraphScene(container, { background: '#0b1220', linkColor: '#5b7aa6', linkOpacity: 0.35, isAutoRotating });
    sceneRef.current = scene;
    scene.setGraph(metric.count, metric.links, nodeSizes(metric), nodeColors(metric));
    scene.onRender = () => {
      const el = labelRef.current;
      if (!el) return;
      const at = scene.project(labelIndexRef.current);
      el.style.display = at.isVisible ? 'block' : 'none';
      el.style.transform = `translate(${Math.round(at.x + 12)}px, ${Math.round(at.y - 12)}px)`;
    };

    // Layout in the worker; frames arrive as transferred Float32Arrays.
    const session = openLayoutSession();
    const abort = new AbortController();
    void session
      .run(
        { count: metric.count, links: metric.links },
        { cacheKey: graphKey(metric.count, metric.links), physics: { centering: 0.005 } },
        (frame) => {
          scene.setPositions(frame.positions);
          callbacks.current.onLayout?.({ isSettled: frame.progress.isSettled, isWarm: frame.isWarm });
        },
        abort.signal,
      )
      .then((progress) => progress && callbacks.current.onLayout?.({ isSettled: true, isWarm: false }))
      .catch((error: unknown) => console.error('layout failed', error));

    // Click vs drag, and the 500 ms double-click on one node.
    const canvas = scene.renderer.domElement;
    let down: { x: number; y: number } | null = null;
    let lastClick = { index: -1, at: 0 };
    const onPointerDown = (e: PointerEvent) => {
      down = { x: e.clientX, y: e.clientY };
    };
    const onPointerUp = (e: PointerEvent) => {
      if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > CLICK_SLOP_PX) return;
      down = null;
      const index = scene.pick(e.clientX, e.clientY);
      if (index < 0) return;
      const now = performance.now();
      if (lastClick.index === index && now - lastClick.at <= MAP_DOUBLE_CLICK_MS) {
        lastClick = { index: -1, at: 0 };
        callbacks.current.onDoubleClick?.(index);
        return;
      }
      lastClick = { index, at: now };
      scene.flyTo(index);
      callbacks.current.onSelect?.(index);
    };
    canvas.addEventListener('pointerdown', onPointerDown);
    canvas.addEventListener('pointerup', onPointerUp);
    return () => {
      abort.abort();
      session.close();
      canvas.removeEventListener('pointerdown', onPointerDown);
      canvas.removeEventListener('pointerup', onPointerUp);
      scene.dispose();
      sceneRef.current = null;
    };
    // A new metric is a new scene; rotation is toggled below without rebuilding.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [metric]);

  useEffect(() => {
    sceneRef.current?.setAutoRotate(isAutoRotating);
  }, [isAutoRotating]);

  useEffect(() => {
    sceneRef.current?.mark(labelIndex);
  }, [labelIndex]);

  return (
    <div className={classes.canvasBox} ref={containerRef} data-testid="asset-map-canvas">
      <div ref={labelRef} className={classes.nodeLabel} style={{ display: 'none' }} data-testid="asset-map-label">
        {labelIndex >= 0 ? label : null}
      </div>
    </div>
  );
});
