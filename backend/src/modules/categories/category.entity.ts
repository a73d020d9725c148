import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/** A listing category (SPEC §3 "Category"); the six rows are created by the initial migration. */
@Entity({ tableName: 'category' })
export class Category {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 100 })
  @Unique()
  slug!: string;
}
