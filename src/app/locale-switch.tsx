import { ActionIcon, Button, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { activateLocale, currentLocale } from '@/i18n/i18n.ts';
import { LOCALES, LOCALE_NATIVE_NAMES, type Locale } from '@/i18n/locales.ts';

/** Language switch (§1), used in the nav bar and the footer. */
type Props = { variant?: 'subtle' | 'default'; isCompact?: boolean; testId?: string };

export function LocaleSwitch({ variant = 'subtle', isCompact = false, testId }: Props) {
  const { t } = useLingui();
  const active = currentLocale();
  const languageName = LOCALE_NATIVE_NAMES[active];
  const onSelect = (locale: Locale) => {
    if (locale !== active) void activateLocale(locale);
  };
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        {isCompact ? (
          <ActionIcon variant={variant} color="gray" size="lg" aria-label={t`Language: ${languageName}`} data-testid={testId}>
            <IconLanguage size={18} />
          </ActionIcon>
        ) : (
          <Button
            variant={variant}
            color="gray"
            size="compact-sm"
            leftSection={<IconLanguage size={16} />}
            aria-label={t`Language: ${languageName}`}
            data-testid={testId}
          >
            {LOCALE_NATIVE_NAMES[active]}
          </Button>
        )}
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
