#!/usr/bin/env bash
# The entry of action.yml (the composite action at the repository's root):
# runs adops with its arguments, the key in ADOPS_API_KEY and the service in
# ADOPS_BASE_URL (the environment, never argv). adops itself writes the step
# summary (GITHUB_STEP_SUMMARY) and exits with its own code.
# The arguments come from one of two inputs, never through a shell's parsing (an
# argument is never re-split or expanded):
# - ADOPS_ACTION_ARGS (`args`): one argument per line; each line trimmed, empty
#   lines dropped (a YAML block's indentation and blank lines mean nothing);
# - ADOPS_ACTION_ARGS_JSON (`args-json`): a JSON array of strings, each one
#   argument exactly as written: an empty one, one with leading or trailing
#   spaces, one from an expression that may be empty (toJSON(...)).
# Which adops: one on PATH (an earlier step installed it), else this checkout's,
# built once (npm ci and npm run build; its output on stderr).
set -euo pipefail
fail() { echo "adops action: $*" >&2; exit 2; }
blank() { [ -z "${1//[[:space:]]/}" ]; }

[ -n "${ADOPS_API_KEY:-}" ] || fail "the api-key input is empty: pass it from a secret (api-key: \${{ secrets.ADOPS_API_KEY }})"
[ -n "${ADOPS_BASE_URL:-}" ] || fail "the base-url input is empty"
args=()
if ! blank "${ADOPS_ACTION_ARGS_JSON:-}"; then
  blank "${ADOPS_ACTION_ARGS:-}" || fail "give the arguments in args or in args-json, not both"
  command -v node >/dev/null 2>&1 || fail "args-json is read with node: put node on PATH (actions/setup-node)"
  # node reads the input from the environment (never spliced into code) and writes each argument
  # NUL-terminated, then an end mark: without that mark (the input refused) nothing runs.
  end='adops-action: end of arguments'
  while IFS= read -r -d '' arg; do args+=("$arg"); done < <(ADOPS_ACTION_END="$end" node -e '
    const fail = (why) => { process.stderr.write(`adops action: the args-json input ${why}\n`); process.exit(2); };
    let list;
    try { list = JSON.parse(process.env.ADOPS_ACTION_ARGS_JSON); } catch { fail("is not JSON: give a JSON array of strings, e.g. [\"assets\", \"list\"]"); }
    if (!Array.isArray(list) || !list.every((a) => typeof a === "string")) fail("must be a JSON array of strings, e.g. [\"assets\", \"list\"]");
    if (list.some((a) => a.includes("\0"))) fail("holds a NUL character, which no argument can carry");
    if (list.length === 0) fail("is an empty array: give adops\x27s arguments");
    process.stdout.write([...list, process.env.ADOPS_ACTION_END].map((a) => a + "\0").join(""));
  ')
  last=$((${#args[@]} - 1))
  [ "$last" -ge 0 ] && [ "${args[$last]}" = "$end" ] || exit 2 # node said why on stderr
  unset "args[$last]"
else
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line#"${line%%[![:space:]]*}"}" # trim the indentation a YAML block may leave, and trailing blanks
    line="${line%"${line##*[![:space:]]}"}"
    [ -n "$line" ] && args+=("$line")
  done <<<"${ADOPS_ACTION_ARGS:-}"
  [ "${#args[@]}" -gt 0 ] || fail "the args input is empty: give adops's arguments, one per line (or a JSON array in args-json)"
fi

if command -v adops >/dev/null 2>&1; then
  exec adops "${args[@]}"
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ ! -f "$root/dist/bundle/main.js" ]; then
  echo "adops action: building adops from $root (npm ci, npm run build)" >&2
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent) >&2
fi
exec node "$root/bin/adops.js" "${args[@]}"
