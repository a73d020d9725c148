import { api } from '../../lib/api';
import { REQUEST_TIMEOUT_MS, settle } from '../listings/listings-api';
import { replyError } from './reviews-logic';

/** Wires one reply box under a review of the signed-in member: sends (or changes) the reply, then shows the page again. */
export function setupReplyForm(form: HTMLFormElement): void {
  const id = form.dataset['reviewReply'] ?? '';
  const edit = form.dataset['reviewReplied'] === 'yes';
  const error = form.querySelector<HTMLElement>('[data-review-error]');
  const send = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!error || !send) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const reply = String(new FormData(form).get('reply') ?? '');
    const problem = replyError(reply);
    if (problem) {
      error.textContent = problem;
      error.hidden = false;
      return;
    }
    send.disabled = true;
    const request = { params: { path: { id } }, body: { reply }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
    const outcome = await settle(() =>
      edit ? api.PATCH('/api/reviews/{id}/reply', request) : api.POST('/api/reviews/{id}/reply', request),
    );
    send.disabled = false;
    if (outcome.ok) {
      location.reload();
      return;
    }
    error.textContent =
      outcome.status === 0 ? 'Unable to connect to the server. Please check your internet connection and try again.' : outcome.error;
    error.hidden = false;
  });
}
