import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { ImageProcessingModule } from '../../infra/images/image-processing.module.js';
import { ImageHousekeepingSubscriber } from './image-housekeeping.subscriber.js';
import { ImageProcessingSubscriber } from './image-processing.subscriber.js';
import { Image } from './image.entity.js';
import { MediaController, UploadController } from './images.controller.js';
import { ImagesService } from './images.service.js';
import { MediaFiles } from './media-files.js';

/** Photos: uploads, their published variants, and the port listings use (ImagesService). */
@Module({
  imports: [ormEntities([Image]), ImageProcessingModule],
  controllers: [UploadController, MediaController],
  providers: [ImagesService, MediaFiles, ImageProcessingSubscriber, ImageHousekeepingSubscriber],
  exports: [ImagesService],
})
export class ImagesModule {}
