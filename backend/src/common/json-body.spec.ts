import { describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { useTestApp } from '../testing/test-context.js';

const valid = { name: 'Jane Farmer', email: 'jane@example.co.uk', subject: 'Hay', message: 'Is the hay still available?' };

/** An object of `count` short keys (100,000 fit in 900 KB, under the 1 MB body limit): the shape that used to hold the process for seconds. */
const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [i.toString(36), 1]));

describe('request bodies', () => {
  const { db, t } = useTestApp();

  const post = (payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url: '/api/contact', headers: { 'content-type': contentType }, payload });

  it.each([
    ['an object of 100,000 keys', JSON.stringify(manyKeys(100_000)), 413, 'An object in the request body has more than 1000 keys.'],
    [
      'a nested object of 1,001 keys',
      JSON.stringify({ ...valid, extra: { inner: manyKeys(1_001) } }),
      413,
      'An object in the request body has more than 1000 keys (at "extra.inner").',
    ],
    [
      'a list of 5,001 items',
      JSON.stringify({ ...valid, tags: Array.from({ length: 5_001 }, () => 'x') }),
      413,
      'A list in the request body has more than 5000 items (at "tags").',
    ],
    [
      'more than 10,000 values in all',
      JSON.stringify({ ...valid, a: Array(4_000).fill(1), b: Array(4_000).fill(1), c: Array(4_000).fill(1) }),
      413,
      'Request body has more than 10000 values in total.',
    ],
    [
      'nesting 5,000 levels deep',
      `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
      400,
      'Request body is nested too deeply (more than 20 levels).',
    ],
    ['a __proto__ key', `{"__proto__": {"admin": true}, "name": "Jane"}`, 400, 'The key __proto__ is not allowed.'],
    [
      'a constructor.prototype key',
      `{"constructor": {"prototype": {"admin": true}}}`,
      400,
      'The key constructor.prototype is not allowed.',
    ],
    ['malformed JSON', '{"name": ', 400, 'Request body is not valid JSON.'],
    ['an empty JSON body', '', 400, 'Request body is empty; send a JSON object.'],
    ['a list for a body', JSON.stringify([valid]), 400, 'Request body must be a JSON object of named fields.'],
    ['a string for a body', JSON.stringify('Is the hay still available?'), 400, 'Request body must be a JSON object of named fields.'],
    ['null for a body', 'null', 400, 'Request body must be a JSON object of named fields.'],
  ])('refuses %s with a message naming the limit, and stores nothing', async (_label, payload, status, error) => {
    const response = await post(payload);
    expect([response.statusCode, response.json()]).toEqual([status, { success: false, error }]);
    expect(await db.query('select id from contact_message')).toHaveLength(0);
  });

  it.each([
    ['name', { ...valid, name: 'Jane\u0000Farmer' }],
    ['extra.notes.1', { ...valid, extra: { notes: ['fine', 'nul \u0000 here'] } }],
  ])('refuses a NUL character with 400 naming the field %s', async (field, payload) => {
    const response = await post(JSON.stringify(payload));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      error: 'Text must not contain NUL characters',
      fields: { [field]: 'Text must not contain NUL characters' },
    });
    expect(await db.query('select id from contact_message')).toHaveLength(0);
  });

  it.each([
    ['a form post', 'application/x-www-form-urlencoded', new URLSearchParams(valid).toString()],
    ['a multipart post', 'multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nJane\r\n--x--\r\n`],
    ['a text body', 'text/plain', JSON.stringify(valid)],
  ])('answers %s with 415 and stores nothing', async (_label, contentType, payload) => {
    const response = await post(payload, contentType);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ success: false, error: 'Unsupported content type; send JSON with Content-Type: application/json.' });
    expect(await db.query('select id from contact_message')).toHaveLength(0);
  });

  it('answers a gzip-compressed body with 415 and stores nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify(valid)),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ success: false, error: 'Compressed request bodies are not accepted; send JSON as it is.' });
    expect(await db.query('select id from contact_message')).toHaveLength(0);
  });

  it('still accepts a real form, with the charset parameter browsers add', async () => {
    const response = await post(JSON.stringify(valid), 'application/json; charset=utf-8');
    expect(response.statusCode).toBe(201);
    await db.query('delete from contact_message');
  });

  it('answers health probes while a 100,000-key body arrives and is refused', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const send = (method: string, path: string, body?: Buffer, hold = false) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
      });
      const answered = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        req.on('error', reject);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        });
      });
      if (body && hold) req.write(body.subarray(0, body.length - 1));
      else req.end(body);
      return { answered, finish: () => req.end(body?.subarray(body.length - 1)) };
    };

    const hostileBody = Buffer.from(JSON.stringify(manyKeys(100_000)));
    const hostile = send('POST', '/api/contact', hostileBody, true);
    const probeWhileArriving = await send('GET', '/api/health').answered;
    hostile.finish();
    const probeAfter = send('GET', '/api/health');
    const refused = await hostile.answered;
    expect(probeWhileArriving.status).toBe(200);
    expect(refused).toEqual({ status: 413, body: { success: false, error: 'An object in the request body has more than 1000 keys.' } });
    expect((await probeAfter.answered).status).toBe(200);
  });
});
