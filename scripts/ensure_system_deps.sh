#!/usr/bin/env bash
# System packages the test suite needs that pip cannot provide: Debian's Chromium for the
# Playwright browser tests (browser downloads are impossible here) and fonts.
# (Translations compile with polib, so GNU gettext is not needed.)
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# Devanagari and Urdu glyphs, so browser-test screenshots of Hindi and Urdu pages are readable.
fc-list :lang=hi 2>/dev/null | grep -q . || need+=(fonts-noto-core)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing system packages: ${need[*]} (run as root or install them)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
