import type { EntityManager, FilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { InboxKind, InboxStatus } from '../../../contracts/staff.js';
import { isUuid } from '../../../common/uuid.js';

/** One item of the staff inbox, whatever its source. */
export interface InboxItem {
  kind: InboxKind;
  id: string;
  subject: string;
  /** Who sent it, and where a reply goes; null when nobody can be written to. */
  from: { name: string; email: string } | null;
  preview: string;
  category: string | null;
  categoryLabel: string | null;
  rating: number | null;
  createdAt: Date;
  readAt: Date | null;
  archivedAt: Date | null;
  assignedToId: string | null;
  /** When the stated response time runs out. */
  dueAt: Date;
  /** What a report is about (a listing or a person): the moderation buttons act on it. */
  target: { kind: 'listing' | 'user' | 'review'; id: string; label: string } | null;
}

export interface InboxItemDetail extends InboxItem {
  body: string;
  fields: Array<{ label: string; value: string }>;
  /** For an item staff approve or decline (a success story): where it stands. */
  decision?: InboxDecision;
}

/** Where an item staff approve or decline stands, and the reason given with a decline. */
export interface InboxDecision {
  state: 'pending' | 'approved' | 'declined';
  reason: string | null;
}

export interface InboxFilter {
  status: InboxStatus;
  category?: string;
  rating?: number;
  assignedToId?: string;
  /** Items created before this instant (the next page). */
  before?: Date;
  limit: number;
}

export interface WaitingCount {
  kind: InboxKind;
  /** Open: not archived. */
  open: number;
  unread: number;
  /** Open past its stated response time. */
  overdue: number;
  responseHours: number;
}

/**
 * The port the staff inbox reads through. A module whose items staff answer (contact, reports,
 * feedback) implements it over its own table and registers it (see InboxSourceBase): the inbox
 * never reads another module's tables.
 */
export interface InboxSource {
  readonly kind: InboxKind;
  list(filter: InboxFilter): Promise<InboxItem[]>;
  get(id: string): Promise<InboxItemDetail | null>;
  /**
   * Each changes the item in `tx`, the caller's transaction (so the change and its audit entry
   * are written together or not at all), and returns false when there is no such item.
   */
  setRead(tx: EntityManager, id: string, read: boolean): Promise<boolean>;
  setArchived(tx: EntityManager, id: string, archived: boolean): Promise<boolean>;
  assign(tx: EntityManager, id: string, staffId: string | null): Promise<boolean>;
  delete(tx: EntityManager, id: string): Promise<boolean>;
  waiting(): Promise<WaitingCount>;
  /**
   * Approves or declines the item in `tx` (sources whose items are decided: a success story); false when
   * there is no such item. The reason of a decline goes to the item's author.
   */
  decide?(tx: EntityManager, id: string, decision: InboxDecisionKind, reason: string | undefined): Promise<boolean>;
}

export type InboxDecisionKind = 'approve' | 'decline';

/** The columns of an item staff approve or decline (a success story, a business check). */
export interface DecidedRow {
  status: 'pending' | 'approved' | 'declined';
  decidedAt?: Date | null;
  declineReason?: string | null;
  readAt?: Date | null;
}

/** Records a decision on `row`: its state, when, the reason of a decline; deciding also reads it. */
export function applyDecision(row: DecidedRow, decision: InboxDecisionKind, reason: string | undefined, now = new Date()): void {
  row.status = decision === 'approve' ? 'approved' : 'declined';
  row.declineReason = decision === 'decline' ? reason : null;
  row.decidedAt = now;
  row.readAt ??= now;
}

/** Where a decided row stands, as the inbox detail shows it. */
export const decisionOf = (row: DecidedRow): InboxDecision => ({ state: row.status, reason: row.declineReason ?? null });

/** Every registered source, by kind. */
@Injectable()
export class InboxSources {
  private readonly sources = new Map<InboxKind, InboxSource>();

  add(source: InboxSource): void {
    if (this.sources.has(source.kind)) throw new Error(`Two inbox sources for "${source.kind}"`);
    this.sources.set(source.kind, source);
  }

  get(kind: string): InboxSource | undefined {
    return this.sources.get(kind as InboxKind);
  }

  all(): InboxSource[] {
    return [...this.sources.values()];
  }
}

/** The columns an inbox source keeps on its own rows. */
export interface InboxTracked {
  id: string;
  createdAt: Date;
  readAt?: Date | null;
  archivedAt?: Date | null;
  assignedToId?: string | null;
}

/** Newest first; the id orders items created in the same instant. */
const NEWEST_FIRST: QueryOrderMap<InboxTracked> = { createdAt: 'desc', id: 'desc' };

/** The instant `hours` before `now`: items created before it have waited longer than that. */
export const hoursBefore = (now: Date, hours: number) => new Date(now.getTime() - hours * 3600_000);

/**
 * An inbox source over one entity with the InboxTracked columns. A module adds its source by
 * listing one provider that extends this: it registers itself with InboxSources at start.
 */
export abstract class InboxSourceBase<E extends InboxTracked> implements InboxSource, OnModuleInit {
  abstract readonly kind: InboxKind;
  protected abstract readonly entity: new () => E;
  protected abstract readonly responseHours: number;

  constructor(
    protected readonly em: EntityManager,
    private readonly registry: InboxSources,
  ) {}

  onModuleInit(): void {
    this.registry.add(this);
  }

  /** The item as the inbox lists it. */
  protected abstract toItem(row: E): InboxItem | Promise<InboxItem>;
  /** The item with everything it says. */
  protected abstract toDetail(row: E): InboxItemDetail | Promise<InboxItemDetail>;
  /** Narrows to a category (a report's reason, feedback's category); sources without categories match nothing. */
  protected categoryWhere(_category: string): FilterQuery<E> | undefined {
    return undefined;
  }
  protected ratingWhere(_rating: number): FilterQuery<E> | undefined {
    return undefined;
  }

  async list(filter: InboxFilter): Promise<InboxItem[]> {
    const where: Record<string, unknown>[] = [];
    if (filter.status === 'unread') where.push({ readAt: null, archivedAt: null });
    if (filter.status === 'read') where.push({ readAt: { $ne: null }, archivedAt: null });
    if (filter.status === 'open') where.push({ archivedAt: null });
    if (filter.status === 'archived') where.push({ archivedAt: { $ne: null } });
    if (filter.category !== undefined) {
      const category = this.categoryWhere(filter.category);
      if (!category) return [];
      where.push(category as Record<string, unknown>);
    }
    if (filter.rating !== undefined) {
      const rating = this.ratingWhere(filter.rating);
      if (!rating) return [];
      where.push(rating as Record<string, unknown>);
    }
    if (filter.assignedToId) where.push({ assignedToId: filter.assignedToId });
    if (filter.before) where.push({ createdAt: { $lt: filter.before } });
    const rows = await this.load(this.em.fork(), { $and: where } as FilterQuery<E>, { orderBy: NEWEST_FIRST, limit: filter.limit });
    return Promise.all(rows.map((row) => this.toItem(row)));
  }

  async get(id: string): Promise<InboxItemDetail | null> {
    const row = await this.find(this.em.fork(), id);
    return row ? this.toDetail(row) : null;
  }

  setRead(tx: EntityManager, id: string, read: boolean): Promise<boolean> {
    return this.change(tx, id, (row) => (row.readAt = read ? (row.readAt ?? new Date()) : null));
  }

  setArchived(tx: EntityManager, id: string, archived: boolean): Promise<boolean> {
    return this.change(tx, id, (row) => (row.archivedAt = archived ? (row.archivedAt ?? new Date()) : null));
  }

  assign(tx: EntityManager, id: string, staffId: string | null): Promise<boolean> {
    return this.change(tx, id, (row) => (row.assignedToId = staffId));
  }

  async delete(tx: EntityManager, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await tx.nativeDelete(this.entity, { id } as FilterQuery<E>)) === 1;
  }

  async waiting(): Promise<WaitingCount> {
    const em = this.em.fork();
    const [open, unread, overdue] = await Promise.all([
      em.count(this.entity, { archivedAt: null } as FilterQuery<E>),
      em.count(this.entity, { archivedAt: null, readAt: null } as FilterQuery<E>),
      em.count(this.entity, { $and: [{ archivedAt: null }, this.overdueWhere(new Date())] } as FilterQuery<E>),
    ]);
    return { kind: this.kind, open, unread, overdue, responseHours: this.responseHours };
  }

  /** When an item is due; a source whose items have different response times overrides this and overdueWhere together. */
  protected dueAt(row: E): Date {
    return new Date(row.createdAt.getTime() + this.responseHours * 3600_000);
  }

  /** The rows whose dueAt is before `now`. */
  protected overdueWhere(now: Date): FilterQuery<E> {
    return { createdAt: { $lt: hoursBefore(now, this.responseHours) } } as unknown as FilterQuery<E>;
  }

  /** The columns every item shares. */
  protected tracked(row: E): Pick<InboxItem, 'kind' | 'id' | 'createdAt' | 'readAt' | 'archivedAt' | 'assignedToId' | 'dueAt'> {
    return {
      kind: this.kind,
      id: row.id,
      createdAt: row.createdAt,
      readAt: row.readAt ?? null,
      archivedAt: row.archivedAt ?? null,
      assignedToId: row.assignedToId ?? null,
      dueAt: this.dueAt(row),
    };
  }

  /**
   * The rows toItem and toDetail read. A source whose items show a relation overrides this to load it
   * (its populate hint is typed there, on its own entity; over the generic one it cannot be).
   */
  protected load(em: EntityManager, where: FilterQuery<E>, options: { orderBy?: QueryOrderMap<E>; limit?: number }): Promise<E[]> {
    return em.find(this.entity, where, options);
  }

  private async find(em: EntityManager, id: string): Promise<E | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.load(em, { id } as FilterQuery<E>, { limit: 1 });
    return row ?? null;
  }

  private async change(tx: EntityManager, id: string, apply: (row: E) => unknown): Promise<boolean> {
    const row = await this.find(tx, id);
    if (!row) return false;
    apply(row);
    await tx.flush();
    return true;
  }
}
