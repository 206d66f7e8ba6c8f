import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react';
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

const DAY_S = 86_400;

/**
 * Time-axis ticks and legend dates in the page language: uPlot's own formats are English
 * ("Jan", "Feb") whatever the page says. Ticks name months (with the year where it changes)
 * over spans of months, days over shorter ones.
 */
function timeFormats(locale: string, spanS: number) {
  const month = new Intl.DateTimeFormat(locale, { month: 'short' });
  const monthYear = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short' });
  const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' });
  const full = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' });
  const isLong = spanS > 62 * DAY_S;
  return {
    ticks: (splits: number[]) =>
      splits.map((v, i) => {
        const at = new Date(v * 1000);
        if (!isLong) return day.format(at);
        const prev = i > 0 ? new Date((splits[i - 1] ?? v) * 1000) : null;
        return !prev || prev.getFullYear() !== at.getFullYear() ? monthYear.format(at) : month.format(at);
      }),
    legend: (v: number | null) => (v === null || v === undefined ? '' : full.format(new Date(v * 1000))),
  };
}

/** A small uPlot line chart that follows its container's width; dates, numbers and legends in the page language. */
export function ScoreChart({ x, series, isTime = true, height = 180, marker = null, markerColor = '#ff8c1a', formatY, testId, xLabel }: Props) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const boxRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const markerRef = useRef<number | null>(marker);
  markerRef.current = marker;

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const span = x.length > 1 ? (x[x.length - 1] ?? 0) - (x[0] ?? 0) : 0;
    const times = timeFormats(locale, span);
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    const yValue = (v: number | null) => (v === null || v === undefined ? '' : formatY ? formatY(v) : number.format(v));
    const opts: uPlot.Options = {
      width: Math.max(200, box.clientWidth),
      height,
      scales: { x: { time: isTime } },
      legend: { show: true, live: true },
      cursor: { drag: { x: false, y: false } },
      axes: [
        { stroke: '#5c6670', grid: { stroke: 'rgba(120,130,150,0.15)' }, size: 48, values: (_u, splits) => {
            const labels = isTime ? times.ticks(splits) : splits.map((v) => number.format(v));
            // The ticks are drawn on a canvas: keep their text readable to assistive tools and tests.
            box.dataset.xTicks = labels.join('|');
            return labels;
          },
        },
        { stroke: '#5c6670', grid: { stroke: 'rgba(120,130,150,0.15)' }, size: 56, values: (_u, values) => values.map((v) => (formatY ? formatY(v) : number.format(v))) },
      ],
      series: [
        { label: xLabel, value: isTime ? (_u, v) => times.legend(v) : (_u, v) => (v === null ? '' : number.format(v)) },
        ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, fill: s.fill, points: { show: x.length <= 60, size: 4 }, value: (_u: uPlot, v: number | null) => yValue(v) })),
      ],
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
    // Until the pointer is over the chart the legend shows the newest point, not "--".
    const lastIndex = x.length - 1;
    const showNewest = () => {
      if (lastIndex >= 0 && plotRef.current === plot) plot.setLegend({ idx: lastIndex });
    };
    // After uPlot's own first cursor pass (which empties the legend), and whenever the pointer leaves.
    const frame = requestAnimationFrame(showNewest);
    const onLeave = () => window.setTimeout(showNewest, 0);
    box.addEventListener('mouseleave', onLeave);
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(200, box.clientWidth), height }));
    observer.observe(box);
    return () => {
      cancelAnimationFrame(frame);
      box.removeEventListener('mouseleave', onLeave);
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
    // Series identity is by content; callers pass new arrays when data changes.
  }, [x, series, isTime, height, markerColor, formatY, xLabel, locale]);

  useEffect(() => {
    plotRef.current?.redraw(false);
  }, [marker]);

  return <div ref={boxRef} data-testid={testId} style={{ width: '100%', minHeight: height }} />;
}
