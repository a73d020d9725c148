import { Module } from '@nestjs/common';
import { IMAGE_LIMITS } from '../../contracts/images.js';
import { ImageProcessor } from './image-processor.js';

/** Injection token for the ImageProcessor (sharp). */
export const IMAGE_PROCESSOR = Symbol('IMAGE_PROCESSOR');

@Module({
  providers: [{ provide: IMAGE_PROCESSOR, useFactory: () => new ImageProcessor(IMAGE_LIMITS.maxPixels) }],
  exports: [IMAGE_PROCESSOR],
})
export class ImageProcessingModule {}
