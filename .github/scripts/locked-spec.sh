#!/usr/bin/env bash
# Puts the spec that a lock file pins at DEST, for the workflows in .github/workflows/ (the base branch's spec for
# the spec diff, and a ../shared/spec/openapi.yaml that matches the lock of the commit under test). A thin wrapper:
# Scripts/spec/fetch-spec.sh does the work (LOCK_FILE=LOCK_JSON SPEC_DEST=DEST), so the file is found, downloaded and
# verified exactly as there: by sha256 in ../shared/spec/openapi.yaml, ../shared/spec/history/*.yaml and the spec
# cache, else the lock's url with curl; the sha256 is checked before the file is moved to DEST, and on a mismatch
# no file is left at DEST. On GitHub Actions, replacing a DEST that is not the locked spec is a workflow warning.
#
# Usage: .github/scripts/locked-spec.sh LOCK_JSON DEST
#   LOCK_JSON   a Spec/lock.json, of any commit (e.g. `git show origin/main:Spec/lock.json >base-lock.json`).
#   DEST        where the spec goes; left alone when it already has the lock's sha256.
#
# Exit status: Scripts/spec/fetch-spec.sh's: 0 DEST holds the locked spec; 1 download failed or hash mismatch; 2 usage.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: .github/scripts/locked-spec.sh LOCK_JSON DEST" >&2
    exit 2
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
LOCK_FILE="$1" SPEC_DEST="$2" exec "$ROOT/Scripts/spec/fetch-spec.sh"
