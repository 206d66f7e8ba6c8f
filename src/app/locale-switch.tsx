import { lazy, Suspense, useState } from 'react';
import { ActionIcon, Button } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { currentLocale } from '@/i18n/i18n.ts';
import { LOCALE_NATIVE_NAMES } from '@/i18n/locales.ts';

/** Language switch (§1), used in the nav bar and the footer. */
type Props = { variant?: 'subtle' | 'default'; isCompact?: boolean; testId?: string };

// The menu (Mantine's Menu and its positioning) loads when the visitor reaches for the switch:
// the public pages draw and hydrate without it (their JavaScript budget: tests/server/bundle-budget.test.ts).
const loadMenu = () => import('./locale-menu.tsx');
const LocaleMenu = lazy(async () => ({ default: (await loadMenu()).LocaleMenu }));

export function LocaleSwitch({ variant = 'subtle', isCompact = false, testId }: Props) {
  const { t } = useLingui();
  const [wantsMenu, setWantsMenu] = useState(false);
  const active = currentLocale();
  const languageName = LOCALE_NATIVE_NAMES[active];
  const preload = () => void loadMenu().catch(() => undefined);
  const trigger = (onClick?: () => void) =>
    isCompact ? (
      <ActionIcon variant={variant} color="gray" size="lg" aria-label={t`Language: ${languageName}`} data-testid={testId} onClick={onClick} onPointerEnter={preload} onFocus={preload}>
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
        onClick={onClick}
        onPointerEnter={preload}
        onFocus={preload}
      >
        {languageName}
      </Button>
    );
  if (!wantsMenu) return trigger(() => setWantsMenu(true));
  return (
    <Suspense fallback={trigger()}>
      <LocaleMenu trigger={trigger()} />
    </Suspense>
  );
}
