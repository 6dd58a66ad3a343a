#!/usr/bin/env bash
# Everything CI checks, in order, stopping at the first failure:
# formatting, clippy, native tests, the release wasm build, browser tests.
# The last line is the summary: `tests: N passed, M failed` (N stages).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

passed=0
summary() {
  echo "tests: $passed passed, $1 failed"
}

if ! "$ROOT/scripts/test-tools.sh"; then
  echo "FAIL tools: the tools for building and testing could not be installed (see above)" >&2
  summary 1
  exit 1
fi

# stage NAME COMMAND...: runs one stage, timing it; stops on failure.
stage() {
  local name="$1"
  shift
  local start=$SECONDS
  say "$name: $*"
  if "$@"; then
    passed=$((passed + 1))
    say "$name: passed ($((SECONDS - start)) s)"
  else
    echo "FAIL $name ($((SECONDS - start)) s): \`$*\` failed (see above)" >&2
    summary 1
    exit 1
  fi
}

stage fmt cargo fmt --all --check
stage clippy cargo clippy --workspace --all-targets -- -D warnings
stage native-tests cargo test --workspace
stage cli cargo build --release -p tellers-sim --bin tellers
stage wasm-build "$ROOT/scripts/build.sh"
stage browser-tests node "$ROOT/tests/browser/run.mjs"
summary 0
