import { EntityManager } from '@mikro-orm/postgresql';
import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { type RateLimiter, waitText } from '../rate-limit/rate-limiter.js';
import { Geocoder, type LookupOptions, type Place } from './geocoder.js';
import { parsePostcode, type ParsedPostcode } from '../../contracts/postcodes.js';

/** What a person is told when postcodes cannot be looked up; place names keep working. */
export const POSTCODE_SERVICE_DOWN =
  'Postcode lookup is not answering just now. Try again in a minute, or type a town or village name instead.';

/** The postcode service did not answer (down, slow past the timeout, or answering nonsense). */
export class PostcodeLookupUnavailable extends HttpException {
  constructor() {
    super(POSTCODE_SERVICE_DOWN, HttpStatus.SERVICE_UNAVAILABLE);
  }
}

/**
 * Postcodes one client (an address) may have looked up outside in an hour: a person trying places
 * needs a few dozen; more is a script walking postcodes through us (the public service limits us).
 * Answers already cached do not count.
 */
export const POSTCODE_LOOKUPS_PER_CLIENT = { limit: 60, windowSeconds: 3600 } as const;

/** The refusal past POSTCODE_LOOKUPS_PER_CLIENT (worded as the other limits are). */
export const tooManyPostcodeLookups = (wait: number) =>
  `Too many postcode lookups from your connection. Please wait ${waitText(wait)} and try again, or type a town or village name instead.`;

/** How long a found postcode or outcode is kept (they rarely move), and how long "no such postcode" is. */
export const POSTCODE_CACHE_DAYS = 30;
export const POSTCODE_MISS_CACHE_MINUTES = 60;
/** How long one lookup may take before the person is told the service is not answering. */
export const POSTCODE_TIMEOUT_MS = 3_000;

interface PostcodeAnswer {
  postcode?: string;
  outcode?: string;
  latitude?: number | null;
  longitude?: number | null;
  country?: string | string[] | null;
  parish?: string | string[] | null;
  admin_district?: string | string[] | null;
}

interface CachedLookup {
  found: boolean;
  name: string | null;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
}

/**
 * UK postcodes and outcodes through the postcodes.io API (`/postcodes/{pc}`, `/outcodes/{oc}`;
 * the public service or a self-hosted copy at POSTCODES_API_URL), with ONS and Ordnance Survey
 * data under the Open Government Licence. Answers are kept in PostgreSQL (`postcode_lookup`): a
 * found code for POSTCODE_CACHE_DAYS, an unknown one for POSTCODE_MISS_CACHE_MINUTES, so a
 * repeated search never waits on the service. A place's id is the code itself ("EX20 1AB", "TA1").
 */
export class PostcodesIoGeocoder extends Geocoder {
  private readonly logger = new Logger('Postcodes');

  constructor(
    private readonly em: EntityManager,
    private readonly baseUrl: string,
    private readonly timeoutMs = POSTCODE_TIMEOUT_MS,
    /** Counts each client's lookups sent outside (POSTCODE_LOOKUPS_PER_CLIENT); lookups without a client are the product's own. */
    private readonly limits?: RateLimiter,
  ) {
    super();
  }

  async search(query: string, _limit?: number, options?: LookupOptions): Promise<Place[]> {
    const place = await this.resolve(query, options);
    return place ? [place] : [];
  }

  byId(id: string, options?: LookupOptions): Promise<Place | undefined> {
    return this.resolve(id, options);
  }

  async resolve(text: string, options: LookupOptions = {}): Promise<Place | undefined> {
    const code = parsePostcode(text);
    if (!code) return undefined;
    const key = code.kind === 'postcode' ? code.postcode : code.outcode;
    const cached = await this.cached(key);
    if (!cached && options.client && this.limits) {
      await this.limits.consume({ key: `postcodes:ip:${options.client}`, ...POSTCODE_LOOKUPS_PER_CLIENT }, tooManyPostcodeLookups);
    }
    const answer = cached ?? (await this.remember(key, await this.fetchAnswer(code, options.timeoutMs)));
    if (!answer.found || answer.latitude === null || answer.longitude === null) return undefined;
    return {
      id: key,
      name: answer.name ?? code.outcode,
      region: answer.region ?? 'United Kingdom',
      latitude: answer.latitude,
      longitude: answer.longitude,
      outcode: code.outcode,
    };
  }

  private async cached(key: string): Promise<CachedLookup | undefined> {
    const [row] = await this.em.getConnection().execute<CachedLookup[]>(
      `select found, name, region, latitude, longitude from postcode_lookup
        where code = ? and looked_up_at > now() - (case when found then ? else ? end)::interval`,
      [key, `${POSTCODE_CACHE_DAYS} days`, `${POSTCODE_MISS_CACHE_MINUTES} minutes`],
    );
    return row;
  }

  private async remember(key: string, answer: CachedLookup): Promise<CachedLookup> {
    await this.em.getConnection().execute(
      `insert into postcode_lookup (code, found, name, region, latitude, longitude, looked_up_at) values (?, ?, ?, ?, ?, ?, now())
       on conflict (code) do update set found = excluded.found, name = excluded.name, region = excluded.region,
         latitude = excluded.latitude, longitude = excluded.longitude, looked_up_at = excluded.looked_up_at`,
      [key, answer.found, answer.name, answer.region, answer.latitude, answer.longitude],
    );
    return answer;
  }

  /** The service's answer for the code: found (with its place) or not; anything else is the service failing. */
  private async fetchAnswer(code: ParsedPostcode, timeoutMs = this.timeoutMs): Promise<CachedLookup> {
    const path =
      code.kind === 'postcode' ? `postcodes/${encodeURIComponent(code.postcode)}` : `outcodes/${encodeURIComponent(code.outcode)}`;
    const url = `${this.baseUrl.replace(/\/+$/, '')}/${path}`;
    let response: Response;
    let body: { result?: PostcodeAnswer } | undefined;
    try {
      response = await fetch(url, {
        signal: AbortSignal.timeout(Math.min(timeoutMs, this.timeoutMs)),
        headers: { accept: 'application/json' },
      });
      body = response.status === 404 ? undefined : ((await response.json()) as { result?: PostcodeAnswer });
    } catch (error) {
      this.logger.warn(`postcode lookup failed (${url}): ${(error as Error).message}`);
      throw new PostcodeLookupUnavailable();
    }
    if (response.status === 404) return { found: false, name: null, region: null, latitude: null, longitude: null };
    const result = body?.result;
    if (!response.ok || !result || typeof result.latitude !== 'number' || typeof result.longitude !== 'number') {
      this.logger.warn(`postcode lookup answered ${response.status} without a place (${url})`);
      throw new PostcodeLookupUnavailable();
    }
    return {
      found: true,
      name: placeName(result) ?? null,
      region: first(result.country) ?? null,
      latitude: result.latitude,
      longitude: result.longitude,
    };
  }
}

/** The place a code is in, as people name it: its parish ("Okehampton"), else its district ("West Devon"). */
function placeName(result: PostcodeAnswer): string | undefined {
  const parish = first(result.parish)?.replace(/, unparished area$/i, '');
  // An outcode spans several parishes: its district names it better than whichever parish comes first.
  return (result.postcode ? parish : undefined) ?? first(result.admin_district) ?? parish;
}

function first(value: string | string[] | null | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}
