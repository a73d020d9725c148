import type { EntityManager } from '@mikro-orm/postgresql';
import type { ImageView } from '../images/dto/image.response.js';

/**
 * What listings need of the images module (a port, bound to ImagesService in ListingsModule), so
 * listings never reach into image storage or tables themselves.
 */
export abstract class ListingImages {
  /** Puts the owner's uploaded images on the listing, in this order (the first is the main photo); refuses others' images. */
  abstract attach(em: EntityManager, ownerId: string, listingId: string, imageIds: string[]): Promise<void>;
  /** Each listing's images, in order. */
  abstract imagesOf(listingIds: string[]): Promise<Map<string, ImageView[]>>;
  /**
   * SQL for a column of the images of the listing whose id is `listingId` (an SQL expression), so
   * that a page of cards comes in one query; `fromColumn` reads a row's value of it.
   */
  abstract column(listingId: string): string;
  abstract fromColumn(value: unknown): ImageView[];
  /** Stops (or resumes) serving the listings' images, in `em`'s transaction: staff hid (or restored) them. */
  abstract withhold(em: EntityManager, listingIds: string[], withheld: boolean): Promise<void>;
  /** Removes the listing's images, in `em`'s transaction when given; their files go once it commits. */
  abstract deleteFor(listingId: string, em?: EntityManager): Promise<void>;
}
