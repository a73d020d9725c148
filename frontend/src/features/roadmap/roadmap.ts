/** The roadmap page's content (SPEC §2 "Roadmap", §3 "Roadmap feature"): seven phases and the Coming Soon list. */

export type RoadmapStatus = 'completed' | 'in-progress' | 'planned';

export interface RoadmapFeature {
  name: string;
  status: RoadmapStatus;
}

export interface RoadmapPhase {
  title: string;
  summary: string;
  features: readonly RoadmapFeature[];
}

export const STATUS_LABELS: Readonly<Record<RoadmapStatus, string>> = {
  completed: 'Completed',
  'in-progress': 'In progress',
  planned: 'Planned',
};

/** A phase is as far along as its least finished feature. */
export function phaseStatus(phase: RoadmapPhase): RoadmapStatus {
  if (phase.features.every((feature) => feature.status === 'completed')) return 'completed';
  if (phase.features.some((feature) => feature.status !== 'planned')) return 'in-progress';
  return 'planned';
}

export const PHASES: readonly RoadmapPhase[] = [
  {
    title: 'Accounts you can trust',
    summary: 'Signing up, signing in and keeping an account safe.',
    features: [
      { name: 'Sign-up with e-mail, or sign-in with Google', status: 'completed' },
      { name: 'Two-factor sign-in with recovery codes', status: 'completed' },
      { name: 'Profile and privacy settings', status: 'completed' },
      { name: 'Export your data and delete your account', status: 'completed' },
    ],
  },
  {
    title: 'Listings',
    summary: 'Posting land, machinery, livestock, seeds and services, for sale or to rent.',
    features: [
      { name: 'Four-step listing wizard with a saved draft', status: 'completed' },
      { name: 'Up to eight photos, with location data removed', status: 'completed' },
      { name: 'Prices per unit with VAT shown', status: 'completed' },
      { name: 'Renewal after 90 days, sold and let', status: 'completed' },
    ],
  },
  {
    title: 'Finding what you need',
    summary: 'Browsing, searching and keeping track of listings.',
    features: [
      { name: 'Browse with filters and sorting', status: 'completed' },
      { name: 'Search by distance from UK towns and villages', status: 'completed' },
      { name: 'Saved listings', status: 'completed' },
    ],
  },
  {
    title: 'Messaging and notifications',
    summary: 'Talking to buyers and sellers, and hearing about it straight away.',
    features: [
      { name: 'Conversations between buyers and sellers', status: 'in-progress' },
      { name: 'Live notifications in the header', status: 'in-progress' },
      { name: 'E-mail when a message is waiting', status: 'in-progress' },
    ],
  },
  {
    title: 'Trust and safety',
    summary: 'Keeping the marketplace honest.',
    features: [
      { name: 'Review of new listings within 24 hours', status: 'in-progress' },
      { name: 'Report a listing or a member', status: 'in-progress' },
      { name: 'Verified sellers', status: 'planned' },
    ],
  },
  {
    title: 'Help and community',
    summary: 'Answers, guides and a say in what we build.',
    features: [
      { name: 'Support Centre and contact form', status: 'completed' },
      { name: 'Guides for buying, selling and renting', status: 'completed' },
      { name: 'Feedback form and newsletter', status: 'in-progress' },
    ],
  },
  {
    title: 'Trading end to end',
    summary: 'From first message to a finished deal, on any device.',
    features: [
      { name: 'Bookings for rentals', status: 'planned' },
      { name: 'Secure payments and deposits', status: 'planned' },
      { name: 'Mobile apps', status: 'planned' },
    ],
  },
];

/** SPEC §2: a Coming Soon list of 15 features, shown disabled. */
export const COMING_SOON: readonly string[] = [
  'Live chat with our support team',
  'Mobile apps for iPhone and Android',
  'Secure payments and deposits',
  'Booking calendar for rentals',
  'Saved searches with e-mail alerts',
  'Seller ratings and reviews',
  'Verified business badges',
  'Timed online auctions',
  'Haulage and delivery quotes',
  'Market price guides',
  'Wanted adverts from buyers',
  'Bulk upload for dealers',
  'Listing statistics for sellers',
  'Welsh language version',
  'Weather and field conditions by location',
];
