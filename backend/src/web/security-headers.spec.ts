import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { useTestApp, useTestDatabase } from '../testing/test-context.js';
import { startTestApp } from '../testing/test-app.js';
import { signedInPerson } from '../testing/accounts.js';
import { uploadPhotos } from '../testing/images.js';

const frontendDir = resolve(import.meta.dirname, '../../../frontend/dist');

/** The policy as directive name → sources, the way a browser reads the header. */
function policyOf(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  if (typeof header !== 'string') throw new Error(`no single Content-Security-Policy header: ${JSON.stringify(header)}`);
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

function expectCommonHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['permissions-policy']).toEqual(expect.stringContaining('camera=()'));
  expect(response.headers['permissions-policy']).toEqual(expect.stringContaining('microphone=()'));
  expect(response.headers['permissions-policy']).toEqual(expect.stringContaining('geolocation=()'));
  expect(policyOf(response).get('frame-ancestors')).toEqual(["'none'"]);
}

describe('security headers', () => {
  const { t } = useTestApp({ FRONTEND_DIR: frontendDir });

  it('gives API JSON a policy that allows nothing to load or run', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/categories' });
    expect(response.statusCode).toBe(200);
    expectCommonHeaders(response);
    expect(policyOf(response).get('default-src')).toEqual(["'none'"]);
    expect(policyOf(response).has('script-src')).toBe(false);
  });

  it('sends the whole set on API responses, successes and errors alike', async () => {
    for (const url of ['/api/categories', '/api/categories/99']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'DENY',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
        'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
      });
    }
  });

  it.each(['/', '/contact', '/no-such-page'])('gives the page %s a policy its own scripts satisfy, without unsafe-inline', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expectCommonHeaders(response);
    const policy = policyOf(response);
    const scriptSources = policy.get('script-src') ?? [];
    expect(scriptSources).toContain("'self'");
    expect([...policy.values()].flat()).not.toContain("'unsafe-inline'");
    expect(policy.get('object-src')).toEqual(["'none'"]);
    // Every inline script of the page must be allowed by its hash, or the browser blocks it.
    const inlineScripts = [...response.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const source of inlineScripts) {
      expect(scriptSources).toContain(`'sha256-${createHash('sha256').update(source).digest('base64')}'`);
    }
  });

  it('puts the same headers on scripts and other files', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const script = /<script[^>]*\bsrc="([^"]+)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    for (const url of [script as string, '/robots.txt']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expectCommonHeaders(response);
      expect(policyOf(response).get('default-src')).toEqual(["'none'"]);
    }
  });

  it("lets other sites' pages (webmail showing an alert e-mail) load listing photos, and nothing else", async () => {
    const { browser } = await signedInPerson(t);
    const [id] = (await uploadPhotos(browser, 1)) as [string];
    const photo = await t.app.inject({ method: 'GET', url: `/media/images/${id}/320.webp` });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expectCommonHeaders(photo);
    for (const url of [`/media/images/${id}/original`, '/api/categories', '/robots.txt', `/api/images/${id}/320.webp`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect([url, response.headers['cross-origin-resource-policy']]).toEqual([url, 'same-origin']);
    }
  });

  it('sends no HSTS over plain http', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/categories', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('HSTS', () => {
  const db = useTestDatabase();

  it('is sent when the public address is https', async () => {
    const t = await startTestApp(db, { PUBLIC_URL: 'https://fieldmarket.example' });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/categories' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await t.close();
    }
  });

  it('is sent when a trusted proxy says the request came over https, and not otherwise', async () => {
    const t = await startTestApp(db, { TRUST_PROXY: '1' });
    try {
      const overHttps = await t.app.inject({ method: 'GET', url: '/api/categories', headers: { 'x-forwarded-proto': 'https' } });
      expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000');
      const overHttp = await t.app.inject({ method: 'GET', url: '/api/categories', headers: { 'x-forwarded-proto': 'http' } });
      expect(overHttp.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
