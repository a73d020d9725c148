import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { RESPONSE_HOURS } from '../../contracts/staff.js';
import { STORY_NAMING_LABELS, storyAuthorName } from '../../contracts/stories.js';
import {
  applyDecision,
  decisionOf,
  type InboxDecisionKind,
  type InboxItem,
  type InboxItemDetail,
  InboxSourceBase,
  InboxSources,
} from '../staff/inbox/inbox-source.js';
import { User } from '../users/user.entity.js';
import { SuccessStory } from './story.entity.js';

/** Success stories in the staff inbox (a fourth source): staff read each and approve or decline it. */
@Injectable()
export class StoryInbox extends InboxSourceBase<SuccessStory> {
  readonly kind = 'story' as const;
  protected readonly entity = SuccessStory;
  protected readonly responseHours = RESPONSE_HOURS.story;

  constructor(@Inject(EntityManager) em: EntityManager, @Inject(InboxSources) registry: InboxSources) {
    super(em, registry);
  }

  protected async toItem(story: SuccessStory): Promise<InboxItem> {
    const author = await this.em.fork().findOne(User, { id: story.author });
    return {
      ...this.tracked(story),
      subject: `Success story (${story.status}): ${story.dealLabel}`,
      from: author && !author.deletedAt ? { name: author.fullName, email: author.email } : null,
      preview: story.story.slice(0, 140),
      category: null,
      categoryLabel: null,
      rating: null,
      target: author ? { kind: 'user', id: author.id, label: author.fullName } : null,
    };
  }

  protected async toDetail(story: SuccessStory): Promise<InboxItemDetail> {
    const item = await this.toItem(story);
    return {
      ...item,
      body: story.story,
      fields: [
        { label: 'Deal', value: story.dealLabel },
        { label: 'Named as', value: `${STORY_NAMING_LABELS[story.naming]}: ${storyAuthorName(item.from?.name ?? '', story.naming)}` },
      ],
      decision: decisionOf(story),
    };
  }

  async decide(tx: EntityManager, id: string, decision: InboxDecisionKind, reason: string | undefined): Promise<boolean> {
    const [story] = await this.load(tx, { id }, { limit: 1 });
    if (!story) return false;
    applyDecision(story, decision, reason);
    await tx.flush();
    return true;
  }
}
