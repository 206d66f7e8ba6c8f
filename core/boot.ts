import type { DeploymentConfig } from './config.ts';
import type { PublicFiguresDto } from './partners.ts';

/**
 * What the server puts into a server-rendered page beside the HTML: the
 * configuration and the figures it rendered with, as a JSON data block (not a script that
 * runs, so the CSP allows it). The app starts from them instead of fetching them again,
 * and its first render is the page already on screen.
 */
export type BootData = { config: DeploymentConfig; figures: PublicFiguresDto | null };

export const BOOT_DATA_ID = 'provena-boot';

/** The JSON for the data block, with `<` escaped so no text in it can close the element. */
export function bootDataJson(data: BootData): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
