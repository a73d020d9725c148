#!/usr/bin/env bash
# Validates docker-compose.yml (schema, interpolation, anchors) without needing a Docker engine, and the
# proxy configuration it mounts (deploy/haproxy.cfg) with `haproxy -c` where HAProxy is installed.
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

# The proxy's configuration (deploy/haproxy.cfg, mounted by the proxy service): checked by HAProxy itself when installed.
if command -v haproxy >/dev/null 2>&1; then
  stats="$(mktemp -d)"
  trap 'rm -rf "$stats"' EXIT
  echo "proxy check: haproxy -c -f $ROOT/deploy/haproxy.cfg"
  FM_PROXY_BIND=127.0.0.1:3000 FM_WEB1=127.0.0.1:3001 FM_WEB2=127.0.0.1:3002 FM_PROXY_STATS="$stats/admin.sock" \
    haproxy -c -q -f "$ROOT/deploy/haproxy.cfg" || { echo "proxy check failed" >&2; exit 1; }
  echo "proxy check passed"
else
  echo "proxy check skipped: no haproxy"
fi
