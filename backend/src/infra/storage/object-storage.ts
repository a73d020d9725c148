import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile, access, constants } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { AppConfig } from '../../config/env.js';

/** Where images and other files live; keys are relative paths like "listings/abc/1.webp". */
export interface ObjectStorage {
  readonly kind: 'disk' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
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

export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly options: NonNullable<AppConfig['storage']['s3']>) {
    const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = options;
    this.client = new S3Client({
      region,
      endpoint,
      forcePathStyle,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      // Needed for S3-compatible stores that do not implement the newer checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<Readable> {
    const result = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
    return result.Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async check(): Promise<string> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
    return `S3 bucket ${this.options.bucket}`;
  }

  close(): void {
    this.client.destroy();
  }

  /** Nest calls this on the provider at shutdown: release the SDK's sockets. */
  onApplicationShutdown(): void {
    this.close();
  }
}

export function createObjectStorage(storage: AppConfig['storage']): ObjectStorage {
  return storage.s3 ? new S3Storage(storage.s3) : new DiskStorage(storage.uploadsDir);
}
