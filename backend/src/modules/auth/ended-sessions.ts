import { Inject, Injectable } from '@nestjs/common';
import type { DomainEvent } from '../../events/domain-events.js';
import type { SqlClient } from '../../infra/database/sql-client.js';
import { type SubscriberOptions, OnDomainEvent } from '../../infra/queue/job-registry.js';
import { publishWithSql } from '../../infra/queue/outbox-sql.js';
import { Realtime } from '../../infra/realtime/realtime.js';

/** The one subscriber of 'user.sessions-ended' (the command line names it, having no job registry). */
export const CLOSE_ENDED_SESSION_SOCKETS = {
  name: 'auth.close-ended-session-sockets',
  queue: 'notifications',
} as const satisfies SubscriberOptions;

/**
 * Ends every session of the account from the command line (the staff role changed), in the
 * caller's transaction, and asks the running product to close the live connections they opened:
 * a web request would close them at once (Sessions.endAll); the command is another process, so
 * the product's next outbox poll does. Returns how many sessions ended.
 */
export async function endSessionsFromCommandLine(client: SqlClient, userId: string): Promise<number> {
  const { rows } = await client.query<{ id: string }>(`delete from user_session where user_id = $1 returning id`, [userId]);
  const sessionIds = rows.map((row) => row.id);
  if (sessionIds.length > 0) await publishWithSql(client, CLOSE_ENDED_SESSION_SOCKETS, 'user.sessions-ended', { userId, sessionIds });
  return sessionIds.length;
}

/** Closes the live connections of sessions ended outside a web request. */
@Injectable()
export class EndedSessionsSubscriber {
  constructor(@Inject(Realtime) private readonly realtime: Realtime) {}

  @OnDomainEvent('user.sessions-ended', CLOSE_ENDED_SESSION_SOCKETS)
  async closeSockets(event: DomainEvent<'user.sessions-ended'>): Promise<void> {
    this.realtime.disconnectSessions(event.payload.sessionIds);
  }
}
