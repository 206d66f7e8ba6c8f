import type { ComponentType } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { IconBrandGit, IconBuilding, IconCertificate, IconCoins, IconFileExport, IconHome, IconLock, IconMessageChatbot, IconPlugConnected, IconUserCircle, type IconProps } from '@tabler/icons-react';
import type { DeploymentConfig } from '../../core/config.ts';
import { VAULT_LABELS } from '@/features/vault/vault-labels.ts';
import { DISCLOSURE_LABELS } from '@/features/disclosure/disclosure-labels.ts';
import { CREDIT_LABELS } from '@/features/credit/credit-labels.ts';
import { ASSET_LABELS } from '@/features/asset/asset-labels.ts';
import { REPOS_LABELS } from '@/features/repos/repos-labels.ts';
import { APPLICATION_LABELS } from '@/features/application/application-labels.ts';
import { GPT_LABELS } from '@/features/gpt/gpt-labels.ts';

/**
 * The dashboard sidebar (§2). Group indexes: asset 1, vault 2, copyright 4, company 5,
 * application 6, setting 7, home 99; disclosure, credit and gpt have their own entries
 * and are shown by config.menu. Only screens that exist in this build are listed; a
 * feature that adds a dashboard screen adds its entry here.
 */
export type SidebarEntry = {
  key: string;
  index: number;
  /** Absolute path; the entry is active on it and below it. */
  path: string;
  /** Other screens of the entry's area that do not sit below its path (e.g. /dashboard/asset_upload). */
  alsoActiveOn?: readonly string[];
  label: MessageDescriptor;
  icon: ComponentType<IconProps>;
  isVisible: (config: DeploymentConfig) => boolean;
};

export const SIDEBAR_INDEX = {
  asset: 1,
  vault: 2,
  copyright: 4,
  company: 5,
  application: 6,
  setting: 7,
  home: 99,
} as const;

export const SIDEBAR_ENTRIES: readonly SidebarEntry[] = [
  {
    key: 'home',
    index: SIDEBAR_INDEX.home,
    path: '/dashboard/home',
    label: msg`Home`,
    icon: IconHome,
    isVisible: () => true,
  },
  {
    key: 'asset',
    index: SIDEBAR_INDEX.asset,
    path: '/dashboard/asset',
    alsoActiveOn: ['/dashboard/asset_upload'],
    label: ASSET_LABELS.sidebar,
    icon: IconCertificate,
    isVisible: () => true,
  },
  {
    key: 'vault',
    index: SIDEBAR_INDEX.vault,
    path: '/dashboard/vault',
    label: VAULT_LABELS.sidebar,
    icon: IconLock,
    isVisible: () => true,
  },
  {
    // §2 gives disclosure no group index: it sits after the vault, shown by config.menu.disclosure.
    key: 'disclosure',
    index: 3,
    path: '/dashboard/disclosures',
    label: DISCLOSURE_LABELS.sidebar,
    icon: IconFileExport,
    isVisible: (config) => config.menu.disclosure,
  },
  {
    // §2 "copyright": source-code projects, shown by config.menu.copyright.
    key: 'copyright',
    index: SIDEBAR_INDEX.copyright,
    path: '/dashboard/repos',
    label: REPOS_LABELS.sidebar,
    icon: IconBrandGit,
    isVisible: (config) => config.menu.copyright,
  },
  {
    key: 'company',
    index: SIDEBAR_INDEX.company,
    path: '/dashboard/company',
    label: msg`My company`,
    icon: IconBuilding,
    isVisible: () => true,
  },
  {
    // §2 gives credit no group index either: after the company, shown by config.menu.credit.
    key: 'credit',
    index: 5.5,
    path: '/dashboard/credit',
    label: CREDIT_LABELS.sidebar,
    icon: IconCoins,
    isVisible: (config) => config.menu.credit,
  },
  {
    key: 'application',
    index: SIDEBAR_INDEX.application,
    path: '/dashboard/application',
    label: APPLICATION_LABELS.sidebar,
    icon: IconPlugConnected,
    isVisible: (config) => config.menu.application,
  },
  {
    // §2: the chat assistant (gpt) has no group index either: after credit, shown by config.menu.gpt ("chat assistant", visible by default).
    key: 'gpt',
    index: 5.7,
    path: '/dashboard/gpt/list',
    alsoActiveOn: ['/dashboard/gpt/detail'],
    label: GPT_LABELS.sidebar,
    icon: IconMessageChatbot,
    isVisible: (config) => config.menu.gpt,
  },
  {
    key: 'setting',
    index: SIDEBAR_INDEX.setting,
    path: '/dashboard/setting',
    label: msg`Personal centre`,
    icon: IconUserCircle,
    isVisible: () => true,
  },
];

export function visibleSidebarEntries(config: DeploymentConfig): SidebarEntry[] {
  return SIDEBAR_ENTRIES.filter((entry) => entry.isVisible(config)).sort((a, b) => a.index - b.index);
}

export function isEntryActive(entry: SidebarEntry, location: string): boolean {
  return [entry.path, ...(entry.alsoActiveOn ?? [])].some((path) => location === path || location.startsWith(`${path}/`));
}
