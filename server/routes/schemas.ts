/** JSON-schema fragments shared by route declarations. */
export const phone = { type: 'string', maxLength: 32 } as const;
export const code = { type: 'string', maxLength: 16 } as const;
export const password = { type: 'string', maxLength: 128 } as const;
export const name = { type: 'string', maxLength: 64 } as const;

/** A string of at most `max` characters; the §5 rules check the rest and answer on the field. */
export const text = (max: number) => ({ type: 'string', maxLength: max }) as const;

/** A path parameter that is a row id (a whole number from 1). */
export const idParam = (name: string) => ({ type: 'object', properties: { [name]: { type: 'integer', minimum: 1 } }, required: [name] }) as const;

/**
 * The highest page number a list accepts. Without a bound `page=1e20` (or `1e400`, which
 * parses to Infinity and still passes `type: integer`) reaches the database as an offset
 * it cannot represent, and the caller gets a 500 instead of a 400 on the field.
 */
export const PAGE_MAX = 1_000_000;
/** A page number: from 1 to PAGE_MAX. */
export const pageNumber = { type: 'integer', minimum: 1, maximum: PAGE_MAX } as const;

/** §7 paging of a list: page from 1, at most 100 a page. */
export const paging = { page: pageNumber, page_size: { type: 'integer', minimum: 1, maximum: 100 } } as const;

/** The page asked for, its size (`defaultSize`, the deployment's tablePageSize, when not given) and the rows before it. */
export function pageOf(query: { page?: number; page_size?: number }, defaultSize: number): { page: number; size: number; offset: number } {
  const page = query.page ?? 1;
  const size = query.page_size ?? defaultSize;
  return { page, size, offset: (page - 1) * size };
}

/** Route config for routes that need a signed-in caller: the session is checked before the schema (services plugin). */
export const SIGNED_IN = { auth: 'session' } as const;

export function body(properties: Record<string, unknown>, required: string[]) {
  return { type: 'object', properties, required, additionalProperties: false } as const;
}

export const userDto = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    login_id: { type: ['string', 'null'] },
    phonenumber: { type: 'string' },
    name: { type: 'string' },
    card_no: { type: 'string' },
    real_name: { type: 'string' },
    icon_color: { type: 'string' },
    allowEditProfile: { type: 'boolean' },
    created_at: { type: 'integer' },
  },
} as const;

export function envelope(data: unknown) {
  return { 200: { type: 'object', properties: { data } } };
}
