#!/usr/bin/env bash
# Step 2 of the filid GitHub Action: run `filid check` once and record the result.
#
# Inputs arrive only through the environment (action.yml maps them in `env:`):
#   INPUT_PATH (project root, default .), INPUT_ARGS (extra arguments, split like a shell
#   would, without expansion), INPUT_FAIL_ON, INPUT_SARIF_FILE (may be empty: no SARIF kept),
#   INPUT_JUNIT_FILE (empty: none), INPUT_CONFIG ("" own config, "base" the pull request
#   base's .filid/config.json, else a --config path), INPUT_NEW_SINCE ("auto": on a pull
#   request, only what it introduced, against its base commit; "off": the whole repository;
#   else a git revision for --new-since), FILID_BIN / FILID_PYTHON.
#
# Hostile checkouts: report files are written under $RUNNER_TEMP/filid when given as relative
# paths (a pull request can commit `filid.sarif` as a symbolic link to a later step's script;
# filid itself never writes through a link either), and "base" takes the policy (the config
# and the DETAIL.md boundary exemptions) from a commit the pull request cannot change.
#
# One run writes the annotations (stdout), the SARIF, the optional JUnit file and the job
# summary. Exit codes 0 and 1 (violations) are recorded as the output `exit-code` and this
# step succeeds, so a SARIF upload step can still run; the last step (finish.sh) then exits
# with filid's code. Exit codes 2 (usage/config) and 3 (internal) fail this step at once.
#
# Writes to $GITHUB_OUTPUT: violations=<number of SARIF results>, sarif-file=<path or empty>,
#                           exit-code=<filid's exit code>.
set -uo pipefail

filid="${FILID_BIN:-filid}"
python="${FILID_PYTHON:-python3}"
path="${INPUT_PATH:-.}"
fail_on="${INPUT_FAIL_ON:-error}"
sarif_file="${INPUT_SARIF_FILE:-}"
junit_file="${INPUT_JUNIT_FILE:-}"
config_input="${INPUT_CONFIG:-}"
output="${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
reports="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/filid"
mkdir -p "$reports"

# Relative report paths go under $RUNNER_TEMP/filid, out of the pull request's reach.
place() {
  if [[ -z "$1" || "$1" == /* ]]; then
    printf '%s' "$1"
  else
    mkdir -p "$(dirname "$reports/$1")"
    printf '%s' "$reports/$1"
  fi
}
sarif_file="$(place "$sarif_file")"
junit_file="$(place "$junit_file")"

# The base commit of a pull request (or merge queue entry) from the event payload, if any.
base_sha=""
if [[ -n "${GITHUB_EVENT_PATH:-}" && -f "${GITHUB_EVENT_PATH}" ]]; then
  base_sha="$("$python" -c '
import json, re, sys
try:
    event = json.load(open(sys.argv[1], encoding="utf-8"))
except (OSError, ValueError):
    event = {}
if not isinstance(event, dict):
    event = {}
pull = event.get("pull_request") if isinstance(event.get("pull_request"), dict) else {}
base = pull.get("base") if isinstance(pull.get("base"), dict) else {}
group = event.get("merge_group") if isinstance(event.get("merge_group"), dict) else {}
sha = base.get("sha") or group.get("base_sha") or ""
print(sha if isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha) else "")
' "$GITHUB_EVENT_PATH" 2>/dev/null || true)"
fi

# Make `commit` and enough history to find its merge base with HEAD present in a shallow
# checkout (actions/checkout fetches one commit by default): the commit itself, then HEAD's
# parents (enough for the merge commit GitHub checks out on pull_request), then deeper.
have_history() {
  git -C "$path" merge-base "$1" HEAD > /dev/null 2>&1
}
fetch_history() {
  local commit="$1" head
  git -C "$path" cat-file -e "$commit^{commit}" 2>/dev/null \
    || git -C "$path" fetch --quiet --no-tags --depth=1 origin "$commit" 2>/dev/null || true
  have_history "$commit" && return 0
  [[ "$(git -C "$path" rev-parse --is-shallow-repository 2>/dev/null)" == "true" ]] || return 0
  head="$(git -C "$path" rev-parse HEAD 2>/dev/null)" || return 0
  git -C "$path" fetch --quiet --no-tags --depth=2 origin "$head" 2>/dev/null || true
  local round
  for round in 1 2 3 4; do
    have_history "$commit" && return 0
    git -C "$path" fetch --quiet --no-tags --deepen=200 origin "$head" "$commit" 2>/dev/null \
      || break
  done
  have_history "$commit" \
    || git -C "$path" fetch --quiet --no-tags --unshallow origin 2>/dev/null || true
}

since=""
case "${INPUT_NEW_SINCE-auto}" in
  "" | off | false | none) ;;
  auto | true)
    since="$base_sha"
    if [[ -z "$since" && "${INPUT_NEW_SINCE}" == "true" ]]; then
      echo "::error title=filid::new-since: true needs a pull_request or merge_group event"
      echo "exit-code=2" >> "$output"
      exit 2
    fi
    ;;
  *) since="$INPUT_NEW_SINCE" ;;
esac
since_args=()
if [[ -n "$since" ]]; then
  if [[ "$since" == -* ]]; then
    echo "::error title=filid::new-since: not a revision"
    echo "exit-code=2" >> "$output"
    exit 2
  fi
  fetch_history "$since"
  since_args=(--new-since "$since")
fi

config_args=()
if [[ "$config_input" == "base" ]]; then
  if [[ -z "$base_sha" ]]; then
    echo "::error title=filid::config: base needs a pull_request event with a base commit"
    echo "exit-code=2" >> "$output"
    exit 2
  fi
  prefix="$(git -C "$path" rev-parse --show-prefix 2>/dev/null || true)"
  git -C "$path" cat-file -e "$base_sha^{commit}" 2>/dev/null \
    || git -C "$path" fetch --quiet --depth=1 origin "$base_sha" 2>/dev/null || true
  base_config="$reports/base-config.json"
  if ! git -C "$path" show "$base_sha:${prefix}.filid/config.json" > "$base_config" 2>/dev/null; then
    # The base has no config: check with the defaults, ignoring the pull request's file.
    printf '{"version": "2.0"}\n' > "$base_config"
  fi
  # DETAIL.md boundary exemptions are policy too: the base's, not the pull request's.
  config_args=(--config "$base_config" --exemptions-from "$base_sha")
elif [[ -n "$config_input" ]]; then
  config_args=(--config "$config_input")
fi

# The violation count is read from a SARIF file, so write one even when none is wanted.
count_file="$sarif_file"
if [[ -z "$count_file" ]]; then
  count_file="$reports/filid-count-$$.sarif"
fi

# Split INPUT_ARGS with shlex (quotes work; no globbing or variable expansion). The words go
# through a temporary file because a bash variable cannot hold the NUL separators.
extra=()
if [[ -n "${INPUT_ARGS:-}" ]]; then
  words_file="$(mktemp)"
  if ! "$python" -c '
import shlex, sys
sys.stdout.write("".join(word + "\0" for word in shlex.split(sys.argv[1])))
' "$INPUT_ARGS" > "$words_file"; then
    echo "::error title=filid::cannot split the 'args' input (unbalanced quotes?): ${INPUT_ARGS}"
    rm -f "$words_file"
    exit 2
  fi
  mapfile -d '' -t extra < "$words_file"
  rm -f "$words_file"
fi

cmd=("$filid" check "$path" --format github --sarif "$count_file" --fail-on "$fail_on" --no-progress)
cmd+=("${config_args[@]}" "${since_args[@]}")
if [[ -n "$junit_file" ]]; then
  cmd+=(--junit "$junit_file")
fi
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  cmd+=(--github-summary "$GITHUB_STEP_SUMMARY")
fi
cmd+=("${extra[@]}")

echo "+ ${cmd[*]}" >&2
"${cmd[@]}"
code=$?

if [[ $code -ge 2 ]]; then
  echo "::error title=filid::filid check exited with code $code (2: usage or config error, 3: internal error); see the message above"
  echo "exit-code=$code" >> "$output"
  exit "$code"
fi

if ! violations="$("$python" -c '
import json, sys
with open(sys.argv[1], encoding="utf-8") as handle:
    log = json.load(handle)
# Under --new-since the SARIF also keeps the unchanged results: count the reported ones.
print(sum(
    1
    for run in log.get("runs", [])
    for result in run.get("results") or []
    if result.get("baselineState") not in ("unchanged", "absent")
))
' "$count_file")"; then
  echo "::error title=filid::cannot read the SARIF file $count_file"
  echo "exit-code=3" >> "$output"
  exit 3
fi
if [[ -z "$sarif_file" ]]; then
  rm -f "$count_file"
fi

{
  echo "violations=$violations"
  echo "sarif-file=$sarif_file"
  echo "exit-code=$code"
} >> "$output"
echo "filid: $violations violation(s); exit code $code (fail-on: $fail_on)"
exit 0
