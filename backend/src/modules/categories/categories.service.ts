import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { Category } from './category.entity.js';
import type { CategoryResponse } from './dto/category.response.js';

@Injectable()
export class CategoriesService {
  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  async list(): Promise<CategoryResponse[]> {
    const categories = await this.em.find(Category, {}, { orderBy: { id: 'asc' } });
    return categories.map(toResponse);
  }

  /** `id` is the raw path segment: anything that is not a known id is a 404. */
  async get(id: string): Promise<CategoryResponse> {
    const numeric = /^\d{1,9}$/.test(id) ? Number(id) : undefined;
    const category = numeric === undefined ? null : await this.em.findOne(Category, { id: numeric });
    if (!category) throw new NotFoundException('Category not found');
    return toResponse(category);
  }
}

const toResponse = ({ id, name, slug }: Category): CategoryResponse => ({ id, name, slug });
