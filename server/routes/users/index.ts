import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SMS_TYPES } from '../../../core/constants.ts';
import {
  checkChangedPassword,
  checkName,
  checkNewPassword,
  checkNewPhone,
  checkPhone,
  checkRepeatPassword,
  checkSmsCode,
  checkUserName,
  isPhone,
  isWeakPassword,
} from '../../../core/validation.ts';
import type {
  ChangeNameBody,
  ChangePasswordBody,
  ChangePhoneBody,
  CodeLoginBody,
  OldPhoneCodeBody,
  PasswordLoginBody,
  RegisterBody,
  ResetBody,
} from '../../../core/api-types.ts';
import { ApiError, fail } from '../../errors.ts';
import { hashPassword, verifyPassword, verifyPasswordOrDummy } from '../../services/passwords.ts';
import { hit } from '../../services/rate-limit.ts';
import { lockedUntil, recordFailure, recordSuccess, unlockAccount } from '../../services/lockout.ts';
import { isLockedOut } from '../../services/enterprises.ts';
import { findUserById, findUserByLoginId, findUserByPhone, toUserDto, type UserRow } from '../../services/users.ts';
import { clearPasswordLocks, insertUser, openPhoneChange, renameUser, resetPassword, setLoginId, setPasswordHash, setPhone, withSmsCode } from '../../services/user-accounts.ts';
import { body, code, envelope, name, okNull, password, phone, userDto, SIGNED_IN } from '../schemas.ts';

/** Login attempts per client address, whatever the account: slows down spraying. */
const LOGIN_PER_ADDRESS = { limit: 30, windowMs: 10 * 60 * 1000 };
/** After the old phone's code is checked, the new number must follow within this time. */
const PHONE_CHANGE_WINDOW_MS = 10 * 60 * 1000;

function rule(key: ReturnType<typeof checkPhone>, field: string): void {
  if (key) fail(key, field);
}

export default async function userRoutes(app: FastifyInstance) {
  const { db, codes, sessions, config } = app;

  async function startSession(request: FastifyRequest, reply: FastifyReply, user: UserRow) {
    const token = await sessions.create(user.id, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
    app.setSessionCookie(reply, token);
    return { data: toUserDto(user) };
  }

  async function currentUser(request: FastifyRequest): Promise<UserRow> {
    const session = await app.requireSession(request);
    const user = await findUserById(db, session.user_id);
    if (!user) throw new ApiError('token_invalid');
    return user;
  }

  const withCode = <T>(phoneNumber: string, type: number, validationCode: string, action: (trx: typeof db) => Promise<T>) => withSmsCode(db, codes, phoneNumber, type, validationCode, action);

  async function guardLoginAddress(request: FastifyRequest) {
    if (!(await hit(db, `login-ip:${request.ip}`, LOGIN_PER_ADDRESS.limit * app.env.addressLimitFactor, LOGIN_PER_ADDRESS.windowMs))) {
      fail('too_frequent_operation', 'login_id');
    }
  }

  // §7 v1 POST /users: password login.
  app.post<{ Body: PasswordLoginBody }>(
    '/api/v1/users',
    { schema: { body: body({ login_id: { type: 'string', maxLength: 64 }, password }, ['login_id', 'password']), response: envelope(userDto) } },
    async (request, reply) => {
      const loginId = request.body.login_id.trim();
      const pass = request.body.password;
      if (!loginId) fail('required', 'login_id');
      if (!pass) fail('required', 'password');
      await guardLoginAddress(request);
      let user: UserRow | undefined;
      if (config.allowPhoneLogin && isPhone(loginId)) user = await findUserByPhone(db, loginId);
      if (!user && config.allowUserNameLogin) user = await findUserByLoginId(db, loginId);
      if (!user) {
        // Same answer as a wrong password: the login form never says which of the two was wrong.
        await verifyPasswordOrDummy(pass, undefined);
        fail('invalid_password', 'password');
      }
      const account = `user:${user.id}`;
      if (await lockedUntil(db, account, request.ip)) fail('operating_too_frequently', 'login_id');
      if (!(await verifyPassword(pass, user.password_hash))) {
        if (await recordFailure(db, account, request.ip)) fail('operating_too_frequently', 'login_id');
        fail('invalid_password', 'password');
      }
      await recordSuccess(db, account, request.ip);
      if (user.is_frozen || (await isLockedOut(db, user.id))) fail('employee_locked', 'login_id');
      // A password that no longer meets the rules must be upgraded before use (§8 weak-password dialog).
      if (isWeakPassword(pass, { strongPassword: config.strongPassword })) fail('invalid_password_format', 'password');
      return startSession(request, reply, user);
    },
  );

  // §7 v2 POST /users: code login.
  app.post<{ Body: CodeLoginBody }>(
    '/api/v2/users',
    { schema: { body: body({ login_id: phone, validation_code: code }, ['login_id', 'validation_code']), response: envelope(userDto) } },
    async (request, reply) => {
      const { login_id: loginId, validation_code: validationCode } = request.body;
      rule(checkPhone(loginId), 'login_id');
      rule(checkSmsCode(validationCode), 'validation_code');
      await guardLoginAddress(request);
      const user = await findUserByPhone(db, loginId);
      if (!user) fail('user_not_found', 'login_id');
      if (user.is_frozen || (await isLockedOut(db, user.id))) fail('employee_locked', 'login_id');
      // Code login works while the password is locked (someone else's guesses must not keep
      // the owner out), and proving the phone clears the password locks.
      await withCode(loginId, SMS_TYPES.codeLogin, validationCode, (trx) => clearPasswordLocks(trx, user.id));
      await unlockAccount(db, `user:${user.id}`);
      return startSession(request, reply, user);
    },
  );

  // §7 v1 POST /users/tokens: register, and start a session.
  app.post<{ Body: RegisterBody }>(
    '/api/v1/users/tokens',
    {
      schema: {
        body: body({ phonenumber: phone, name, password, validation_code: code }, ['phonenumber', 'password', 'validation_code']),
        response: envelope(userDto),
      },
    },
    async (request, reply) => {
      if (!config.allowRegister) fail('forbidden');
      const { phonenumber, password: pass, validation_code: validationCode } = request.body;
      const displayName = config.allowRegisterName ? (request.body.name ?? '').trim() : '';
      rule(checkPhone(phonenumber), 'phonenumber');
      rule(checkNewPassword(pass, { strongPassword: config.strongPassword }), 'password');
      rule(checkName(displayName, { required: false }), 'name');
      rule(checkSmsCode(validationCode), 'validation_code');
      if (await findUserByPhone(db, phonenumber)) fail('user_already_exist', 'phonenumber');
      const passwordHash = await hashPassword(pass);
      const user = await withCode(phonenumber, SMS_TYPES.register, validationCode, (trx) => insertUser(trx, { phonenumber, name: displayName, passwordHash }));
      return startSession(request, reply, user);
    },
  );

  // §7 v1 DELETE /users/tokens: logout.
  app.delete('/api/v1/users/tokens', { schema: { response: okNull } }, async (request, reply) => {
    const session = await app.requireSession(request);
    await sessions.destroy(session.id);
    app.clearSessionCookie(reply);
    return { data: null };
  });

  // §7 v1 GET /users: the logged-in user.
  app.get('/api/v1/users', { config: SIGNED_IN, schema: { response: envelope(userDto) } }, async (request) => {
    return { data: toUserDto(await currentUser(request)) };
  });

  // §7 v1 PUT /users/forgot-password.
  app.put<{ Body: ResetBody }>(
    '/api/v1/users/forgot-password',
    { schema: { body: body({ phonenumber: phone, password, validation_code: code, repeat_password: password }, ['phonenumber', 'password']), response: okNull } },
    async (request) => {
      if (!config.allowResetPassword) fail('forbidden');
      const { phonenumber, password: pass } = request.body;
      const validationCode = request.body.validation_code ?? '';
      rule(checkPhone(phonenumber), 'phonenumber');
      rule(checkNewPassword(pass, { strongPassword: config.strongPassword }), 'password');
      const repeat = request.body.repeat_password;
      if (repeat !== undefined) rule(checkRepeatPassword(pass, repeat), 'repeat_password');
      if (config.requirePhoneValidation || validationCode) rule(checkSmsCode(validationCode), 'validation_code');
      const user = await findUserByPhone(db, phonenumber);
      if (!user) fail('user_not_found', 'phonenumber');
      const passwordHash = await hashPassword(pass);
      const update = (trx: typeof db) => resetPassword(trx, user.id, passwordHash);
      if (config.requirePhoneValidation || validationCode) {
        await withCode(phonenumber, SMS_TYPES.reset, validationCode, update);
        await unlockAccount(db, `user:${user.id}`);
      } else await db.transaction().execute(update);
      return { data: null };
    },
  );

  // §7 v1 PUT /users/password: change password (old password; new ≥ 7, differs from the old).
  app.put<{ Body: ChangePasswordBody }>(
    '/api/v1/users/password',
    { config: SIGNED_IN, schema: { body: body({ old_password: password, new_password: password }, ['old_password', 'new_password']), response: okNull } },
    async (request) => {
      const user = await currentUser(request);
      const { old_password: oldPassword, new_password: newPassword } = request.body;
      if (!oldPassword) fail('required', 'old_password');
      rule(checkChangedPassword(oldPassword, newPassword, { strongPassword: config.strongPassword }), 'new_password');
      if (!(await verifyPassword(oldPassword, user.password_hash))) fail('password_invalid', 'old_password');
      const passwordHash = await hashPassword(newPassword);
      await setPasswordHash(db, user.id, passwordHash);
      await sessions.destroyAllFor(user.id, request.session?.id);
      return { data: null };
    },
  );

  // §7 v1 PUT /users/name: change the display name.
  app.put<{ Body: ChangeNameBody }>(
    '/api/v1/users/name',
    { config: SIGNED_IN, schema: { body: body({ name }, ['name']), response: envelope(userDto) } },
    async (request) => {
      const user = await currentUser(request);
      if (user.tag === 2) fail('forbidden');
      const newName = request.body.name.trim();
      rule(checkName(newName, { required: true }), 'name');
      return { data: toUserDto(await renameUser(db, user.id, newName)) };
    },
  );

  // Update the username (§7 "update username"), only where username login is on.
  app.put<{ Body: { login_id: string } }>(
    '/api/v1/users/login-id',
    { config: SIGNED_IN, schema: { body: body({ login_id: { type: 'string', maxLength: 64 } }, ['login_id']), response: envelope(userDto) } },
    async (request) => {
      if (!config.allowUserNameLogin) fail('forbidden');
      const user = await currentUser(request);
      const loginId = request.body.login_id.trim();
      rule(checkUserName(loginId), 'login_id');
      return { data: toUserDto(await setLoginId(db, user.id, loginId)) };
    },
  );

  // §7 v1 POST /users/authorization/old-phone-code: prove the old phone before changing it.
  app.post<{ Body: OldPhoneCodeBody }>(
    '/api/v1/users/authorization/old-phone-code',
    { config: SIGNED_IN, schema: { body: body({ validation_code: code }, ['validation_code']), response: okNull } },
    async (request) => {
      const user = await currentUser(request);
      const session = request.session!;
      rule(checkSmsCode(request.body.validation_code), 'validation_code');
      await withCode(user.phonenumber, SMS_TYPES.changePhoneOld, request.body.validation_code, (trx) => openPhoneChange(trx, session.id, Date.now() + PHONE_CHANGE_WINDOW_MS));
      return { data: null };
    },
  );

  // Update phone number (§7 "two arguments"): the new number and the code sent to it.
  app.put<{ Body: ChangePhoneBody }>(
    '/api/v1/users/phone',
    { config: SIGNED_IN, schema: { body: body({ new_phone_number: phone, validation_code: code }, ['new_phone_number', 'validation_code']), response: envelope(userDto) } },
    async (request) => {
      const user = await currentUser(request);
      const session = request.session!;
      if (session.phone_change_until < Date.now()) fail('validation_code_expired', 'old_validation_code');
      const { new_phone_number: newPhone, validation_code: validationCode } = request.body;
      rule(checkNewPhone(user.phonenumber, newPhone), 'new_phone_number');
      rule(checkSmsCode(validationCode), 'validation_code');
      if (await findUserByPhone(db, newPhone)) fail('user_already_exist', 'new_phone_number');
      const updated = await withCode(newPhone, SMS_TYPES.changePhoneNew, validationCode, (trx) => setPhone(trx, user.id, session.id, newPhone));
      return { data: toUserDto(updated) };
    },
  );
}
