import { describe, expect, it } from 'vitest';
import type { CompanyDto, UserDto } from '../../../core/api-types.ts';
import { afterLoginTarget } from './after-login.ts';

const user = { card_no: '11010519491231002X' } as UserDto;
const empty: CompanyDto = {
  enterprise_id: null, name: '', verified: false, verify_status: 0, license: '', legal_person: '', role: 0, is_admin: false,
  private_key_status: 0, member_confirmed_status: 0, status: 0, invitation_code: '', companies: [], invited_company: null, application: null,
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
