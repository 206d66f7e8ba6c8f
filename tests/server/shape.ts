/**
 * The shape of a JSON answer: every field with its JSON type ('string', 'number', 'boolean',
 * 'null'), objects as objects, arrays by their first item. Tests pin a route's whole answer
 * with it, so a response schema that drops a field or changes its type fails the test.
 */
export type Shape = string | Shape[] | { [key: string]: Shape };

export function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shapeOf(v)]));
  return typeof value;
}
