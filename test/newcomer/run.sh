#!/usr/bin/env bash
# A newcomer's first actions, in CI (issue 46): in a copy of the project (its files as git sees
# them, node_modules linked), scaffold what docs/adding-an-action.md walks a newcomer through, a
# parameterless verified action (the signed-in user's own balance) and a token transfer with a
# message, then lint them (with the typed client `npm run client` writes), typecheck the project
# and run their own specs, as a newcomer would, with Jest's workers. It fails when a step fails
# and when anything printed is a warning: a lint warning, a Node or npm warning, a Jest worker
# that "failed to exit gracefully" or an open handle. Run by .ci/run on Node 24 (npm scripts run
# the `node` devDependency); locally: bash test/newcomer/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
copy=$(mktemp -d "${TMPDIR:-/tmp}/newcomer.XXXXXX")
log=$(mktemp "${TMPDIR:-/tmp}/newcomer-log.XXXXXX")
trap 'rm -rf "$copy"' EXIT

# Tracked and untracked files, not ignored ones (node_modules, dist, the generated client).
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$root" && tar --null --ignore-failed-read -T - -cf -) | tar -xf - -C "$copy"
ln -s "$root/node_modules" "$copy/node_modules"
cd "$copy"
export FORCE_COLOR=0

started=$SECONDS
run() {
  printf '\n==> %s\n' "$*" | tee -a "$log"
  "$@" 2>&1 | tee -a "$log"
}

run npm run --silent new:action -- my-balance --chain --verified
run npm run --silent new:action -- donate --mode transaction --transfer
run npm run --silent client
run npm exec --no -- eslint --max-warnings=0 src/actions/my-balance src/actions/donate \
  src/actions/index.ts src/actions/mini-apps.ts src/client/generated/actions.ts \
  test/actions/my-balance.e2e-spec.ts test/actions/donate.e2e-spec.ts
run npm exec --no -- tsc --noEmit -p tsconfig.json
run npm exec --no -- jest --ci --maxWorkers=2 src/actions/my-balance src/actions/donate \
  test/actions/my-balance.e2e-spec.ts test/actions/donate.e2e-spec.ts

warnings=$(grep -v "^==> " "$log" | grep -Ein 'warn|failed to exit gracefully|did not exit|open handle' || true)
if [ -n "$warnings" ]; then
  printf '\nnewcomer: FAILED: warnings printed (%s):\n%s\n' "$log" "$warnings" >&2
  exit 1
fi
rm -f "$log"
printf '\nnewcomer: scaffolded, linted, typechecked and tested with no warning in %d s\n' \
  $((SECONDS - started))
