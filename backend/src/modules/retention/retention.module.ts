import { Global, Module } from '@nestjs/common';
import { ProfileModule } from '../profile/profile.module.js';
import { RetentionJob } from './retention.job.js';
import { RetentionRegistry } from './retention.registry.js';

/**
 * What is deleted when (contracts/retention.ts): the daily job for inactive accounts and the
 * registry every module adds its purges to. Global, like the users module's registry.
 */
@Global()
@Module({
  imports: [ProfileModule],
  providers: [RetentionRegistry, RetentionJob],
  exports: [RetentionRegistry],
})
export class RetentionModule {}
