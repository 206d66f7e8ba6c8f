import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ApplicationStatsDto } from '../../../core/applications.ts';
import { formatBytes } from '@/components/progress/format.ts';

/** Registrations (left axis) and registered bytes (right axis) over time, uPlot, following its container's width. */
export function RegistrationsChart({ stats, height = 220 }: { stats: ApplicationStatsDto; height?: number }) {
  const { t, i18n } = useLingui();
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const number = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 0 });
    const time = new Intl.DateTimeFormat(i18n.locale, stats.bucket_seconds >= 86_400 ? { month: 'short', day: 'numeric' } : { hour: '2-digit', minute: '2-digit' });
    const full = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
    const x = stats.points.map((p) => p.at / 1000);
    const opts: uPlot.Options = {
      width: Math.max(240, box.clientWidth),
      height,
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] }, bytes: { range: (_u, _min, max) => [0, Math.max(1024, max)] } },
      cursor: { drag: { x: false, y: false } },
      axes: [
        { stroke: '#5c6670', grid: { stroke: 'rgba(120,130,150,0.15)' }, values: (_u, splits) => splits.map((v) => time.format(new Date(v * 1000))) },
        // Counts are whole numbers: ticks at whole steps only.
        { stroke: '#5c6670', grid: { stroke: 'rgba(120,130,150,0.15)' }, size: 44, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1_000_000], values: (_u, v) => v.map((n) => number.format(n)) },
        { scale: 'bytes', side: 1, stroke: '#8a63d2', grid: { show: false }, size: 64, values: (_u, v) => v.map((n) => formatBytes(n)) },
      ],
      series: [
        { label: t`Time`, value: (_u, v) => (v === null ? '' : full.format(new Date(v * 1000))) },
        { label: t`Registrations`, stroke: '#1c7ed6', width: 2, fill: 'rgba(28,126,214,0.12)', value: (_u, v) => (v === null ? '' : number.format(v)) },
        { label: t`Bytes`, scale: 'bytes', stroke: '#8a63d2', width: 2, dash: [6, 4], value: (_u, v) => (v === null ? '' : formatBytes(v)) },
        { label: t`Failures`, stroke: '#e8590c', width: 1.5, value: (_u, v) => (v === null ? '' : number.format(v)) },
      ],
    };
    const plot = new uPlot(opts, [x, stats.points.map((p) => p.registrations), stats.points.map((p) => p.bytes), stats.points.map((p) => p.errors)], box);
    box.dataset.total = String(stats.points.reduce((n, p) => n + p.registrations, 0));
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(240, box.clientWidth), height }));
    observer.observe(box);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [stats, height, i18n.locale, t]);
  return <div ref={boxRef} data-testid="application-chart" style={{ width: '100%', minWidth: 0, overflow: 'hidden' }} />;
}
