#!/usr/bin/env bash
# Playwright drives Debian's Chromium (it cannot download its own browser on these machines).
set -uo pipefail
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$chromium" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "== installing Debian's chromium (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null && exit 0
  echo "apt-get install chromium failed" >&2
  exit 1
fi
echo "The e2e tests need Chromium at $chromium. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH)." >&2
exit 1
