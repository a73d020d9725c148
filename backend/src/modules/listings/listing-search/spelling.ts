import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { PreparedQueries } from '../../../infra/database/prepared-queries.js';

/**
 * What a misspelt search probably meant, from the words of listing titles (`listing_search_word`,
 * trigram-indexed), which writers keep with rememberTitleWords.
 */
@Injectable()
export class Spelling {
  constructor(@Inject(PreparedQueries) private readonly prepared: PreparedQueries) {}

  /**
   * The search as typed with each misspelt word replaced by the closest word of a listing title
   * (quotes, "or" and "-word" keep their meaning); undefined when no word was misspelt.
   */
  async corrected(text: string): Promise<string | undefined> {
    const typed = text.toLowerCase();
    const words = [...new Set(typed.match(/[a-z]{3,}/g) ?? [])];
    if (words.length === 0) return undefined;
    // Prepared (each typed word looked up in the trigram index, whatever the words).
    const rows = await this.prepared.all<{ typed: string; word: string | null }>(
      `select w as typed, (select word from listing_search_word where word % w order by similarity(word, w) desc, word limit 1) as word
        from unnest(array[?]::text[]) w`,
      [words],
      'replica',
    );
    const corrections = new Map(rows.map((row) => [row.typed, row.word ?? row.typed]));
    if (words.every((word) => corrections.get(word) === word)) return undefined;
    return typed.replace(/[a-z]{3,}/g, (word) => corrections.get(word) ?? word);
  }
}

/** Words of a title, kept for spelling suggestions ("tracter" → "tractor"), in the listing's transaction. */
export async function rememberTitleWords(tx: EntityManager, title: string): Promise<void> {
  const words = [...new Set(title.toLowerCase().match(/[a-z]{3,30}/g) ?? [])];
  if (words.length === 0) return;
  await tx
    .getConnection()
    .execute(
      `insert into listing_search_word (word) values ${words.map(() => '(?)').join(', ')} on conflict do nothing`,
      words,
      'run',
      tx.getTransactionContext(),
    );
}
