#!/usr/bin/env bash
# Step 4 of the filid GitHub Action: exit with the code `filid check` returned in run.sh.
#
# run.sh records the code instead of failing, so that the optional SARIF upload runs even when
# violations were found; this step makes the job fail afterwards (exit 1 = violations at or
# above the `fail-on` level).
set -euo pipefail
code="${FILID_EXIT_CODE:-}"
if [[ ! "$code" =~ ^[0-9]+$ ]]; then
  echo "::error title=filid::no exit code was recorded by the filid step"
  exit 3
fi
exit "$code"
