import type {
  CodeLoginBody,
  PasswordLoginBody,
  RegisterBody,
  ResetBody,
  UserDto,
} from '../../../core/api-types.ts';
import { SMS_TYPES } from '../../../core/constants.ts';
import { api, isApiError } from '@/api/client.ts';

/** GET /api/v1/users; a token_invalid answer means nobody is logged in. */
export async function fetchCurrentUser(): Promise<UserDto | null> {
  try {
    return await api.get<UserDto>('/v1/users', { isSessionProbe: true });
  } catch (error) {
    if (isApiError(error) && error.key === 'token_invalid') return null;
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
