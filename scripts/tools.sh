#!/usr/bin/env bash
# Installs what building Tellers needs, skipping whatever is already there
# at the right version (so a second run takes a second or two):
#   - the wasm32-unknown-unknown Rust target (rustup)
#   - trunk, the wasm bundler (cargo install)
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock
#   - npm packages from package-lock.json: binaryen (wasm-opt 132), terser
#     (the release build's JavaScript), playwright-core and axe-core (browser tests)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

command -v cargo >/dev/null 2>&1 ||
  die "tools: cargo not found; install Rust 1.95 or newer with rustup (https://rustup.rs), then run this again"
command -v rustup >/dev/null 2>&1 ||
  die "tools: rustup not found; install Rust with rustup (https://rustup.rs), which adds the wasm32 target the web app needs"

# --- Node.js and npm (checked first: the slow installs come after) ---------------
if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  say "installing Node.js and npm with apt-get"
  { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; } ||
    die "tools: could not install nodejs and npm with apt-get (see above); npm installs wasm-opt and the browser-test tools"
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  die "tools: Node.js 20 or newer with npm is needed and was not found; npm installs wasm-opt and the browser-test tools"
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] ||
  die "tools: Node.js $(node --version) is too old; playwright-core (browser tests) needs Node.js 20 or newer"

# --- Rust target for the browser ---------------------------------------------
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target: installed"
else
  say "adding the wasm32-unknown-unknown Rust target"
  rustup target add wasm32-unknown-unknown ||
    die "tools: could not add the wasm32-unknown-unknown target with rustup (see above); the web app compiles to it"
fi

# --- trunk -------------------------------------------------------------------
if has_version trunk "trunk $TRUNK_VERSION"; then
  say "trunk $TRUNK_VERSION: installed"
else
  say "installing trunk $TRUNK_VERSION with cargo (about 6-10 minutes on 2 cores)"
  cargo install --locked --force "trunk@$TRUNK_VERSION" ||
    die "tools: could not install trunk $TRUNK_VERSION with cargo (see the log above); trunk builds the web app"
  has_version trunk "trunk $TRUNK_VERSION" ||
    die "tools: trunk $TRUNK_VERSION was installed into $CARGO_BIN but \`trunk --version\` says '$(trunk --version 2>&1 | head -n 1)'"
fi

# --- wasm-bindgen-cli, matching Cargo.lock -------------------------------------
bindgen_version="$(lock_version wasm-bindgen)"
[ -n "$bindgen_version" ] ||
  die "tools: could not find the wasm-bindgen version in Cargo.lock; run \`cargo generate-lockfile\` and try again"
if has_version wasm-bindgen "wasm-bindgen $bindgen_version"; then
  say "wasm-bindgen $bindgen_version: installed"
else
  say "installing wasm-bindgen-cli $bindgen_version with cargo (a few minutes)"
  # No --locked: its lock file does not resolve against this registry.
  cargo install --force "wasm-bindgen-cli@$bindgen_version" ||
    die "tools: could not install wasm-bindgen-cli $bindgen_version with cargo (see the log above); trunk needs it at exactly the wasm-bindgen version in Cargo.lock"
  has_version wasm-bindgen "wasm-bindgen $bindgen_version" ||
    die "tools: wasm-bindgen-cli $bindgen_version was installed into $CARGO_BIN but \`wasm-bindgen --version\` says '$(wasm-bindgen --version 2>&1 | head -n 1)'"
fi

# --- npm packages ------------------------------------------------------------
npm_ok() {
  [ -f node_modules/.package-lock.json ] &&
    ! [ package-lock.json -nt node_modules/.package-lock.json ] &&
    [ -x node_modules/.bin/wasm-opt ] &&
    [ -f node_modules/terser/package.json ] &&
    [ -f node_modules/axe-core/axe.min.js ] &&
    [ -d node_modules/playwright-core ]
}
if npm_ok; then
  say "npm packages: installed"
else
  say "installing npm packages from package-lock.json (npm ci)"
  npm ci --no-audit --no-fund ||
    die "tools: \`npm ci\` failed (see above); it installs wasm-opt (binaryen), playwright-core and axe-core"
fi
wasm_opt_version="$(wasm-opt --version 2>/dev/null || true)"
case "$wasm_opt_version" in
  *"version 132"*) say "wasm-opt 132 (npm binaryen): ready" ;;
  *) die "tools: wasm-opt on PATH is '${wasm_opt_version:-missing}', not npm's binaryen 132 (node_modules/.bin/wasm-opt); run \`npm ci\`" ;;
esac
