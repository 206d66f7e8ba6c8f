import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration } from './format.ts';

describe('progress formatting', () => {
  it('formats bytes in binary multiples', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10.0 MB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5.0 TB');
  });
  it('formats time left', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});
