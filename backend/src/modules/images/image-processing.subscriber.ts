import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DomainEvent } from '../../events/domain-events.js';
import { IMAGE_PROCESSOR } from '../../infra/images/image-processing.module.js';
import { type ImageProcessor, UndecodableImageError } from '../../infra/images/image-processor.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { Realtime } from '../../infra/realtime/realtime.js';
import { OBJECT_STORAGE } from '../../infra/storage/storage.module.js';
import type { ObjectStorage } from '../../infra/storage/object-storage.js';
import { Image, variantKey } from './image.entity.js';
import { VARIANT_FORMATS, VARIANT_WIDTHS } from './images.service.js';

const CONTENT_TYPES = { webp: 'image/webp', avif: 'image/avif' } as const;

/**
 * Makes an uploaded image's variants on the `images` queue (its concurrency in jobs/queues.ts; the
 * sharp work of all its jobs shares a bounded number of threads, ImageProcessor). Idempotent: keys are derived from the image, so a retry overwrites, and the row
 * moves from processing to ready or failed once.
 */
@Injectable()
export class ImageProcessingSubscriber {
  private readonly logger = new Logger('Images');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(IMAGE_PROCESSOR) private readonly processor: ImageProcessor,
    @Inject(Realtime) private readonly realtime: Realtime,
  ) {}

  @OnDomainEvent('image.uploaded', { name: 'images.make-variants', queue: 'images' })
  async makeVariants(event: DomainEvent<'image.uploaded'>): Promise<void> {
    const image = await this.em.findOne(Image, { id: event.payload.imageId });
    if (!image || image.status !== 'processing') return; // deleted meanwhile, or done by an earlier run
    const original = await readAll(await this.storage.get(image.originalKey));
    let variants;
    try {
      variants = await this.processor.render(original, VARIANT_WIDTHS, VARIANT_FORMATS);
    } catch (error) {
      if (!(error instanceof UndecodableImageError)) throw error;
      this.logger.warn(`image ${image.id} cannot be decoded, marked failed: ${error.message}`);
      await this.finish(image, { status: 'failed' }, []);
      return;
    }
    const keys = variants.map((v) => variantKey(image.id, v.width, v.format));
    await Promise.all(variants.map((v, i) => this.storage.put(keys[i]!, v.data, CONTENT_TYPES[v.format])));
    await this.finish(image, { status: 'ready', variants: variants.map(({ width, height, format }) => ({ width, height, format })) }, keys);
  }

  /** Records the outcome only if the row is still there and processing; if it was deleted meanwhile, removes what was written. */
  private async finish(image: Image, outcome: Pick<Image, 'status'> & Partial<Pick<Image, 'variants'>>, written: string[]): Promise<void> {
    const updated = await this.em.nativeUpdate(Image, { id: image.id, status: 'processing' }, outcome);
    if (updated === 0) {
      if (!(await this.em.fork().findOne(Image, { id: image.id }))) await Promise.all(written.map((key) => this.storage.delete(key)));
      return;
    }
    const status = outcome.status as 'ready' | 'failed';
    this.realtime.toUser(image.ownerId, 'IMAGE_PROCESSED', {
      type: 'IMAGE_PROCESSED',
      data: { image_id: image.id, status },
      timestamp: new Date().toISOString(),
    });
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
