import { Module } from '@nestjs/common';
import { IMAGE_LIMITS } from '../../contracts/images.js';
import { ImageProcessor } from './image-processor.js';

/** Injection token for the ImageProcessor (sharp). */
export const IMAGE_PROCESSOR = Symbol('IMAGE_PROCESSOR');

/** libuv's thread pool: UV_THREADPOOL_SIZE (libuv reads it itself, at the first use), 4 when unset. */
const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
/** Threads image jobs leave to requests (an upload's probe and file writes) while they resize. */
const THREADS_FOR_REQUESTS = 2;

@Module({
  providers: [
    {
      provide: IMAGE_PROCESSOR,
      useFactory: () => new ImageProcessor(IMAGE_LIMITS.maxPixels, Math.max(1, THREAD_POOL_SIZE - THREADS_FOR_REQUESTS)),
    },
  ],
  exports: [IMAGE_PROCESSOR],
})
export class ImageProcessingModule {}
