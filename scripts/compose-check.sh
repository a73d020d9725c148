#!/usr/bin/env bash
# Validates docker-compose.yml (schema, interpolation, anchors) without needing a Docker engine.
# Uses docker-compose (v1, e.g. Debian's 1.29) when installed, else the `docker compose` plugin (v2);
# with neither it skips with exit 0. A file that fails validation exits non-zero.
#
#   scripts/compose-check.sh [path/to/docker-compose.yml]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FILE="${1:-$ROOT/docker-compose.yml}"

if [ ! -f "$FILE" ]; then
  echo "compose check failed: $FILE not found" >&2
  exit 1
fi

if command -v docker-compose >/dev/null 2>&1; then
  tool=(docker-compose)
elif command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  tool=(docker compose)
else
  echo "compose check skipped: no docker-compose"
  exit 0
fi

echo "compose check: ${tool[*]} -f $FILE config -q"
status=0
"${tool[@]}" -f "$FILE" config -q || status=$?
if [ "$status" -ne 0 ]; then
  echo "compose check failed: ${tool[*]} config exited with $status" >&2
  exit "$status"
fi
echo "compose check passed"
