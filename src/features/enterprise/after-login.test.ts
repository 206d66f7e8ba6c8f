import { describe, expect, it } from 'vitest';
import type { CompanyDto, UserDto } from '../../../core/api-types.ts';
import { afterLoginTarget, dashboardGatePath, logoTarget } from './after-login.ts';

const user = { card_no: '11010519491231002X' } as UserDto;
const empty: CompanyDto = {
  enterprise_id: null, name: '', verified: false, verify_status: 0, license: '', legal_person: '', role: 0, is_admin: false,
  private_key_status: 0, certificate: '', certificate_dna: '', member_confirmed_status: 0, status: 0, invitation_code: '', integrals: 0, companies: [], invited_company: null, application: null,
};
const one = { ...empty, enterprise_id: 1, name: 'A', member_confirmed_status: 1, companies: [{ enterprise_id: 1, enterprise_name: 'A', locked: false, member_confirmed_status: 1 }] };
const opts = { multiCompany: true, needAuth: true, fallback: '/dashboard/home' };

describe('§4 after login', () => {
  it('routes by card_no, invitation, companies and review state', () => {
    expect(afterLoginTarget({ ...user, card_no: '' }, one, opts)).toEqual({ path: '/real-auth' });
    expect(afterLoginTarget(user, empty, opts)).toEqual({ path: '/real-auth' });
    expect(afterLoginTarget(user, { ...empty, application: { id: 1, name: 'A', status: 1, reason: '', created_at: 0 } }, opts)).toEqual({ path: '/in-review' });
    expect(afterLoginTarget(user, { ...one, invited_company: { invitation_id: 1, enterprise_id: 2, enterprise_name: 'B', inviter: 'x' } }, opts)).toEqual({ path: '/invited-company' });
    expect(afterLoginTarget(user, one, opts)).toEqual({ path: '/dashboard/home' });
    expect(afterLoginTarget(user, { ...one, member_confirmed_status: 2 }, opts)).toEqual({ path: '/in-review' });
    const two = { ...one, companies: [...one.companies, { enterprise_id: 2, enterprise_name: 'B', locked: false, member_confirmed_status: 1 }] };
    expect(afterLoginTarget(user, two, opts)).toEqual({ path: '/invited-company' });
    expect(afterLoginTarget(user, { ...two, enterprise_id: 2 }, { ...opts, multiCompany: false })).toEqual({ path: '/dashboard/home', switchTo: 1 });
    expect(afterLoginTarget({ ...user, card_no: '' }, empty, { ...opts, needAuth: false })).toEqual({ path: '/dashboard/home' });
  });
});

describe('§4 for dashboard URLs opened directly', () => {
  const gate = { needAuth: true, location: '/dashboard/vault' };
  it('lets confirmed members in and sends everyone else where after-login would', () => {
    expect(dashboardGatePath(user, one, gate)).toBeNull();
    expect(dashboardGatePath({ ...user, card_no: '' }, one, gate)).toBe('/real-auth');
    expect(dashboardGatePath(user, empty, gate)).toBe('/real-auth');
    expect(dashboardGatePath(user, { ...empty, application: { id: 1, name: 'A', status: 1, reason: '', created_at: 0 } }, gate)).toBe('/in-review');
    const applied = { ...one, member_confirmed_status: 2, companies: [{ ...one.companies[0]!, member_confirmed_status: 2 }] };
    expect(dashboardGatePath(user, applied, gate)).toBe('/in-review');
    expect(dashboardGatePath(user, { ...empty, invited_company: { invitation_id: 1, enterprise_id: 2, enterprise_name: 'B', inviter: 'x' } }, gate)).toBe('/invited-company');
    // Frozen everywhere: no usable company.
    expect(dashboardGatePath(user, { ...one, companies: [{ ...one.companies[0]!, locked: true }] }, gate)).toBe('/real-auth');
    // Displaying a company under review while confirmed in another: still a member, the server answers for the confirmed one.
    const mixed = { ...applied, companies: [...applied.companies, { enterprise_id: 2, enterprise_name: 'B', locked: false, member_confirmed_status: 1 }] };
    expect(dashboardGatePath(user, mixed, gate)).toBeNull();
  });
  it('keeps the personal centre open, and does nothing when authentication is off or the state could not load', () => {
    expect(dashboardGatePath({ ...user, card_no: '' }, empty, { ...gate, location: '/dashboard/setting/password' })).toBeNull();
    expect(dashboardGatePath({ ...user, card_no: '' }, empty, { ...gate, location: '/dashboard/settings' })).toBe('/real-auth');
    expect(dashboardGatePath({ ...user, card_no: '' }, empty, { ...gate, needAuth: false })).toBeNull();
    expect(dashboardGatePath(user, null, gate)).toBeNull();
  });
});

describe('§2 nav-bar logo', () => {
  const base = { isLoggedIn: true, frontPageVersion: 'default', defaultPath: '/dashboard/vault' };
  it('goes home for the super administrator and administrators, to the asset page otherwise', () => {
    expect(logoTarget({ ...base, role: 1 })).toEqual({ href: '/dashboard/home' });
    expect(logoTarget({ ...base, role: 2 })).toEqual({ href: '/dashboard/home' });
    for (const role of [0, 3, 4, null]) expect(logoTarget({ ...base, role })).toEqual({ href: '/assets' });
  });
  it('reloads for visitors; the xian variant goes to the default page for a logged-in user', () => {
    expect(logoTarget({ ...base, isLoggedIn: false, role: null })).toEqual({ reload: true });
    expect(logoTarget({ ...base, frontPageVersion: 'xian', role: 0 })).toEqual({ href: '/dashboard/vault' });
    expect(logoTarget({ ...base, frontPageVersion: 'xian', isLoggedIn: false, role: null })).toEqual({ reload: true });
  });
});
