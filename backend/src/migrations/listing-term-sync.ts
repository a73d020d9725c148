/**
 * The SQL of listing_term's upkeep (the trigger function listing_term_sync): the postings of the
 * listings a statement deleted, updated or inserted, with each posting's rank once
 * Migration20261125200000_listing_term_rank added it, and its listing's price, category and place
 * once Migration20261127060000_listing_term_filters did. Shared by the migrations that write it.
 */
export function termSync(withRank: boolean, withFilters = false): string {
  const [rankColumn, rank] = withRank ? [', rank', ', listing_term_rank(n.search_vector, w.lexeme)'] : ['', ''];
  const filters = withFilters ? ['price_pence', 'category_id', 'latitude', 'longitude', 'geo_cell'] : [];
  const columns = `${rankColumn}${filters.map((name) => `, ${name}`).join('')}`;
  const values = `${rank}${filters.map((name) => `, n.${name}`).join('')}`;
  // What a listing's postings are written from: a change to any of it writes them again (the grid
  // square follows the coordinates).
  const from = ['status', 'published_at', 'search_vector', ...filters.filter((name) => name !== 'geo_cell')];
  const changed = `(${from.map((name) => `n.${name}`).join(', ')}) is distinct from (${from.map((name) => `o.${name}`).join(', ')})`;
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
    insert into listing_term (lexeme, published_at, listing_id${columns})
      select w.lexeme, n.published_at, n.id${values}
      from new_rows n join old_rows o on o.id = n.id cross join unnest(tsvector_to_array(n.search_vector)) w(lexeme)
      where n.status = 'live'
        and ${changed}
    on conflict do nothing;
  else
    insert into listing_term (lexeme, published_at, listing_id${columns})
      select w.lexeme, n.published_at, n.id${values}
      from new_rows n cross join unnest(tsvector_to_array(n.search_vector)) w(lexeme) where n.status = 'live'
    on conflict do nothing;
  end if;
  return null;
end $$;`;
}
