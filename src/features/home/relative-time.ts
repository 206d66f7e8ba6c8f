/**
 * "3 minutes ago", "yesterday", "2 年前": a past (or slightly future) moment relative to `now`,
 * in the reader's language, through Intl.RelativeTimeFormat.
 */
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

export function relativeTime(at: number, now: number, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  let value = (at - now) / 1000;
  // Under a minute reads "now": clocks of server and browser differ by a few seconds.
  if (Math.abs(value) < 60) return format.format(0, 'second');
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}
