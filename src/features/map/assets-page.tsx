import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Button, CloseButton, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { describeError } from '@/api/error-messages.ts';
import { searchEnterprises } from '../../../core/asset-map.ts';
import { AssetMapView, type AssetMapHandle } from './asset-map-view.tsx';
import { useActivationPolling, useMetric } from './map-data.ts';
import classes from './map.module.css';

/** §2 assets: the public 3D map of enterprises (orange = lit), with search and live activations. */
export function AssetsPage() {
  const { t } = useLingui();
  const config = useConfig();
  const [, navigate] = useLocation();
  const { metric, error, reload } = useMetric(config.api.scoreBase);
  const mapRef = useRef<AssetMapHandle>(null);
  const [query, setQuery] = useState('');
  const [isNotFound, setIsNotFound] = useState(false);
  const [selected, setSelected] = useState(-1);
  const [layout, setLayout] = useState<{ isSettled: boolean; isWarm: boolean } | null>(null);
  const [lit, setLit] = useState(0);
  useEffect(() => {
    if (metric) setLit(metric.activated.reduce((sum, a) => sum + a, 0));
  }, [metric]);
  // Enter on the same text again moves on to the next match.
  // State, not a ref: the "match n of m" hint must show even when Enter lands on the node already selected.
  const [matches, setMatches] = useState<{ text: string; hits: number[]; at: number }>({ text: '', hits: [], at: 0 });

  useActivationPolling(metric, {
    focus: (index) => {
      mapRef.current?.flyTo(index);
      setSelected(index);
    },
    light: (index) => {
      mapRef.current?.light(index);
      setLit((n) => n + 1);
    },
  });


  function onSearch() {
    if (!metric) return;
    const text = query.trim();
    if (!text) return;
    const state = matches.text === text ? { ...matches } : { text, hits: searchEnterprises(metric.name, text, 50), at: -1 };
    if (state.hits.length === 0) {
      setMatches(state);
      // The previous find's label would name an enterprise that is not what was asked for.
      setSelected(-1);
      setIsNotFound(true);
      return;
    }
    setIsNotFound(false);
    state.at = (state.at + 1) % state.hits.length;
    setMatches(state);
    const index = state.hits[state.at];
    setSelected(index);
    mapRef.current?.flyTo(index);
  }

  const hasMore = matches.text === query.trim() && matches.hits.length > 1;
  const isWhitelisted = (index: number) => Boolean(metric && config.assetMapScoreEnterprise && metric.uuid[index] === config.assetMapScoreEnterprise);

  return (
    <div className={classes.mapPage}>
      {metric && metric.count === 0 ? (
        <div className={classes.canvasBox}>
          <Stack align="center" justify="center" h="100%" p="md">
            <Alert color="blue" variant="filled" title={t`No enterprises on the map yet`} maw={480} data-testid="asset-map-empty">
              <Text size="sm">
                <Trans>
                  Each enterprise that joins the platform becomes a node here, sized by its registered digital assets and linked to the repositories and developers it works with. A node lights up orange when the enterprise activates its asset network. The map fills as enterprises register and is refreshed every time this page opens.
                </Trans>
              </Text>
            </Alert>
          </Stack>
        </div>
      ) : metric ? (
        <AssetMapView
          ref={mapRef}
          metric={metric}
          labelIndex={selected}
          label={selected >= 0 ? metric.name[selected] : undefined}
          onSelect={(index) => {
            setSelected(index);
            setIsNotFound(false);
          }}
          onDoubleClick={(index) => {
            if (isWhitelisted(index)) navigate(`/assets/${metric.uuid[index]}`);
          }}
          onLayout={setLayout}
        />
      ) : (
        <div className={classes.canvasBox}>
          <Stack align="center" justify="center" h="100%" c="gray.3">
            {error ? (
              <Alert color="red" title={t`The map could not be loaded`} maw={420}>
                <Stack gap="xs">
                  <Text size="sm">{describeError(error)}</Text>
                  <Button size="xs" variant="white" onClick={reload}>
                    <Trans>Try again</Trans>
                  </Button>
                </Stack>
              </Alert>
            ) : (
              <>
                <Loader color="orange" />
                <Text size="sm">
                  <Trans>Loading the enterprise map…</Trans>
                </Text>
              </>
            )}
          </Stack>
        </div>
      )}
      <div className={classes.overlayTop}>
        <Stack gap={6} className={classes.search}>
          <TextInput
            aria-label={t`Search enterprises`}
            placeholder={t`enter enterprise name, press Enter`}
            leftSection={<IconSearch size={16} />}
            value={query}
            disabled={!metric}
            onChange={(e) => {
              setQuery(e.currentTarget.value);
              setIsNotFound(false);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) onSearch();
            }}
            rightSection={
              query ? (
                <CloseButton
                  size="sm"
                  aria-label={t`Clear`}
                  onClick={() => {
                    setQuery('');
                    setSelected(-1);
                  }}
                />
              ) : null
            }
          />
          {isNotFound ? (
            <Alert color="orange" variant="filled" py={6} withCloseButton onClose={() => setIsNotFound(false)} closeButtonLabel={t`Close`}>
              <Trans>Not found</Trans>
            </Alert>
          ) : null}
          {hasMore && !isNotFound ? (
            <Text size="sm" className={classes.hint} data-testid="map-search-hint">
              <Trans>
                Match {matches.at + 1} of {matches.hits.length}: press Enter for the next
              </Trans>
            </Text>
          ) : null}
        </Stack>
        {metric ? (
          <Group gap={6}>
            <Badge color="gray" variant="filled" size="lg">
              <Trans>{metric.count} enterprises</Trans>
            </Badge>
            <Badge color="orange" variant="filled" size="lg" data-testid="lit-count">
              <Trans>{lit} lit</Trans>
            </Badge>
            {metric.is_demo.some((d) => d === 1) ? (
              <Badge color="violet" variant="light" size="lg">
                <Trans>Demo data</Trans>
              </Badge>
            ) : null}
          </Group>
        ) : null}
      </div>
      {selected >= 0 && metric && isWhitelisted(selected) ? (
        <div className={classes.status} style={{ bottom: 56 }}>
          <Anchor component={Link} href={`/assets/${metric.uuid[selected]}`} c="orange.4">
            <Trans>Open the score of {metric.name[selected]}</Trans>
          </Anchor>
        </div>
      ) : null}
      <div className={classes.legend}>
        <span className={classes.dot} style={{ background: '#ff8c1a' }} />
        <Trans>Lit</Trans>
        <span className={classes.dot} style={{ background: '#b8c7db', marginLeft: 14 }} />
        <Trans>Not lit yet</Trans>
      </div>
      {metric && metric.count > 0 ? (
        <div className={classes.status} data-testid="layout-status" data-settled={layout?.isSettled ? 'true' : 'false'}>
          {layout?.isSettled ? <Trans>Layout settled</Trans> : <Trans>Arranging the map…</Trans>}
        </div>
      ) : null}
    </div>
  );
}
