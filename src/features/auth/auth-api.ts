import type {
  CodeLoginBody,
  PasswordLoginBody,
  RegisterBody,
  ResetBody,
  UserDto,
} from '../../../core/api-types.ts';
import { SMS_TYPES } from '../../../core/constants.ts';
import { api, isApiError } from '@/api/client.ts';

/** Set by the server beside the HttpOnly session cookie (server/services/sessions.ts); it holds no secret. */
const SIGNED_IN_HINT_COOKIE = 'provena_signed_in';

function hasSignedInHint(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}

/**
 * GET /api/v1/users; a token_invalid answer means nobody is logged in. A visitor who never
 * logged in (no hint cookie) is not asked about at all: anonymous pages make no failing call.
 */
export async function fetchCurrentUser(): Promise<UserDto | null> {
  if (!hasSignedInHint()) return null;
  try {
    return await api.get<UserDto>('/v1/users', { isSessionProbe: true });
  } catch (error) {
    if (isApiError(error) && error.key === 'token_invalid') {
      // The session ended on the server (expired, logged out elsewhere): forget the hint too.
      document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; path=/`;
      return null;
    }
    throw error;
  }
}

export const loginWithPassword = (body: PasswordLoginBody) => api.post<UserDto>('/v1/users', body);
export const loginWithCode = (body: CodeLoginBody) => api.post<UserDto>('/v2/users', body);
export const register = (body: RegisterBody) => api.post<UserDto>('/v1/users/tokens', body);
export const resetPassword = (body: ResetBody) => api.put<null>('/v1/users/forgot-password', body);
export const logout = () => api.delete<null>('/v1/users/tokens', { isSessionProbe: true });

export type PublicCodeType = typeof SMS_TYPES.register | typeof SMS_TYPES.reset | typeof SMS_TYPES.codeLogin;
export const sendPublicCode = (phonenumber: string, type: PublicCodeType) =>
  api.get<null>('/v1/validation/public-code', { query: { phonenumber, type } });
