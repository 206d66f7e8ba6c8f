import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtom } from 'jotai';
import { useLocation, useSearch } from 'wouter';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import type { VaultAuthorizationDto } from '../../../core/vault.ts';
import { vaultAuthorizationAtom } from './vault-atom.ts';
import { fetchVaultAuthorization, isVaultExpired } from './vault-api.ts';

export const VAULT_UNLOCK_PATH = '/dashboard/vault/unlock';

/** Only vault screens are returned to after unlocking (never another site or screen). */
export function vaultReturnPath(from: string | null): string {
  if (from && /^\/dashboard\/vault(\/|\?|$)/.test(from) && !from.startsWith(VAULT_UNLOCK_PATH)) return from;
  return '/dashboard/vault';
}

export type VaultGate = {
  authorization: VaultAuthorizationDto | undefined;
  /** The caller is not a confirmed member of a company: there is no vault to open. */
  hasNoCompany: boolean;
  /** For every vault call's failure: an expired vault goes to unlock, anything else is shown. */
  onError: (error: unknown) => void;
  /** Sends the member to unlock now, remembering the way back. */
  toUnlock: (reason: 'locked' | 'expired') => void;
};

/**
 * Keeps a vault screen behind the unlock: asks the server whether the vault is
 * open, sends the member to /dashboard/vault/unlock (and back afterwards) when it is not,
 * and again the moment the unlock expires or a call answers vault_login_status_expired.
 */
export function useVaultGate(): VaultGate {
  const [authorization, setAuthorization] = useAtom(vaultAuthorizationAtom);
  const [location, navigate] = useLocation();
  const search = useSearch();
  const here = search ? `${location}?${search}` : location;
  const [hasNoCompany, setHasNoCompany] = useState(false);
  const hereRef = useRef(here);
  hereRef.current = here;

  const toUnlock = useCallback(
    (reason: 'locked' | 'expired') => {
      setAuthorization(undefined);
      navigate(`${VAULT_UNLOCK_PATH}?reason=${reason}&from=${encodeURIComponent(hereRef.current)}`, { replace: true });
    },
    [navigate, setAuthorization],
  );

  useEffect(() => {
    const controller = new AbortController();
    fetchVaultAuthorization(controller.signal)
      .then((auth) => {
        setAuthorization(auth);
        if (!auth.is_unlocked) toUnlock('locked');
      })
      .catch((error: unknown) => {
        if ((error as Error)?.name === 'AbortError') return;
        if (isApiError(error) && error.status === 403) setHasNoCompany(true);
        else notifyError(error);
      });
    return () => controller.abort();
  }, [setAuthorization, toUnlock]);

  const expiresAt = authorization?.is_unlocked ? authorization.expires_at : null;
  useEffect(() => {
    if (expiresAt === null) return;
    // setTimeout holds at most 2^31-1 ms; the vault session is far shorter.
    const timer = window.setTimeout(() => toUnlock('expired'), Math.max(0, expiresAt - Date.now()) + 250);
    return () => window.clearTimeout(timer);
  }, [expiresAt, toUnlock]);

  const onError = useCallback(
    (error: unknown) => {
      if (isVaultExpired(error)) toUnlock('expired');
      else notifyError(error);
    },
    [toUnlock],
  );

  return { authorization: authorization?.is_unlocked ? authorization : undefined, hasNoCompany, onError, toUnlock };
}
