import type { TextRule } from './text-rules.js';

/** A success story (issue 23 §1): told by a member who did a deal here, published once staff approve it. */
export const STORY_RULES = {
  story: { label: 'Story', minLength: 20, maxLength: 600 },
} as const satisfies Record<string, TextRule>;

/** How the author chose to be named under their story. */
export const STORY_NAMINGS = ['full-name', 'first-name', 'anonymous'] as const;
export type StoryNaming = (typeof STORY_NAMINGS)[number];
export const STORY_NAMING_LABELS: Record<StoryNaming, string> = {
  'full-name': 'My full name',
  'first-name': 'My first name only',
  anonymous: '“A Fieldmarket member”',
};

export type StoryStatus = 'pending' | 'approved' | 'declined';

export const STORY_TEXTS = {
  noDeal:
    'Stories come from members who have done a deal here: a booking accepted, or a listing marked sold or let after you talked it over in messages.',
  alreadyWaiting: 'Your story is waiting for our team to read it. You can send another once it has been answered.',
  sent: 'Thank you. Our team reads every story before it is published; you will see here when it is.',
  tooMany: 'You have sent several stories today. Please wait a while before sending another.',
  notFound: 'That story does not exist.',
} as const;

/** The name shown under a story, as its author chose. */
export function storyAuthorName(fullName: string, naming: StoryNaming): string {
  if (naming === 'anonymous') return 'A Fieldmarket member';
  return naming === 'first-name' ? (fullName.trim().split(/\s+/)[0] ?? fullName) : fullName;
}
