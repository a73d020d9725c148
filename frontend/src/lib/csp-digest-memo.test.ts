import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { withCspDigestMemo } from '../../scripts/csp-digest-memo.mjs';

// A build script in plain JavaScript: its types, as it is used.
const transform = withCspDigestMemo as (code: string, id: string) => string | null;

describe('the server build keeps the CSP digests Astro computes per request (scripts/csp-digest-memo.mjs)', () => {
  it("finds Astro's digest function in the installed Astro, so an upgrade that moves it fails here and not unseen", () => {
    const astro = dirname(createRequire(import.meta.url).resolve('astro/package.json'));
    const file = join(astro, 'dist', 'core', 'encryption.js');
    const patched = transform(readFileSync(file, 'utf8'), file);
    expect(patched).toContain('function generateCspDigest(data, algorithm) {\n  let digests');
    expect(patched).toContain('async function computeCspDigest(data, algorithm) {');
  });

  it('leaves every other module alone', () => {
    expect(transform('export const x = 1;', '/app/node_modules/astro/dist/core/render-context.js')).toBeNull();
  });
});
