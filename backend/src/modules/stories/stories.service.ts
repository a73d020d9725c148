import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { ConflictException, ForbiddenException, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { STORY_TEXTS, storyAuthorName } from '../../contracts/stories.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { type Deal, Deals } from '../messaging/deals.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { User } from '../users/user.entity.js';
import type { OwnStoriesResponse, PublishedStoriesResponse, StoryRequest } from './dto/story.dto.js';
import { SuccessStory } from './story.entity.js';

/** Stories one member may send in a day: a story is a few lines, sent once; more is spam. */
const STORIES_PER_DAY = { limit: 3, windowSeconds: 24 * 3600 };
/** How many published stories a page shows at most (the home page shows fewer). */
export const PUBLISHED_STORIES_MAX = 30;

const DEAL_LABELS: Record<Deal['how'], string> = { booking: 'Booked', sold: 'Sold', let: 'Let' };

/** Success stories (issue 23 §1): told by members who did a deal here, published once staff approve them. */
@Injectable()
export class StoriesService implements OnModuleInit {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(Deals) private readonly deals: Deals,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
  ) {}

  onModuleInit(): void {
    this.userData.addPart({
      name: 'success_stories',
      exportFor: async (userId) =>
        (await this.em.fork().find(SuccessStory, { author: userId }, { orderBy: { createdAt: 'asc' } })).map((s) => ({
          story: s.story,
          naming: s.naming,
          deal: s.dealLabel,
          status: s.status,
          decline_reason: s.declineReason ?? null,
          sent_at: s.createdAt.toISOString(),
        })),
    });
  }

  /** Approved stories, newest first, named as their authors chose. */
  async published(limit: number): Promise<PublishedStoriesResponse> {
    const em = this.em.fork();
    const stories = await em.find(SuccessStory, { status: 'approved' }, { orderBy: { decidedAt: 'desc', id: 'desc' }, limit });
    const authors = new Map(
      (await em.find(User, { id: { $in: stories.map((s) => s.author.id) }, deletedAt: null })).map((u) => [u.id, u.fullName]),
    );
    return {
      stories: stories.flatMap((s) => {
        const name = authors.get(s.author.id);
        if (name === undefined) return [];
        return [
          {
            id: s.id,
            story: s.story,
            author_name: storyAuthorName(name, s.naming),
            deal: s.dealLabel,
            published_at: s.decidedAt!.toISOString(),
          },
        ];
      }),
    };
  }

  async mine(userId: string): Promise<OwnStoriesResponse> {
    const [deal, stories] = await Promise.all([
      this.deals.firstDeal(userId),
      this.em.fork().find(SuccessStory, { author: userId }, { orderBy: { createdAt: 'desc' } }),
    ]);
    return {
      eligible: deal !== undefined,
      stories: stories.map((s) => ({
        id: s.id,
        story: s.story,
        naming: s.naming,
        status: s.status,
        decline_reason: s.declineReason ?? null,
        created_at: s.createdAt.toISOString(),
      })),
    };
  }

  /** Stores the story for staff to read: only from a member with a deal here, one waiting at a time. */
  async tell(userId: string, request: StoryRequest): Promise<OwnStoriesResponse> {
    const deal = await this.deals.firstDeal(userId);
    if (!deal) throw new ForbiddenException(STORY_TEXTS.noDeal);
    await this.em
      .fork()
      .transactional(async (tx) => {
        if (await tx.count(SuccessStory, { author: userId, status: 'pending' })) throw new ConflictException(STORY_TEXTS.alreadyWaiting);
        await this.limits.consume({ key: `stories:author:${userId}`, ...STORIES_PER_DAY }, () => STORY_TEXTS.tooMany);
        tx.persist(
          tx.create(SuccessStory, {
            author: userId,
            story: request.story,
            naming: request.naming,
            dealLabel: `${DEAL_LABELS[deal.how]}: ${deal.listingTitle}`.slice(0, 150),
          }),
        );
      })
      .catch((error: unknown) => {
        // Two sent at the same moment: the partial unique index lets one through.
        if (error instanceof UniqueConstraintViolationException) throw new ConflictException(STORY_TEXTS.alreadyWaiting);
        throw error;
      });
    return this.mine(userId);
  }

  @OnDomainEvent('user.deleted', { name: 'stories.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    await this.em.fork().nativeDelete(SuccessStory, { author: event.payload.userId });
  }
}
