#!/usr/bin/env bash
# System packages the test suite needs that pip cannot provide: Debian's Chromium for the
# Playwright browser tests (browser downloads are impossible here) and fonts; and Debian's
# nginx for the production recipe's test (tests/tables/test_nginx.py), which skips, saying
# so, where it cannot be installed (not root): so nginx alone never fails this script.
# (Translations compile with polib, so GNU gettext is not needed.)
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# Devanagari and Urdu glyphs, so browser-test screenshots of Hindi and Urdu pages are readable.
fc-list :lang=hi 2>/dev/null | grep -q . || need+=(fonts-noto-core)
optional=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || optional+=(nginx)
if [ ${#optional[@]} -gt 0 ] && [ "$(id -u)" != 0 ]; then
  echo "not installed (not root): ${optional[*]}; tests/tables/test_nginx.py will skip" >&2
  optional=()
fi
need+=("${optional[@]}")
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing system packages: ${need[*]} (run as root or install them)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
