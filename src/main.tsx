import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/app.css';
import { initI18n } from './i18n/i18n.ts';
import { Root } from './app/root.tsx';
import { appStore } from './app/store.ts';
import { readBootData } from './app/boot-data.ts';
import { configureApiClient } from './api/client.ts';
import { deploymentConfigAtom } from './config/config-atom.ts';
import { isFrontPath } from './features/front/front-meta.ts';
import { preloadFrontChunk } from './app/front-routes.tsx';
import { publicFiguresAtom } from './features/front/figures-atom.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A server-rendered page carries the configuration and figures it was drawn with.
const boot = readBootData();
if (boot) {
  configureApiClient({
    bases: { api: boot.config.api.base, verify: boot.config.api.verifyBase, score: boot.config.api.scoreBase },
    containsBigint: boot.config.apiContainBigint,
  });
  appStore.set(deploymentConfigAtom, boot.config);
  if (boot.figures) appStore.set(publicFiguresAtom, boot.figures);
}

// The catalogs are local chunks: load the stored language before the first paint so
// that even the loading and retry screens are in the visitor's language. On a public page
// its chunk is loaded too, so the first render replaces the server's HTML with the same page.
Promise.all([
  initI18n().catch((error: unknown) => console.error('Could not load the translations', error)),
  isFrontPath(window.location.pathname) ? preloadFrontChunk().catch((error: unknown) => console.error('Could not load the page', error)) : null,
]).finally(() => {
  createRoot(container).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
});
