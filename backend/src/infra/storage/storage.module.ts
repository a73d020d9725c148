import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { createObjectStorage } from './object-storage.js';

/** Injection token for the configured ObjectStorage (local disk or S3). */
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

@Global()
@Module({
  providers: [{ provide: OBJECT_STORAGE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createObjectStorage(config.storage) }],
  exports: [OBJECT_STORAGE],
})
export class StorageModule {}
