import { useEffect } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useConfig } from '@/config/config-atom.ts';

export type TitleSpec = { title?: MessageDescriptor; noTitle?: boolean };

/**
 * §2 page titles: the route title plus the site title; a route marked noTitle keeps
 * the previous title; a route without a title shows the site title alone.
 */
export function usePageTitle({ title, noTitle }: TitleSpec): void {
  const { i18n } = useLingui();
  const { webTitle } = useConfig();
  // A product area's catalog arrives with its first screen (i18n.ts): until then its titles
  // are not loaded, and the previous title stays rather than showing a message id.
  const isLoaded = !title?.id || title.id in i18n.messages;
  const text = title && isLoaded ? i18n._(title) : null;
  useEffect(() => {
    if (noTitle || !isLoaded) return;
    document.title = text ? `${text} - ${webTitle}` : webTitle;
  }, [noTitle, isLoaded, text, webTitle]);
}

export function PageTitle(props: TitleSpec) {
  usePageTitle(props);
  return null;
}
