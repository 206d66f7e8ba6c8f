import type { ErrorKey } from '../core/errors.ts';

/**
 * A client error: answered as 400 `{ message, field_name }` with a §8 catalogue key.
 * Thrown from services and routes; the error handler plugin turns it into the envelope.
 */
export class ApiError extends Error {
  readonly key: ErrorKey;
  readonly field: string | undefined;
  readonly status: number;
  constructor(key: ErrorKey, field?: string, status = 400) {
    super(key);
    this.key = key;
    this.field = field;
    this.status = status;
  }
}

export function fail(key: ErrorKey, field?: string): never {
  throw new ApiError(key, field);
}
