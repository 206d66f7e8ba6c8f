import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** §3 role numbers as the user reads them. */
export const ROLE_LABELS: Record<number, MessageDescriptor> = {
  0: msg`Member`,
  1: msg`Super administrator`,
  2: msg`Administrator`,
  3: msg`Confidentiality officer`,
  4: msg`Enterprise member`,
};
