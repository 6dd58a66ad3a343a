#!/usr/bin/env bash
# Builds the release web app into dist/ (wasm, optimised by wasm-opt).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# trunk runs offline (it must never download a tool), so cargo runs with
# --offline too: fetch the crates first, for every target.
cargo fetch --quiet ||
  die "build: \`cargo fetch\` failed (see above); trunk builds offline and needs the crates downloaded"
trunk build --release --offline ||
  die "build: \`trunk build --release --offline\` failed (see above)"
