import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ApplicationAlarmDto, ApplicationState } from '../../../core/applications.ts';

/** Route titles and the sidebar label of the external-applications area (kept here so they land in its catalog). */
export const APPLICATION_LABELS = {
  sidebar: msg`External applications`,
  list: msg`External applications`,
  detail: msg`Application details`,
  file: msg`Application file`,
};

/** §4 connection states. */
export const STATE_LABELS: Record<ApplicationState, MessageDescriptor> = {
  not_connected: msg`Not connected`,
  normal: msg`Normal`,
  abnormal: msg`Abnormal`,
  interrupted: msg`Data interrupted`,
};
export const STATE_COLORS: Record<ApplicationState, string> = { not_connected: 'gray', normal: 'teal', abnormal: 'orange', interrupted: 'red' };

export const ALARM_KIND_LABELS: Record<ApplicationAlarmDto['kind'], MessageDescriptor> = {
  abnormal: msg`Became abnormal`,
  interrupted: msg`Data interrupted`,
  recovered: msg`Recovered`,
  reminder: msg`Reminder`,
};

export const DELIVERY_LABELS: Record<'pending' | 'delivered' | 'failed', MessageDescriptor> = {
  pending: msg`Sending`,
  delivered: msg`Delivered`,
  failed: msg`Failed`,
};

export const APPLICATION_TABS = ['overview', 'data', 'monitoring', 'settings'] as const;
export type ApplicationTab = (typeof APPLICATION_TABS)[number];
export function toApplicationTab(value: string | undefined): ApplicationTab {
  return (APPLICATION_TABS as readonly string[]).includes(value ?? '') ? (value as ApplicationTab) : 'overview';
}

export const APPLICATION_LIST_PATH = '/dashboard/application';
/** §2 named route applicationDetail (application_id), with its tab (`:active?`). */
export const applicationDetailPath = (applicationId: number | string, tab?: ApplicationTab) => `/dashboard/application/detail/${applicationId}${tab && tab !== 'overview' ? `/${tab}` : ''}`;
/** §2 named route applicationFileDetail (application_id, file_id): the file id is its DNA, as the search gives it. */
export const applicationFileDetailPath = (applicationId: number | string, fileId: string) => `/dashboard/application/detail/file/${applicationId}/${encodeURIComponent(fileId)}`;

/** A span of seconds in the largest whole unit (90 → "90 s", 7200 → "2 h"). */
export function formatSeconds(seconds: number, i18n: I18n): string {
  const units: Array<[number, Intl.NumberFormatOptions['unit']]> = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) return new Intl.NumberFormat(i18n.locale, { style: 'unit', unit, unitDisplay: 'short' }).format(seconds / size);
  }
  return new Intl.NumberFormat(i18n.locale, { style: 'unit', unit: 'second', unitDisplay: 'short' }).format(seconds);
}

/** A transition's or alarm's reason code (server/services/application-monitor.ts) in words. */
export function reasonText(reason: string, i18n: I18n): string {
  const [code, detail = ''] = reason.split(':');
  if (code === 'silence') {
    const seconds = Number(detail);
    return i18n._(msg`Nothing received for ${formatSeconds(Number.isFinite(seconds) ? seconds : 0, i18n)}`);
  }
  if (code === 'errors') {
    const [failed = '0', total = '0'] = detail.split('/');
    return i18n._(msg`${failed} of ${total} recent requests failed (signature, replay or refused registration)`);
  }
  if (code === 'receiving') return i18n._(msg`Receiving data`);
  if (code === 'never_seen') return i18n._(msg`Never heard from`);
  return reason;
}

export function formatTime(ms: number | null, i18n: I18n, never?: string): string {
  if (ms === null) return never ?? '—';
  return i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'medium' });
}
