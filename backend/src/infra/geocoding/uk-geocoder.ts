import { Geocoder, type Place } from './geocoder.js';
import { parsePostcode } from './postcodes.js';

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

  search(query: string, limit: number): Promise<Place[]> {
    return this.sourceOf(query).search(query, limit);
  }

  byId(id: string): Promise<Place | undefined> {
    return this.sourceOf(id).byId(id);
  }

  resolve(text: string): Promise<Place | undefined> {
    return this.sourceOf(text).resolve(text);
  }

  private sourceOf(text: string): Geocoder {
    return parsePostcode(text) ? this.postcodes : this.names;
  }
}
