/**
 * Imported first by the packed CLI. pdf.js's Node build looks for DOMMatrix and Path2D when it
 * loads and, without the native @napi-rs/canvas (which a dependency-free package cannot ship;
 * scripts/build-cli.ts drops its require), warns on every run that rendering may be broken. The CLI never renders: it reads the proof
 * attachment. These empty classes satisfy the lookup; drawing with them would fail loudly.
 */
const g = globalThis as Record<string, unknown>;
for (const name of ['DOMMatrix', 'Path2D']) {
  g[name] ??= class {
    constructor() {
      throw new Error(`${name} is not available: the provena CLI does not render PDF pages`);
    }
  };
}
