# shellcheck shell=bash
# Shared by the scripts in this folder (sourced, not run): the repository
# root, a PATH that finds the tools we install, and small helpers.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"

# Cargo installs trunk and wasm-bindgen into ~/.cargo/bin. npm's binaryen
# puts wasm-opt 132 into node_modules/.bin; it must come before /usr/bin,
# where Debian's binaryen 108 (which breaks the wasm) may live.
export PATH="$CARGO_BIN:$ROOT/node_modules/.bin:$PATH"

# The trunk release the project is built and tested with.
export TRUNK_VERSION="0.21.14"

# Prints one line to stderr and stops. Use it for every failure, so the
# last line says what failed and why.
die() {
  echo "$*" >&2
  exit 1
}

# Prints a progress line.
say() {
  echo "==> $*"
}

# The version of a package in Cargo.lock, e.g. `lock_version wasm-bindgen`.
lock_version() {
  awk -v name="$1" '
    /^\[\[package\]\]/ { in_pkg = 0 }
    $0 == "name = \"" name "\"" { in_pkg = 1 }
    in_pkg && /^version = / { gsub(/"/, "", $3); print $3; exit }
  ' "$ROOT/Cargo.lock"
}

# True when the first line of `$1 --version` is `$2` (e.g. "trunk 0.21.14"),
# possibly followed by a space and more (such as a commit hash).
has_version() {
  local out
  command -v "$1" >/dev/null 2>&1 || return 1
  out="$("$1" --version 2>/dev/null | head -n 1)" || true
  [ "$out" = "$2" ] || [ "${out#"$2 "}" != "$out" ]
}
