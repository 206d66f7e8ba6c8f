import { normalizeErrorKey, type ErrorKey } from '../../core/errors.ts';
import { parseJsonExact } from './exact-json.ts';

/** The language the app shows, as a request header (the i18n module keeps <html lang> in step with it). */
function appLanguage(): Record<string, string> {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  return lang ? { 'accept-language': lang } : {};
}

/**
 * The §7 HTTP client: credentials are sent, large integers are kept exact when the
 * deployment says the API contains them, array query parameters repeat the key,
 * 200 resolves with `data` (or the whole body), 400 and 500 reject with the body,
 * any other status rejects with "server exception".
 */

export type ApiBase = 'api' | 'verify' | 'score';
export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export type ApiClientSettings = { bases: Record<ApiBase, string>; containsBigint: boolean };

let settings: ApiClientSettings = { bases: { api: '/api', verify: '/verify-api', score: '/score-api' }, containsBigint: false };
let onSessionExpired: (() => void) | null = null;

/** Set once the deployment configuration is loaded. */
export function configureApiClient(next: ApiClientSettings): void {
  settings = next;
}

/** Called when an authenticated call answers token_invalid (the app clears the user and goes to login). */
export function setSessionExpiredHandler(handler: (() => void) | null): void {
  onSessionExpired = handler;
}

export type ApiErrorKind = 'client' | 'server' | 'exception' | 'network';

/** A rejected call. `key` is the §8 catalogue key when the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly kind: ApiErrorKind;
  /** The message exactly as the server sent it. */
  readonly rawMessage: string;
  readonly key: ErrorKey | null;
  readonly fieldName: string | undefined;
  readonly body: unknown;

  constructor(init: { status: number; kind: ApiErrorKind; rawMessage: string; fieldName?: string; body?: unknown }) {
    super(init.rawMessage);
    this.name = 'ApiError';
    this.status = init.status;
    this.kind = init.kind;
    this.rawMessage = init.rawMessage;
    this.key = normalizeErrorKey(init.rawMessage);
    this.fieldName = init.fieldName || undefined;
    this.body = init.body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export const SERVER_EXCEPTION = 'server exception';

/** Repeats the key for arrays (`a=1&a=2`); skips null and undefined. */
export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values as QueryValue[]) {
      if (item === null || item === undefined) continue;
      params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** §8: the message sits in data.data.message or data.message, with field_name beside it. */
function readErrorBody(body: unknown): { message: string; fieldName?: string } {
  if (body && typeof body === 'object') {
    const outer = body as Record<string, unknown>;
    const inner = outer.data && typeof outer.data === 'object' ? (outer.data as Record<string, unknown>) : null;
    const source = inner && typeof inner.message === 'string' ? inner : outer;
    const message = typeof source.message === 'string' ? source.message : '';
    const fieldName = typeof source.field_name === 'string' ? source.field_name : undefined;
    return { message, fieldName };
  }
  return { message: typeof body === 'string' ? body : '' };
}

export type RequestOptions = {
  query?: Query;
  body?: unknown;
  base?: ApiBase;
  signal?: AbortSignal;
  /** A call that may legitimately answer token_invalid (the start-up user probe, logout): no redirect. */
  isSessionProbe?: boolean;
};

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return settings.containsBigint ? parseJsonExact(text) : JSON.parse(text);
  } catch {
    return text;
  }
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const url = `${settings.bases[options.base ?? 'api']}${path}${buildQuery(options.query)}`;
  const hasBody = options.body !== undefined;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'include',
      // The app's language (its <html lang>), not the browser's list: certificates are written in the registrant's language.
      headers: { accept: 'application/json', ...appLanguage(), ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, kind: 'network', rawMessage: SERVER_EXCEPTION });
  }
  const body = await parseBody(response);
  if (response.status === 200) {
    if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body) return (body as { data: T }).data;
    return body as T;
  }
  if (isEnvelopeStatus(response.status)) {
    const { message, fieldName } = readErrorBody(body);
    const error = new ApiError({ status: response.status, kind: response.status === 500 ? 'server' : 'client', rawMessage: message, fieldName, body });
    if (error.key === 'token_invalid' && !options.isSessionProbe) onSessionExpired?.();
    throw error;
  }
  throw new ApiError({ status: response.status, kind: 'exception', rawMessage: SERVER_EXCEPTION, body });
}

/**
 * The statuses that carry the §7 failure envelope: 400 (a §8 key), 500, and 401 (the routes a
 * CI token may also call answer token_invalid with 401 when there is neither a session nor a
 * token: to the browser that is an expired session, as the 400 token_invalid is).
 */
export function isEnvelopeStatus(status: number): boolean {
  return status === 400 || status === 401 || status === 500;
}

/**
 * A call answered with an event stream (the chat assistant): on 200 the response body, read
 * by the caller as it arrives; any other answer rejects exactly as `request` does.
 */
export async function openEventStream(method: string, path: string, options: RequestOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const hasBody = options.body !== undefined;
  let response: Response;
  try {
    response = await fetch(`${settings.bases[options.base ?? 'api']}${path}`, {
      method,
      credentials: 'include',
      headers: { accept: 'text/event-stream', ...appLanguage(), ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, kind: 'network', rawMessage: SERVER_EXCEPTION });
  }
  if (response.status === 200 && response.body) return response.body;
  const body = await parseBody(response);
  if (isEnvelopeStatus(response.status)) {
    const { message, fieldName } = readErrorBody(body);
    const error = new ApiError({ status: response.status, kind: response.status === 500 ? 'server' : 'client', rawMessage: message, fieldName, body });
    if (error.key === 'token_invalid') onSessionExpired?.();
    throw error;
  }
  throw new ApiError({ status: response.status, kind: 'exception', rawMessage: SERVER_EXCEPTION, body });
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
