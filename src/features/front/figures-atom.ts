import { useEffect } from 'react';
import { atom, useAtom } from 'jotai';
import type { PublicFiguresDto } from '../../../core/partners.ts';
import { fetchPublicFigures } from './partner-api.ts';

/**
 * The front pages' live figures. The server puts them into the prerendered page (and the
 * boot data), so the first paint already shows them; a page opened by navigation fetches
 * them once (the server caches them a minute, so this never slows anything down).
 */
export const publicFiguresAtom = atom<PublicFiguresDto | null>(null);

export function usePublicFigures(): PublicFiguresDto | null {
  const [figures, setFigures] = useAtom(publicFiguresAtom);
  useEffect(() => {
    if (figures) return;
    const controller = new AbortController();
    fetchPublicFigures(controller.signal).then(setFigures, () => undefined);
    return () => controller.abort();
  }, [figures, setFigures]);
  return figures;
}
