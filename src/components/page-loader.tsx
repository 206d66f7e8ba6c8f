import { Center, Loader } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';

/** A small centred loader for whole-page waits (configuration, current user). */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useLingui();
  return (
    <Center mih={fullScreen ? '100vh' : 240} role="status" aria-label={t`Loading`}>
      <Loader size="md" />
    </Center>
  );
}
