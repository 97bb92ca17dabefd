#!/usr/bin/env bash
# Step 1 of the filid GitHub Action: install filid from the action's own checkout.
#
# Creates a virtual environment under $RUNNER_TEMP with the runner's Python (input `python`,
# default python3; filid needs Python >= 3.11) and pip-installs "$GITHUB_ACTION_PATH" into it,
# so the action runs exactly the filid version of the ref the workflow pinned.
#
# FILID_ACTION_SKIP_INSTALL=1 skips the install and uses the `filid` already on PATH (the
# test suite sets it so it can run these scripts without a slow pip install).
#
# Writes to $GITHUB_OUTPUT: filid=<path of the filid executable>,
#                           python=<path of a Python interpreter the next step may use>.
set -euo pipefail

if [[ "${FILID_ACTION_SKIP_INSTALL:-}" == "1" ]]; then
  if ! filid_bin="$(command -v filid)"; then
    echo "::error title=filid::FILID_ACTION_SKIP_INSTALL=1 but no filid executable is on PATH"
    exit 2
  fi
  python_bin="$(command -v python3 || command -v python)"
else
  python="${INPUT_PYTHON:-python3}"
  if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "::error title=filid::filid needs Python >= 3.11; '$python' is $("$python" --version 2>&1). Run actions/setup-python first or set the 'python' input."
    exit 2
  fi
  venv="${RUNNER_TEMP:?RUNNER_TEMP is not set}/filid-venv"
  "$python" -m venv "$venv"
  if [[ -d "$venv/Scripts" ]]; then  # Windows runners lay a venv out differently
    bin="$venv/Scripts"
  else
    bin="$venv/bin"
  fi
  "$bin/python" -m pip install --quiet --disable-pip-version-check "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
  filid_bin="$bin/filid"
  python_bin="$bin/python"
fi

"$filid_bin" --version
{
  echo "filid=$filid_bin"
  echo "python=$python_bin"
} >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
