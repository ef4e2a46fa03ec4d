#!/usr/bin/env bash
# `npm test`: typecheck, lint, formatting, the conformance index, unit tests, the fault campaign
# (`npm run faults`), the web build and the e2e suite in Debian's Chromium. Ends with one plain line `total: N passed, N failed, N skipped`
# (scripts/summarize-tests.mjs) in which every failed step counts, whether or not a test failed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="$PWD/.ci-out"
rm -rf "$OUT" && mkdir -p "$OUT"
STEPS="$OUT/steps.txt"
: >"$STEPS"
status=0
step() {
  local name=$1
  shift
  echo "== $name"
  local t0=$SECONDS
  "$@"
  local rc=$?
  echo "== $name: exit $rc ($((SECONDS - t0)) s)"
  echo "$name $rc" >>"$STEPS"
  [ $rc -eq 0 ] || status=1
  return $rc
}

bash scripts/ensure-chromium.sh || exit 1

step typecheck npx tsc -b
step lint npx eslint .
step format npx prettier --check --log-level warn .
step conformance npm run --silent conformance
step unit npx vitest run --reporter=default --reporter=json --outputFile.json="$OUT/vitest.json"
step faults node scripts/faults.mjs "$OUT/faults.json"
e2e() {
  export E2E_DATA_DIR="$OUT/e2e-data"
  # A free loopback port, so a server left running elsewhere cannot collide with the suite's own.
  export E2E_PORT="${E2E_PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
  (cd e2e && PLAYWRIGHT_JSON_OUTPUT_FILE="$OUT/e2e.json" ../node_modules/.bin/playwright test --reporter=list,json)
}
if step build npx vite build --logLevel warn; then
  step e2e e2e
fi

node scripts/summarize-tests.mjs --steps "$STEPS" --vitest "unit=$OUT/vitest.json" \
  --vitest "faults=$OUT/faults.json" --playwright "e2e=$OUT/e2e.json" || status=1
exit $status
