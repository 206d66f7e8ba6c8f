import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { ASSET_TYPES, type AssetType } from '../../../core/assets.ts';

/** Route titles and the sidebar label of the digital-asset area (kept here so they land in its catalog). */
export const ASSET_LABELS = {
  sidebar: msg`Digital assets`,
  list: msg`Digital assets`,
  upload: msg`Register assets`,
  detail: msg`Asset details`,
};

/** §3 asset types, by their stable codes (core/assets.ts). */
export const ASSET_TYPE_LABELS: Record<AssetType, MessageDescriptor> = {
  [ASSET_TYPES.creativeWork]: msg`Creative work`,
  [ASSET_TYPES.creativeDesign]: msg`Creative design`,
  [ASSET_TYPES.industrialDesign]: msg`Industrial design`,
  [ASSET_TYPES.code]: msg`Code`,
  [ASSET_TYPES.research]: msg`Research`,
  [ASSET_TYPES.data]: msg`Data`,
  [ASSET_TYPES.signedFile]: msg`Digitally signed file`,
  [ASSET_TYPES.other]: msg`Other`,
};

/** §2 named route assetDetail (asset_id): the asset's DNA. */
export const assetDetailPath = (dna: string) => `/dashboard/asset/detail/${dna}`;
export const ASSET_LIST_PATH = '/dashboard/asset';
export const ASSET_UPLOAD_PATH = '/dashboard/asset_upload';
