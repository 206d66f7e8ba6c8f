import type { ChangePasswordBody, ChangePhoneBody, UserDto } from '../../../core/api-types.ts';
import { SMS_TYPES } from '../../../core/constants.ts';
import { api } from '@/api/client.ts';

export const changeName = (name: string) => api.put<UserDto>('/v1/users/name', { name });
export const changeUserName = (loginId: string) => api.put<UserDto>('/v1/users/login-id', { login_id: loginId });
export const changePassword = (body: ChangePasswordBody) => api.put<null>('/v1/users/password', body);

/** Change phone, step 1: a code to the current phone, then prove it. */
export const sendOldPhoneCode = () => api.get<null>('/v1/validation/private-code', { query: { type: SMS_TYPES.changePhoneOld } });
export const verifyOldPhoneCode = (validationCode: string) =>
  api.post<null>('/v1/users/authorization/old-phone-code', { validation_code: validationCode });

/** Change phone, step 2: a code to the new phone, then switch. */
export const sendNewPhoneCode = (phonenumber: string) =>
  api.get<null>('/v1/validation/public-code', { query: { phonenumber, type: SMS_TYPES.changePhoneNew } });
export const changePhone = (body: ChangePhoneBody) => api.put<UserDto>('/v1/users/phone', body);
