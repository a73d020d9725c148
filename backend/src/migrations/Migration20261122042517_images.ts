import { Migration } from '@mikro-orm/migrations';

export class Migration20261122042517_images extends Migration {
  override name = 'Migration20261122042517_images';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "image" ("id" uuid not null, "owner_id" uuid not null, "listing_id" uuid null, "position" int not null default 0, "status" text not null default 'processing', "width" int not null, "height" int not null, "variants" jsonb not null, "original_key" varchar(200) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "image_owner_id_created_at_index" on "image" ("owner_id", "created_at");`);
    this.addSql(`create index "image_listing_id_position_index" on "image" ("listing_id", "position");`);

    this.addSql(`alter table "image" add constraint "image_status_check" check ("status" in ('processing', 'ready', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "image" cascade;`);
  }
}
