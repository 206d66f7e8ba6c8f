/**
 * JSON.parse that keeps integers beyond Number.MAX_SAFE_INTEGER exact (§7
 * apiContainBigint). Such integers come back as their decimal text (a string), which
 * renders as-is, compares exactly and survives JSON.stringify when sent back; every
 * other value is what JSON.parse gives. The reviver reads each number's source text
 * (JSON.parse source text access: Chrome 114, Firefox 135, Safari 18.4, Node 21): the
 * value it is handed was already rounded, its source was not.
 */
type ReviverContext = { source?: string };

const INTEGER = /^-?\d+$/;

export function parseJsonExact(text: string): unknown {
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: ReviverContext) {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && INTEGER.test(context.source)) return context.source;
    return value;
  } as (this: unknown, key: string, value: unknown) => unknown);
}
