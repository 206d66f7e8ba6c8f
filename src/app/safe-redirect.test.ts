import { describe, expect, it } from 'vitest';
import { loginPathFrom, safeReturnPath } from './safe-redirect.ts';

describe('safeReturnPath', () => {
  it('follows paths of this site', () => {
    expect(safeReturnPath('/dashboard/setting/pass')).toBe('/dashboard/setting/pass');
    expect(safeReturnPath('/dashboard/home?x=1')).toBe('/dashboard/home?x=1');
  });
  it('refuses other sites, empty values and the account screens', () => {
    for (const bad of [null, undefined, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'dashboard', '/user/login', '/signup', '/reset-pass']) {
      expect(safeReturnPath(bad)).toBeNull();
    }
  });
  it('builds the login path with the return path encoded', () => {
    expect(loginPathFrom('/dashboard/setting/pass?a=1')).toBe('/user/login?from=%2Fdashboard%2Fsetting%2Fpass%3Fa%3D1');
  });
});
