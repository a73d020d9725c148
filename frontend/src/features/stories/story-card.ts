import { escapeHtml } from '../listings/listing-card';

/** A published success story as the API gives it. */
export interface PublishedStory {
  id: string;
  story: string;
  author_name: string;
  deal: string;
  published_at: string;
}

/** One story as a card (escaped: the words are the member's own). */
export function storyCardHtml(story: PublishedStory): string {
  return `<li class="card story-card">
  <blockquote class="story-card__quote"><p>“${escapeHtml(story.story)}”</p></blockquote>
  <p class="story-card__author"><strong>${escapeHtml(story.author_name)}</strong><span>${escapeHtml(story.deal)}</span></p>
</li>`;
}
