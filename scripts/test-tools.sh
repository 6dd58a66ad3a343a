#!/usr/bin/env bash
# Installs everything `make test` needs: the build tools (scripts/tools.sh)
# and Debian's chromium, chromium-driver and poppler-utils (pdftotext) for the
# browser tests. Each is skipped when it is already there.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/tools.sh"

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
# pdftotext: the worksheet tests read what each printed page says.
[ -x /usr/bin/pdftotext ] || missing+=(poppler-utils)

if [ ${#missing[@]} -eq 0 ]; then
  say "chromium, chromium-driver and poppler-utils: installed"
else
  command -v apt-get >/dev/null 2>&1 ||
    die "test-tools: ${missing[*]} missing and apt-get not found; install Chromium at /usr/bin/chromium (the browser tests drive it) and poppler-utils' pdftotext at /usr/bin/pdftotext"
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 ||
      die "test-tools: installing ${missing[*]} needs root; run as root or install sudo"
    sudo=(sudo)
  fi
  say "installing ${missing[*]} with apt-get (a few minutes)"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q ||
    die "test-tools: \`apt-get update\` failed (see above); it is needed to install ${missing[*]} for the browser tests"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" ||
    die "test-tools: could not install ${missing[*]} with apt-get (see above); the browser tests drive Chromium"
  [ -x /usr/bin/chromium ] ||
    die "test-tools: apt-get finished but /usr/bin/chromium is missing; the browser tests expect Chromium there"
  [ -x /usr/bin/pdftotext ] ||
    die "test-tools: apt-get finished but /usr/bin/pdftotext is missing; the worksheet tests read printed pages with it"
fi
