import type { DeploymentConfig } from '../../core/config.ts';

/** Fetched at runtime so that a deployment switches features without a rebuild. */
export async function loadDeploymentConfig(signal?: AbortSignal): Promise<DeploymentConfig> {
  const response = await fetch('/config.json', { credentials: 'include', cache: 'no-cache', signal });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  return (await response.json()) as DeploymentConfig;
}
