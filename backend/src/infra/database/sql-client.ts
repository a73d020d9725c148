/** A query runner: the command line's plain pg client (no ORM there). */
export interface SqlClient {
  query<R>(sql: string, params: unknown[]): Promise<{ rows: R[] }>;
}
