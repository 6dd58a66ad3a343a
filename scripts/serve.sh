#!/usr/bin/env bash
# Installs what is missing, then builds and serves the app at
# http://127.0.0.1:8080, rebuilding when the sources change.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/tools.sh"
cargo fetch --quiet ||
  die "serve: \`cargo fetch\` failed (see above); trunk builds offline and needs the crates downloaded"
say "building and serving Tellers at http://127.0.0.1:8080 (Ctrl-C stops)"
exec trunk serve --offline --address 127.0.0.1 --port 8080
