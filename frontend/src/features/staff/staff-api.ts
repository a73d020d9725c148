import { FEEDBACK_CATEGORIES } from '@contracts/feedback';
import { REPORT_REASONS } from '@contracts/staff';
import { api } from '../../lib/api';
import { routeQuery } from '../../lib/route-query';
import type { components } from '../../lib/api-types';
import { REQUEST_TIMEOUT_MS, settle, type Outcome } from '../listings/listings-api';

export type InboxItem = components['schemas']['InboxItemResponse'];
export type InboxDetail = components['schemas']['InboxItemDetailResponse'];
export type InboxPage = components['schemas']['InboxPage'];
export type InboxSummary = components['schemas']['InboxSummaryResponse'];
export type StaffMember = components['schemas']['StaffMemberResponse'];
export type QueueDashboard = components['schemas']['QueueDashboardResponse'];
export type ListingModeration = components['schemas']['ListingModerationResponse'];
export type AccountModeration = components['schemas']['AccountModerationResponse'];

export interface InboxFilters {
  kind: string;
  status: string;
  category: string;
  rating: string;
  assigned: string;
}

export const NO_FILTERS: InboxFilters = { kind: '', status: 'open', category: '', rating: '', assigned: '' };

/** The filters as the API's query: empty ones left out. */
export function inboxQuery(filters: InboxFilters, before?: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) if (value) query[key] = value;
  if (before) query['before'] = before;
  return query;
}

/** The categories one kind of item has: a report's reasons, feedback's six categories; contact messages have none. */
const CATEGORIES: Record<string, Array<{ value: string; label: string }>> = {
  report: Object.entries(REPORT_REASONS).map(([value, label]) => ({ value, label })),
  feedback: FEEDBACK_CATEGORIES.map(({ value, label }) => ({ value, label })),
};
const KINDS_WITH_RATINGS = ['feedback'];

/** What the Category filter offers for the chosen kind, in groups (every kind's when none is chosen). */
export function categoryGroups(kind: string): Array<{ kind: string; options: Array<{ value: string; label: string }> }> {
  const kinds = kind ? [kind] : Object.keys(CATEGORIES);
  return kinds.filter((k) => CATEGORIES[k]).map((k) => ({ kind: k, options: CATEGORIES[k] ?? [] }));
}

/** Whether the Rating filter applies to the chosen kind (only feedback is rated). */
export function hasRatings(kind: string): boolean {
  return !kind || KINDS_WITH_RATINGS.includes(kind);
}

/** New filters after one changes: a category or rating the chosen kind does not have is cleared. */
export function changeFilter(filters: InboxFilters, key: keyof InboxFilters, value: string): InboxFilters {
  const next = { ...filters, [key]: value };
  if (key !== 'kind') return next;
  const categories = categoryGroups(next.kind).flatMap((group) => group.options.map((o) => o.value));
  if (!categories.includes(next.category)) next.category = '';
  if (!hasRatings(next.kind)) next.rating = '';
  return next;
}

/** "3 h left", "overdue by 2 h": how an item stands against its stated response time. */
export function dueText(dueAt: string, now = Date.now()): string {
  const hours = Math.round((new Date(dueAt).getTime() - now) / 3_600_000);
  if (hours >= 0) return hours === 0 ? 'due within the hour' : `${hours} h left`;
  return `overdue by ${-hours} h`;
}

const signal = () => AbortSignal.timeout(REQUEST_TIMEOUT_MS);
type Kind = { kind: string; id: string };
const path = ({ kind, id }: Kind) => ({ path: { kind, id } });

export const staffApi = {
  summary: (): Promise<Outcome<InboxSummary>> => settle(() => api.GET('/api/staff/inbox/summary', { signal: signal() })),
  inbox: (filters: InboxFilters, before?: string): Promise<Outcome<InboxPage>> =>
    settle(() =>
      api.GET('/api/staff/inbox', { params: { query: routeQuery('/api/staff/inbox', inboxQuery(filters, before)) }, signal: signal() }),
    ),
  detail: (item: Kind): Promise<Outcome<InboxDetail>> =>
    settle(() => api.GET('/api/staff/inbox/{kind}/{id}', { params: path(item), signal: signal() })),
  members: (): Promise<Outcome<StaffMember[]>> => settle(() => api.GET('/api/staff/members', { signal: signal() })),
  setRead: (item: Kind, read: boolean) =>
    done(api.POST('/api/staff/inbox/{kind}/{id}/read', { params: path(item), body: { read }, signal: signal() })),
  setArchived: (item: Kind, archived: boolean) =>
    done(api.POST('/api/staff/inbox/{kind}/{id}/archive', { params: path(item), body: { archived }, signal: signal() })),
  assign: (item: Kind, staffId: string | null) =>
    done(api.POST('/api/staff/inbox/{kind}/{id}/assign', { params: path(item), body: { staff_id: staffId }, signal: signal() })),
  remove: (item: Kind) => done(api.DELETE('/api/staff/inbox/{kind}/{id}', { params: path(item), signal: signal() })),
  reply: (item: Kind, message: string) =>
    settle(() => api.POST('/api/staff/inbox/{kind}/{id}/replies', { params: path(item), body: { message }, signal: signal() })),
  decide: (item: Kind, decision: 'approve' | 'decline', reason: string) =>
    done(
      api.POST('/api/staff/inbox/{kind}/{id}/decision', {
        params: path(item),
        body: { decision, ...(reason ? { reason } : {}) },
        signal: signal(),
      }),
    ),
  hide: (id: string, reason: string): Promise<Outcome<ListingModeration>> =>
    settle(() => api.POST('/api/staff/listings/{id}/hide', { params: { path: { id } }, body: { reason }, signal: signal() })),
  restore: (id: string): Promise<Outcome<ListingModeration>> =>
    settle(() => api.POST('/api/staff/listings/{id}/restore', { params: { path: { id } }, body: {}, signal: signal() })),
  closeCase: (id: string, reason: string): Promise<Outcome<ListingModeration>> =>
    settle(() =>
      api.POST('/api/staff/listings/{id}/close-case', { params: { path: { id } }, body: reason ? { reason } : {}, signal: signal() }),
    ),
  feature: (id: string, featured: boolean): Promise<Outcome<ListingModeration>> =>
    settle(() => api.POST('/api/staff/listings/{id}/feature', { params: { path: { id } }, body: { featured }, signal: signal() })),
  hideReview: (id: string, reason: string) =>
    done(api.POST('/api/staff/reviews/{id}/hide', { params: { path: { id } }, body: { reason }, signal: signal() })),
  restoreReview: (id: string) =>
    done(api.POST('/api/staff/reviews/{id}/restore', { params: { path: { id } }, body: {}, signal: signal() })),
  suspend: (id: string, reason: string): Promise<Outcome<AccountModeration>> =>
    settle(() => api.POST('/api/staff/users/{id}/suspend', { params: { path: { id } }, body: { reason }, signal: signal() })),
  unsuspend: (id: string): Promise<Outcome<AccountModeration>> =>
    settle(() => api.POST('/api/staff/users/{id}/unsuspend', { params: { path: { id } }, body: {}, signal: signal() })),
  queues: (): Promise<Outcome<QueueDashboard>> => settle(() => api.GET('/api/staff/queues', { signal: signal() })),
  retryJob: (queue: string, id: string) =>
    done(api.POST('/api/staff/queues/{queue}/jobs/{id}/retry', { params: { path: { queue, id } }, signal: signal() })),
  removeJob: (queue: string, id: string) =>
    done(api.DELETE('/api/staff/queues/{queue}/jobs/{id}', { params: { path: { queue, id } }, signal: signal() })),
};

/** A call answered with 204: ok, or the envelope's error. */
async function done(
  call: Promise<{ error?: unknown; response: Response }>,
): Promise<{ ok: true } | { ok: false; status: number; error: string }> {
  try {
    const { error, response } = await call;
    if (response.ok) return { ok: true };
    const text = (error as { error?: unknown } | undefined)?.error;
    return { ok: false, status: response.status, error: typeof text === 'string' ? text : `HTTP error! status: ${response.status}` };
  } catch (error) {
    return { ok: false, status: 0, error: error instanceof Error ? error.message : String(error) };
  }
}
