#!/usr/bin/env bash
# Every check and test suite. Called by `./fieldmarket test` after it has provisioned Node 24, the
# dependencies and a build.
# The static checks (lint, format, types, API contract, compose file) run side by side, then the
# jest suite and the browser tests. Each step's output is kept and shown in one piece when the step
# ends, under its name; a failing step fails the command. Each step's duration and the total are
# printed at the end.
# Integration tests use DATABASE_URL / REDIS_URL when set (each file gets its own database or key
# prefix); otherwise an embedded PostgreSQL, and a private redis-server when one is installed. The
# browser tests always run the product on its embedded defaults, started as `./fieldmarket start` does.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
results="$(mktemp -d)"
export FM_TEST_NOTES_DIR="$results"
started_all=$(date +%s%N)
declare -A pids=() began=()
order=()
failed=()

# start <name> <command...>: runs the step in the background, its output kept in a file.
start() {
  local name=$1
  shift
  order+=("$name")
  began[$name]=$(date +%s%N)
  printf '[fieldmarket test] %s: started\n' "$name"
  (
    "$@" >"$results/$name.log" 2>&1
    rc=$?
    date +%s%N >"$results/$name.end"
    exit "$rc"
  ) &
  pids[$name]=$!
}

# finish <name>...: waits for the steps, then shows each one's output and result in turn.
finish() {
  local name rc ms
  for name in "$@"; do
    wait "${pids[$name]}"
    rc=$?
    ms=$((($(cat "$results/$name.end") - ${began[$name]}) / 1000000))
    printf '%s %s\n' "$rc" "$ms" >"$results/$name.status"
    printf '\n[fieldmarket test] ── %s ──\n' "$name"
    cat "$results/$name.log"
    if [ "$rc" -eq 0 ]; then
      printf '[fieldmarket test] %s: passed in %s s\n' "$name" "$(seconds "$ms")"
    else
      printf '[fieldmarket test] %s: FAILED (exit %s) after %s s\n' "$name" "$rc" "$(seconds "$ms")"
      failed+=("$name")
    fi
  done
}

seconds() { printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100)); }

start lint npm run --silent lint
start format npm run --silent format:check
start types npm run --silent typecheck
start contract npm run --silent contract:check
start compose bash scripts/compose-check.sh
finish lint format types contract compose

if [ ${#failed[@]} -eq 0 ]; then
  # A larger young generation: loading the backend's modules into each test file allocates a lot of short-lived
  # objects, and with it the workers spend about a third less time collecting garbage.
  start jest env NODE_OPTIONS="--experimental-vm-modules --max-semi-space-size=64" npx jest --json --outputFile="$results/jest.json"
  finish jest
fi
if [ ${#failed[@]} -eq 0 ]; then
  start playwright env -u DATABASE_URL -u REDIS_URL -u SMTP_URL -u S3_BUCKET \
    FM_E2E_JSON_REPORT="$results/e2e.json" npm run --silent test:e2e
  finish playwright
fi

printf '\n[fieldmarket test] durations\n'
for name in "${order[@]}"; do
  read -r rc ms <"$results/$name.status"
  printf '  %-11s %8s s  %s\n' "$name" "$(seconds "$ms")" "$([ "$rc" -eq 0 ] && echo passed || echo FAILED)"
done
printf '  %-11s %8s s\n' total "$(seconds $((($(date +%s%N) - started_all) / 1000000)))"
[ -f "$results/redis-variants.txt" ] && printf '\n[fieldmarket test] %s\n' "$(cat "$results/redis-variants.txt")"

if [ ${#failed[@]} -gt 0 ]; then
  printf '\n[fieldmarket test] failed: %s\n' "${failed[*]}"
  [ -f "$results/jest.json" ] && [ -f "$results/e2e.json" ] && node scripts/test-summary.mjs "$results/jest.json" "$results/e2e.json"
  exit 1
fi
node scripts/test-summary.mjs "$results/jest.json" "$results/e2e.json"
