import { describe, expect, it } from '@jest/globals';
import { ENV } from './env-schema.js';
import { renderEnvTable, withEnvTable } from './env-table.js';
import { ConfigError, loadConfig } from './env.js';

describe('loadConfig', () => {
  it('runs on embedded defaults with no configuration', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.port).toBe(3000);
    expect(config.database.url).toBeUndefined();
    expect(config.database.migrateOnStart).toBe(true);
    expect(config.queue.workersInProcess).toBe(true);
    expect(config.mail.smtpUrl).toBeUndefined();
    expect(config.mail.outboxDir).toBe('/srv/app/.data/outbox');
    expect(config.storage.s3).toBeUndefined();
    expect(config.storage.uploadsDir).toBe('/srv/app/.data/uploads');
    expect(config.frontendDir).toBe('/srv/app/frontend/dist');
  });

  it('moves the workers out of the web process when Redis is configured', () => {
    const config = loadConfig({ REDIS_URL: 'redis://cache:6379', DATABASE_URL: 'postgres://db/fm' });
    expect(config.queue.workersInProcess).toBe(false);
    expect(config.database.migrateOnStart).toBe(false);
  });

  it('reads S3 settings and defaults to path-style addressing for a custom endpoint', () => {
    const config = loadConfig({ S3_BUCKET: 'images', S3_ENDPOINT: 'http://minio:9000' });
    expect(config.storage.s3).toMatchObject({ bucket: 'images', endpoint: 'http://minio:9000', forcePathStyle: true, region: 'eu-west-2' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 1 to 65535 (got "70000")'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL must start with postgres:// or postgresql://'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL is not a valid URL'],
    [
      { TRUST_PROXY: 'maybe' },
      'TRUST_PROXY must be false, a number of proxies in front of the app (e.g. 1) or a comma-separated list of their addresses or CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1) (got "maybe")',
    ],
    [
      { TRUST_PROXY: 'true' },
      'TRUST_PROXY no longer accepts "true", which trusted forged X-Forwarded-For entries; set it to false, a number of proxies',
    ],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY must be false, a number of proxies'],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY must be at most 10 proxies (got "11")'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of error, warn, log, debug, verbose (got "loud")'],
    [{ S3_ENDPOINT: 'http://minio:9000' }, 'S3_ENDPOINT is set but S3_BUCKET is not'],
    [{ QUEUE_PREFIX: 'a b' }, 'QUEUE_PREFIX may hold only letters, digits, "-" and "_"'],
    [{ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com' }, 'GOOGLE_CLIENT_ID is set but GOOGLE_CLIENT_SECRET is not'],
    [{ GOOGLE_CLIENT_SECRET: 'secret' }, 'GOOGLE_CLIENT_SECRET is set but GOOGLE_CLIENT_ID is not'],
    [{ GOOGLE_TOKEN_URL: 'ftp://google/token' }, 'GOOGLE_TOKEN_URL must start with http:// or https://'],
    [
      { GOOGLE_USERINFO_URL: 'https://www.googleapis.com/plus/v1/people/me' },
      'GOOGLE_USERINFO_URL must be an OpenID Connect userinfo endpoint',
    ],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['loopback,fd00::/8,::1', ['loopback', 'fd00::/8', '::1']],
  ])('reads TRUST_PROXY=%s as a hop count or a list of proxies', (raw, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(trustProxy);
  });

  it("has no Google sign-in unless both client values are set, and then uses Google's endpoints", () => {
    expect(loadConfig({}).google).toBeUndefined();
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }).google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      userInfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    });
  });

  it('serves the diagnostic routes in development only, unless DIAGNOSTIC_ROUTES says otherwise', () => {
    expect(loadConfig({}).diagnosticRoutes).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).diagnosticRoutes).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).diagnosticRoutes).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', DIAGNOSTIC_ROUTES: 'false' }).diagnosticRoutes).toBe(false);
    expect(loadConfig({ DIAGNOSTIC_ROUTES: 'true' }).diagnosticRoutes).toBe(true);
    expect(() => loadConfig({ DIAGNOSTIC_ROUTES: 'sometimes' })).toThrow('DIAGNOSTIC_ROUTES must be true or false (got "sometimes")');
  });

  it('lists every problem at once', () => {
    expect(() => loadConfig({ PORT: 'x', SMTP_URL: 'http://mail' })).toThrow(
      /PORT must[\s\S]*SMTP_URL must start with smtp:\/\/ or smtps:\/\//,
    );
  });
});

describe('the configuration table', () => {
  it('is, in the README, the one the schema generates: names, defaults and meanings (npm run docs:env writes it)', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(renderEnvTable());
    expect(withEnvTable(readme)).toBe(readme);
  });

  it('shows the defaults the loader applies', () => {
    const config = loadConfig({}, '/srv/app');
    const row = (name: string) =>
      renderEnvTable()
        .split('\n')
        .find((line) => line.startsWith(`| \`${name}\` `)) ?? '';
    expect(row('PORT')).toMatch(new RegExp(`\\|\\s*${config.port}\\s*\\|`));
    expect(row('SEARCH_CACHE_MS')).toMatch(new RegExp(`\\|\\s*${config.searchCacheMs}\\s*\\|`));
    expect(row('MAIL_FROM')).toContain('Fieldmarket &lt;no-reply@fieldmarket.co.uk&gt;');
    expect(config.mail.from).toBe('Fieldmarket <no-reply@fieldmarket.co.uk>');
    expect(row('REQUEST_TIMEOUT_SECONDS')).toContain(`| ${config.http.requestTimeoutMs / 1000} `);
  });

  it('lists every variable the schema declares, once', () => {
    const names = renderEnvTable()
      .split('\n')
      .slice(2)
      .map((line) => /^\| `([A-Z0-9_]+)`/.exec(line)?.[1]);
    expect(names).toEqual(Object.keys(ENV));
  });
});
