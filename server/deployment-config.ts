import fs from 'node:fs';
import { DEFAULT_CONFIG, mergeConfig, type DeploymentConfig } from '../core/config.ts';

/** Loads the deployment configuration: §9 defaults, overridden by the JSON file PROVENA_CONFIG names. */
export function loadDeploymentConfig(file: string | undefined): DeploymentConfig {
  if (!file) return DEFAULT_CONFIG;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`PROVENA_CONFIG: cannot read ${file} as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { config, issues } = mergeConfig(DEFAULT_CONFIG, parsed);
  if (issues.length) {
    throw new Error(`PROVENA_CONFIG ${file} is invalid:\n  - ${issues.map((i) => `${i.path}: ${i.problem}`).join('\n  - ')}`);
  }
  return config;
}
