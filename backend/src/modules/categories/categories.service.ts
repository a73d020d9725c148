import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { Category } from './category.entity.js';
import type { CategoryResponse } from './dto/category.response.js';

/**
 * The categories, read from the database once at boot and served from memory: the initial
 * migration creates the six rows and nothing changes them while the product runs.
 */
@Injectable()
export class CategoriesService implements OnModuleInit {
  private all: readonly CategoryResponse[] = [];
  private byId: ReadonlyMap<number, CategoryResponse> = new Map();

  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  async onModuleInit(): Promise<void> {
    const rows = await this.em.fork().find(Category, {}, { orderBy: { id: 'asc' } });
    this.all = Object.freeze(rows.map(toResponse));
    this.byId = new Map(this.all.map((category) => [category.id, category]));
  }

  list(): readonly CategoryResponse[] {
    return this.all;
  }

  /** `id` is the raw path segment: anything that is not a known id is a 404. */
  get(id: string): CategoryResponse {
    const category = /^\d{1,9}$/.test(id) ? this.byId.get(Number(id)) : undefined;
    if (!category) throw new NotFoundException('Category not found');
    return category;
  }
}

const toResponse = ({ id, name, slug }: Category): CategoryResponse => Object.freeze({ id, name, slug });
