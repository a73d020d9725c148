import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListingImage } from './dto/listing.response.js';

/**
 * What listings need of the images module (a port: the images module provides it), so listings
 * never reach into image storage or tables themselves.
 */
export abstract class ListingImages {
  /** Puts the owner's uploaded images on the listing, in this order (the first is the main photo); refuses others' images. */
  abstract attach(em: EntityManager, ownerId: string, listingId: string, imageIds: string[]): Promise<void>;
  /** Each listing's images, in order. */
  abstract imagesOf(listingIds: string[]): Promise<Map<string, ListingImage[]>>;
  /** Removes the listing's images and their files. */
  abstract deleteFor(listingId: string): Promise<void>;
}
