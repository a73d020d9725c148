import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { User } from '../users/user.entity.js';

/** `blocker` blocked `blocked`: neither can start or continue a conversation with the other until unblocked. */
@Entity({ tableName: 'user_block' })
export class UserBlock {
  @ManyToOne(() => User, { mapToPk: true, primary: true, deleteRule: 'cascade' })
  blocker!: string;

  @ManyToOne(() => User, { mapToPk: true, primary: true, deleteRule: 'cascade', index: true })
  blocked!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
