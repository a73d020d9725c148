import { DIGEST_HOUR, DIGEST_TIME_ZONE } from '../../contracts/saved-searches.js';

export type DigestFrequency = 'daily' | 'weekly';

const wallClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: DIGEST_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** The UK's wall-clock time of an instant, read as if it were UTC (so its fields can be read with getUTC*). */
function ukWallClock(instant: Date): Date {
  const parts = Object.fromEntries(wallClock.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second));
}

/** The instant the UK's clocks show this date at DIGEST_HOUR (never in a clock change's gap or repeat, which are at 01:00-02:00). */
function ukDigestTime(year: number, month: number, day: number): Date {
  const asUtc = Date.UTC(year, month, day, DIGEST_HOUR);
  const offset = ukWallClock(new Date(asUtc)).getTime() - asUtc;
  return new Date(asUtc - offset);
}

/**
 * The latest digest time at or before `now`: 07:00 UK time each day (daily) or each Monday
 * (weekly), whether the clocks show GMT or BST that day.
 */
export function lastDigestDue(frequency: DigestFrequency, now: Date): Date {
  const today = ukWallClock(now);
  for (let back = 0; back <= 7; back++) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - back));
    if (frequency === 'weekly' && day.getUTCDay() !== 1) continue;
    const due = ukDigestTime(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
    if (due <= now) return due;
  }
  throw new Error('unreachable: a digest time lies within the last eight days');
}
