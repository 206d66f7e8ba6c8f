import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = Date.UTC(2025, 4, 20, 12, 0, 0);
const ago = (seconds: number) => now - seconds * 1000;

describe('relativeTime', () => {
  it('reads naturally in English, from now to years', () => {
    expect(relativeTime(ago(5), now, 'en')).toBe('now');
    expect(relativeTime(now + 5000, now, 'en')).toBe('now');
    expect(relativeTime(ago(60), now, 'en')).toBe('1 minute ago');
    expect(relativeTime(ago(59 * 60), now, 'en')).toBe('59 minutes ago');
    expect(relativeTime(ago(3 * 3600), now, 'en')).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3600), now, 'en')).toBe('yesterday');
    expect(relativeTime(ago(3 * 86400), now, 'en')).toBe('3 days ago');
    expect(relativeTime(ago(10 * 86400), now, 'en')).toBe('last week');
    expect(relativeTime(ago(60 * 86400), now, 'en')).toBe('2 months ago');
    expect(relativeTime(ago(800 * 86400), now, 'en')).toBe('2 years ago');
  });
  it('speaks Chinese and Japanese', () => {
    expect(relativeTime(ago(5 * 60), now, 'zh')).toBe('5分钟前');
    expect(relativeTime(ago(5 * 60), now, 'ja')).toBe('5 分前');
    expect(relativeTime(ago(26 * 3600), now, 'zh')).toBe('昨天');
  });
});
