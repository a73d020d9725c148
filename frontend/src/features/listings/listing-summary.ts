import { categoryName } from '../../lib/categories';
import { isRecord } from '../../lib/is-record';

/**
 * A listing as cards show it. The listings API is not in openapi.yaml yet, so raw JSON is read
 * defensively: the spec's snake_case fields, or their camelCase forms.
 */
export interface ListingSummary {
  id: string;
  title: string;
  price: number;
  location: string;
  categorySlug: string;
  categoryName: string;
  imageUrl: string | null;
}

/** Null when the entry lacks an id, a title or a numeric price. */
export function toListingSummary(raw: unknown): ListingSummary | null {
  if (!isRecord(raw)) return null;
  const id = raw['id'];
  const title = raw['title'];
  const price = Number(raw['price']);
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof title !== 'string' || !Number.isFinite(price)) {
    return null;
  }
  const slug = text(raw['category_slug'] ?? raw['categorySlug']);
  return {
    id: String(id),
    title,
    price,
    location: text(raw['location']),
    categorySlug: slug,
    categoryName: text(raw['category_name'] ?? raw['categoryName']) || (categoryName(slug) ?? ''),
    imageUrl: firstImageUrl(raw['images']),
  };
}

/**
 * The first usable image URL. Images arrive as an array, a JSON array in a string, or a
 * comma-separated string; empty entries and blob: URLs (left over from uploads) are skipped.
 */
export function firstImageUrl(images: unknown): string | null {
  return imageList(images).find((url) => url !== '' && !url.startsWith('blob:')) ?? null;
}

function imageList(images: unknown): string[] {
  if (Array.isArray(images)) {
    return images.filter((item): item is string => typeof item === 'string').map((item) => item.trim());
  }
  if (typeof images !== 'string') return [];
  const value = images.trim();
  if (value.startsWith('[')) {
    try {
      return imageList(JSON.parse(value));
    } catch {
      return [];
    }
  }
  return value.split(',').map((part) => part.trim());
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
