/** What the last action on the profile page did, shown in its one status banner. */
export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

/** How a tab reports what its action did (the page shows it in the banner). */
export type Notify = (notice: Notice) => void;
