import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DomainEvent } from '../../events/domain-events.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { OBJECT_STORAGE } from '../../infra/storage/storage.module.js';
import type { ObjectStorage } from '../../infra/storage/object-storage.js';
import { ImagesService } from './images.service.js';

/** Uploads never attached to a listing are deleted this long after their upload. */
export const UNATTACHED_RETENTION_MS = 24 * 3600_000;

/** Removes files of deleted image rows, images nobody attached, and a deleted user's images. */
@Injectable()
export class ImageHousekeepingSubscriber {
  private readonly logger = new Logger('Images');

  constructor(
    @Inject(ImagesService) private readonly images: ImagesService,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  /** Deleting a missing file succeeds, so a retry is harmless. */
  @OnDomainEvent('image.files-orphaned', { name: 'images.delete-files', queue: 'maintenance' })
  async deleteFiles(event: DomainEvent<'image.files-orphaned'>): Promise<void> {
    for (const key of event.payload.keys) await this.storage.delete(key);
  }

  @OnDomainEvent('user.deleted', { name: 'images.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    await this.images.deleteOwnedBy(event.payload.userId);
  }

  @ScheduledJob({ name: 'images.purge-unattached', queue: 'maintenance', everyMs: 60 * 60_000 })
  async purgeUnattached(): Promise<void> {
    let removed = 0;
    let batch: number;
    do {
      batch = await this.images.purgeUnattached(UNATTACHED_RETENTION_MS);
      removed += batch;
    } while (batch > 0);
    if (removed > 0) this.logger.log(`deleted ${removed} images never attached to a listing`);
  }
}
