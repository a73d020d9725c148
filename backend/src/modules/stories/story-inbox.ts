import { EntityManager, type FilterQuery, type QueryOrderMap } from '@mikro-orm/postgresql';
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

  /** With the author, whose name and address the item shows (one query for a page, not one per item). */
  protected override load(
    em: EntityManager,
    where: FilterQuery<SuccessStory>,
    options: { orderBy?: QueryOrderMap<SuccessStory>; limit?: number },
  ): Promise<SuccessStory[]> {
    return em.find(SuccessStory, where, { ...options, populate: ['author'] });
  }

  protected toItem(story: SuccessStory): InboxItem {
    const author = story.author.getEntity();
    return {
      ...this.tracked(story),
      subject: `Success story (${story.status}): ${story.dealLabel}`,
      from: author.deletedAt ? null : { name: author.fullName, email: author.email },
      preview: story.story.slice(0, 140),
      category: null,
      categoryLabel: null,
      rating: null,
      target: { kind: 'user', id: author.id, label: author.fullName },
    };
  }

  protected toDetail(story: SuccessStory): InboxItemDetail {
    const item = this.toItem(story);
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
