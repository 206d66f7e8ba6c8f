import { atom, useAtomValue } from 'jotai';
import type { DeploymentConfig } from '../../core/config.ts';

/** The deployment configuration (§9), fetched from /config.json before the first render. */
export const deploymentConfigAtom = atom<DeploymentConfig | null>(null);

/** The loaded configuration; the app renders nothing that uses it before it is loaded. */
export function useConfig(): DeploymentConfig {
  const config = useAtomValue(deploymentConfigAtom);
  if (!config) throw new Error('useConfig() used before the deployment configuration was loaded');
  return config;
}
