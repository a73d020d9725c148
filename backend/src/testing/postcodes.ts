import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A postcode as postcodes.io describes it (the fields the product reads). */
export interface FakePostcode {
  postcode: string;
  latitude: number;
  longitude: number;
  parish: string;
  admin_district: string;
  country: string;
}

/** Postcodes for tests: each near its town's centre (approximate coordinates, not the ONS figures). */
export const POSTCODES = {
  okehampton: {
    postcode: 'EX20 1AB',
    latitude: 50.73878,
    longitude: -4.00244,
    parish: 'Okehampton',
    admin_district: 'West Devon',
    country: 'England',
  },
  taunton: {
    postcode: 'TA1 1AA',
    latitude: 51.01485,
    longitude: -3.10216,
    parish: 'Taunton, unparished area',
    admin_district: 'Somerset',
    country: 'England',
  },
  hexham: {
    postcode: 'NE46 1AA',
    latitude: 54.97109,
    longitude: -2.10217,
    parish: 'Hexham',
    admin_district: 'Northumberland',
    country: 'England',
  },
} satisfies Record<string, FakePostcode>;

/**
 * A stand-in for postcodes.io that speaks its API (`GET /postcodes/{pc}`, `GET /outcodes/{oc}`,
 * its JSON envelope and its 404s) on a local port, for tests: it knows the postcodes it is given,
 * an outcode's centre is the mean of its known postcodes, and it can be made slow or broken.
 */
export class FakePostcodes {
  /** Every path asked for, in order: a test sees whether the product asked at all. */
  readonly requests: string[] = [];
  /** Milliseconds to wait before answering (a slow service). */
  delayMs = 0;
  /** Answer 500 to everything (a broken service). */
  failing = false;
  private readonly postcodes = new Map<string, FakePostcode>();
  /** Answers being held back (delayMs), dropped at stop(). */
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://stand-in').pathname);
    this.requests.push(path);
    const answer = (status: number, body: object) => {
      if (response.destroyed) return;
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status, ...body }));
    };
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      if (this.failing) return answer(500, { error: 'Internal server error' });
      const [, kind, code = ''] = path.split('/');
      if (kind === 'postcodes') {
        const found = this.postcodes.get(compact(code));
        return found
          ? answer(200, { result: { ...found, outcode: outcodeOf(found.postcode) } })
          : answer(404, { error: 'Postcode not found' });
      }
      if (kind === 'outcodes') {
        const members = [...this.postcodes.values()].filter((postcode) => outcodeOf(postcode.postcode) === compact(code));
        if (members.length === 0) return answer(404, { error: 'Outcode not found' });
        const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
        return answer(200, {
          result: {
            outcode: compact(code),
            latitude: mean(members.map((member) => member.latitude)),
            longitude: mean(members.map((member) => member.longitude)),
            admin_district: [...new Set(members.map((member) => member.admin_district))],
            parish: [...new Set(members.map((member) => member.parish))],
            country: [...new Set(members.map((member) => member.country))],
          },
        });
      }
      return answer(404, { error: 'Resource not found' });
    }, this.delayMs);
    this.pending.add(timer);
  });

  constructor(postcodes: FakePostcode[] = Object.values(POSTCODES)) {
    for (const postcode of postcodes) this.add(postcode);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  add(postcode: FakePostcode): void {
    this.postcodes.set(compact(postcode.postcode), postcode);
  }

  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const compact = (code: string) => code.toUpperCase().replace(/\s+/g, '');
const outcodeOf = (postcode: string) => compact(postcode).slice(0, -3);
