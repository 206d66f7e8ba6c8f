import { Button, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { activateLocale, currentLocale } from '@/i18n/i18n.ts';
import { LOCALES, LOCALE_NATIVE_NAMES, type Locale } from '@/i18n/locales.ts';

/** Language switch (§1), used in the nav bar and the footer. */
export function LocaleSwitch({ variant = 'subtle', testId }: { variant?: 'subtle' | 'default'; testId?: string }) {
  const { t } = useLingui();
  const active = currentLocale();
  const onSelect = (locale: Locale) => {
    if (locale !== active) void activateLocale(locale);
  };
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant={variant}
          color="gray"
          size="compact-sm"
          leftSection={<IconLanguage size={16} />}
          aria-label={t`Language: ${LOCALE_NATIVE_NAMES[active]}`}
          data-testid={testId}
        >
          {LOCALE_NATIVE_NAMES[active]}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {LOCALES.map((locale) => (
          <Menu.Item
            key={locale}
            lang={locale}
            onClick={() => onSelect(locale)}
            rightSection={locale === active ? <IconCheck size={14} /> : null}
          >
            {LOCALE_NATIVE_NAMES[locale]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
