import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { MantineProvider, PasswordInput, mergeThemeOverrides } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { ModalsProvider } from '@mantine/modals';
import { I18nProvider } from '@lingui/react';
import { Provider as JotaiProvider } from 'jotai';
import { i18n } from '@/i18n/i18n.ts';
import { ConfigGate } from './config-gate.tsx';
import { App } from './app.tsx';
import { appStore } from './store.ts';
import { cssVariablesResolver, theme } from './theme.ts';

/**
 * The notification stack's component (transitions, portal) loads after the first render;
 * notifications raised before it arrives wait in @mantine/notifications' store and show then.
 */
const Notifications = lazy(async () => ({ default: (await import('@mantine/notifications')).Notifications }));

/**
 * The theme with the texts Mantine draws itself in the active language: the password
 * visibility button is labelled for screen readers and reachable by keyboard everywhere.
 */
function LocalizedMantineProvider({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const toggleLabel = t`Show or hide the password`;
  const localizedTheme = useMemo(
    () =>
      mergeThemeOverrides(theme, {
        components: {
          PasswordInput: PasswordInput.extend({ defaultProps: { visibilityToggleFocusable: true, visibilityToggleButtonProps: { 'aria-label': toggleLabel } } }),
        },
      }),
    [toggleLabel],
  );
  return (
    <MantineProvider theme={localizedTheme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}

export function Root() {
  return (
    <I18nProvider i18n={i18n}>
      <LocalizedMantineProvider>
        <JotaiProvider store={appStore}>
          <Suspense fallback={null}>
            <Notifications position="top-center" />
          </Suspense>
          <ConfigGate>
            <ModalsProvider>
              <App />
            </ModalsProvider>
          </ConfigGate>
        </JotaiProvider>
      </LocalizedMantineProvider>
    </I18nProvider>
  );
}
