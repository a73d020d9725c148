import { Injectable, NotFoundException } from '@nestjs/common';
import { CATEGORIES } from '../../contracts/categories.js';
import type { CategoryResponse } from './dto/category.response.js';

/**
 * The six categories never change while the product runs: they are served from the shared list
 * (contracts/categories.ts), which a test keeps equal to the rows listings refer to.
 */
@Injectable()
export class CategoriesService {
  private readonly all: CategoryResponse[] = CATEGORIES.map(({ id, name, slug }) => ({ id, name, slug }));

  list(): CategoryResponse[] {
    return this.all;
  }

  /** `id` is the raw path segment: anything that is not a known id is a 404. */
  get(id: string): CategoryResponse {
    const category = /^\d{1,9}$/.test(id) ? this.all.find((c) => c.id === Number(id)) : undefined;
    if (!category) throw new NotFoundException('Category not found');
    return category;
  }
}
