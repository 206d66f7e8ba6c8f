import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** The public pages that are server-rendered, with their titles and descriptions for search engines. */
export const FRONT_PATHS = ['/', '/government', '/partners', '/insurance'] as const;
export type FrontPath = (typeof FRONT_PATHS)[number];

export function isFrontPath(path: string): path is FrontPath {
  return (FRONT_PATHS as readonly string[]).includes(path);
}

export const FRONT_META: Record<FrontPath, { title: MessageDescriptor | null; description: MessageDescriptor }> = {
  '/': {
    title: null,
    description: msg`Register digital intellectual property on a tamper-evident ledger, get signed proof certificates, and have your assets assessed, insured and financed.`,
  },
  '/government': {
    title: msg`Government solution`,
    description: msg`Four centres and one network: registration, verification, assessment and protection of digital assets for a whole region, on one public ledger.`,
  },
  '/partners': {
    title: msg`Partners`,
    description: msg`Become a partner of the digital asset network: channel, technology, service partners, parks and institutions.`,
  },
  '/insurance': {
    title: msg`Assessment and insurance`,
    description: msg`How a registered digital asset with its proof supports a valuation or an insurance policy, and the steps to get one.`,
  },
};
