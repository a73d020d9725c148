import { saveReply } from './reviews-api';
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
    const outcome = await saveReply(id, reply, edit);
    send.disabled = false;
    if (outcome.ok) {
      location.reload();
      return;
    }
    // A lost connection reads as everywhere else in the reviews (api-result's NETWORK_ERROR).
    error.textContent = outcome.error;
    error.hidden = false;
  });
}
