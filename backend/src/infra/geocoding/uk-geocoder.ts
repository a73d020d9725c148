import { Geocoder, type LookupOptions, type Place } from './geocoder.js';
import { parsePostcode } from '../../contracts/postcodes.js';

/**
 * The product's geocoder: what reads as a postcode or an outcode ("EX20 1AB", "TA1") goes to the
 * postcode service, anything else to the shipped town and village names. A place name never waits
 * on (or fails with) the postcode service; an outcode never collides with a name, which has no digits.
 */
export class UkGeocoder extends Geocoder {
  constructor(
    private readonly names: Geocoder,
    private readonly postcodes: Geocoder,
  ) {
    super();
  }

  search(query: string, limit: number, options?: LookupOptions): Promise<Place[]> {
    return this.sourceOf(query).search(query, limit, options);
  }

  byId(id: string, options?: LookupOptions): Promise<Place | undefined> {
    return this.sourceOf(id).byId(id, options);
  }

  resolve(text: string, options?: LookupOptions): Promise<Place | undefined> {
    return this.sourceOf(text).resolve(text, options);
  }

  private sourceOf(text: string): Geocoder {
    return parsePostcode(text) ? this.postcodes : this.names;
  }
}
