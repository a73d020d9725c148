import { MikroORM } from '@mikro-orm/postgresql';
import type { LightMyRequestResponse } from 'fastify';
import { Passwords } from '../modules/auth/passwords.js';
import { User } from '../modules/users/user.entity.js';
import { eventually, readOutbox, waitForJobs, type TestApp } from './test-app.js';
import type { TestDatabase } from './test-database.js';

export interface Person {
  name: string;
  email: string;
  password: string;
}

let people = 0;
/** A person nobody else in the run uses. */
export function newPerson(name = 'Jane Farmer'): Person {
  people += 1;
  return { name, email: `${name.toLowerCase().replace(/\W+/g, '.')}.${people}.${Date.now()}@example.co.uk`, password: 'Hay-bales-in-June' };
}

/** The cookies a response set, as a Cookie header for the next request (the browser's part). */
export function cookiesFrom(response: LightMyRequestResponse, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
  for (const cookie of response.cookies) {
    if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() < Date.now()) || cookie.maxAge === 0) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A browser: keeps its cookies and sends the header the site's pages send on every call. */
export class Browser {
  cookies = '';

  constructor(
    private readonly t: TestApp,
    readonly ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
  ) {}

  async call(method: HttpMethod, url: string, payload?: unknown, headers: Record<string, string> = {}) {
    if (payload === undefined) return this.send(method, url, undefined, headers);
    return this.send(method, url, JSON.stringify(payload), { 'content-type': 'application/json', ...headers });
  }

  /** A request with a body sent as is (e.g. multipart), with the browser's cookies and header. */
  async send(method: HttpMethod, url: string, body?: string | Buffer, headers: Record<string, string> = {}) {
    const response = await this.t.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: { 'x-requested-with': 'fieldmarket', ...(this.cookies ? { cookie: this.cookies } : {}), ...headers },
      ...(body !== undefined ? { payload: body } : {}),
    });
    this.cookies = cookiesFrom(response, this.cookies);
    return response;
  }
}

/** The newest link to `path` (e.g. "/verify-email") mailed to `email`. */
export async function linkMailedTo(t: TestApp, email: string, path: string): Promise<string> {
  return eventually(async () => {
    const mails = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email);
    const links = mails.flatMap((m) => [...m.text.matchAll(new RegExp(`https?://\\S+${path}\\?token=[\\w%-]+`, 'g'))].map((x) => x[0]));
    const link = links.at(-1);
    if (!link) throw new Error(`no ${path} link mailed to ${email} yet`);
    return link;
  });
}

export const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('token') ?? '');

/**
 * The argon2 hash of each password the factories give people, made once per test file: hashing is about a
 * third of what making an account costs, and the tests share a handful of passwords.
 */
const passwordHashes = new Map<string, Promise<string>>();

/**
 * An account with a confirmed address and a password, as signing up and following the mailed link leave it,
 * written through the ORM without those steps (auth.spec tests them: the sign-up answer, the mail, the link).
 * No sign-up mail is sent. Returns the account's id.
 */
export async function confirmedAccount(t: TestApp, person: Person): Promise<string> {
  let passwordHash = passwordHashes.get(person.password);
  if (!passwordHash) passwordHashes.set(person.password, (passwordHash = t.app.get(Passwords).hash(person.password)));
  const em = t.app.get(MikroORM).em.fork();
  const user = em.create(User, {
    email: person.email,
    fullName: person.name,
    passwordHash: await passwordHash,
    provider: 'password',
    emailVerifiedAt: new Date(),
  });
  await em.flush();
  return user.id;
}

/** A person with a confirmed account (confirmedAccount), signed in through the API: a browser with a session. */
export async function signedInPerson(t: TestApp, person = newPerson()): Promise<{ browser: Browser; person: Person; id: string }> {
  await confirmedAccount(t, person);
  const browser = new Browser(t);
  return { browser, person, id: await signInWith(browser, person) };
}

/**
 * Signs a new person up through the API, confirms the address from the mailed link, and signs in, as a
 * person does: for tests of what those steps leave behind (the mail, the used link). signedInPerson is cheaper.
 */
export async function signedUpPerson(
  t: TestApp,
  db: TestDatabase,
  person = newPerson(),
): Promise<{ browser: Browser; person: Person; id: string }> {
  const browser = new Browser(t);
  const signUp = await browser.call('POST', '/api/auth/signup', { name: person.name, email: person.email, password: person.password });
  if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.body}`);
  await waitForJobs(db);
  const link = await linkMailedTo(t, person.email, '/verify-email');
  await browser.call('POST', '/api/auth/verify-email', { token: tokenOf(link) });
  return { browser, person, id: await signInWith(browser, person) };
}

/** Signs `person` in through the API in `browser`; returns their account's id. */
async function signInWith(browser: Browser, person: Person): Promise<string> {
  const signIn = await browser.call('POST', '/api/auth/signin', { email: person.email, password: person.password });
  if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.body}`);
  return signIn.json<{ data: { user: { id: string } } }>().data.user.id;
}
