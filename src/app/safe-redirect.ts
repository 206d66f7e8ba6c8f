/**
 * The `from` parameter names where a visitor was sent to login from. Only paths of
 * this site are followed (never `//host` or `https://…`), and never back to the
 * account screens themselves.
 */
export function safeReturnPath(from: string | null | undefined): string | null {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return null;
  if (/^\/(user|signup|reset-pass)(\/|\?|$)/.test(from)) return null;
  return from;
}

export function loginPathFrom(currentPath: string): string {
  return `/user/login?from=${encodeURIComponent(currentPath)}`;
}
