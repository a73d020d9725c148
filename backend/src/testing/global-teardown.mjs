export default async function globalTeardown() {
  await globalThis.__databaseDropper?.stop();
  await globalThis.__templates?.drop();
  await globalThis.__privateRedis?.stop();
  await globalThis.__embeddedPostgres?.stop();
}
