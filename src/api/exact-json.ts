/**
 * JSON.parse that keeps integers beyond Number.MAX_SAFE_INTEGER exact (§7
 * apiContainBigint). Such integers come back as their decimal text (a string), which
 * renders as-is, compares exactly and survives JSON.stringify when sent back; every
 * other value is what JSON.parse gives. A reviver cannot do this: it sees the number
 * after it has already been rounded.
 */
export function parseJsonExact(text: string): unknown {
  let pos = 0;

  function fail(what: string): never {
    throw new SyntaxError(`${what} at position ${pos} in JSON`);
  }

  function skipWhitespace(): void {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
  }

  function parseValue(): unknown {
    skipWhitespace();
    const c = text[pos];
    if (c === '{') return parseObject();
    if (c === '[') return parseArray();
    if (c === '"') return parseString();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return parseNumber();
    if (text.startsWith('true', pos)) return (pos += 4), true;
    if (text.startsWith('false', pos)) return (pos += 5), false;
    if (text.startsWith('null', pos)) return (pos += 4), null;
    return fail(c === undefined ? 'Unexpected end' : `Unexpected token ${c}`);
  }

  function parseObject(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    pos++; // {
    skipWhitespace();
    if (text[pos] === '}') return pos++, out;
    for (;;) {
      skipWhitespace();
      if (text[pos] !== '"') fail('Expected a property name');
      const key = parseString();
      skipWhitespace();
      if (text[pos] !== ':') fail("Expected ':'");
      pos++;
      const value = parseValue();
      // Same semantics as JSON.parse for "__proto__": an own property, not the prototype.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      skipWhitespace();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === '}') return pos++, out;
      fail("Expected ',' or '}'");
    }
  }

  function parseArray(): unknown[] {
    const out: unknown[] = [];
    pos++; // [
    skipWhitespace();
    if (text[pos] === ']') return pos++, out;
    for (;;) {
      out.push(parseValue());
      skipWhitespace();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === ']') return pos++, out;
      fail("Expected ',' or ']'");
    }
  }

  const STRING_RE = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  function parseString(): string {
    STRING_RE.lastIndex = pos;
    const match = STRING_RE.exec(text);
    if (!match) fail('Bad string');
    pos += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  function parseNumber(): number | string {
    NUMBER_RE.lastIndex = pos;
    const match = NUMBER_RE.exec(text);
    if (!match) fail('Bad number');
    pos += match[0].length;
    const literal = match[0];
    const value = Number(literal);
    const isInteger = match[1] === undefined && match[2] === undefined;
    if (isInteger && !Number.isSafeInteger(value)) return literal;
    return value;
  }

  const result = parseValue();
  skipWhitespace();
  if (pos < text.length) fail(`Unexpected token ${text[pos]}`);
  return result;
}
