import { arrayOf, bool, nullableNum, nullableStr, num, obj, registrationFields, str } from '../schemas.ts';

/** core/assets.ts AssetDto. */
export const asset = obj({
  asset_id: num,
  dip_id: str,
  name: str,
  type: num,
  description: nullableStr,
  file_hash: str,
  ...registrationFields,
  block_hash: nullableStr,
  registered_at: num,
  expired_at: nullableNum,
});

/** core/assets.ts AssetPage: a §7 page and whether the caller sees the enterprise's assets. */
export const assetPage = obj({ items: arrayOf(asset), total: num, page: num, page_size: num, sees_all: bool });

/** core/assets.ts AssetBatchResponse: per item, the asset or the §8 refusal on its field. */
export const assetBatch = obj({
  results: arrayOf(obj({ index: num, ok: bool, asset, message: str, field_name: str })),
  registered: num,
  refused: num,
});

/** core/assets.ts AssetRegistrantDto. */
export const assetRegistrant = obj({ user_id: num, name: str, asset_count: num });
export const assetRegistrants = arrayOf(assetRegistrant);
