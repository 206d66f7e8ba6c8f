import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { I18nProvider } from '@lingui/react';
import { i18n, type Messages } from '@lingui/core';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { Router } from 'wouter';
import type { DeploymentConfig } from '../../core/config.ts';
import type { PublicFiguresDto } from '../../core/partners.ts';
import { CATALOG_LOADERS, HTML_LANG, type Locale } from '@/i18n/locales.ts';
import { deploymentConfigAtom } from '@/config/config-atom.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { publicFiguresAtom } from '@/features/front/figures-atom.ts';
import { FRONT_META, type FrontPath } from '@/features/front/front-meta.ts';
import { PublicPage } from '@/features/front/public-page.tsx';
import { PublicLayout } from '@/app/layouts/public-layout.tsx';
import { cssVariablesResolver, theme } from '@/app/theme.ts';

/**
 * Server rendering of the public pages: the same components as the app, drawn
 * to HTML so that the first paint needs no JavaScript and search engines read each
 * language. Built by Vite as an SSR bundle (dist/app-ssr/render.js) that the server's
 * static plugin calls; rendering is synchronous, so the one lingui instance is switched
 * to the page's language right before each render.
 */
export type RenderInput = { path: FrontPath; locale: Locale; config: DeploymentConfig; figures: PublicFiguresDto | null };
export type RenderOutput = { html: string; title: string; description: string; htmlLang: string };

const catalogs = new Map<Locale, Messages>();

async function messagesOf(locale: Locale): Promise<Messages> {
  let messages = catalogs.get(locale);
  if (!messages) {
    const modules = await CATALOG_LOADERS[locale]();
    messages = Object.assign({}, ...modules.map((m) => m.messages)) as Messages;
    catalogs.set(locale, messages);
  }
  return messages;
}

export async function render(input: RenderInput): Promise<RenderOutput> {
  const messages = await messagesOf(input.locale);
  i18n.load(input.locale, messages);
  i18n.activate(input.locale);
  const store = createStore();
  store.set(deploymentConfigAtom, input.config);
  store.set(currentUserAtom, null);
  store.set(publicFiguresAtom, input.figures);
  const html = renderToString(
    <I18nProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <JotaiProvider store={store}>
          <Router ssrPath={input.path}>
            <PublicLayout><PublicPage path={input.path} config={input.config} /></PublicLayout>
          </Router>
        </JotaiProvider>
      </MantineProvider>
    </I18nProvider>,
  );
  const meta = FRONT_META[input.path];
  const pageTitle = meta.title ? i18n._(meta.title) : null;
  return {
    html,
    title: pageTitle ? `${pageTitle} - ${input.config.webTitle}` : input.config.webTitle,
    description: i18n._(meta.description),
    htmlLang: HTML_LANG[input.locale],
  };
}
