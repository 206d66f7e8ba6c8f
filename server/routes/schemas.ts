/** JSON-schema fragments shared by route declarations. */
export const phone = { type: 'string', maxLength: 32 } as const;
export const code = { type: 'string', maxLength: 16 } as const;
export const password = { type: 'string', maxLength: 128 } as const;
export const name = { type: 'string', maxLength: 64 } as const;

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
