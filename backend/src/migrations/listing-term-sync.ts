/**
 * The SQL of listing_term's upkeep (the trigger function listing_term_sync): the postings of the
 * listings a statement deleted, updated or inserted, with each posting's rank once
 * Migration20261125200000_listing_term_rank added it, and its listing's price once
 * Migration20261127060000_listing_term_price did. Shared by the migrations that write it.
 */
export function termSync(withRank: boolean, withPrice = false): string {
  const [columns, rank] = withRank ? [', rank', ', listing_term_rank(n.search_vector, w.lexeme)'] : ['', ''];
  const [priceColumn, price] = withPrice ? [', price_pence', ', n.price_pence'] : ['', ''];
  // What a listing's postings are written from: a change to any of it writes them again.
  const changed = `(n.status, n.published_at, n.search_vector${price}) is distinct from (o.status, o.published_at, o.search_vector${price.replace('n.', 'o.')})`;
  return `create or replace function listing_term_sync() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    delete from listing_term t using (
      select o.id, o.published_at, unnest(tsvector_to_array(o.search_vector)) as lexeme from old_rows o where o.status = 'live'
    ) gone where t.lexeme = gone.lexeme and t.published_at = gone.published_at and t.listing_id = gone.id;
  elsif tg_op = 'UPDATE' then
    delete from listing_term t using (
      select o.id, o.published_at, unnest(tsvector_to_array(o.search_vector)) as lexeme
      from old_rows o join new_rows n on n.id = o.id
      where o.status = 'live'
        and ${changed}
    ) gone where t.lexeme = gone.lexeme and t.published_at = gone.published_at and t.listing_id = gone.id;
    insert into listing_term (lexeme, published_at, listing_id${columns}${priceColumn})
      select w.lexeme, n.published_at, n.id${rank}${price}
      from new_rows n join old_rows o on o.id = n.id cross join unnest(tsvector_to_array(n.search_vector)) w(lexeme)
      where n.status = 'live'
        and ${changed}
    on conflict do nothing;
  else
    insert into listing_term (lexeme, published_at, listing_id${columns}${priceColumn})
      select w.lexeme, n.published_at, n.id${rank}${price}
      from new_rows n cross join unnest(tsvector_to_array(n.search_vector)) w(lexeme) where n.status = 'live'
    on conflict do nothing;
  end if;
  return null;
end $$;`;
}
