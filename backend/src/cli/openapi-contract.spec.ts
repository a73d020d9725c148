import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { Browser, signedInPerson } from '../testing/accounts.js';
import { useTestApp } from '../testing/test-context.js';
import { PLACE_ID_PATTERN } from '../contracts/postcodes.js';

interface Operation {
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: Record<string, unknown> }>;
  requestBody?: unknown;
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
interface Document {
  servers: Array<{ url: string }>;
  info: { license?: { name: string } };
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>>; schemas: Record<string, { properties: Record<string, unknown> }> };
}

/** The committed contract (contract:check keeps it equal to what the code generates). */
const contract = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as Document;
const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([verb, operation]) => ({ key: `${verb.toUpperCase()} ${path}`, path, verb: verb.toUpperCase(), operation })),
);
const op = (key: string) => operations.find((entry) => entry.key === key)!.operation;
const needsSession = (operation: Operation) => operation.security?.some((requirement) => 'session' in requirement) ?? false;
const statuses = (operation: Operation) => Object.keys(operation.responses);

describe('the API contract', () => {
  it('declares the session cookie and the operator token, and a relative server', () => {
    expect(contract.components.securitySchemes['session']).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'fm_session' });
    expect(contract.components.securitySchemes['operator']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(contract.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(contract.info.license?.name).toBe('Proprietary');
  });

  it('says who may call representative operations, as their guards decide', () => {
    expect(op('PUT /api/profile').security).toEqual([{ session: [] }]);
    expect(statuses(op('PUT /api/profile'))).toEqual(expect.arrayContaining(['200', '400', '401', '403', '413', '415', '429']));
    expect(statuses(op('POST /api/listings'))).toEqual(expect.arrayContaining(['401', '403'])); // @VerifiedEmail
    expect(statuses(op('GET /api/staff/inbox'))).toEqual(expect.arrayContaining(['401', '403'])); // @Staff
    expect(op('GET /api/health/details').security).toEqual([{ operator: [] }]);
    expect(statuses(op('GET /api/health/details'))).toEqual(expect.arrayContaining(['401', '404']));
    expect(op('GET /api/listings').security).toBeUndefined(); // the document's default: a session is optional
    expect(contract.security).toEqual([{}, { session: [] }]);
    expect(op('GET /api/listings').responses['429']?.headers).toHaveProperty('Retry-After');
    expect(statuses(op('DELETE /api/listings/saved'))).toContain('404'); // unsaving a listing that does not exist
  });

  it('states the rules the server enforces in the schemas', () => {
    const search = op('GET /api/listings').parameters ?? [];
    expect(search.find((p) => p.name === 'limit')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(search.find((p) => p.name === 'radius')?.schema).toMatchObject({ type: 'integer', minimum: 1 });
    const listing = contract.components.schemas['ListingRequest']!.properties;
    expect(listing['images']).toMatchObject({ minItems: 1, items: { format: 'uuid' } });
    // A place id from the list, or a UK postcode or outcode (looked up by the postcode geocoder).
    expect(listing['place_id']).toMatchObject({ pattern: PLACE_ID_PATTERN });
    expect(listing['title']).toMatchObject({ minLength: 1, pattern: expect.stringContaining('\\u0000') });
    const places = op('GET /api/places').parameters ?? [];
    expect(places[0]).toMatchObject({ name: 'q', required: true, schema: { minLength: 1, maxLength: 60 } });
  });

  it('gives every operation a summary, a 2xx and a 4xx answer, but where redocly.yaml says why not', () => {
    const redirects = ['GET /api/auth/google', 'GET /api/auth/google/callback'];
    const probes = ['GET /api/health', 'OPTIONS /api/health', 'GET /api/health/live', 'GET /api/health/ready'];
    for (const { key, operation } of operations) {
      expect([key, (operation.summary ?? '').length > 0]).toEqual([key, true]);
      if (!redirects.includes(key)) expect([key, statuses(operation).some((s) => s.startsWith('2'))]).toEqual([key, true]);
      if (!probes.includes(key)) expect([key, statuses(operation).some((s) => s.startsWith('4'))]).toEqual([key, true]);
    }
  });
});

/**
 * The property a client generator relies on: what the server answers is in the document. Every
 * operation is called with no body and unknown ids, as a visitor, as a signed-in person whose
 * address is unconfirmed, and with the cookie but not X-Requested-With.
 */
describe('the running API answers only what its contract lists', () => {
  let person: Browser;

  // Every documented operation is served, the diagnostic routes included.
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000', DIAGNOSTIC_ROUTES: 'true' });
  beforeAll(async () => {
    const signedIn = await signedInPerson(t);
    await db.query('update app_user set email_verified_at = null where id = $1', [signedIn.id]);
    person = signedIn.browser;
  });

  const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
  const urlOf = (path: string) => path.replace(/\{[^}]+\}/g, UNKNOWN_ID);
  // Ending the session last keeps it for the other calls.
  const endsSession = (key: string) => /signout|sessions\/others|^DELETE \/api\/profile$/.test(key);
  const ordered = [...operations.filter((o) => !endsSession(o.key)), ...operations.filter((o) => endsSession(o.key))];

  async function call(browser: Browser, verb: string, path: string, headers: Record<string, string> = {}) {
    return browser.send(verb as 'GET', urlOf(path), undefined, headers);
  }

  it('answers a visitor with a documented status, and 401 wherever the contract asks for a session', async () => {
    const undocumented: string[] = [];
    for (const { key, verb, path, operation } of ordered) {
      const response = await call(new Browser(t), verb, path);
      if (needsSession(operation) && response.statusCode !== 401) undocumented.push(`${key}: ${response.statusCode}, not 401`);
      if (!statuses(operation).includes(String(response.statusCode))) undocumented.push(`${key}: ${response.statusCode} ${response.body}`);
    }
    expect(undocumented).toEqual([]);
  });

  it('answers a signed-in person (unconfirmed address, not staff) with a documented status', async () => {
    const undocumented: string[] = [];
    for (const { key, verb, path, operation } of ordered) {
      const response = await call(person, verb, path);
      if (!statuses(operation).includes(String(response.statusCode))) undocumented.push(`${key}: ${response.statusCode} ${response.body}`);
    }
    expect(undocumented).toEqual([]);
  });

  it('documents the 403 of a state-changing call that sends the cookie without X-Requested-With', async () => {
    const { browser } = await signedInPerson(t);
    const undocumented: string[] = [];
    for (const { key, verb, path, operation } of ordered.filter((o) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(o.verb))) {
      const response = await call(browser, verb, path, { 'x-requested-with': '' });
      if (response.statusCode !== 403 || !statuses(operation).includes('403')) undocumented.push(`${key}: ${response.statusCode}`);
    }
    expect(undocumented).toEqual([]);
  });
});
