import { connectionFor, ReplicaReads } from '../../infra/database/replica-reads.js';
import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, ForbiddenException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { FieldValidationException } from '../../common/errors.js';
import { ACCOUNT_TEXTS } from '../../contracts/account.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter, waitText } from '../../infra/rate-limit/rate-limiter.js';
import { Passwords } from '../auth/passwords.js';
import type { Session } from '../auth/session.entity.js';
import { Sessions } from '../auth/sessions.service.js';
import { ClearAfterWrites } from '../../common/clear-after-writes.js';
import { ShortLivedCache } from '../../common/short-lived-cache.js';
import { type ProfileStatistics, UserDataRegistry } from '../users/user-data.registry.js';
import { User } from '../users/user.entity.js';
import { AccountDeletion } from './account-deletion.js';
import type {
  PasswordChangeRequest,
  PhoneRevealResponse,
  PrivacySettings,
  ProfileResponse,
  ProfileUpdateRequest,
  PublicProfileResponse,
} from './dto/profile.dto.js';
import { isUuid } from '../../common/uuid.js';
import { lastActiveOf } from '../../contracts/trust.js';

/** Password checks per account until one succeeds (profile password change, account deletion). */
const PASSWORD_CHECKS = { limit: 10, windowSeconds: 15 * 60 };
/** Phone numbers one member may see in a day (issue 23 §4): enough to call a few sellers, too few to harvest. */
/** How long visitors see a public profile's statistics unchanged (its owner always sees them fresh). */
const PUBLIC_STATISTICS_MS = 60_000;
export const PHONE_REVEALS_PER_VIEWER = { limit: 10, windowSeconds: 24 * 60 * 60 };
/**
 * What a sign-in writes to a member without changing what visitors see of their profile: "last active" shows by
 * the day and week, and rewriting it on every session touch would keep visitors' pages from ever being reused.
 */
const NOT_ON_PUBLIC_PROFILE: ReadonlySet<string> = new Set<string>(['lastActiveAt', 'updatedAt'] satisfies Array<keyof User>);
/** A Google account proves it is its owner by signing in with Google again, this recently. */
export const REAUTHENTICATION_MINUTES = 5;

@Injectable()
export class ProfileService {
  private readonly logger = new Logger('PhoneReveal');
  /**
   * A public profile's statistics (a year-long reply-time median among them) for visitors, kept a minute
   * per profile: a popular seller's page does not run them on the primary for every visitor.
   */
  private readonly publicStatistics = new ShortLivedCache<ProfileStatistics>(PUBLIC_STATISTICS_MS, 5_000);
  private readonly changedListeners: Array<() => void> = [];

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
    @Inject(Passwords) private readonly passwords: Passwords,
    @Inject(Sessions) private readonly sessions: Sessions,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(AccountDeletion) private readonly deletion: AccountDeletion,
    @Inject(ReplicaReads) private readonly replica: ReplicaReads,
  ) {
    em.getEventManager().registerSubscriber(
      new ClearAfterWrites(
        ({ entity, payload }) => entity instanceof User && Object.keys(payload).some((field) => !NOT_ON_PUBLIC_PROFILE.has(field)),
        () => {
          for (const listener of this.changedListeners) listener();
        },
      ),
    );
  }

  /**
   * Calls `listener` when a member's account changes through this process (their name, bio, privacy, business,
   * deletion): what was rendered from their public profile (visitors' pages) goes.
   */
  onPublicProfileChanged(listener: () => void): void {
    this.changedListeners.push(listener);
  }

  async profileOf(userId: string): Promise<ProfileResponse> {
    const user = await this.em.findOneOrFail(User, { id: userId });
    const statistics = await this.userData.statisticsFor(user.id);
    return {
      id: user.id,
      email: user.email,
      full_name: user.fullName,
      phone: user.phone ?? null,
      location: user.location ?? null,
      bio: user.bio ?? null,
      avatar_url: user.avatarUrl ?? null,
      member_since: user.createdAt.toISOString(),
      email_confirmed: Boolean(user.emailVerifiedAt),
      two_factor_enabled: Boolean(user.twoFactorEnabledAt),
      provider: user.provider,
      listings_count: statistics.activeListings,
      messages_count: statistics.messages,
      privacy_settings: privacyOf(user),
    };
  }

  async update(userId: string, changes: ProfileUpdateRequest): Promise<ProfileResponse> {
    await this.em.transactional(async (tx) => {
      const user = await tx.findOneOrFail(User, { id: userId });
      user.fullName = changes.full_name;
      user.phone = changes.phone || undefined;
      user.location = changes.location || undefined;
      user.bio = changes.bio || undefined;
      this.events.publish(tx, 'user.profile-updated', { userId });
    });
    return this.profileOf(userId);
  }

  async updatePrivacy(userId: string, settings: PrivacySettings): Promise<PrivacySettings> {
    return this.em.transactional(async (tx) => {
      const user = await tx.findOneOrFail(User, { id: userId });
      user.profileVisible = settings.profile_visible;
      user.contactVisible = settings.contact_visible;
      user.listingsVisible = settings.listings_visible;
      user.emailNotifications = settings.email_notifications;
      user.pushNotifications = settings.push_notifications;
      this.events.publish(tx, 'user.profile-updated', { userId });
      return privacyOf(user);
    });
  }

  /** Changes the password after checking the current one; other sessions end, this one gets a new token. */
  async changePassword(user: User, session: Session, request: PasswordChangeRequest): Promise<string | null> {
    if (!user.passwordHash) throw new BadRequestException('Your account signs in with Google and has no password to change.');
    await this.checkPassword(user, request.current_password, 'current_password');
    if (this.passwords.isCommon(request.new_password)) throw new FieldValidationException({ new_password: ACCOUNT_TEXTS.commonPassword });
    const passwordHash = await this.passwords.hash(request.new_password);
    await this.em.transactional(async (tx) => {
      const account = await tx.findOneOrFail(User, { id: user.id });
      account.passwordHash = passwordHash;
      await this.sessions.endAll(user.id, { except: session.id, em: tx });
      this.events.publish(tx, 'user.password-changed', { userId: user.id, how: 'changed' });
    });
    return this.sessions.rotate(session.id);
  }

  /** Everything stored about the user, from every module, as one JSON document. */
  async exportFor(userId: string): Promise<Record<string, unknown>> {
    const { listings_count, messages_count, ...profile } = await this.profileOf(userId);
    return {
      exported_at: new Date().toISOString(),
      profile,
      statistics: { listings_count, messages_count },
      ...(await this.userData.exportFor(userId)),
    };
  }

  /**
   * Deletes the account: proved with the password (or, for a Google account without one, a
   * Google sign-in of the last few minutes), then AccountDeletion (the path the retention job takes too).
   */
  async deleteAccount(user: User, session: Session, password: string | undefined): Promise<void> {
    if (user.passwordHash) {
      if (!password) throw new FieldValidationException({ password: 'Password is required' });
      await this.checkPassword(user, password, 'password');
    } else if (Date.now() - session.authenticatedAt.getTime() > REAUTHENTICATION_MINUTES * 60_000) {
      throw new ForbiddenException(
        `For your security, sign in with Google again, then delete the account within ${REAUTHENTICATION_MINUTES} minutes.`,
      );
    }
    await this.em.transactional((tx) => this.deletion.delete(tx, user.id));
  }

  /** What others see (SPEC §2 "/profile/{id}"), honouring the owner's privacy settings; 404 when hidden. */
  async publicProfile(id: string, viewerId: string | undefined): Promise<PublicProfileResponse> {
    // Others read the replica (when there is one, in a fork of its own); the owner sees their own changes at once.
    const user = isUuid(id)
      ? await this.replica.read(id === viewerId ? 'primary' : 'replica', (at) =>
          this.em.fork().findOne(User, { id, deletedAt: null }, { connectionType: connectionFor(at) }),
        )
      : null;
    if (!visibleTo(user, viewerId)) throw new NotFoundException('Profile not found');
    const statistics =
      user.id === viewerId
        ? await this.userData.statisticsFor(user.id)
        : await this.publicStatistics.get(user.id, () => this.userData.statisticsFor(user.id));
    return {
      id: user.id,
      full_name: user.fullName,
      avatar_url: user.avatarUrl ?? null,
      location: user.location ?? null,
      bio: user.bio ?? null,
      member_since: user.createdAt.toISOString(),
      business_verified: Boolean(user.businessVerifiedAt),
      phone_available: phoneShownOf(user) !== undefined,
      listings_visible: user.listingsVisible,
      seller_type: user.sellerType ?? null,
      business_name: user.sellerType === 'trade' ? (user.businessName ?? null) : null,
      company_number: user.sellerType === 'trade' ? (user.companyNumber ?? null) : null,
      business_verified_at: user.businessVerifiedAt?.toISOString() ?? null,
      listings_sold: statistics.listingsSold,
      typical_reply_minutes: statistics.typicalReplyMinutes,
      last_active: lastActiveOf(user.lastActiveAt),
      cph_declared: statistics.cphDeclared,
    };
  }

  /**
   * The phone number of `ownerId` for a signed-in member who pressed "Show number": counted per viewer
   * per day so numbers cannot be harvested, and logged (who saw whose number) for abuse reports.
   */
  async revealPhone(ownerId: string, viewer: User): Promise<PhoneRevealResponse> {
    const owner = isUuid(ownerId) ? await this.em.findOne(User, { id: ownerId, deletedAt: null }) : null;
    const phone = visibleTo(owner, viewer.id) ? phoneShownOf(owner) : undefined;
    if (!owner || phone === undefined) throw new NotFoundException('This member does not show a phone number');
    // The allowance counts different numbers: the same seller's again today (a reload) is not counted twice.
    const seen = `phone-reveal:seen:${viewer.id}:${owner.id}`;
    if (
      owner.id !== viewer.id &&
      (await this.limits.allows({ key: seen, limit: 1, windowSeconds: PHONE_REVEALS_PER_VIEWER.windowSeconds }))
    ) {
      try {
        await this.limits.consume(
          { key: `phone-reveal:viewer:${viewer.id}`, ...PHONE_REVEALS_PER_VIEWER },
          (wait) =>
            `You have seen ${PHONE_REVEALS_PER_VIEWER.limit} phone numbers today. Please wait ${waitText(wait)}, or send a message instead.`,
        );
      } catch (error) {
        await this.limits.reset(seen); // refused: not seen, so asking again is refused again
        throw error;
      }
      this.logger.log(`phone number of ${owner.id} shown to ${viewer.id}`);
    }
    return { phone };
  }

  private async checkPassword(user: User, password: string, field: string): Promise<void> {
    const limit = { key: `password-check:account:${user.id}`, ...PASSWORD_CHECKS };
    await this.limits.consume(limit, (wait) => `Too many password attempts. Please wait ${waitText(wait)} and try again.`);
    if (!(await this.passwords.verify(user.passwordHash, password))) {
      throw new FieldValidationException({ [field]: ACCOUNT_TEXTS.wrongPassword });
    }
    await this.limits.reset(limit.key);
  }
}

function privacyOf(user: User): PrivacySettings {
  return {
    profile_visible: user.profileVisible,
    contact_visible: user.contactVisible,
    listings_visible: user.listingsVisible,
    email_notifications: user.emailNotifications,
    push_notifications: user.pushNotifications,
  };
}

/** A profile others may see: it exists and its owner shows it (its owner always sees it). */
function visibleTo(user: User | null, viewerId: string | undefined): user is User {
  return user !== null && (user.profileVisible || user.id === viewerId);
}

/** The number others may ask to see: set, and the owner's "Show phone number" switch on. */
function phoneShownOf(user: User): string | undefined {
  return user.phone && user.contactVisible ? user.phone : undefined;
}
