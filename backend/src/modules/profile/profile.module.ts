import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AccountDeletion } from './account-deletion.js';
import { ProfileController, UsersController } from './profile.controller.js';
import { ProfileService } from './profile.service.js';

/** The profile: account information, privacy, password, export, deletion (AccountDeletion, also for retention), and the public page. */
@Module({
  imports: [AuthModule],
  controllers: [ProfileController, UsersController],
  providers: [ProfileService, AccountDeletion],
  exports: [AccountDeletion],
})
export class ProfileModule {}
