import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { I18nProvider } from '@lingui/react';
import { Provider as JotaiProvider } from 'jotai';
import { i18n } from '@/i18n/i18n.ts';
import { ConfigGate } from './config-gate.tsx';
import { App } from './app.tsx';
import { appStore } from './store.ts';
import { theme } from './theme.ts';

export function Root() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <I18nProvider i18n={i18n}>
        <JotaiProvider store={appStore}>
          <Notifications position="top-center" />
          <ConfigGate>
            <ModalsProvider>
              <App />
            </ModalsProvider>
          </ConfigGate>
        </JotaiProvider>
      </I18nProvider>
    </MantineProvider>
  );
}
