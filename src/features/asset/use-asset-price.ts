import { useCallback, useEffect, useState } from 'react';
import { useConfig } from '@/config/config-atom.ts';
import { registrationPrice } from '../../../core/credits.ts';
import { fetchCreditSummary } from './asset-api.ts';

/**
 * What registering an asset costs under the deployment configuration (§9; free when credits
 * are not required) and the member's available credits (null until known, or when they
 * cannot be read: the server still decides on every registration).
 */
export function useAssetPrice(): { price: number; available: number | null; reload: () => void } {
  const config = useConfig();
  const price = registrationPrice(config, 'asset');
  const [available, setAvailable] = useState<number | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchCreditSummary(controller.signal)
      .then((s) => setAvailable(s.available))
      .catch(() => undefined);
    return () => controller.abort();
  }, [generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { price, available, reload };
}
