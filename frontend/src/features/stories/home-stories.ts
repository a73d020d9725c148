import { api } from '../../lib/api';
import { REQUEST_TIMEOUT_MS, settle } from '../listings/listings-api';
import { storyCardHtml, type PublishedStory } from './story-card';

const HOME_STORIES = 3;

/** Stories on the home page: the newest three (only those are fetched), shown only when there are some. */
export async function showHomeStories(section: HTMLElement): Promise<void> {
  const list = section.querySelector<HTMLElement>('[data-home-stories-list]');
  const outcome = await settle<{ stories: PublishedStory[] }>(() =>
    api.GET('/api/stories', { params: { query: { limit: HOME_STORIES } }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  );
  if (!list || !outcome.ok || outcome.data.stories.length === 0) return;
  list.innerHTML = outcome.data.stories.map(storyCardHtml).join('');
  section.hidden = false;
}
