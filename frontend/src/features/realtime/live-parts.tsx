import { useEffect, useState } from 'react';
import { hasSignedInHint } from '../../lib/signed-in-hint';
import type { LiveEventPayload, LiveEventType } from '../../stores/live-events';
import type { RealtimeStatus } from '../../stores/realtime-status';

/** The live events a signed-in page can receive. */
export const LIVE_TYPES = [
  'NEW_LISTING',
  'LISTING_UPDATED',
  'NEW_MESSAGE',
  'MESSAGE_NOTIFICATION',
  'BOOKING_DECIDED',
  'REVIEW_RECEIVED',
  'PROFILE_UPDATED',
  'IMAGE_PROCESSED',
] as const satisfies readonly LiveEventType[];

/** Each event that carries a bell notification: the type check below fails when one is missing from LIVE_TYPES. */
type NotificationEventType = {
  [K in LiveEventType]: LiveEventPayload<K> extends { data: { notification: unknown } } ? K : never;
}[LiveEventType];
type MissingLiveType = Exclude<NotificationEventType, (typeof LIVE_TYPES)[number]>;
export const EVERY_NOTIFICATION_IS_LIVE: [MissingLiveType] extends [never] ? true : MissingLiveType = true;

/** The spec's connection types; connecting counts as disconnected until the first answer. */
export function connectionType(status: RealtimeStatus): 'realtime' | 'polling' | 'disconnected' {
  return status === 'connecting' ? 'disconnected' : status;
}

/** Whether this browser says it is signed in (the fm_signed_in hint): null until known in the browser (pages are prerendered). */
export function useSignedInHint(): boolean | null {
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  useEffect(() => setSignedIn(hasSignedInHint(document.cookie)), []);
  return signedIn;
}

/** What a visitor reads where a signed-in user sees the live channel; `purpose`: "to see its diagnostics". */
export function SignedInOnlyNote({ purpose }: { purpose: string }) {
  return (
    <p className="diagnostics__note">
      The live channel opens for signed-in users only. <a href="/signin">Sign in</a> {purpose}.
    </p>
  );
}

/** The connection type as a definition-list entry, with its coloured dot. */
export function ConnectionTypeEntry({ status }: { status: RealtimeStatus }) {
  const type = connectionType(status);
  return (
    <div>
      <dt>Connection type</dt>
      <dd data-testid="connection-type" data-type={type}>
        <span className={`live-dot-inline live-dot-inline--${type}`} aria-hidden="true" /> {type}
      </dd>
    </div>
  );
}
