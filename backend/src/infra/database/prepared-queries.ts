import { createHash } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { connectionFor, ReplicaReads, type ReadFrom } from './replica-reads.js';

/** Distinct statements prepared at most; past this, a new one runs unprepared (each connection keeps every one it prepared). */
const MAX_STATEMENTS = 500;

/**
 * Queries whose own shape fixes their plan (the fenced steps of a radius or a word's postings, one
 * index to walk), run as named prepared statements with PostgreSQL's generic plan: planned once per
 * connection rather than on every request. Planning the radius and nearest-first searches cost
 * 1 to 2 ms a request, as much as running them.
 *
 * Their SQL is written as the ORM's (`?` for each value, `array[?]` for an array); values are sent
 * apart from the text, so a `?` whose type PostgreSQL cannot tell from where it stands needs a
 * cast in the SQL (`?::float8`). A query whose plan depends on its values (how common a word is)
 * must not come here: a generic plan is made without them.
 *
 * They run on a pool of their own, the ORM's settings plus `plan_cache_mode=force_generic_plan`,
 * which touches only statements with parameters (the ORM sends its values inside the text).
 */
@Injectable()
export class PreparedQueries implements OnApplicationShutdown {
  private readonly pools = new Map<ReadFrom, Promise<pg.Pool>>();
  private readonly names = new Map<string, string>();
  private readonly logger = new Logger('Database');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(ReplicaReads) private readonly replica: ReplicaReads,
  ) {}

  /** `from` 'replica' reads the primary while the replica cannot be reached (ReplicaReads). */
  async all<T>(sql: string, params: readonly unknown[], from: ReadFrom = 'primary'): Promise<T[]> {
    const { text, values } = numbered(sql, params);
    const name = this.nameOf(text);
    return this.replica.read(from, async (at) => {
      const pool = await this.connect(at);
      const result = await pool.query(name ? { name, text, values } : { text, values });
      return result.rows as T[];
    });
  }

  /**
   * A query whose plan depends on its values (how common a word is, how many match a price): its
   * values are bound, never written into the SQL's text as the ORM's `execute` writes them (which
   * put Infinity into the text as a column name), and it is planned for them, on the ORM's own pool.
   */
  async bound<T>(sql: string, params: readonly unknown[], from: ReadFrom = 'primary'): Promise<T[]> {
    const { text, values } = numbered(sql, params);
    return this.replica.read(from, async (at) => {
      const pool = (await this.connection(at).getNativeClient()) as pg.Pool;
      const result = await pool.query({ text, values });
      return result.rows as T[];
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const pools = [...new Set(this.pools.values())];
    this.pools.clear();
    await Promise.all(pools.map(async (pool) => (await pool).end()));
  }

  /** The ORM's connection for the primary or the replica (the primary when no replica is configured). */
  private connection(from: ReadFrom) {
    return this.em.getConnection(connectionFor(from));
  }

  private nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known || this.names.size >= MAX_STATEMENTS) return known;
    const name = `fm_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, name);
    return name;
  }

  private connect(from: ReadFrom): Promise<pg.Pool> {
    const known = this.pools.get(from);
    if (known) return known;
    const pool = (async () => {
      const orm = (await this.connection(from).getNativeClient()) as pg.Pool & { options: pg.PoolConfig };
      const options = [orm.options.options, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' ');
      // (The password is kept out of the options' own keys.)
      const pool = new pg.Pool({ ...orm.options, password: orm.options.password, options, idleTimeoutMillis: 30_000 });
      // An idle connection dropped by the server (unheard, it would end the process): the next query opens another.
      pool.on('error', (error) => this.logger.warn(`PostgreSQL pool error (prepared queries, ${from}): ${error.message}`));
      return pool;
    })();
    this.pools.set(from, pool);
    return pool;
  }
}

/** The ORM's `?` placeholders as PostgreSQL's `$1, $2...`; `array[?]` takes its array as one value. */
export function numbered(sql: string, params: readonly unknown[]): { text: string; values: unknown[] } {
  let index = 0;
  const text = sql.replace(/array\[\?\]|\?/g, (placeholder) => {
    const value = params[index];
    index++;
    if (placeholder !== '?' && !Array.isArray(value)) throw new Error('array[?] takes an array');
    return `$${index}`;
  });
  if (index !== params.length) throw new Error(`${params.length} values for ${index} placeholders`);
  return { text, values: [...params] };
}
