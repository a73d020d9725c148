import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { OBJECT_STORAGE } from '../../infra/storage/storage.module.js';
import type { ObjectStorage } from '../../infra/storage/object-storage.js';
import { EntityManager } from '@mikro-orm/postgresql';
import { Image, variantKey } from './image.entity.js';
import { isUuid } from '../../common/uuid.js';

const VARIANT_FILE = /^([1-9][0-9]{0,4})\.(webp|avif)$/;
const CONTENT_TYPES = { webp: 'image/webp', avif: 'image/avif' } as const;

/**
 * Opens a published variant by its URL parts. Only names of the exact form `<uuid>/<width>.<webp|avif>`
 * map to a key, always under `images/`: nothing else in storage (originals) can be named.
 */
@Injectable()
export class MediaFiles {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(EntityManager) private readonly em: EntityManager,
  ) {}

  /**
   * The variant, unless its image is gone or withheld (its listing hidden by staff): then null, a 404,
   * except to the image's owner (`viewerId`), who still sees their own photos; `ownerOnly` says so.
   */
  async open(id: string, file: string, viewerId?: string): Promise<{ stream: Readable; contentType: string; ownerOnly: boolean } | null> {
    const match = VARIANT_FILE.exec(file);
    if (!isUuid(id) || !match) return null;
    const image = await this.em.fork().findOne(Image, { id }, { fields: ['withheldAt', 'ownerId'] });
    if (!image) return null;
    const ownerOnly = Boolean(image.withheldAt);
    if (ownerOnly && (!viewerId || viewerId !== image.ownerId)) return null;
    const format = match[2] as keyof typeof CONTENT_TYPES;
    try {
      const stream = await this.storage.get(variantKey(id, Number(match[1]), format));
      return { stream, contentType: CONTENT_TYPES[format], ownerOnly };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }
}

/** Disk (ENOENT) and S3 (NoSuchKey / 404) say "no such file" differently. */
function isMissing(error: unknown): boolean {
  const { code, name, $metadata } = (error ?? {}) as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  return code === 'ENOENT' || name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}
