import { useEffect, useRef, useState } from 'react';
import { INBOX_KINDS, RESPONSE_HOURS } from '@contracts/staff';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import {
  categoryGroups,
  changeFilter,
  dueText,
  hasRatings,
  type InboxDetail,
  type InboxFilters,
  type InboxItem,
  type InboxSummary,
  NO_FILTERS,
  staffApi,
  type StaffMember,
} from './staff-api';
import { StaffRefusal, useStaffGate } from './StaffGate';
import './staff.css';

const KIND_LABELS: Record<string, string> = {
  contact: 'Contact',
  report: 'Reports',
  feedback: 'Feedback',
  story: 'Stories',
  business: 'Business checks',
  appeal: 'Appeals',
};
const DECISION_LABELS = { pending: 'waiting for a decision', approved: 'approved', declined: 'declined' } as const;
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** The staff inbox: what waits against the response times, filters, the list, and one item with its actions. */
function StaffInbox() {
  const gate = useStaffGate(() => staffApi.summary());
  const [summary, setSummary] = useState<InboxSummary | null>(null);
  const [filters, setFilters] = useState<InboxFilters>(NO_FILTERS);
  const [items, setItems] = useState<InboxItem[] | null>(null);
  const [nextBefore, setNextBefore] = useState<string | null>(null);
  const [members, setMembers] = useState<StaffMember[]>([]);
  const [open, setOpen] = useState<InboxDetail | null>(null);

  /** The filters the list shown was loaded for: while they differ from the form's, the list says it is busy. */
  const [listedFor, setListedFor] = useState<InboxFilters | null>(null);
  const refreshes = useRef(0);

  const refresh = async () => {
    const asked = filters;
    const call = ++refreshes.current;
    const [counts, page] = await Promise.all([staffApi.summary(), staffApi.inbox(asked)]);
    // A slower answer to filters changed since is not shown over the newer one.
    if (call !== refreshes.current) return;
    if (counts.ok) setSummary(counts.data);
    if (page.ok) {
      setItems(page.data.items);
      setNextBefore(page.data.next_before);
      setListedFor(asked);
    } else showToast({ title: 'Could not load the inbox', description: page.error, variant: 'destructive' });
  };
  useEffect(() => {
    if (gate.kind === 'open') void refresh();
  }, [gate.kind, filters]);
  useEffect(() => {
    if (gate.kind === 'open') void staffApi.members().then((outcome) => outcome.ok && setMembers(outcome.data));
  }, [gate.kind]);

  const more = async () => {
    if (!nextBefore) return;
    const page = await staffApi.inbox(filters, nextBefore);
    if (page.ok) {
      setItems([...(items ?? []), ...page.data.items]);
      setNextBefore(page.data.next_before);
    }
  };

  const openItem = async (item: { kind: string; id: string }) => {
    const detail = await staffApi.detail(item);
    if (!detail.ok) {
      showToast({ title: 'Could not open the item', description: detail.error, variant: 'destructive' });
      return;
    }
    if (!detail.data.read) {
      await staffApi.setRead(item, true);
      detail.data.read = true;
    }
    setOpen(detail.data);
    void refresh();
  };

  const act = async (label: string, call: () => Promise<{ ok: boolean; error?: string }>, after: 'reopen' | 'close' = 'reopen') => {
    const outcome = await call();
    if (!outcome.ok) {
      showToast({ title: `${label} failed`, description: outcome.error ?? '', variant: 'destructive' });
      return;
    }
    showToast({ title: label, variant: 'success' });
    if (after === 'close') setOpen(null);
    else if (open) await openItem(open);
    await refresh();
  };

  if (gate.kind === 'checking') return <p>Loading…</p>;
  if (gate.kind === 'refused') return <StaffRefusal message={gate.message} />;

  const set = (key: keyof InboxFilters) => (event: { target: { value: string } }) =>
    setFilters(changeFilter(filters, key, event.target.value));
  const groups = categoryGroups(filters.kind);

  return (
    <div className="staff-inbox">
      <ul className="staff-summary" aria-label="Waiting against the response times">
        {summary?.kinds.map((k) => (
          <li
            key={k.kind}
            className={`card staff-summary__kind${k.overdue > 0 ? ' staff-summary__kind--late' : ''}`}
            data-testid={`waiting-${k.kind}`}
          >
            <strong>{KIND_LABELS[k.kind] ?? k.kind}</strong>
            <span>
              {k.open} open · {k.unread} unread
            </span>
            <span>
              {k.overdue} past {k.response_hours} h{k.kind === 'feedback' && ` (bug reports ${RESPONSE_HOURS.urgentFeedback} h)`}
            </span>
          </li>
        ))}
      </ul>

      <form className="staff-filters" onSubmit={(event) => event.preventDefault()} aria-label="Filters">
        <label>
          Kind
          <select value={filters.kind} onChange={set('kind')}>
            <option value="">All</option>
            {INBOX_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={filters.status} onChange={set('status')}>
            <option value="open">Open</option>
            <option value="unread">Unread</option>
            <option value="read">Read</option>
            <option value="archived">Archived</option>
            <option value="all">All</option>
          </select>
        </label>
        <label>
          Category
          <select value={filters.category} onChange={set('category')} disabled={groups.length === 0}>
            <option value="">Any</option>
            {groups.length === 1
              ? groups[0]?.options.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))
              : groups.map((group) => (
                  <optgroup key={group.kind} label={KIND_LABELS[group.kind]}>
                    {group.options.map(({ value, label }) => (
                      <option key={`${group.kind}:${value}`} value={value}>
                        {label}
                      </option>
                    ))}
                  </optgroup>
                ))}
          </select>
        </label>
        <label>
          Rating
          <select value={filters.rating} onChange={set('rating')} disabled={!hasRatings(filters.kind)}>
            <option value="">Any</option>
            {[1, 2, 3, 4, 5].map((r) => (
              <option key={r} value={String(r)}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label>
          Assigned
          <select value={filters.assigned} onChange={set('assigned')}>
            <option value="">Anyone</option>
            <option value="me">Me</option>
          </select>
        </label>
      </form>

      <div className="staff-inbox__panes">
        <ul className="staff-list" aria-label="Inbox" aria-busy={listedFor !== filters}>
          {items?.length === 0 && <li className="staff-list__empty">Nothing here. Well done.</li>}
          {items?.map((item) => (
            <li key={`${item.kind}:${item.id}`}>
              <button
                type="button"
                className={`staff-list__item${item.read ? '' : ' staff-list__item--unread'}${open?.id === item.id ? ' staff-list__item--open' : ''}`}
                onClick={() => void openItem(item)}
                data-testid="inbox-item"
              >
                <span className="badge">{KIND_LABELS[item.kind]}</span>
                <span className="staff-list__subject">{item.subject}</span>
                <span className="staff-list__meta">
                  {item.from?.name ?? 'Deleted account'} · {when(item.created_at)} ·{' '}
                  <span className={item.overdue ? 'text-danger' : ''}>{item.archived ? 'archived' : dueText(item.due_at)}</span>
                  {item.assigned_to_name && ` · ${item.assigned_to_name}`}
                </span>
              </button>
            </li>
          ))}
          {nextBefore && (
            <li>
              <button type="button" className="btn btn--small btn--outline" onClick={() => void more()}>
                Load More
              </button>
            </li>
          )}
        </ul>
        {open && <ItemPanel item={open} members={members} act={act} />}
      </div>
    </div>
  );
}

type Act = (label: string, call: () => Promise<{ ok: boolean; error?: string }>, after?: 'reopen' | 'close') => Promise<void>;

type Call = () => Promise<{ ok: boolean; error?: string }>;

/**
 * A moderation staff can undo (hide a listing or a review, suspend an account): the danger button,
 * which needs the reason, while it is not applied; the button that undoes it once it is.
 */
function ModerationToggle(props: {
  applied: boolean;
  apply: { label: string; done: string; call: Call };
  undo: { label: string; done: string; call: Call };
  act: Act;
  needReason: (call: Call) => Call;
}) {
  const { applied, apply, undo, act } = props;
  return applied ? (
    <button type="button" className="btn btn--small btn--outline" onClick={() => void act(undo.done, undo.call)}>
      {undo.label}
    </button>
  ) : (
    <button type="button" className="btn btn--small btn--danger" onClick={() => void act(apply.done, props.needReason(apply.call))}>
      {apply.label}
    </button>
  );
}

function ItemPanel({ item, members, act }: { item: InboxDetail; members: StaffMember[]; act: Act }) {
  const [reply, setReply] = useState('');
  const [reason, setReason] = useState('');
  useEffect(() => {
    setReply('');
    setReason('');
  }, [item.id]);
  const needReason = (call: Call) => async () =>
    reason.trim().length < 5
      ? { ok: false, error: 'Write the reason first (at least 5 characters); the seller or author is told it.' }
      : call();

  return (
    <article className="card staff-item" aria-label="Inbox item" data-testid="inbox-detail">
      <h2>{item.subject}</h2>
      <dl className="staff-item__fields">
        {item.fields.map((field) => (
          <div key={field.label}>
            <dt>{field.label}</dt>
            <dd>{field.value}</dd>
          </div>
        ))}
        <div>
          <dt>Received</dt>
          <dd>
            {when(item.created_at)} ({dueText(item.due_at)})
          </dd>
        </div>
      </dl>
      <p className="staff-item__body">{item.body}</p>

      <div className="btn-row">
        <button
          type="button"
          className="btn btn--small btn--outline"
          onClick={() => void act('Marked unread', () => staffApi.setRead(item, false), 'close')}
        >
          Mark unread
        </button>
        <button
          type="button"
          className="btn btn--small btn--outline"
          onClick={() => void act(item.archived ? 'Unarchived' : 'Archived', () => staffApi.setArchived(item, !item.archived), 'close')}
        >
          {item.archived ? 'Unarchive' : 'Archive'}
        </button>
        <label className="staff-item__assign">
          Assigned to{' '}
          <select
            value={item.assigned_to_id ?? ''}
            onChange={(event) => void act('Assignment saved', () => staffApi.assign(item, event.target.value || null))}
          >
            <option value="">Nobody</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.is_me ? `${m.name} (me)` : m.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn--small btn--ghost text-danger"
          onClick={() => confirm('Delete this item for good?') && void act('Deleted', () => staffApi.remove(item), 'close')}
        >
          Delete
        </button>
      </div>

      {item.decision && (
        <section className="staff-item__moderation" aria-label="Decision">
          <h3>
            Decision: <span data-testid="decision-state">{DECISION_LABELS[item.decision.state]}</span>
          </h3>
          {item.decision.reason && <p>Reason given: {item.decision.reason}</p>}
          <label className="form-field">
            <span>Reason (needed to decline; the author is told it)</span>
            <textarea rows={2} value={reason} onChange={(event) => setReason(event.target.value)} />
          </label>
          <div className="btn-row">
            <button
              type="button"
              className="btn btn--small"
              disabled={item.decision.state === 'approved'}
              onClick={() => void act('Approved', () => staffApi.decide(item, 'approve', reason.trim()))}
            >
              Approve
            </button>
            <button
              type="button"
              className="btn btn--small btn--danger"
              disabled={item.decision.state === 'declined'}
              onClick={() => void act('Declined', () => staffApi.decide(item, 'decline', reason.trim()))}
            >
              Decline
            </button>
          </div>
        </section>
      )}

      {!item.decision && (item.listing || item.account || item.review) && (
        <section className="staff-item__moderation" aria-label="Moderation">
          <h3>Moderation</h3>
          <label className="form-field">
            <span>Reason (told to the seller when a listing is hidden, to the author when a review is)</span>
            <textarea rows={2} value={reason} onChange={(event) => setReason(event.target.value)} />
          </label>
          {item.listing && (
            <div className="btn-row">
              <span>
                Listing <a href={`/listing/${item.listing.id}`}>{item.listing.title}</a>:{' '}
                <strong data-testid="listing-status">{item.listing.status}</strong>
                {item.listing.featured && ' (featured)'}
              </span>
              <ModerationToggle
                applied={item.listing.status === 'removed'}
                apply={{ label: 'Hide listing', done: 'Listing hidden', call: () => staffApi.hide(item.listing!.id, reason.trim()) }}
                undo={{ label: 'Restore listing', done: 'Listing restored', call: () => staffApi.restore(item.listing!.id) }}
                act={act}
                needReason={needReason}
              />
              {item.listing.appeal_pending && (
                <span data-testid="appeal-pending">The owner has appealed: decide the appeal, which closes the case.</span>
              )}
              {item.listing.status === 'removed' &&
                !item.listing.removed_with_seller &&
                !item.listing.case_closed &&
                !item.listing.appeal_pending && (
                  <button
                    type="button"
                    className="btn btn--small btn--outline"
                    onClick={() =>
                      void act('Case closed: the listing stays hidden', () => staffApi.closeCase(item.listing!.id, reason.trim()))
                    }
                  >
                    Close case
                  </button>
                )}
              {item.listing.status === 'live' && (
                <button
                  type="button"
                  className="btn btn--small btn--outline"
                  onClick={() =>
                    void act(item.listing!.featured ? 'Unfeatured' : 'Featured', () =>
                      staffApi.feature(item.listing!.id, !item.listing!.featured),
                    )
                  }
                >
                  {item.listing.featured ? 'Unfeature' : 'Feature'}
                </button>
              )}
            </div>
          )}
          {item.review && (
            <div className="staff-item__review">
              <p>
                Review by {item.review.author_name} (<a href={`/profile/${item.review.reviewed_id}#reviews`}>on their profile</a>),{' '}
                {item.review.stars} of 5 stars: <strong data-testid="review-status">{item.review.hidden ? 'hidden' : 'shown'}</strong>
              </p>
              <blockquote className="staff-item__quote">{item.review.text}</blockquote>
              <div className="btn-row">
                <ModerationToggle
                  applied={item.review.hidden}
                  apply={{ label: 'Hide review', done: 'Review hidden', call: () => staffApi.hideReview(item.review!.id, reason.trim()) }}
                  undo={{ label: 'Restore review', done: 'Review restored', call: () => staffApi.restoreReview(item.review!.id) }}
                  act={act}
                  needReason={needReason}
                />
              </div>
            </div>
          )}
          {item.account && (
            <div className="btn-row">
              <span>
                {item.listing ? 'Seller' : 'Person'} <a href={`/profile/${item.account.id}`}>{item.account.name}</a>:{' '}
                {item.account.suspended_at ? 'suspended' : 'active'}
              </span>
              <ModerationToggle
                applied={Boolean(item.account.suspended_at)}
                apply={{
                  label: 'Suspend account',
                  done: 'Account suspended',
                  call: () => staffApi.suspend(item.account!.id, reason.trim()),
                }}
                undo={{ label: 'Lift suspension', done: 'Suspension lifted', call: () => staffApi.unsuspend(item.account!.id) }}
                act={act}
                needReason={needReason}
              />
            </div>
          )}
        </section>
      )}

      <section aria-label="Thread">
        <h3>Replies</h3>
        {item.replies.length === 0 && <p className="staff-item__muted">No replies yet.</p>}
        <ol className="staff-thread">
          {item.replies.map((r) => (
            <li key={r.id}>
              <p className="staff-item__muted">
                {r.staff_name} to {r.to}, {when(r.created_at)} · {r.sent_at ? 'sent' : 'sending…'}
              </p>
              <p className="staff-item__body">{r.body}</p>
            </li>
          ))}
        </ol>
        {item.from ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void act('Reply queued', () => staffApi.reply(item, reply));
            }}
          >
            <label className="form-field">
              <span>Reply to {item.from.email}</span>
              <textarea rows={4} value={reply} onChange={(event) => setReply(event.target.value)} maxLength={5000} />
            </label>
            <button type="submit" className="btn btn--small" disabled={reply.trim().length < 2}>
              Send reply
            </button>
          </form>
        ) : (
          <p className="staff-item__muted">The sender deleted their account; there is no address to reply to.</p>
        )}
      </section>

      <section aria-label="Audit log">
        <h3>Audit log</h3>
        {item.audit.length === 0 && <p className="staff-item__muted">No staff actions yet.</p>}
        <ul className="staff-audit" data-testid="audit-log">
          {item.audit.map((entry) => (
            <li key={entry.id}>
              {when(entry.created_at)}: {entry.staff_name} — {entry.action} {entry.target_kind}
              {entry.reason && `: ${entry.reason}`}
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}

export default withErrorBoundary(StaffInbox);
