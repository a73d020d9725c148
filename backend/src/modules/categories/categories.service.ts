import { Injectable, NotFoundException } from '@nestjs/common';
import { CATEGORIES } from '../../contracts/categories.js';
import type { CategoryResponse } from './dto/category.response.js';

/** Live listings per category id, as the listings module counts them. */
export type CategoryCounter = () => Promise<Map<number, number>>;

/** Counts are recounted at most this often: menus and the categories page ask on every view. */
const COUNTS_FRESH_MS = 60_000;

/**
 * The six categories never change while the product runs: they are served from the shared list
 * (contracts/categories.ts), which a test keeps equal to the rows listings refer to. Their live
 * listing counts come from the listings module, which registers its counter here.
 */
@Injectable()
export class CategoriesService {
  private counter: CategoryCounter | undefined;
  private counts: { at: number; value: Promise<Map<number, number>> } | undefined;

  countWith(counter: CategoryCounter): void {
    this.counter = counter;
  }

  async list(): Promise<CategoryResponse[]> {
    const counts = await this.liveCounts();
    return CATEGORIES.map(({ id, name, slug }) => ({ id, name, slug, listing_count: counts.get(id) ?? 0 }));
  }

  /** `id` is the raw path segment: anything that is not a known id is a 404. */
  async get(id: string): Promise<CategoryResponse> {
    const category = /^\d{1,9}$/.test(id) ? CATEGORIES.find((c) => c.id === Number(id)) : undefined;
    if (!category) throw new NotFoundException('Category not found');
    return { id: category.id, name: category.name, slug: category.slug, listing_count: (await this.liveCounts()).get(category.id) ?? 0 };
  }

  private liveCounts(): Promise<Map<number, number>> {
    if (!this.counter) return Promise.resolve(new Map());
    if (!this.counts || Date.now() - this.counts.at > COUNTS_FRESH_MS) {
      const value = this.counter().catch((error: unknown) => {
        this.counts = undefined; // not cached: the next request tries again
        throw error;
      });
      this.counts = { at: Date.now(), value };
    }
    return this.counts.value;
  }
}
