import { Global, Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { AccountStanding } from './account-standing.js';
import { UserDataRegistry } from './user-data.registry.js';
import { User } from './user.entity.js';

/**
 * People with accounts. Global: every module that keeps data about a person registers its part
 * with UserDataRegistry and refers to users by id.
 */
@Global()
@Module({
  imports: [ormEntities([User])],
  providers: [UserDataRegistry, AccountStanding],
  exports: [UserDataRegistry, AccountStanding],
})
export class UsersModule {}
