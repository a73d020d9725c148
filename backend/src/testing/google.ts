import type { IncomingMessage } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';

/** A Google account as Google's userinfo endpoint describes it. */
export interface GoogleAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

let accounts = 0;
/** A Google account nobody else in the run uses, with a verified address unless told otherwise. */
export function newGoogleAccount(overrides: Partial<GoogleAccount> = {}): GoogleAccount {
  accounts += 1;
  const sub = `1${Date.now()}${accounts}`.padEnd(21, '0');
  return {
    sub,
    email: `grower.${accounts}.${Date.now()}@gmail.example`,
    email_verified: true,
    name: 'Gwen Grower',
    picture: `https://lh3.googleusercontent.example/a/${sub}`,
    ...overrides,
  };
}

/**
 * A stand-in for Google that speaks the protocol: oauth2-mock-server (a real OAuth 2.0 / OpenID
 * Connect server on a random local port, signing with its own keys), taught what Google does that
 * the mock does not by itself: it knows who is signed in at Google (a cookie of its own, sent by
 * `consent`), issues codes for that person, exchanges each code once and only for this client's
 * secret and registered callback, and answers userinfo only for the access token it issued.
 */
export class FakeGoogle {
  readonly clientId = 'fieldmarket-test.apps.googleusercontent.com';
  readonly clientSecret = randomBytes(16).toString('hex');
  /** Every code the token endpoint was asked to exchange (also refused ones). */
  readonly exchangedCodes: string[] = [];
  private readonly server = new OAuth2Server();
  private readonly people = new Map<string, GoogleAccount>();
  private readonly codes = new Map<string, GoogleAccount>();
  private readonly tokens = new Map<string, GoogleAccount>();

  constructor(private readonly callbackUrl: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.server.address().port}`;
  }

  async start(): Promise<void> {
    // The issuer's signing key. (keys.generate() fails under jest: WebCrypto's JWK comes from another realm.)
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await this.server.issuer.keys.add({ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', kid: 'fake-google-1' });
    await this.server.start(0, '127.0.0.1');
    const service = this.server.service;

    service.on('beforeAuthorizeRedirect', ({ url }: { url: URL }, req: IncomingMessage) => {
      const person = this.people.get(cookieOf(req, 'google_person') ?? '');
      const code = url.searchParams.get('code');
      if (!person || !code) {
        // The person pressed Cancel on Google's consent screen.
        url.searchParams.delete('code');
        url.searchParams.set('error', 'access_denied');
        return;
      }
      this.codes.set(code, person);
    });

    service.on('beforeResponse', (response: { statusCode: number; body: Record<string, unknown> | '' }, req: TokenRequest) => {
      const { code, client_id, client_secret, redirect_uri } = req.body;
      if (typeof code === 'string') this.exchangedCodes.push(code);
      const person = typeof code === 'string' ? this.codes.get(code) : undefined;
      if (typeof code === 'string') this.codes.delete(code); // a code works once
      if (client_id !== this.clientId || client_secret !== this.clientSecret) {
        Object.assign(response, { statusCode: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } });
      } else if (!person || redirect_uri !== this.callbackUrl) {
        Object.assign(response, { statusCode: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } });
      } else if (response.body !== '') {
        this.tokens.set(String(response.body.access_token), person);
      }
    });

    service.on('beforeUserinfo', (response: { statusCode: number; body: Record<string, unknown> | '' }, req: IncomingMessage) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const person = token ? this.tokens.get(token) : undefined;
      if (!person) {
        Object.assign(response, { statusCode: 401, body: { error: 'invalid_token', error_description: 'Invalid Credentials' } });
        return;
      }
      response.body = JSON.parse(JSON.stringify(person)) as Record<string, unknown>;
    });
  }

  /** The environment that points the app at this server instead of Google. */
  env(): Record<string, string> {
    return {
      GOOGLE_CLIENT_ID: this.clientId,
      GOOGLE_CLIENT_SECRET: this.clientSecret,
      GOOGLE_AUTHORIZATION_URL: `${this.url}/authorize`,
      GOOGLE_TOKEN_URL: `${this.url}/token`,
      GOOGLE_USERINFO_URL: `${this.url}/userinfo`,
    };
  }

  /**
   * The browser follows the app's redirect to Google, where `person` is signed in and consents (or,
   * with null, presses Cancel). Returns where Google sends the browser back: the callback's path and query.
   */
  async consent(authorizationUrl: string, person: GoogleAccount | null): Promise<string> {
    const key = randomBytes(8).toString('hex');
    if (person) this.people.set(key, { ...person });
    const answer = await fetch(authorizationUrl, { redirect: 'manual', headers: { cookie: `google_person=${key}` } });
    const back = answer.headers.get('location');
    if (answer.status !== 302 || !back)
      throw new Error(`Google's authorization endpoint answered ${answer.status}: ${await answer.text()}`);
    const url = new URL(back);
    return `${url.pathname}${url.search}`;
  }

  async stop(): Promise<void> {
    await this.server.stop();
  }
}

interface TokenRequest extends IncomingMessage {
  body: Record<string, unknown>;
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  return (req.headers.cookie ?? '')
    .split(/;\s*/)
    .map((pair) => pair.split('='))
    .find(([key]) => key === name)?.[1];
}
