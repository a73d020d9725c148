import type { EntityManager } from '@mikro-orm/postgresql';

/** Rows removed per statement: a large backlog never holds a long lock. */
export const DELETE_BATCH = 5_000;

/**
 * Deletes the rows of `table` matching `where` (its `?` bound to `params`), DELETE_BATCH at a time
 * by `key` (a unique column, or `ctid`), until none are left; returns how many went. The
 * housekeeping jobs' one way of purging what is past its time. Table, key and condition are fixed
 * SQL text of the caller's, never input.
 */
export async function deleteInBatches(
  em: EntityManager,
  { table, key, where, params }: { table: string; key: string; where: string; params: unknown[] },
): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await em
      .getConnection()
      .execute<unknown[]>(`delete from ${table} where ${key} in (select ${key} from ${table} where ${where} limit ?) returning 1`, [
        ...params,
        DELETE_BATCH,
      ]);
    removed += rows.length;
    if (rows.length < DELETE_BATCH) return removed;
  }
}
