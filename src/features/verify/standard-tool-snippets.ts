/**
 * The audit-path check in Python 3 (RFC 9162 §2.1.3.2 with its bounds checks), shown on the
 * verification page; the same text as docs/proof-format.md step 6, which a test runs.
 */
export const AUDIT_PATH = `import hashlib, json
p = json.load(open('pkg.json')); h = lambda b: hashlib.sha256(b).digest()
def audit_path_ok(record, index, size, path, root):
    if index >= size: return False
    r = h(b'\\0' + record.encode())
    fn, sn = index, size - 1
    for x in map(bytes.fromhex, path):
        if sn == 0: return False
        if fn % 2 == 1 or fn == sn:
            r = h(b'\\1' + x + r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0: fn //= 2; sn //= 2
        else:
            r = h(b'\\1' + r + x)
        fn //= 2; sn //= 2
    return sn == 0 and r.hex() == root
header = p['block']['header']
print(audit_path_ok(p['record'], p['leaf_index'], header['tree_size'], p['inclusion'], header['root']))`;
