import { createElement, type ReactNode } from 'react';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { describeError } from '@/api/error-messages.ts';

type Render = (i18n: I18n) => string;

function LocalizedText({ render }: { render: Render }) {
  const { i18n } = useLingui();
  return render(i18n);
}

/**
 * A message that is translated when it is drawn, not when it was produced: a form error
 * set this way follows a language switch while it stays on screen (a string set at
 * submit time would keep the old language).
 */
export function localized(render: Render): ReactNode {
  return createElement(LocalizedText, { render });
}

export function localizedMessage(message: MessageDescriptor): ReactNode {
  return localized((i18n) => i18n._(message));
}

/** describeError (§8 mapping, server-fault texts) drawn in the active language. */
export function localizedError(error: unknown): ReactNode {
  return localized((i18n) => describeError(error, i18n));
}
