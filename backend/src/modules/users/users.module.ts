import { Global, Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { AccountStanding } from './account-standing.js';
import { ReviewTally } from './review-tally.js';
import { UserDataRegistry } from './user-data.registry.js';
import { User } from './user.entity.js';

/**
 * People with accounts. Global: every module that keeps data about a person registers its part
 * with UserDataRegistry and refers to users by id.
 */
@Global()
@Module({
  imports: [ormEntities([User])],
  providers: [UserDataRegistry, AccountStanding, ReviewTally],
  exports: [UserDataRegistry, AccountStanding, ReviewTally],
})
export class UsersModule {}
