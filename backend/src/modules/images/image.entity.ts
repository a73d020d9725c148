import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import type { VariantFormat } from '../../infra/images/image-processor.js';

export type ImageStatus = 'processing' | 'ready' | 'failed';

/** One published copy of an image, stored at `variantKey(image.id, width, format)`. */
export interface ImageVariant {
  width: number;
  height: number;
  format: VariantFormat;
}

/**
 * A photo a user uploaded. The original is stored privately (`originals/<id>`) and never served;
 * the variants are public under /media/images/<id>/<width>.<format>.
 */
@Entity({ tableName: 'image' })
@Index({ properties: ['listingId', 'position'] })
@Index({ properties: ['ownerId', 'createdAt'] })
export class Image {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The user who uploaded it (no foreign key: user rows are anonymised, never deleted, and this module owns its table). */
  @Property({ type: 'uuid' })
  ownerId!: string;

  /** The listing it illustrates; null until attached. Listings live in another module: a plain uuid, no foreign key. */
  @Property({ type: 'uuid', fieldName: 'listing_id', nullable: true })
  listingId: string | null = null;

  /** Set while staff hide its listing (issue 23 §5): /media answers 404 for its variants at once. */
  @Property({ type: 'datetime', nullable: true })
  withheldAt: Date | null = null;

  /** Its place among the listing's images; 0 is the main photo. */
  @Property({ type: 'integer' })
  position: number = 0;

  @Enum({ items: ['processing', 'ready', 'failed'] })
  status: ImageStatus = 'processing';

  /** Upright size of the original, in pixels. */
  @Property({ type: 'integer' })
  width!: number;

  @Property({ type: 'integer' })
  height!: number;

  @Property({ type: 'json' })
  variants: ImageVariant[] = [];

  @Property({ type: 'string', length: 200 })
  originalKey!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

export const originalKey = (imageId: string): string => `originals/${imageId}`;
export const variantKey = (imageId: string, width: number, format: VariantFormat): string => `images/${imageId}/${width}.${format}`;
export const variantUrl = (imageId: string, width: number, format: VariantFormat): string => `/media/images/${imageId}/${width}.${format}`;
