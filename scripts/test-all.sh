#!/usr/bin/env bash
# Every check and test suite, in the order that fails fastest. Called by `./fieldmarket test`
# after it has provisioned Node 24, the dependencies and a build.
# Integration tests use DATABASE_URL / REDIS_URL when set (each file makes its own database or
# key prefix); otherwise an embedded PostgreSQL. The browser tests always run the product on its
# embedded defaults, started exactly as `./fieldmarket start` starts it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
results="$(mktemp -d)"
step() { printf '\n[fieldmarket test] %s\n' "$*"; }

step "lint"
npm run --silent lint
step "format"
npm run --silent format:check
step "types"
npm run --silent typecheck
step "API contract"
npm run --silent contract:check
step "docker-compose file"
bash scripts/compose-check.sh

step "unit and integration tests (jest)"
NODE_OPTIONS=--experimental-vm-modules npx jest --json --outputFile="$results/jest.json"

step "browser tests (Playwright, embedded defaults)"
env -u DATABASE_URL -u REDIS_URL -u SMTP_URL -u S3_BUCKET FM_E2E_JSON_REPORT="$results/e2e.json" npm run --silent test:e2e

node scripts/test-summary.mjs "$results/jest.json" "$results/e2e.json"
