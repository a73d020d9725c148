import { Migration } from '@mikro-orm/migrations';

/** The columns whose change re-keys a saved search's prune rows. */
const PRUNED_BY = `user_id, paused_at, match_version, cells, lexemes, category_id, listing_type, min_price_pence, max_price_pence, box_south,
  box_north, box_west, box_east, near_latitude, near_cosine, near_longitude, radius_metres, words, rent_subcategory, price_unit,
  verified_only, featured_only, posted_within_days, attribute_ranges, attribute_matches`;

/**
 * Matching at scale (issue 22): a new listing finds its saved searches by an index-only scan of
 * saved_search_prune (their keys and simple filters, kept by a trigger), and what they are told is
 * one row a listing and occasion (saved_search_hit, searches by number) instead of one row a search;
 * e-mails gather each search's matches by ranges of those rows (saved_search_mail_part). No foreign key
 * from matches to searches: a deleted search's number is never given again, and its prune rows go with it.
 * The recorded matches and e-mail batches move over.
 */
export class Migration20261126190000_saved_search_hits extends Migration {
  override name = 'Migration20261126190000_saved_search_hits';

  override up(): void | Promise<void> {
    this.addSql(`create sequence "saved_search_number_seq" as int;`);
    this.addSql(`alter table "saved_search" add "number" int not null default nextval('saved_search_number_seq'),
      add "mailed_through" bigint not null default '0';`);
    this.addSql(`alter sequence "saved_search_number_seq" owned by "saved_search"."number";`);
    this.addSql(`alter table "saved_search" add constraint "saved_search_number_unique" unique ("number");`);

    this.addSql(`create table "saved_search_hit" ("id" bigserial primary key, "listing_id" uuid not null, "occasion" varchar(40) not null,
      "price_pence" bigint not null, "matched_at" timestamptz not null, "searches" int[] not null);`);
    this.addSql(`create index "saved_search_hit_searches_index" on "saved_search_hit" using gin ("searches");`);
    this.addSql(`create index "saved_search_hit_listing_index" on "saved_search_hit" ("listing_id");`);
    this.addSql(`alter table "saved_search_hit" add constraint "saved_search_hit_listing_id_foreign" foreign key ("listing_id")
      references "listing" ("id") on delete cascade;`);

    this
      .addSql(`create table "saved_search_mail_part" ("batch_id" uuid not null, "saved_search_id" uuid not null, "after_hit" bigint not null,
      "through_hit" bigint not null, primary key ("batch_id", "saved_search_id"));`);
    this.addSql(`create index "saved_search_mail_part_search_index" on "saved_search_mail_part" ("saved_search_id");`);
    this.addSql(`alter table "saved_search_mail_part" add constraint "saved_search_mail_part_saved_search_id_foreign" foreign key
      ("saved_search_id") references "saved_search" ("id") on delete cascade;`);

    // Each (search, listing, occasion) recorded lands in one row, the oldest first; each e-mail batch becomes its searches' ranges.
    this.addSql(`insert into "saved_search_hit" ("listing_id", "occasion", "price_pence", "matched_at", "searches")
      select m.listing_id, m.occasion, min(m.price_pence), m.matched_at, array_agg(s.number order by s.number)
      from saved_search_match m join saved_search s on s.id = m.saved_search_id
      group by m.listing_id, m.occasion, m.matched_at order by m.matched_at;`);
    this.addSql(`create temporary table "moved_match" on commit drop as
      select m.saved_search_id, m.mail_batch, h.id as hit_id from saved_search_match m join saved_search s on s.id = m.saved_search_id
        join saved_search_hit h on h.listing_id = m.listing_id and h.occasion = m.occasion and h.matched_at = m.matched_at
          and h.searches @> array[s.number]
      where m.mail_batch is not null;`);
    this.addSql(`insert into "saved_search_mail_part" ("batch_id", "saved_search_id", "after_hit", "through_hit")
      select mail_batch, saved_search_id, min(hit_id) - 1, max(hit_id) from moved_match
      where mail_batch <> '00000000-0000-0000-0000-000000000000' group by mail_batch, saved_search_id;`);
    this.addSql(`update "saved_search" s set "mailed_through" = m.through
      from (select saved_search_id, max(hit_id) as through from moved_match group by saved_search_id) m where s.id = m.saved_search_id;`);
    this.addSql(`drop table "saved_search_match";`);

    this.addSql(`drop index "saved_search_prune_index";`);
    this.addSql(`alter table "saved_search" drop column "prune_keys";`);
    this.addSql(`create table "saved_search_prune" ("number" int not null, "key" bigint not null, "user_id" uuid not null,
      "match_version" int not null, "exact" boolean not null, "category_id" int null, "listing_type" text null, "min_price_pence" bigint null,
      "max_price_pence" bigint null, "box_south" double precision null, "box_north" double precision null, "box_west" double precision null,
      "box_east" double precision null, "near_latitude" double precision null, "near_cosine" double precision null,
      "near_longitude" double precision null, "radius_metres" double precision null, "lexemes" text[] null, primary key ("number", "key"));`);
    this
      .addSql(`create index "saved_search_prune_key_index" on "saved_search_prune" ("key") include ("number", "user_id", "match_version", "exact",
    "category_id", "listing_type", "min_price_pence", "max_price_pence", "box_south", "box_north", "box_west", "box_east", "near_latitude",
    "near_cosine", "near_longitude", "radius_metres", "lexemes");`);

    // A grid square (geo_cell) at a level: level 0 is the square itself, each level up groups 4 x 4 of the level below.
    this.addSql(`create function "saved_search_geo_key"("cell" int, "level" int) returns bigint language sql immutable parallel safe as $$
      select (level + 1) * 100000000::bigint + (cell / 10000 / (1 << (2 * level))) * 10000 + (cell % 10000) / (1 << (2 * level)) $$;`);
    // A search's keys (search-percolator.ts says which): a radius's squares at the finest level with at most 12 of them,
    // each with its category when it has one (a wide radius with words is keyed by its longest word instead); else its
    // longest word, its category, its type, or none (0).
    this.addSql(`create function "saved_search_prune_keys"("cells" int[], "lexemes" text[], "category_id" int, "listing_type" text,
        "radius_metres" double precision) returns bigint[] language plpgsql immutable parallel safe as $$
      declare
        level int;
        keys bigint[];
      begin
        if cardinality(cells) > 0 and (lexemes is null or radius_metres <= 25 * 1609.344) then
          for level in 0..3 loop
            select array_agg(distinct saved_search_geo_key(cell, level)) into keys from unnest(cells) as cell;
            exit when cardinality(keys) <= 12;
          end loop;
          if category_id is null then return keys; end if;
          return array(select key * 1000 + category_id from unnest(keys) as key);
        end if;
        if lexemes is not null then
          return array[1000000000000 + hashtext((select lexeme from unnest(lexemes) as lexeme order by length(lexeme) desc, lexeme limit 1))];
        end if;
        if category_id is not null then return array[1000000000::bigint + category_id]; end if;
        if listing_type is not null then return array[10000000000 + hashtext(listing_type)]; end if;
        return array[0::bigint];
      end $$;`);
    // Every key a listing carries: a search sharing one of them is a candidate.
    this.addSql(`create function "listing_prune_keys"("geo_cell" int, "lexemes" text[], "category_id" int, "listing_type" text)
        returns bigint[] language sql immutable parallel safe as $$
      select array[0, 1000000000 + category_id, 10000000000 + hashtext(listing_type)]
        || array(select key from generate_series(0, 3) as level, saved_search_geo_key(geo_cell, level) as cell_key,
            unnest(array[cell_key, cell_key * 1000 + category_id]) as key where geo_cell is not null)
        || array(select 1000000000000 + hashtext(lexeme) from unnest(lexemes) as lexeme) $$;`);
    // A search's prune rows, one a key, while it is matched (prepared, not paused). Exact: its filters are all in the row
    // (its words, if any, only required words joined by "and").
    this.addSql(`create function "saved_search_prune_refresh"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then delete from saved_search_prune where number = old.number; end if;
        if tg_op <> 'DELETE' and new.paused_at is null and new.match_version > 0 then
          insert into saved_search_prune (number, key, user_id, match_version, exact, category_id, listing_type, min_price_pence,
            max_price_pence, box_south, box_north, box_west, box_east, near_latitude, near_cosine, near_longitude, radius_metres, lexemes)
          select distinct new.number, key, new.user_id, new.match_version,
            new.rent_subcategory is null and new.price_unit is null and not new.verified_only and not new.featured_only
              and new.posted_within_days is null and new.attribute_ranges is null and new.attribute_matches is null
              and (new.words is null or (new.lexemes is not null and numnode(new.words_query) = 2 * cardinality(new.lexemes) - 1
                and new.words_query::text !~ '[|!<:]')),
            new.category_id, new.listing_type, new.min_price_pence, new.max_price_pence, new.box_south, new.box_north, new.box_west,
            new.box_east, new.near_latitude, new.near_cosine, new.near_longitude, new.radius_metres, new.lexemes
          from unnest(saved_search_prune_keys(new.cells, new.lexemes, new.category_id, new.listing_type, new.radius_metres)) as key;
        end if;
        return null;
      end $$;`);
    this.addSql(`create trigger "saved_search_prune_refresh" after insert or delete or update of ${PRUNED_BY} on "saved_search"
      for each row execute function saved_search_prune_refresh();`);
    // Matching passes over the searches of suspended and deleted accounts: the few such accounts, by index.
    this.addSql(
      `create index "app_user_inactive_index" on "app_user" ("id") where "suspended_at" is not null or "deleted_at" is not null;`,
    );
    // The searches saved so far.
    this.addSql(`update "saved_search" set "match_version" = "match_version";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "app_user_inactive_index";`);
    this.addSql(`drop trigger "saved_search_prune_refresh" on "saved_search";`);
    this.addSql(`drop function "saved_search_prune_refresh"();`);
    this.addSql(`drop function "listing_prune_keys"(int, text[], int, text);`);
    this.addSql(`drop function "saved_search_prune_keys"(int[], text[], int, text, double precision);`);
    this.addSql(`drop function "saved_search_geo_key"(int, int);`);
    this.addSql(`drop table "saved_search_prune";`);
    this
      .addSql(`create table "saved_search_match" ("saved_search_id" uuid not null, "listing_id" uuid not null, "occasion" varchar(40) not null,
      "price_pence" int8 not null, "matched_at" timestamptz(6) not null, "mail_batch" uuid null,
      primary key ("saved_search_id", "listing_id", "occasion"));`);
    this.addSql(`insert into "saved_search_match" select s.id, h.listing_id, h.occasion, h.price_pence, h.matched_at,
      case when h.id <= s.mailed_through then '00000000-0000-0000-0000-000000000000'::uuid end
      from saved_search_hit h cross join unnest(h.searches) as n(number) join saved_search s on s.number = n.number;`);
    this.addSql(`create index "saved_search_match_batch_index" on "saved_search_match" ("mail_batch") where mail_batch is not null;`);
    this.addSql(`create index "saved_search_match_listing_index" on "saved_search_match" ("listing_id");`);
    this.addSql(`create index "saved_search_match_unmailed_index" on "saved_search_match" ("saved_search_id", "matched_at")
      where mail_batch is null;`);
    this.addSql(`alter table "saved_search_match" add constraint "saved_search_match_listing_id_foreign" foreign key ("listing_id")
      references "listing" ("id") on delete cascade;`);
    this
      .addSql(`alter table "saved_search_match" add constraint "saved_search_match_saved_search_id_foreign" foreign key ("saved_search_id")
      references "saved_search" ("id") on delete cascade;`);
    this.addSql(`drop table "saved_search_mail_part";`);
    this.addSql(`drop table "saved_search_hit";`);
    this.addSql(`alter table "saved_search" add "prune_keys" text[] not null default '{any}';`);
    this.addSql(`update "saved_search" set "match_version" = null;`);
    this.addSql(`create index "saved_search_prune_index" on "saved_search" using gin ("prune_keys") where paused_at is null;`);
    this.addSql(`alter table "saved_search" drop constraint "saved_search_number_unique";`);
    this.addSql(`alter table "saved_search" drop column "number", drop column "mailed_through";`);
  }
}
