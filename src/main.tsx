import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/app.css';
import { initI18n } from './i18n/i18n.ts';
import { Root } from './app/root.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The catalogs are local chunks: load the stored language before the first paint so
// that even the loading and retry screens are in the visitor's language.
initI18n()
  .catch((error: unknown) => console.error('Could not load the translations', error))
  .finally(() => {
    createRoot(container).render(
      <StrictMode>
        <Root />
      </StrictMode>,
    );
  });
