import type { ReactElement } from 'react';
import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { activateLocale, currentLocale } from '@/i18n/i18n.ts';
import { LOCALES, LOCALE_NATIVE_NAMES, type Locale } from '@/i18n/locales.ts';

/** The language switch's menu (locale-switch.tsx), open as soon as it has loaded: the visitor asked for it. */
export function LocaleMenu({ trigger }: { trigger: ReactElement }) {
  const active = currentLocale();
  const onSelect = (locale: Locale) => {
    if (locale !== active) void activateLocale(locale);
  };
  return (
    <Menu position="bottom-end" withinPortal shadow="md" defaultOpened>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown>
        {LOCALES.map((locale) => (
          <Menu.Item key={locale} lang={locale} onClick={() => onSelect(locale)} rightSection={locale === active ? <IconCheck size={14} /> : null}>
            {LOCALE_NATIVE_NAMES[locale]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
