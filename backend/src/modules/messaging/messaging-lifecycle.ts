import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { MESSAGING_TEXTS, previewOf, UNREAD_MAIL_AFTER_MINUTES, UNREAD_MAIL_EVERY_MINUTES } from '../../contracts/messaging.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { User } from '../users/user.entity.js';
import { Conversation, participantName } from './conversation.entity.js';
import { Message } from './message.entity.js';

const REMINDER_BATCH = 500;

/**
 * Messaging's background work: the e-mail about messages left unread, a deleted account's
 * conversations, and messaging's part of the data export and of the profile's statistics.
 */
@Injectable()
export class MessagingLifecycle implements OnModuleInit {
  private readonly logger = new Logger('Messaging');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.userData.addStatistics(async (userId) => ({
      messages: await this.em.fork().count(Message, { sender: userId }),
      typicalReplyMinutes: await this.typicalReplyMinutes(userId),
    }));
    this.userData.addPart({ name: 'conversations', exportFor: (userId) => this.exportFor(userId) });
  }

  /**
   * How long the user typically takes to answer someone who wrote about their listing: the median, over
   * the last year's conversations they answered, from the first message to their first reply (null under 3).
   */
  private async typicalReplyMinutes(userId: string): Promise<number | null> {
    const [row] = await this.em
      .fork()
      .getConnection()
      .execute<Array<{ median_s: number | null; answered: string }>>(
        `select percentile_cont(0.5) within group (order by extract(epoch from r.replied - a.asked)) as median_s, count(*) as answered
         from (select c.id, min(m.created_at) as asked
                 from conversation c join message m on m.conversation_id = c.id and m.sender_id = c.starter_id
                where c.owner_id = ? and c.created_at > now() - interval '1 year'
                group by c.id) a
         join lateral (select min(m.created_at) as replied from message m
                        where m.conversation_id = a.id and m.sender_id = ? and m.created_at > a.asked) r on r.replied is not null`,
        [userId, userId],
      );
    return row && Number(row.answered) >= 3 && row.median_s !== null ? Math.round(Number(row.median_s) / 60) : null;
  }

  /** Every conversation the user takes part in, with its messages (theirs and the other party's). */
  private async exportFor(userId: string): Promise<unknown> {
    const em = this.em.fork();
    const conversations = await em.find(Conversation, { $or: [{ starter: userId }, { owner: userId }] }, { orderBy: { createdAt: 'asc' } });
    const messages = await em.find(
      Message,
      { conversation: { $in: conversations.map((c) => c.id) } },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    const others = await em.find(User, { id: { $in: conversations.map((c) => (c.starter === userId ? c.owner : c.starter)) } });
    const names = new Map(others.map((u) => [u.id, participantName(u)]));
    return conversations.map((c) => {
      const otherId = c.starter === userId ? c.owner : c.starter;
      return {
        id: c.id,
        title: c.title,
        listing_id: c.listingId ?? null,
        other_participant: { id: otherId, name: names.get(otherId) ?? MESSAGING_TEXTS.unknownUser },
        started_by_you: c.starter === userId,
        created_at: c.createdAt.toISOString(),
        messages: messages
          .filter((m) => m.conversation === c.id)
          .map((m) => ({
            id: m.id,
            from_you: m.sender === userId,
            kind: m.kind,
            content: m.content,
            booking: m.booking ?? null,
            read: Boolean(m.readAt),
            created_at: m.createdAt.toISOString(),
          })),
      };
    });
  }

  /**
   * Messages unread 15 minutes after they were sent become one e-mail per conversation and
   * recipient, at most once an hour, for recipients who keep e-mail notifications on. Each message
   * is marked as dealt with in the same transaction as the event, so a rerun (or a retried job)
   * mails nothing twice; a message inside the hour after a mail waits for the hour to pass.
   */
  @ScheduledJob({ name: 'messaging.unread-reminders', queue: 'maintenance', everyMs: 60_000 })
  async remindUnread(): Promise<void> {
    const cutoff = new Date(Date.now() - UNREAD_MAIL_AFTER_MINUTES * 60_000);
    const hourAgo = new Date(Date.now() - UNREAD_MAIL_EVERY_MINUTES * 60_000);
    const reminded = await this.em.fork().transactional(async (tx) => {
      const groups = await tx.getConnection().execute<Array<{ conversation_id: string; recipient_id: string }>>(
        `select distinct conversation_id, recipient_id from message
            where read_at is null and reminder_handled_at is null and created_at <= ? limit ${REMINDER_BATCH}`,
        [cutoff],
        'all',
        tx.getTransactionContext(),
      );
      let count = 0;
      for (const group of groups) {
        const conversation = await tx.findOne(Conversation, { id: group.conversation_id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const recipient = await tx.findOne(User, { id: group.recipient_id });
        if (!conversation) continue;
        const side = conversation.starter === group.recipient_id ? 'starter' : 'owner';
        const wanted = recipient && !recipient.deletedAt && recipient.emailNotifications;
        const lastMail = conversation[`${side}RemindedAt`];
        if (wanted && lastMail && lastMail > hourAgo) continue; // mailed within the hour: wait
        await tx.nativeUpdate(
          Message,
          {
            conversation: conversation.id,
            recipient: group.recipient_id,
            readAt: null,
            reminderHandledAt: null,
            createdAt: { $lte: cutoff },
          },
          { reminderHandledAt: new Date() },
        );
        if (!wanted) continue;
        conversation[`${side}RemindedAt`] = new Date();
        this.events.publish(tx, 'conversation.unread-reminder', { conversationId: conversation.id, recipientId: group.recipient_id });
        count += 1;
      }
      return count;
    });
    if (reminded > 0) this.logger.log(`${reminded} unread-messages e-mail(s) queued`);
  }

  @OnDomainEvent('conversation.unread-reminder', { name: 'messaging.mail-unread-reminder', queue: 'mail' })
  async mailUnreadReminder(event: DomainEvent<'conversation.unread-reminder'>): Promise<void> {
    const { conversationId, recipientId } = event.payload;
    const em = this.em.fork();
    const [conversation, recipient] = await Promise.all([
      em.findOne(Conversation, { id: conversationId }),
      em.findOne(User, { id: recipientId }),
    ]);
    if (!conversation || !recipient || recipient.deletedAt || !recipient.emailNotifications) return;
    // Read in the meantime: nothing to tell.
    const unread = await em.find(
      Message,
      { conversation: conversationId, recipient: recipientId, readAt: null },
      { orderBy: { createdAt: 'desc' } },
    );
    const newest = unread[0];
    if (!newest) return;
    const sender = await em.findOne(User, { id: newest.sender });
    const senderName = participantName(sender);
    const count = unread.length;
    await this.mail.send({
      key: `conversation-${conversationId}.unread-reminder.${recipientId}.${event.id}`,
      to: recipient.email,
      subject: `${count === 1 ? 'An unread message' : `${count} unread messages`} about "${conversation.title}"`,
      text: [
        `Hello ${recipient.fullName},`,
        '',
        `${senderName} sent you ${count === 1 ? 'a message' : `${count} messages`} about "${conversation.title}" on Fieldmarket that you have not read yet.`,
        `The latest: "${previewOf(newest.content)}"`,
        '',
        `Read and reply: ${this.config.publicUrl}/messages?conversation=${conversationId}`,
        '',
        'You can turn these e-mails off in your profile’s privacy settings (email notifications).',
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }

  /**
   * A deleted account leaves its conversations, but the other party keeps the record of what was
   * said and agreed (UK GDPR: their legitimate interest in the record of a transaction), its author
   * shown as "Deleted user": the account's row no longer holds a name, e-mail or photo. A
   * conversation nobody keeps any more (the other party deleted it, or their account too) goes
   * with its messages.
   */
  @OnDomainEvent('user.deleted', { name: 'messaging.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    const { userId } = event.payload;
    await this.em.fork().transactional(async (tx) => {
      const run = (sql: string, params: unknown[]) => tx.getConnection().execute(sql, params, 'run', tx.getTransactionContext());
      await run(`delete from user_block where blocker_id = ? or blocked_id = ?`, [userId, userId]);
      await run(`update conversation set starter_hidden_at = coalesce(starter_hidden_at, now()) where starter_id = ?`, [userId]);
      await run(`update conversation set owner_hidden_at = coalesce(owner_hidden_at, now()) where owner_id = ?`, [userId]);
      // Hidden on both sides with one side gone: no message can bring it back, so nobody keeps it.
      await run(
        `delete from conversation where (starter_id = ? or owner_id = ?) and starter_hidden_at is not null and owner_hidden_at is not null`,
        [userId, userId],
      );
    });
  }
}
