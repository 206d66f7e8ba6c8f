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

// ---- response schemas: the 2xx answers fast-json-stringify serializes and the OpenAPI document describes ----
// Numbers are `number` (never rounded); no property is `required` (a missing one would throw
// at serialization); a schema lists every field the client reads, since unlisted ones are dropped.

export const str = { type: 'string' } as const;
export const num = { type: 'number' } as const;
export const bool = { type: 'boolean' } as const;
export const nullableStr = { type: ['string', 'null'] } as const;
export const nullableNum = { type: ['number', 'null'] } as const;
/** A free-form JSON object (kept whole). */
export const anyObject = { type: 'object', additionalProperties: true } as const;

/** An object with these properties (and only these, when serialized). */
export function obj(properties: Record<string, unknown>) {
  return { type: 'object', properties } as const;
}

/** The same, or null. */
export function nullableObj(properties: Record<string, unknown>) {
  return { type: ['object', 'null'], properties } as const;
}

export function arrayOf(items: unknown) {
  return { type: 'array', items } as const;
}

/** What a registered file (an asset, a vault file) says of its registration and proof. */
export const registrationFields = {
  size: num,
  registrant_user_id: num,
  registrant_name: str,
  credits: num,
  proof_status: num,
  is_generated: bool,
  block_height: nullableNum,
} as const;

/** A §7 page: items, total, page, page_size. */
export function pageSchema(item: unknown) {
  return obj({ items: arrayOf(item), total: num, page: num, page_size: num });
}

/** The §7 failure envelope: `{ message, field_name }` with a §8 catalogue key. */
export const errorEnvelope = {
  type: 'object',
  properties: { message: { type: 'string', description: 'A §8 catalogue key.' }, field_name: { type: 'string', description: 'The field at fault.' } },
} as const;

/** The response schemas of a JSON route: 200 `{ data }` and the 4xx failure envelope. */
export function ok(data: unknown) {
  return { 200: { type: 'object', properties: { data } }, '4xx': errorEnvelope };
}

/** `{ data: null }`: a route that answers only that it did it. */
export const okNull = ok({ type: 'null' });
