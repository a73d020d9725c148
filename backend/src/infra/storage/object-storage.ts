import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile, access, constants } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { AppConfig } from '../../config/env.js';

/** Where images and other files live; keys are relative paths like "listings/abc/1.webp". */
export interface ObjectStorage {
  readonly kind: 'disk' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Every stored key (backups); nothing when the store is empty or not made yet. */
  list(): AsyncIterable<string>;
  /** Resolves with a short description when the store is usable; rejects otherwise. */
  check(): Promise<string>;
}

export class DiskStorage implements ObjectStorage {
  readonly kind = 'disk';
  constructor(private readonly root: string) {}

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file);
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<string> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      if (entry.isFile()) yield relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/');
    }
  }

  async check(): Promise<string> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
    return `local disk at ${this.root}`;
  }

  /** Refuses keys that would escape the root folder. */
  private pathOf(key: string): string {
    const file = resolve(this.root, key);
    if (!file.startsWith(this.root + sep)) throw new Error(`Invalid storage key: ${key}`);
    return file;
  }
}

/** The S3 SDK is loaded only when S3_BUCKET is set: loading it adds tens of milliseconds to every start. */
export async function createObjectStorage(storage: AppConfig['storage']): Promise<ObjectStorage> {
  if (!storage.s3) return new DiskStorage(storage.uploadsDir);
  const { S3Storage } = await import('./s3-storage.js');
  return new S3Storage(storage.s3);
}
