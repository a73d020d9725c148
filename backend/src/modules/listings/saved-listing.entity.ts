import type { Ref } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { User } from '../users/user.entity.js';
import { Listing } from './listing.entity.js';

/** A listing a user saved ("favourite"). */
@Entity({ tableName: 'saved_listing' })
export class SavedListing {
  @ManyToOne(() => User, { ref: true, primary: true, deleteRule: 'cascade' })
  user!: Ref<User>;

  @ManyToOne(() => Listing, { ref: true, primary: true, deleteRule: 'cascade' })
  @Index()
  listing!: Ref<Listing>;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
