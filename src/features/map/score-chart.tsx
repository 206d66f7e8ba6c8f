import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartSeries = { label: string; values: Array<number | null>; color: string; fill?: string };

type Props = {
  /** x values: seconds since the epoch when `isTime`, plain numbers otherwise. */
  x: number[];
  series: ChartSeries[];
  isTime?: boolean;
  height?: number;
  /** x of a vertical marker (the playback position, the enterprise's capital). */
  marker?: number | null;
  markerColor?: string;
  /** Formats y axis values. */
  formatY?: (v: number) => string;
  testId?: string;
  /** Legend label of the x value. */
  xLabel: string;
};

/** A small uPlot line chart that follows its container's width. */
export function ScoreChart({ x, series, isTime = true, height = 180, marker = null, markerColor = '#ff8c1a', formatY, testId, xLabel }: Props) {
  const boxRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const markerRef = useRef<number | null>(marker);
  markerRef.current = marker;

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const opts: uPlot.Options = {
      width: Math.max(200, box.clientWidth),
      height,
      scales: { x: { time: isTime } },
      legend: { show: true, live: true },
      cursor: { drag: { x: false, y: false } },
      axes: [
        { stroke: '#7b8794', grid: { stroke: 'rgba(120,130,150,0.15)' }, size: 48 },
        { stroke: '#7b8794', grid: { stroke: 'rgba(120,130,150,0.15)' }, size: 56, values: formatY ? (_u, values) => values.map((v) => formatY(v)) : undefined },
      ],
      series: [{ label: xLabel }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, fill: s.fill, points: { show: x.length <= 60, size: 4 } }))],
      hooks: {
        draw: [
          (u) => {
            const at = markerRef.current;
            if (at === null || at === undefined) return;
            const left = u.valToPos(at, 'x', true);
            if (!Number.isFinite(left)) return;
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = markerColor;
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
            ctx.beginPath();
            ctx.moveTo(left, u.bbox.top);
            ctx.lineTo(left, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.restore();
          },
        ],
      },
    };
    const data = [x, ...series.map((s) => s.values)] as uPlot.AlignedData;
    const plot = new uPlot(opts, data, box);
    plotRef.current = plot;
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(200, box.clientWidth), height }));
    observer.observe(box);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
    // Series identity is by content; callers pass new arrays when data changes.
  }, [x, series, isTime, height, markerColor, formatY, xLabel]);

  useEffect(() => {
    plotRef.current?.redraw(false);
  }, [marker]);

  return <div ref={boxRef} data-testid={testId} style={{ width: '100%', minHeight: height }} />;
}
