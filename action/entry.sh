#!/usr/bin/env bash
# The entry of action.yml (the composite action at the repository's root):
# runs adops with ADOPS_ACTION_ARGS, one argument per line (no shell parsing:
# an argument is never re-split or expanded), the key in ADOPS_API_KEY and the
# service in ADOPS_BASE_URL (the environment, never argv). adops itself writes
# the step summary (GITHUB_STEP_SUMMARY) and exits with its own code.
# Which adops: one on PATH (an earlier step installed it), else this checkout's,
# built once (npm ci and npm run build; its output on stderr).
set -euo pipefail
fail() { echo "adops action: $*" >&2; exit 2; }

[ -n "${ADOPS_API_KEY:-}" ] || fail "the api-key input is empty: pass it from a secret (api-key: \${{ secrets.ADOPS_API_KEY }})"
[ -n "${ADOPS_BASE_URL:-}" ] || fail "the base-url input is empty"
args=()
while IFS= read -r line || [ -n "$line" ]; do
  line="${line#"${line%%[![:space:]]*}"}" # trim the indentation a YAML block may leave, and trailing blanks
  line="${line%"${line##*[![:space:]]}"}"
  [ -n "$line" ] && args+=("$line")
done <<<"${ADOPS_ACTION_ARGS:-}"
[ "${#args[@]}" -gt 0 ] || fail "the args input is empty: give adops's arguments, one per line"

if command -v adops >/dev/null 2>&1; then
  exec adops "${args[@]}"
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ ! -f "$root/dist/bundle/main.js" ]; then
  echo "adops action: building adops from $root (npm ci, npm run build)" >&2
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent) >&2
fi
exec node "$root/bin/adops.js" "${args[@]}"
