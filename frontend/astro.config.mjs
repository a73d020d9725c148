// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

// Pages are prerendered by default. The NestJS backend mounts the built handler
// (dist/server/entry.mjs) in middleware mode and serves dist/client statically.
export default defineConfig({
  adapter: node({ mode: 'middleware' }),
  integrations: [react()],
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // Pin the tsconfig: otherwise Vite picks the monorepo root one for files outside src/ and follows its
  // project references into backend/ and workers/, which the frontend build must not depend on.
  vite: { tsconfig: 'tsconfig.json' },
  // The server bundle imports html-escaper; frontend/package.json pins the 3.x Astro needs, because the
  // hoisted copy at the root is jest's 2.x and would otherwise be the one found at run time.
});
