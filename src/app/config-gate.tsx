import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { Trans } from '@lingui/react/macro';
import { useAtom } from 'jotai';
import { configureApiClient } from '@/api/client.ts';
import { deploymentConfigAtom } from '@/config/config-atom.ts';
import { loadDeploymentConfig } from '@/config/load-config.ts';
import { PageLoader } from '@/components/page-loader.tsx';

/** Renders its children only once /config.json is loaded; a loader meanwhile, a retry screen on failure. */
export function ConfigGate({ children }: { children: ReactNode }) {
  const [config, setConfig] = useAtom(deploymentConfigAtom);
  const [hasFailed, setHasFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (config) return;
    const controller = new AbortController();
    loadDeploymentConfig(controller.signal).then(
      (loaded) => {
        configureApiClient({
          bases: { api: loaded.api.base, verify: loaded.api.verifyBase, score: loaded.api.scoreBase },
          containsBigint: loaded.apiContainBigint,
        });
        setConfig(loaded);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Could not load the deployment configuration', error);
        setHasFailed(true);
      },
    );
    return () => controller.abort();
  }, [config, attempt, setConfig]);

  const onRetry = useCallback(() => {
    setHasFailed(false);
    setAttempt((n) => n + 1);
  }, []);

  if (config) return children;
  if (!hasFailed) return <PageLoader fullScreen />;
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <IconCloudOff size={48} stroke={1.5} color="var(--mantine-color-gray-6)" />
        <Title order={2} size="h3">
          <Trans>The service could not be reached</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Please check your network connection and try again.</Trans>
        </Text>
        <Button onClick={onRetry}>
          <Trans>Retry</Trans>
        </Button>
      </Stack>
    </Center>
  );
}
