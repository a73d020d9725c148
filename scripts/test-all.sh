#!/usr/bin/env bash
# Every check and test suite. Called by `./fieldmarket test` after it has provisioned Node 24, the
# dependencies and a build.
# The browser tests start first and run beside everything else; the static checks (lint, format, types, API
# contract, compose file, side by side) and then the jest suite run at a lower CPU priority (nice) in the CPU
# they leave, so the browser tests, whose waits have the tightest timeouts, keep the CPU when they need it (alone
# they use about one and a half of two cores, mostly the browser's). jest waits for the static checks: started
# beside them it was no faster on two cores (306.8, 380.2 s against 325.4, 342.8 s after them, 27 November).
# Each step's output is kept and shown in one piece when the step ends, under its name; a failing step fails
# the command, and failing static checks stop the browser tests and skip jest. Each step's duration and the
# total are printed at the end.
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

# start <name> <command...>: runs the step in the background, in a process group of its own (setsid, so
# `interrupt` reaches all it started), its output kept in a file.
start() {
  local name=$1
  shift
  order+=("$name")
  began[$name]=$(date +%s%N)
  printf '[fieldmarket test] %s: started\n' "$name"
  (
    setsid "$@" >"$results/$name.log" 2>&1 &
    echo $! >"$results/$name.pid"
    wait $!
    rc=$?
    date +%s%N >"$results/$name.end"
    exit "$rc"
  ) &
  pids[$name]=$!
}

# interrupt <name>: Ctrl-C for a running step (the browser tests stop their products and browsers on it).
interrupt() {
  [ -f "$results/$1.pid" ] && kill -INT -- "-$(cat "$results/$1.pid")" 2>/dev/null
  printf '[fieldmarket test] %s: stopped, because of the failures above\n' "$1"
}

# Ctrl-C (or SIGTERM) on the command reaches every step, each being in its own process group.
on_signal() {
  for name in "${order[@]}"; do
    [ -f "$results/$name.pid" ] && kill -INT -- "-$(cat "$results/$name.pid")" 2>/dev/null
  done
  wait
  exit 130
}
trap on_signal INT TERM

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

start playwright env -u DATABASE_URL -u REDIS_URL -u SMTP_URL -u S3_BUCKET \
  FM_E2E_JSON_REPORT="$results/e2e.json" npm run --silent test:e2e
# Lower priority for everything but the browser tests (see the top).
later="nice -n 10"
start lint $later npm run --silent lint
start format $later npm run --silent format:check
start types $later npm run --silent typecheck
start contract $later npm run --silent contract:check
start compose $later bash scripts/compose-check.sh
finish lint format types contract compose

if [ ${#failed[@]} -eq 0 ]; then
  # A larger young generation: loading the backend's modules into each test file allocates a lot of short-lived
  # objects, and with it the workers spend about a third less time collecting garbage.
  # Eight backend spec files to a jest test file, loading the backend's modules once for the eight (jest.config.js).
  start jest env NODE_OPTIONS="--experimental-vm-modules --max-semi-space-size=64" FM_JEST_GROUP_SIZE=8 \
    $later npx jest --json --outputFile="$results/jest.json"
  finish jest
else
  interrupt playwright
fi
finish playwright

printf '\n[fieldmarket test] durations\n'
for name in "${order[@]}"; do
  read -r rc ms <"$results/$name.status"
  printf '  %-11s %8s s  %s\n' "$name" "$(seconds "$ms")" "$([ "$rc" -eq 0 ] && echo passed || echo FAILED)"
done
printf '  %-11s %8s s\n' total "$(seconds $((($(date +%s%N) - started_all) / 1000000)))"
# Notes the tests left on how they ran (which Redis, which PostgreSQL server for the backup test).
for note in "$results"/*.note; do
  [ -f "$note" ] && printf '\n[fieldmarket test] %s\n' "$(cat "$note")"
done

if [ ${#failed[@]} -gt 0 ]; then
  printf '\n[fieldmarket test] failed: %s\n' "${failed[*]}"
  [ -f "$results/jest.json" ] && [ -f "$results/e2e.json" ] && node scripts/test-summary.mjs "$results/jest.json" "$results/e2e.json"
  exit 1
fi
node scripts/test-summary.mjs "$results/jest.json" "$results/e2e.json"
