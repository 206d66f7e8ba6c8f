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

/**
 * For a catch around reading a multipart body: our own errors and the multipart plugin's
 * limit errors (which carry a 4xx status) go on as they are; anything else busboy throws
 * means the body is not well-formed multipart (no boundary, truncated, garbage), which is
 * the client's fault: 400 on the field, never a 500.
 */
export function rethrowMultipart(error: unknown, field: string): never {
  if (error instanceof ApiError) throw error;
  const status = (error as { statusCode?: number } | null)?.statusCode;
  if (status !== undefined && status >= 400 && status < 500) throw error;
  fail('invalid_param', field);
}
