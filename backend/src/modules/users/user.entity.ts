import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { SELLER_TYPES, type SellerType } from '../../contracts/trust.js';

export type SignInProvider = 'password' | 'google';
export type UserRole = 'user' | 'staff';

/**
 * A person with an account. Deleting an account scrubs the row (every personal field emptied,
 * `deletedAt` set) rather than removing it, so what other people keep (a conversation) can say
 * "Unknown User" instead of pointing nowhere.
 */
@Entity({ tableName: 'app_user' })
// The few accounts suspended or deleted: matching new listings to saved searches passes over theirs.
@Index({
  name: 'app_user_inactive_index',
  expression: `create index "app_user_inactive_index" on "app_user" ("id") where "suspended_at" is not null or "deleted_at" is not null`,
})
export class User {
  /** Properties with defaults: em.create() does not require them. */
  [OptionalProps]?:
    | 'provider'
    | 'role'
    | 'profileVisible'
    | 'contactVisible'
    | 'listingsVisible'
    | 'emailNotifications'
    | 'pushNotifications'
    | 'createdAt'
    | 'updatedAt'
    | 'lastActiveAt'
    | 'reviewCount'
    | 'reviewStarsTotal';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** Lower case; unique among accounts (a scrubbed account holds a placeholder). */
  @Property({ type: 'string', length: 254 })
  @Unique()
  email!: string;

  @Property({ type: 'datetime', nullable: true })
  emailVerifiedAt?: Date;

  /** argon2id; absent for an account created through Google. */
  @Property({ type: 'text', nullable: true, hidden: true })
  passwordHash?: string;

  /** Google's stable id for the person ("sub"); set once the account is linked to Google. */
  @Property({ type: 'string', length: 255, nullable: true })
  @Unique()
  googleSubject?: string;

  /** How the account was created: Google accounts have no password and no in-product two-factor. */
  @Enum({ items: ['password', 'google'] })
  provider: SignInProvider = 'password';

  @Enum({ items: ['user', 'staff'] })
  role: UserRole = 'user';

  @Property({ type: 'string', length: 100 })
  fullName!: string;

  @Property({ type: 'string', length: 30, nullable: true })
  phone?: string;

  @Property({ type: 'string', length: 100, nullable: true })
  location?: string;

  @Property({ type: 'string', length: 500, nullable: true })
  bio?: string;

  @Property({ type: 'string', length: 500, nullable: true })
  avatarUrl?: string;

  // Privacy settings (SPEC §3): all on by default.
  @Property({ type: 'boolean' })
  profileVisible: boolean = true;

  @Property({ type: 'boolean' })
  contactVisible: boolean = true;

  @Property({ type: 'boolean' })
  listingsVisible: boolean = true;

  @Property({ type: 'boolean' })
  emailNotifications: boolean = true;

  @Property({ type: 'boolean' })
  pushNotifications: boolean = true;

  /** The TOTP secret, encrypted (AES-256-GCM) with a key from configuration; set during setup. */
  @Property({ type: 'text', nullable: true, hidden: true })
  twoFactorSecret?: string;

  @Property({ type: 'datetime', nullable: true })
  twoFactorEnabledAt?: Date;

  /** The last TOTP time step accepted, so a code is accepted once. */
  @Property({ type: 'bigint', nullable: true, hidden: true })
  twoFactorLastStep?: string;

  /** Member since. */
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  /** Last sign-in or session refresh: inactive accounts are deleted after two years. */
  @Property({ type: 'datetime' })
  @Index()
  lastActiveAt: Date = new Date();

  /**
   * When the retention job warned that the account will be deleted for inactivity (once); cleared
   * when the account is used again.
   */
  @Property({ type: 'datetime', nullable: true })
  inactivityWarnedAt?: Date;

  /** When the person declared they are 18 or over (the terms' condition for posting), asked before their first listing. */
  @Property({ type: 'datetime', nullable: true })
  overEighteenConfirmedAt?: Date;

  @Property({ type: 'datetime', nullable: true })
  deletedAt?: Date;

  /** Set while staff have suspended the account: no sign-in, no sessions, its listings hidden. */
  @Property({ type: 'datetime', nullable: true })
  suspendedAt?: Date;

  /** Why staff suspended it (for staff; the person is told they are suspended, not the note). */
  @Property({ type: 'text', nullable: true })
  suspensionReason?: string;

  // Seller details (issue 23 §2): private or trade, chosen before the first listing.
  @Enum({ items: () => SELLER_TYPES, nullable: true })
  sellerType?: SellerType | null;

  @Property({ type: 'string', length: 100, nullable: true })
  businessName?: string | null;

  /** Companies House number, compact (e.g. SC123456). */
  @Property({ type: 'string', length: 8, nullable: true })
  companyNumber?: string | null;

  /** VAT number, compact, without GB (9 or 12 digits). */
  @Property({ type: 'string', length: 12, nullable: true })
  vatNumber?: string | null;

  /** When staff checked the trade details ("Business verified"); cleared when the details change. */
  @Property({ type: 'datetime', nullable: true })
  businessVerifiedAt?: Date | null;

  // Reviews (issue 23 §3): the shown reviews of this member, kept by ReviewTally so cards need no query each.
  @Property({ type: 'integer', default: 0 })
  reviewCount: number = 0;

  @Property({ type: 'integer', default: 0 })
  reviewStarsTotal: number = 0;
}
