import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { formatCardPrice, formatDistance } from '../../contracts/listing-display.js';
import { DIGEST_LISTINGS_PER_SEARCH } from '../../contracts/saved-searches.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { PermanentFailure } from '../../infra/queue/permanent-failure.js';
import type { ListingCard } from '../listings/dto/listing.response.js';
import { ListingMatches } from '../listings/listing-search/listing-matches.js';
import { User } from '../users/user.entity.js';
import { type DigestFrequency, lastDigestDue } from './digest-schedule.js';
import { publishMailsDue } from './mails-due.js';
import { matchedHorizon } from './saved-search-matcher.js';
import { SavedSearch } from './saved-search.entity.js';
import { SavedSearchesService } from './saved-searches.service.js';

/** Users gathered into digests per transaction. */
const DIGEST_USERS_PER_STEP = 500;

interface Section {
  search: SavedSearch;
  cards: ListingCard[];
  drops: Set<string>;
  more: number;
}

/** One e-mail: a batch's sections, to its user. */
interface Mail {
  batchId: string;
  user: User;
  sections: Section[];
}

/** A section before its cards are read: the listings it shows (at most 20), of how many still live, from where. */
interface Draft {
  batchId: string;
  search: SavedSearch;
  ids: string[];
  liveCount: number;
  drops: Set<string>;
  near?: { latitude: number; longitude: number };
}

/**
 * Saved-search e-mail: the daily and weekly digests gathered at 07:00 UK time, and the sending of
 * every alert e-mail (an instant batch or a digest), one per user, a section per search, with
 * List-Unsubscribe for the searches it is about. Listings no longer live are left out when the
 * mail is written; a mail with nothing left is not sent.
 */
@Injectable()
export class SavedSearchMail {
  private readonly logger = new Logger('SavedSearches');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(ListingMatches) private readonly listings: ListingMatches,
    @Inject(SavedSearchesService) private readonly searches: SavedSearchesService,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Every DIGEST_CHECK_SECONDS (a minute): any digest due (the last 07:00 UK time, or Monday's) whose
   * searches have not all been gathered into it. Each step marks its searches as gathered in the transaction that
   * publishes their e-mails, so a run cut off (a crash) resumes with the searches it had not reached.
   */
  @ScheduledJob({ name: 'saved-searches.digests', queue: 'maintenance', everyMs: (config) => config.queue.digestCheckSeconds * 1000 })
  async gatherDigests(): Promise<void> {
    const now = this.clock.now();
    for (const frequency of ['daily', 'weekly'] as const) {
      const users = await this.gatherDigest(frequency, lastDigestDue(frequency, now));
      if (users > 0) this.logger.log(`${frequency} digest: ${users} e-mail(s) queued`);
    }
  }

  /**
   * Gathers every search of the frequency not yet in the digest due at `due` (its matches since its
   * last e-mail, up to the last one matched by `due`); the e-mails it queued.
   */
  async gatherDigest(frequency: DigestFrequency, due: Date): Promise<number> {
    const through = await matchedHorizon(this.em, due);
    let mails = 0;
    for (;;) {
      const step = await this.em.fork().transactional(async (tx) => {
        const rows = await tx.getConnection().execute<Array<{ user_id: string; batch: string | null }>>(
          `with users as (select distinct user_id from saved_search
              where frequency = ? and paused_at is null and (digest_due_at is null or digest_due_at < ?) limit ?),
            gathered as (select s.id, s.user_id, s.number, s.mailed_through from saved_search s join users u on u.user_id = s.user_id
              where s.frequency = ? and s.paused_at is null and (s.digest_due_at is null or s.digest_due_at < ?) for update of s),
            batches as (select user_id, gen_random_uuid() as batch from users),
            parts as (insert into saved_search_mail_part (batch_id, saved_search_id, after_hit, through_hit)
              select b.batch, g.id, g.mailed_through, ?::bigint from gathered g join batches b on b.user_id = g.user_id
              where g.mailed_through < ?::bigint and exists (select 1 from saved_search_hit h
                where h.searches && array[g.number] and h.id > g.mailed_through and h.id <= ?::bigint)
              returning batch_id),
            stamped as (update saved_search s set digest_due_at = ?, mailed_through = greatest(s.mailed_through, ?::bigint)
              from gathered g where s.id = g.id)
          select b.user_id, (select min(p.batch_id::text) from parts p where p.batch_id = b.batch) as batch from batches b`,
          [frequency, due, DIGEST_USERS_PER_STEP, frequency, due, through, through, through, due, through],
          'all',
          tx.getTransactionContext(),
        );
        const batches = rows.flatMap((row) => (row.batch === null ? [] : [row.batch]));
        publishMailsDue(this.events, tx, frequency, batches);
        return { users: rows.length, mails: batches.length };
      });
      mails += step.mails;
      if (step.users < DIGEST_USERS_PER_STEP) return mails;
    }
  }

  /** An entry queued by an earlier version, one e-mail a job: sent as a batch of one. */
  @OnDomainEvent('saved-search.mail-due', { name: 'saved-searches.send-mail', queue: 'mail' })
  async send(event: DomainEvent<'saved-search.mail-due'>): Promise<void> {
    await this.sendBatches([event.payload.batchId], event.payload.kind);
  }

  @OnDomainEvent('saved-search.mails-due', { name: 'saved-searches.send-mails', queue: 'mail' })
  async sendMails(event: DomainEvent<'saved-search.mails-due'>): Promise<void> {
    await this.sendBatches(event.payload.batchIds, event.payload.kind);
  }

  /**
   * Sends these batches' e-mails, one a batch, what they show read for all of them at once. Each mail's Message-ID is
   * its batch's, so one sent again (the job retried after a crash part-way) is recognised as the same mail.
   */
  async sendBatches(batchIds: string[], kind: 'instant' | DigestFrequency): Promise<void> {
    const em = this.em.fork();
    const mails = await this.mails(em, batchIds);
    for (const { batchId, user, sections } of mails) {
      const tokens = sections.map((s) => s.search.unsubscribeToken).join(',');
      const unsubscribe = `${this.config.publicUrl}/api/saved-searches/unsubscribe?token=${tokens}`;
      const unsubscribePage = `${this.config.publicUrl}/saved-searches/unsubscribe?token=${tokens}`;
      const manage = `${this.config.publicUrl}/profile#saved-searches`;
      const count = sections.reduce((sum, section) => sum + section.cards.length + section.more, 0);
      const subject =
        kind === 'instant'
          ? `${count === 1 ? 'A new match' : `${count} new matches`} for your saved search "${sections[0]?.search.name}"`
          : `Your ${kind} saved-search digest: ${count === 1 ? '1 new match' : `${count} new matches`}`;
      try {
        await this.mail.send({
          key: `saved-search-alert-${batchId}`,
          to: user.email,
          subject,
          text: this.text(user.fullName, sections, unsubscribePage, manage),
          html: this.html(user.fullName, sections, unsubscribePage, manage),
          listUnsubscribe: unsubscribe,
          oneClickUnsubscribe: true,
        });
      } catch (error) {
        // A recipient refused for good is not tried again, and does not hold up the others' mails.
        if (!(error instanceof PermanentFailure)) throw error;
        this.logger.warn(`saved-search e-mail ${batchId} refused: ${error.message}`);
      }
    }
  }

  /**
   * The batches' e-mails still to be sent: each to a user who takes e-mail (not deleted nor suspended, the privacy
   * switch on), a section per search with its listings still live (newest first, at most 20); none with nothing left.
   */
  private async mails(em: EntityManager, batchIds: string[]): Promise<Mail[]> {
    if (batchIds.length === 0) return [];
    const rows = await em
      .getConnection()
      .execute<Array<{ batch_id: string; saved_search_id: string; listing_id: string; occasion: string }>>(
        `select p.batch_id, p.saved_search_id, h.listing_id, h.occasion from saved_search_mail_part p join saved_search s on s.id = p.saved_search_id
          join saved_search_hit h on h.searches && array[s.number] and h.id > p.after_hit and h.id <= p.through_hit
        where p.batch_id = any(array[?]::uuid[]) order by h.matched_at desc, h.id desc`,
        [batchIds],
      );
    const searches = await em.find(
      SavedSearch,
      { id: { $in: [...new Set(rows.map((row) => row.saved_search_id))] } },
      { orderBy: { createdAt: 'asc' } },
    );
    const users = new Map(
      (await em.find(User, { id: { $in: [...new Set(searches.map((search) => search.user.id))] } }))
        .filter((user) => !user.deletedAt && !user.suspendedAt && user.emailNotifications)
        .map((user) => [user.id, user]),
    );
    // Which are still live, for every section at once; cards only for the few each section shows, read once for all.
    const live = await this.listings.liveIds([...new Set(rows.map((row) => row.listing_id))]);
    // A search's rows by batch (a search is in one batch of a job; an entry of an earlier version's job is one batch).
    const bySearch = new Map<string, Map<string, typeof rows>>();
    for (const row of rows) {
      const batches = bySearch.get(row.saved_search_id) ?? new Map<string, typeof rows>();
      batches.set(row.batch_id, [...(batches.get(row.batch_id) ?? []), row]);
      bySearch.set(row.saved_search_id, batches);
    }
    const drafts: Draft[] = [];
    for (const search of searches) {
      if (!users.has(search.user.id)) continue;
      let resolved;
      try {
        resolved = await this.listings.resolved(this.searches.queryOf(search));
      } catch {
        continue; // its place is no longer in the list: nothing it finds can be shown
      }
      for (const [batchId, mine] of bySearch.get(search.id) ?? []) {
        const liveIds = [...new Set(mine.map((row) => row.listing_id))].filter((id) => live.has(id));
        if (liveIds.length === 0) continue;
        const drops = new Set(mine.filter((row) => row.occasion.startsWith('drop:')).map((row) => row.listing_id));
        drafts.push({
          batchId,
          search,
          ids: liveIds.slice(0, DIGEST_LISTINGS_PER_SEARCH),
          liveCount: liveIds.length,
          drops,
          near: resolved.near,
        });
      }
    }
    const cards = await this.listings.liveCardsOf(drafts);
    const mails = new Map<string, Mail>();
    drafts.forEach((draft, i) => {
      const shown = cards[i] ?? [];
      if (shown.length === 0) return;
      const mail = mails.get(draft.batchId) ?? { batchId: draft.batchId, user: users.get(draft.search.user.id) as User, sections: [] };
      mail.sections.push({ search: draft.search, cards: shown, drops: draft.drops, more: draft.liveCount - shown.length });
      mails.set(draft.batchId, mail);
    });
    return [...mails.values()];
  }

  private text(name: string, sections: Section[], unsubscribe: string, manage: string): string {
    const lines = [`Hello ${name},`, ''];
    for (const section of sections) {
      lines.push(`Your saved search "${section.search.name}":`, '');
      for (const card of section.cards) {
        lines.push(
          `${section.drops.has(card.id) ? 'Price drop: ' : ''}${card.title}`,
          `  ${priceText(card)} · ${placeText(card)}`,
          `  ${this.config.publicUrl}/listing/${card.id}`,
        );
      }
      // The browse link once, with how many more it holds.
      lines.push(`  ${section.more > 0 ? `…and ${section.more} more. ` : ''}See them all: ${this.browseUrl(section.search)}`, '');
    }
    lines.push(
      '--',
      'You get these e-mails because you saved these searches on Fieldmarket.',
      `Stop e-mails about them (one click): ${unsubscribe}`,
      `Manage all your saved searches: ${manage}`,
    );
    return lines.join('\n');
  }

  private html(name: string, sections: Section[], unsubscribe: string, manage: string): string {
    const listing = (card: ListingCard, drop: boolean) => {
      const photo = card.images.find((image) => image.url)?.url;
      const image = photo
        ? `<img src="${escape(absolute(this.config.publicUrl, photo))}" alt="" width="120" height="90" style="object-fit:cover;border-radius:6px">`
        : '';
      return `<tr><td style="padding:8px 12px 8px 0;vertical-align:top;width:120px">${image}</td><td style="padding:8px 0;vertical-align:top">
        ${drop ? '<strong style="color:#b45309">Price drop</strong><br>' : ''}
        <a href="${escape(`${this.config.publicUrl}/listing/${card.id}`)}" style="color:#166534;font-weight:600">${escape(card.title)}</a><br>
        <span>${escape(priceText(card))}</span><br><span style="color:#555">${escape(placeText(card))}</span></td></tr>`;
    };
    const blocks = sections.map(
      (section) => `<h2 style="font-size:18px;margin:24px 0 8px">${escape(section.search.name)}</h2>
        <table role="presentation" cellpadding="0" cellspacing="0">${section.cards.map((card) => listing(card, section.drops.has(card.id))).join('')}</table>
        <p><a href="${escape(this.browseUrl(section.search))}">See ${section.more > 0 ? `all (${section.more} more)` : 'the search'} on Fieldmarket</a></p>`,
    );
    return `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#1f2937;max-width:640px;margin:0 auto;padding:16px">
      <p>Hello ${escape(name)},</p>${blocks.join('')}
      <hr><p style="font-size:13px;color:#555">You get these e-mails because you saved these searches on Fieldmarket.
      <a href="${escape(unsubscribe)}">Stop e-mails about them</a> · <a href="${escape(manage)}">Manage all your saved searches</a></p></body></html>`;
  }

  private browseUrl(search: SavedSearch): string {
    const query = new URLSearchParams(search.query.params).toString();
    return `${this.config.publicUrl}/browse${query ? `?${query}` : ''}`;
  }
}

/** "£38,500 + VAT", "£120 · per acre · No VAT", "£2,000 the lot · £100 a head": as the site's cards show it. */
function priceText(card: ListingCard): string {
  return formatCardPrice(card);
}

/** "Taunton, Somerset · 12 miles away". */
function placeText(card: ListingCard): string {
  return card.distance_miles === null ? card.location : `${card.location} · ${formatDistance(card.distance_miles)}`;
}

function absolute(base: string, url: string): string {
  return /^https?:/.test(url) ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
