import { STORY_RULES, STORY_TEXTS } from '@contracts/stories';
import { textFieldError, trimText } from '@contracts/text-rules';
import { api, hasSignedInHint } from '../../lib/api';
import { escapeHtml } from '../listings/listing-card';
import { REQUEST_TIMEOUT_MS, settle } from '../listings/listings-api';

interface OwnStories {
  eligible: boolean;
  stories: Array<{ id: string; story: string; status: 'pending' | 'approved' | 'declined'; decline_reason: string | null }>;
}

const STATUS_TEXT = { pending: 'Waiting for our team', approved: 'Published', declined: 'Not published' } as const;

/** Shows the form to a member with a deal, their stories' state, or why they cannot tell one yet. */
export async function setupShareStory(root: HTMLElement): Promise<void> {
  const part = (name: string) => root.querySelector<HTMLElement>(`[data-share-story-${name}]`)!;
  const form = part('form') as HTMLFormElement;
  const error = part('error');
  const sentNote = part('sent');
  if (!hasSignedInHint(document.cookie)) return;
  part('signin').hidden = true;

  const show = (mine: OwnStories) => {
    const waiting = mine.stories.some((s) => s.status === 'pending');
    part('nodeal').hidden = mine.eligible;
    form.hidden = !mine.eligible || waiting;
    const list = part('mine');
    list.hidden = mine.stories.length === 0;
    list.innerHTML = mine.stories
      .map(
        (s) =>
          `<li><strong>${STATUS_TEXT[s.status]}</strong>: “${escapeHtml(s.story.slice(0, 80))}${s.story.length > 80 ? '…' : ''}”${
            s.decline_reason ? ` — ${escapeHtml(s.decline_reason)}` : ''
          }</li>`,
      )
      .join('');
  };

  const mine = await settle<OwnStories>(() => api.GET('/api/stories/mine', { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
  if (!mine.ok) {
    part('signin').hidden = mine.status !== 401;
    return;
  }
  show(mine.data);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = new FormData(form);
    const story = String(trimText(String(values.get('story') ?? '')));
    const naming = String(values.get('naming') ?? '') as 'full-name' | 'first-name' | 'anonymous';
    sentNote.hidden = true;
    const problem = textFieldError(STORY_RULES.story, story);
    error.hidden = !problem;
    if (problem) {
      error.textContent = problem;
      return;
    }
    const sent = await settle<OwnStories>(() =>
      api.POST('/api/stories', { body: { story, naming }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    );
    if (sent.ok) {
      form.reset();
      show(sent.data);
      error.hidden = true;
      sentNote.textContent = STORY_TEXTS.sent;
      sentNote.hidden = false;
    } else {
      // The text stays in the form: nothing the member wrote is lost.
      error.textContent = sent.fields['story'] ?? sent.error;
      error.hidden = false;
    }
  });
}
