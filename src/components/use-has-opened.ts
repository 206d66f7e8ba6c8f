import { useEffect, useState } from 'react';

/** True from the first time `isOpen` was true: a lazily loaded overlay stays mounted (for its closing transition) once loaded. */
export function useHasOpened(isOpen: boolean): boolean {
  const [hasOpened, setHasOpened] = useState(isOpen);
  useEffect(() => {
    if (isOpen) setHasOpened(true);
  }, [isOpen]);
  return hasOpened || isOpen;
}
