import { EntityManager, type FilterQuery, type QueryOrderMap } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { RESPONSE_HOURS } from '../../contracts/staff.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
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

  constructor(
    @Inject(EntityManager) em: EntityManager,
    @Inject(InboxSources) registry: InboxSources,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(em, registry);
  }

  /** Tells the author what staff decided, with the reason of a decline (the bell is the notifications module's part). */
  @OnDomainEvent('story.decided', { name: 'stories.mail-decision', queue: 'mail' })
  async mailDecision(event: DomainEvent<'story.decided'>): Promise<void> {
    const story = await this.em.fork().findOne(SuccessStory, { id: event.payload.storyId }, { populate: ['author'] });
    const author = story?.author.getEntity();
    if (!story || !author || author.deletedAt || story.status === 'pending') return;
    const approved = story.status === 'approved';
    await this.mail.send({
      key: `story-${story.id}.${event.id}`,
      to: author.email,
      subject: approved ? 'Your story is published on Fieldmarket' : 'We did not publish your story',
      text: [
        `Hello ${author.fullName},`,
        '',
        approved
          ? `Thank you: our team has published your story about "${story.dealLabel}".`
          : `Our team read your story about "${story.dealLabel}" and did not publish it. The reason we gave:`,
        ...(approved ? [] : [story.declineReason ?? '(none given)', '', 'You can tell it again, changed, from the success stories page.']),
        '',
        `${this.config.publicUrl}/success-stories`,
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
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
    this.events.publish(tx, 'story.decided', {
      storyId: story.id,
      authorId: story.author.id,
      decision: story.status as 'approved' | 'declined',
    });
    await tx.flush();
    return true;
  }
}
