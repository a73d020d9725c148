// Sends malformed requests to every operation of openapi.yaml and reports any answer the contract does
// not list, and any 5xx. A small stand-in for a property-based API tester, run by hand against a
// started product (too slow for the test command):
//   PORT=3415 API_RATE_LIMIT=1000000 ./fieldmarket start &
//   node bench/contract-fuzz.mjs http://127.0.0.1:3415
// Each operation gets: its documented body with each field in turn null, of the wrong type, too long or
// holding a control character; each query parameter wrong in the same ways; ids that are not ids; as a
// visitor and as a signed-in person (an account it creates). It never deletes the account it signs in with.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const base = process.argv[2] ?? 'http://127.0.0.1:3415';
const contract = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8'));
const schemas = contract.components.schemas;
const resolve = (schema) => (schema?.$ref ? schemas[schema.$ref.split('/').pop()] : schema);

/** A value the schema accepts, as far as a simple reading goes (examples, enums, formats, bounds). */
function sample(schema) {
  schema = resolve(schema) ?? {};
  if (schema.example !== undefined) return schema.example;
  if (schema.enum) return schema.enum[0];
  if (schema.type === 'array') return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items));
  if (schema.type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sample(property)]));
  }
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return true;
  if (schema.format === 'uuid') return crypto.randomUUID();
  if (schema.format === 'email') return `fuzz-${Date.now()}@example.com`;
  return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
}

/** Values no field should take without a 4xx: the server must refuse them cleanly, never fail. */
const WRONG = [null, 12345, -1, 1.5, true, [], {}, ['x'], 'x'.repeat(100_000), 'a\u0000b', '\u202e', '9'.repeat(40), ''];

// A query value as long as a URL can carry (Node refuses request heads over 16 KB, with no body to check).
const WRONG_IN_QUERY = WRONG.map((value) => (typeof value === 'string' && value.length > 4_000 ? value.slice(0, 4_000) : value));

const ID_LIKE = [
  '%E0%A4%A',
  '0',
  'not-an-id',
  '00000000-0000-4000-8000-000000000000',
  '%2500',
  'x'.repeat(300),
  '-1',
  '99999999999999999999',
];

let session = '';
const tally = { requests: 0, statuses: {}, undocumented: [], serverErrors: [] };

async function send(verb, path, operation, { body, query = {}, signedIn = false } = {}) {
  const url = new URL(
    path.replace(/\{[^}]+\}/g, () => ID_LIKE[tally.requests % ID_LIKE.length]),
    base,
  );
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  const headers = { 'x-requested-with': 'contract-fuzz', ...(signedIn && session ? { cookie: session } : {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: verb,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  tally.requests++;
  tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
  const line = `${verb} ${url.pathname}${url.search.slice(0, 80)} ${JSON.stringify(body)?.slice(0, 80) ?? ''} -> ${response.status} ${text.slice(0, 160)}`;
  if (response.status >= 500) tally.serverErrors.push(line);
  else if (!(String(response.status) in operation.responses)) tally.undocumented.push(`${response.status} ${verb} ${path}: ${line}`);
  return response;
}

async function signIn() {
  const email = `fuzz-${Date.now()}@example.com`;
  const password = 'contract-fuzz-password-1';
  const signUp = await fetch(new URL('/api/auth/signup', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'contract-fuzz' },
    body: JSON.stringify({ name: 'Contract Fuzz', email, password }),
  });
  const response = await fetch(new URL('/api/auth/signin', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'contract-fuzz' },
    body: JSON.stringify({ email, password }),
  });
  session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  if (!session)
    throw new Error(
      `sign-up ${signUp.status}, sign-in ${response.status}: ${await response.text()} (a fresh DATA_DIR resets the sign-up limit)`,
    );
}

// Calls that end or replace the session (refresh issues a new token) are made as a visitor only.
const ENDS_SESSION = /signout|refresh|sessions|^DELETE \/api\/profile$|two-factor\/cancel|password/;

await signIn();
for (const [path, item] of Object.entries(contract.paths)) {
  for (const [verb, operation] of Object.entries(item)) {
    const key = `${verb.toUpperCase()} ${path}`;
    const bodySchema = resolve(operation.requestBody?.content?.['application/json']?.schema);
    const queryParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
    for (const signedIn of ENDS_SESSION.test(key) ? [false] : [false, true]) {
      const valid = bodySchema ? sample(bodySchema) : undefined;
      await send(verb.toUpperCase(), path, operation, { body: valid, signedIn });
      for (const field of Object.keys(bodySchema?.properties ?? {})) {
        for (const wrong of WRONG) await send(verb.toUpperCase(), path, operation, { body: { ...valid, [field]: wrong }, signedIn });
      }
      if (bodySchema)
        for (const wrong of [[], 'text', 42, null]) await send(verb.toUpperCase(), path, operation, { body: wrong, signedIn });
      for (const parameter of queryParameters) {
        for (const wrong of WRONG_IN_QUERY)
          await send(verb.toUpperCase(), path, operation, { query: { [parameter.name]: wrong }, signedIn });
      }
    }
  }
}

console.log(`${tally.requests} requests; statuses ${JSON.stringify(tally.statuses)}`);
console.log(`${tally.serverErrors.length} answered 5xx; ${tally.undocumented.length} answered a status the contract does not list`);
for (const line of tally.serverErrors.slice(0, 20)) console.log(`  ${line}`);
// One example per status and operation.
const examples = new Map(tally.undocumented.map((line) => [line.split(':')[0], line]));
for (const line of examples.values()) console.log(`  ${line.slice(0, 300)}`);
process.exit(tally.serverErrors.length + tally.undocumented.length > 0 ? 1 : 0);
