import type { I18n } from '@lingui/core';
import { toMillis } from '../../../core/constants.ts';
import type { AssetType } from '../../../core/assets.ts';
import { ASSET_TYPE_LABELS } from './asset-labels.ts';

export function typeLabel(type: number, i18n: I18n): string {
  const label = ASSET_TYPE_LABELS[type as AssetType];
  return label ? i18n._(label) : String(type);
}

/** §3: timestamps may come in seconds or milliseconds; values above 9999999999 are milliseconds. */
export function formatTime(ts: number, i18n: I18n, style: 'short' | 'medium' = 'short'): string {
  return i18n.date(new Date(toMillis(ts)), { dateStyle: 'medium', timeStyle: style });
}
