import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { DiskStorage, type ObjectStorage } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

// The same behaviour from both stores: local disk, and S3 spoken to a local S3 server (s3rver).
describe.each([
  [
    'local disk',
    async () => ({ storage: new DiskStorage(await mkdtemp(join(tmpdir(), 'fm-uploads-'))) as ObjectStorage, stop: async () => {} }),
  ],
  [
    'S3',
    async () => {
      const server = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: await mkdtemp(join(tmpdir(), 'fm-s3-')),
        configureBuckets: [{ name: 'images', configs: [] }],
      });
      const { port } = await server.run();
      const storage = new S3Storage({
        bucket: 'images',
        endpoint: `http://127.0.0.1:${port}`,
        region: 'eu-west-2',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      });
      return {
        storage: storage as ObjectStorage,
        stop: async () => {
          storage.close();
          await server.close();
        },
      };
    },
  ],
])('%s storage', (_name, create) => {
  let storage: ObjectStorage;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, stop } = await create());
  });
  afterAll(() => stop());

  it('reports itself healthy', async () => {
    await expect(storage.check()).resolves.toEqual(expect.any(String));
  });

  it('stores, returns and deletes a file byte for byte', async () => {
    const body = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await storage.put('listings/abc/1.webp', body, 'image/webp');
    expect((await readAll(await storage.get('listings/abc/1.webp'))).equals(body)).toBe(true);
    await storage.delete('listings/abc/1.webp');
    await expect(storage.get('listings/abc/1.webp').then(readAll)).rejects.toThrow();
  });

  it('lists every stored key, in folders too, and nothing once they are deleted (what a backup copies)', async () => {
    const list = async () => {
      const keys: string[] = [];
      for await (const key of storage.list()) keys.push(key);
      return keys.sort();
    };
    const keys = ['images/a1/original.jpg', 'images/a1/640.webp', 'images/b2/320.avif'];
    for (const key of keys) await storage.put(key, Buffer.from(key), 'application/octet-stream');
    expect(await list()).toEqual([...keys].sort());
    for (const key of keys) await storage.delete(key);
    expect(await list()).toEqual([]);
  });
});

describe('local disk storage', () => {
  it('refuses keys that would leave its folder', async () => {
    const storage: ObjectStorage = new DiskStorage(await mkdtemp(join(tmpdir(), 'fm-uploads-')));
    await expect(storage.put('../../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow('Invalid storage key');
  });
});
