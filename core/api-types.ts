/** Shapes of the accounts API (§3 User, §7 calls) shared by server and browser. */
export type UserDto = {
  id: number;
  login_id: string | null;
  phonenumber: string;
  name: string;
  card_no: string;
  real_name: string;
  icon_color: string;
  allowEditProfile: boolean;
  created_at: number;
};

export type PasswordLoginBody = { login_id: string; password: string };
export type CodeLoginBody = { login_id: string; validation_code: string };
export type RegisterBody = { phonenumber: string; name?: string; password: string; validation_code: string };
export type ResetBody = { phonenumber: string; password: string; repeat_password?: string; validation_code?: string };
export type ChangePasswordBody = { old_password: string; new_password: string };
export type ChangeNameBody = { name: string };
export type OldPhoneCodeBody = { validation_code: string };
export type ChangePhoneBody = { new_phone_number: string; validation_code: string };
export type SmsOutboxEntry = { phone: string; code: string; type: number; sent_at: number };
