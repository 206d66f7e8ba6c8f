import { useCallback } from 'react';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useLingui } from '@lingui/react/macro';
import { useSetAtom } from 'jotai';
import { useLocation } from 'wouter';
import { notifyError } from '@/api/error-messages.ts';
import { logout } from '@/features/auth/auth-api.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';

/**
 * §4 logout: confirm, call logout, clear the user, go to login. On error the message
 * is shown and the visitor still goes to login.
 */
export function useLogout(): () => void {
  const { t } = useLingui();
  const setUser = useSetAtom(currentUserAtom);
  const [, navigate] = useLocation();
  return useCallback(() => {
    modals.openConfirmModal({
      title: t`Log out`,
      centered: true,
      children: <Text size="sm">{t`Are you sure you want to log out?`}</Text>,
      labels: { confirm: t`Log out`, cancel: t`Cancel` },
      confirmProps: { color: 'red', 'data-testid': 'logout-confirm' } as Record<string, unknown>,
      onConfirm: async () => {
        try {
          await logout();
        } catch (error) {
          notifyError(error);
        }
        // Both in one tick, so that the login screen never sees the old user.
        setUser(null);
        navigate('/user/login', { replace: true });
      },
    });
  }, [t, setUser, navigate]);
}
