import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBulb, IconBulbFilled } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { describeError } from '@/api/error-messages.ts';
import type { EnterprisePayload } from '../../../core/score-api.ts';
import { activateEnterprise, fetchEnterprise } from './map-api.ts';

/** §2 assets-activate/:uuid — the enterprise's name and a "light up" button that becomes "lit". */
export function ActivatePage({ uuid }: { uuid: string }) {
  const { t } = useLingui();
  const [enterprise, setEnterprise] = useState<EnterprisePayload | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>(null);

  useEffect(() => {
    const abort = new AbortController();
    setEnterprise(null);
    setLoadError(null);
    fetchEnterprise(uuid, abort.signal).then(setEnterprise, (error: unknown) => !abort.signal.aborted && setLoadError(error));
    return () => abort.abort();
  }, [uuid]);

  async function onLight() {
    setIsBusy(true);
    setActionError(null);
    try {
      await activateEnterprise(uuid);
      setEnterprise((e) => (e ? { ...e, activated: true } : e));
    } catch (error) {
      setActionError(error);
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Stack align="center" py={48} px="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={480}>
        {loadError ? (
          <Alert color="red" title={t`Enterprise not available`}>
            {describeError(loadError)}
          </Alert>
        ) : !enterprise ? (
          <Stack align="center">
            <Loader />
          </Stack>
        ) : (
          <Stack align="center" gap="lg">
            {enterprise.activated ? <IconBulbFilled size={64} color="#ff8c1a" aria-hidden /> : <IconBulb size={64} color="#9aa7b8" aria-hidden />}
            <Title order={1} size="h3" ta="center" data-testid="activate-name">
              {enterprise.name}
            </Title>
            {enterprise.is_demo ? (
              <Badge color="violet" variant="light">
                <Trans>Demo data</Trans>
              </Badge>
            ) : null}
            <Text c="dimmed" ta="center" size="sm">
              {enterprise.activated ? <Trans>This enterprise shines on the digital asset map.</Trans> : <Trans>Light up this enterprise's node on the digital asset map.</Trans>}
            </Text>
            {actionError ? (
              <Alert color="red" w="100%">
                {describeError(actionError)}
              </Alert>
            ) : null}
            <Button size="lg" color="orange" radius="xl" w="100%" loading={isBusy} disabled={enterprise.activated} onClick={() => void onLight()} data-testid="light-up">
              {enterprise.activated ? t`Lit` : t`Light up`}
            </Button>
            <Button component={Link} href="/assets" variant="subtle" size="sm">
              <Trans>See the map</Trans>
            </Button>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
