import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Loader } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useConfig } from '@/config/config-atom.ts';
import type { MetricBinary } from '../../../core/score-api.ts';
import { AssetMapView, type AssetMapHandle } from './asset-map-view.tsx';
import { useActivationPolling, useMetric, type ActivationEvent } from './map-data.ts';
import classes from './map.module.css';

/** Events kept for the feed; how many are shown is what fits the panel at this screen's size. */
const FEED_SIZE = 40;

/**
 * Shows only the rows of the feed that fit its panel whole: at 1080p and at 4K the panel's
 * height is a share of the screen while a row's height is clamped (and varies a little with
 * the script of a name), so a fixed count either leaves a gap or cuts the last row. Every row
 * is laid out; those whose bottom passes the panel's are hidden, on every change and resize.
 */
function useWholeRowsOnly(listRef: React.RefObject<HTMLDivElement | null>, items: unknown[]): void {
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const fit = () => {
      const bottom = list.getBoundingClientRect().bottom;
      for (const row of Array.from(list.children) as HTMLElement[]) row.style.visibility = '';
      for (const row of Array.from(list.children) as HTMLElement[]) {
        row.style.visibility = row.getBoundingClientRect().bottom > bottom + 0.5 ? 'hidden' : '';
      }
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(list);
    return () => observer.disconnect();
  }, [listRef, items]);
}

function Clock() {
  const { i18n } = useLingui();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <div className={classes.wallClock}>{now.toLocaleString(i18n.locale, { dateStyle: 'medium', timeStyle: 'medium' })}</div>;
}

function initialFeed(metric: MetricBinary): ActivationEvent[] {
  const lit: number[] = [];
  for (let i = 0; i < metric.count; i++) if (metric.activated[i]) lit.push(i);
  lit.sort((a, b) => metric.updated_at[b] - metric.updated_at[a]);
  return lit.slice(0, FEED_SIZE).map((index) => ({ index, name: metric.name[index], uuid: metric.uuid[index], at: metric.updated_at[index], isNew: false }));
}

const Map = memo(AssetMapView);

/** §2 /bigscreen: full-page wall display (no nav, no footer), built for 4K. */
export function BigscreenPage() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const { metric } = useMetric(config.api.scoreBase);
  const mapRef = useRef<AssetMapHandle>(null);
  const [feed, setFeed] = useState<ActivationEvent[]>([]);
  const [lit, setLit] = useState(0);
  const [focused, setFocused] = useState(-1);
  const feedListRef = useRef<HTMLDivElement>(null);
  useWholeRowsOnly(feedListRef, feed);

  useEffect(() => {
    if (!metric) return;
    setFeed(initialFeed(metric));
    setLit(metric.activated.reduce((sum, a) => sum + a, 0));
  }, [metric]);

  useEffect(() => {
    document.title = `${t`Digital asset network`} - ${config.webTitle}`;
  }, [t, config.webTitle]);

  useActivationPolling(metric, {
    focus: (index) => {
      mapRef.current?.flyTo(index);
      setFocused(index);
    },
    light: (index) => {
      mapRef.current?.light(index);
      setLit((n) => n + 1);
    },
    onEvent: (event) => setFeed((items) => [event, ...items.filter((e) => e.index !== event.index)].slice(0, FEED_SIZE)),
  });

  const totals = useMemo(() => {
    if (!metric) return null;
    let capital = 0;
    for (let i = 0; i < metric.count; i++) capital += Math.max(0, metric.capital[i]);
    return { enterprises: metric.count, links: metric.links.length / 2, capital };
  }, [metric]);

  const number = (n: number) => n.toLocaleString(i18n.locale, { maximumFractionDigits: 0 });
  const isDemo = metric ? metric.is_demo.some((d) => d === 1) : false;

  return (
    <div className={classes.wall} data-testid="bigscreen">
      <div className={classes.wallMap}>
        {metric ? (
          <Map ref={mapRef} metric={metric} isAutoRotating labelIndex={focused} label={focused >= 0 ? metric.name[focused] : undefined} />
        ) : (
          <div className={classes.canvasBox} style={{ display: 'grid', placeItems: 'center' }}>
            <Loader color="orange" size="xl" />
          </div>
        )}
      </div>
      <div className={classes.wallHeader}>
        <div className={classes.wallTitle}>
          <Trans>Digital asset network</Trans>
          {isDemo ? (
            <span style={{ fontSize: '0.45em', marginLeft: '1em', opacity: 0.7 }}>
              <Trans>Demo data</Trans>
            </span>
          ) : null}
        </div>
        <Clock />
      </div>
      {totals ? (
        <div className={classes.wallSide}>
          <div className={classes.counter}>
            <div className={classes.counterValue}>{number(totals.enterprises)}</div>
            <div className={classes.counterLabel}>
              <Trans>Enterprises</Trans>
            </div>
          </div>
          <div className={classes.counter}>
            <div className={classes.counterValue} style={{ color: '#ff9a3c' }} data-testid="wall-lit">
              {number(lit)}
            </div>
            <div className={classes.counterLabel}>
              <Trans>Lit enterprises</Trans>
            </div>
          </div>
          <div className={classes.counter}>
            <div className={classes.counterValue}>{number(totals.links)}</div>
            <div className={classes.counterLabel}>
              <Trans>Collaboration links</Trans>
            </div>
          </div>
          <div className={classes.counter}>
            <div className={classes.counterValue}>{number(totals.capital)}</div>
            <div className={classes.counterLabel}>
              <Trans>Digital capital (all enterprises)</Trans>
            </div>
          </div>
          <div className={classes.feed} data-testid="wall-feed">
            <div className={classes.feedTitle}>
              <Trans>Latest lit</Trans>
            </div>
            {feed.length === 0 ? (
              <div className={classes.counterLabel}>
                <Trans>No enterprise has been lit yet.</Trans>
              </div>
            ) : (
              <div className={classes.feedList} ref={feedListRef} data-testid="wall-feed-list">
                {feed.map((item) => (
                  <div key={`${item.index}-${item.at}`} className={`${classes.feedItem} ${item.isNew ? classes.feedItemNew : ''}`}>
                    <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{item.name}</span>
                    <span style={{ opacity: 0.7, flexShrink: 0 }}>{item.at ? new Date(item.at).toLocaleString(i18n.locale, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' }) : ''}</span>
                  </div>
                ))}
              </div>
            )}
          </div>
        </div>
      ) : null}
    </div>
  );
}
