import type { Db } from '../db/database.ts';
import type { UsersTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import type { UserDto } from '../../core/api-types.ts';

export type UserRow = Selectable<UsersTable>;

const ICON_COLORS = ['#1c64f2', '#0e9f6e', '#d03801', '#9061f9', '#e74694', '#0694a2', '#c27803', '#3f83f8'];

export function pickIconColor(): string {
  return ICON_COLORS[Math.floor(Math.random() * ICON_COLORS.length)] as string;
}

/** §3 User as the browser sees it: never the password hash or lock-out counters. */
export function toUserDto(row: UserRow): UserDto {
  return {
    id: row.id,
    login_id: row.login_id,
    phonenumber: row.phonenumber,
    name: row.name,
    card_no: row.card_no,
    real_name: row.real_name,
    icon_color: row.icon_color,
    // tag 2: profile managed by a directory service, read-only here (§3).
    allowEditProfile: row.tag !== 2,
    created_at: row.created_at,
  };
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByPhone(db: Db, phone: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('phonenumber', '=', phone).executeTakeFirst();
}

export async function findUserByLoginId(db: Db, loginId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('login_id', '=', loginId).executeTakeFirst();
}
