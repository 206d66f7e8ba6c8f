import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules in .oxlintrc.json (npm run lint, part of npm test) fire: probe files that
 * break each one are linted in place (the rules match by folder) and removed again.
 */
const root = path.resolve(import.meta.dirname, '..', '..');
const oxlint = path.join(root, 'node_modules', '.bin', 'oxlint');

function lint(files: Record<string, string>): string {
  const tag = `zz-layer-probe-${process.pid}`;
  const written = Object.entries(files).map(([dir, code]) => {
    const file = path.join(root, dir, `${tag}.ts`);
    fs.writeFileSync(file, code);
    return file;
  });
  try {
    const r = spawnSync(oxlint, ['--format', 'unix', ...written], { cwd: root, encoding: 'utf8' });
    return r.stdout;
  } finally {
    for (const f of written) fs.rmSync(f, { force: true });
  }
}

describe('the layers (oxlint no-restricted-imports)', () => {
  it('core imports nothing outside core, and no Node built-in outside its tests', () => {
    const out = lint({ core: "import a from '../server/app.ts';\nimport b from 'node:fs';\nimport c from 'react';\nimport d from './errors.ts';\nexport { a, b, c, d };\n" });
    expect(out).toContain("'../server/app.ts' import is restricted");
    expect(out).toContain("'node:fs' import is restricted");
    expect(out).toContain("'react' import is restricted");
    expect(out).not.toContain("'./errors.ts'");
  });

  it('a feature never imports another feature', () => {
    const out = lint({ 'src/features/asset': "import a from '../verify/check-details.ts';\nimport b from '@/features/verify/verify-page.tsx';\nimport c from '../../../core/errors.ts';\nimport d from '@/components/page-loader.tsx';\nexport { a, b, c, d };\n" });
    expect(out).toContain("'../verify/check-details.ts' import is restricted");
    expect(out).toContain("'@/features/verify/verify-page.tsx' import is restricted");
    expect(out).not.toContain('core/errors.ts');
    expect(out).not.toContain('page-loader');
  });

  it('the server never imports the browser app; workers never import React', () => {
    const out = lint({ server: "import a from '../src/main.tsx';\nexport { a };\n", workers: "import a from 'react';\nimport b from '@mantine/core';\nimport c from '../core/errors.ts';\nexport { a, b, c };\n" });
    expect(out).toContain("'../src/main.tsx' import is restricted");
    expect(out).toContain("'react' import is restricted");
    expect(out).toContain("'@mantine/core' import is restricted");
    expect(out).not.toContain('core/errors.ts');
  });

  it('the tree as it is passes with no warning', () => {
    const r = spawnSync(oxlint, ['--deny-warnings', '.'], { cwd: root, encoding: 'utf8' });
    expect(r.stdout).toMatch(/Found 0 warnings and 0 errors/);
    expect(r.status).toBe(0);
  });
});
