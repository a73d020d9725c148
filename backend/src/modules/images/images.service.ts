import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, Inject, Injectable, PayloadTooLargeException } from '@nestjs/common';
import { FieldValidationException } from '../../common/errors.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '../../contracts/images.js';
import { IMAGE_PROCESSOR } from '../../infra/images/image-processing.module.js';
import type { ImageProcessor, ProbedImage } from '../../infra/images/image-processor.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter, waitText } from '../../infra/rate-limit/rate-limiter.js';
import { OBJECT_STORAGE } from '../../infra/storage/storage.module.js';
import type { ObjectStorage } from '../../infra/storage/object-storage.js';
import type { ImageView, UploadedImage, UploadResponse } from './dto/image.response.js';
import { Image, originalKey, variantKey, variantUrl } from './image.entity.js';

/** The variants made of every image: these widths (never wider than the original) in both formats. */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;
export const VARIANT_FORMATS = ['webp', 'avif'] as const;
/** The width of the variant a listing card shows (`ImageView.url`). */
const DISPLAY_WIDTH = 640;
const CONTENT_TYPES = { webp: 'image/webp', avif: 'image/avif' } as const;

/** What an image's view is made of (view). */
type ImageFields = Pick<Image, 'id' | 'status' | 'width' | 'height' | 'variants'>;

/**
 * Photos: uploads (checked by content, stored privately, processed by a job), and the port the
 * listings module uses to put them on a listing, show them and delete them. Files of deleted rows
 * are removed by the `image.files-orphaned` subscriber, published in the deleting transaction, so a
 * rolled-back transaction never loses a file.
 */
@Injectable()
export class ImagesService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly rateLimiter: RateLimiter,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(IMAGE_PROCESSOR) private readonly processor: ImageProcessor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Checks every file by its content (all must pass, or nothing is stored), counts them against
   * the owner's hourly allowance, stores the originals privately, then records the rows and
   * `image.uploaded` in one transaction. An original stored just before a failed commit is left
   * behind without a row (rare; it is never served).
   */
  async upload(ownerId: string, files: Buffer[]): Promise<UploadResponse> {
    if (files.length === 0) throw new BadRequestException(IMAGE_MESSAGES.noFiles);
    const probed: (ProbedImage & { bytes: Buffer })[] = [];
    for (const bytes of files) {
      const result = await this.processor.probe(bytes);
      if (!result.ok && result.reason === 'too-many-pixels') throw new PayloadTooLargeException(IMAGE_MESSAGES.tooManyPixels);
      if (!result.ok) throw new BadRequestException(IMAGE_MESSAGES.wrongType);
      probed.push({ bytes, ...result.image });
    }
    for (let i = 0; i < files.length; i++) {
      await this.rateLimiter.consume(
        { key: `image-upload:user:${ownerId}`, limit: this.config.imageUploadsPerHour, windowSeconds: 3600 },
        (wait) => IMAGE_MESSAGES.rateLimited(waitText(wait)),
      );
    }

    const images = probed.map(({ width, height }) => {
      const image = new Image();
      Object.assign(image, { ownerId, width, height });
      image.originalKey = originalKey(image.id);
      return image;
    });
    await Promise.all(images.map((image, i) => this.storage.put(image.originalKey, probed[i]!.bytes, `image/${probed[i]!.format}`)));
    await this.em.transactional(async (tx) => {
      for (const image of images) {
        tx.persist(image);
        this.events.publish(tx, 'image.uploaded', { imageId: image.id });
      }
    });
    return { images: images.map((image) => this.uploadedView(image)), urls: [] };
  }

  /**
   * Puts the owner's images on a listing in the given order (the first is the main photo), in the
   * caller's transaction. Refuses ids that are not the owner's, failed, on another listing, or
   * repeated; images the listing had that are not in the list are deleted.
   */
  async attach(em: EntityManager, ownerId: string, listingId: string, imageIds: string[]): Promise<void> {
    if (imageIds.length > IMAGE_LIMITS.maxFiles) throw new FieldValidationException({ images: IMAGE_MESSAGES.tooMany });
    if (new Set(imageIds).size !== imageIds.length) throw new FieldValidationException({ images: IMAGE_MESSAGES.duplicate });
    const wanted = imageIds.length > 0 ? await em.find(Image, { id: { $in: imageIds }, ownerId }) : [];
    const byId = new Map(wanted.map((image) => [image.id, image]));
    const usable = (image: Image | undefined): image is Image =>
      image !== undefined && image.status !== 'failed' && (image.listingId === null || image.listingId === listingId);
    imageIds.forEach((id, position) => {
      const image = byId.get(id);
      if (!usable(image)) throw new FieldValidationException({ images: IMAGE_MESSAGES.notYours });
      image.listingId = listingId;
      image.position = position;
    });
    const dropped = await em.find(Image, { listingId, id: { $nin: imageIds.length > 0 ? imageIds : [] } });
    this.remove(em, dropped);
    await em.flush();
  }

  /** The images of each listing, in position order, with one query. Listings without images are absent. */
  async withhold(em: EntityManager, listingIds: string[], withheld: boolean): Promise<void> {
    if (listingIds.length === 0) return;
    await em.nativeUpdate(Image, { listingId: { $in: listingIds } }, { withheldAt: withheld ? new Date() : null });
  }

  async imagesOf(listingIds: string[]): Promise<Map<string, ImageView[]>> {
    if (listingIds.length === 0) return new Map();
    const rows = await this.em
      .getConnection()
      .execute<Array<{ id: string; images: ImageFields[] }>>(
        `select x.id, ${this.column('x.id')} as images from unnest(array[?]::uuid[]) as x(id)`,
        [listingIds],
      );
    return new Map(rows.filter((row) => row.images.length > 0).map((row) => [row.id, this.fromColumn(row.images)]));
  }

  /** Listings' port (ListingImages.column): the images of a listing, in order, as one JSON array. */
  column(listingId: string): string {
    return `(select coalesce(json_agg(json_build_object('id', i.id, 'status', i.status, 'width', i.width, 'height', i.height,
      'variants', i.variants) order by i.position), '[]'::json) from image i where i.listing_id = ${listingId})`;
  }

  fromColumn(value: unknown): ImageView[] {
    return (value as ImageFields[]).map((image) => this.view(image));
  }

  /** Deletes a listing's images: in `em`'s transaction when given (files go only once it commits), else in one of its own. */
  async deleteFor(listingId: string, em?: EntityManager): Promise<void> {
    const run = async (tx: EntityManager) => {
      this.remove(tx, await tx.find(Image, { listingId }));
      await tx.flush();
    };
    if (em) await run(em);
    else await this.em.fork().transactional(run);
  }

  /** Every image of a (deleted) user. */
  async deleteOwnedBy(ownerId: string): Promise<void> {
    await this.em.fork().transactional(async (tx) => this.remove(tx, await tx.find(Image, { ownerId })));
  }

  /** Images never attached to a listing within `olderThanMs` of their upload; returns how many were deleted. */
  async purgeUnattached(olderThanMs: number, batch = 500): Promise<number> {
    const before = new Date(Date.now() - olderThanMs);
    return this.em.fork().transactional(async (tx) => {
      const stale = await tx.find(Image, { listingId: null, createdAt: { $lt: before } }, { limit: batch, orderBy: { createdAt: 'asc' } });
      this.remove(tx, stale);
      return stale.length;
    });
  }

  /** Deletes the rows and, in the same transaction, asks for their files to be removed. */
  private remove(tx: EntityManager, images: Image[]): void {
    if (images.length === 0) return;
    const keys = images.flatMap((image) => [image.originalKey, ...filesOf(image)]);
    for (const image of images) tx.remove(image);
    this.events.publish(tx, 'image.files-orphaned', { keys });
  }

  private uploadedView(image: Image): UploadedImage {
    return { ...this.view(image), position: image.position };
  }

  view(image: ImageFields): ImageView {
    const ready = image.status === 'ready';
    const variants = ready
      ? image.variants.map((v) => ({
          url: variantUrl(image.id, v.width, v.format),
          width: v.width,
          height: v.height,
          type: CONTENT_TYPES[v.format],
        }))
      : [];
    const display = ready
      ? image.variants.filter((v) => v.format === 'webp' && v.width <= DISPLAY_WIDTH).sort((a, b) => b.width - a.width)[0]
      : undefined;
    return {
      id: image.id,
      status: image.status,
      variants,
      url: display ? variantUrl(image.id, display.width, display.format) : null,
      width: ready ? image.width : null,
      height: ready ? image.height : null,
    };
  }
}

/**
 * Every variant file an image may have: the recorded ones, and for an image still processing the
 * ones a running job could write (a width narrower than the largest is the original's own width,
 * which is known).
 */
export function filesOf(image: Pick<Image, 'id' | 'width' | 'variants'>): string[] {
  const widths = new Set<number>([
    ...VARIANT_WIDTHS,
    Math.min(image.width, Math.max(...VARIANT_WIDTHS)),
    ...image.variants.map((v) => v.width),
  ]);
  return [...widths].flatMap((width) => VARIANT_FORMATS.map((format) => variantKey(image.id, width, format)));
}
