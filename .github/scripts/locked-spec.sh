#!/usr/bin/env bash
# Puts the spec that a lock file pins at DEST: for the workflows in .github/workflows/ (the base branch's spec for
# the spec diff, and a ../shared/spec/openapi.yaml that matches the lock of the commit under test).
#
# Usage: .github/scripts/locked-spec.sh LOCK_JSON DEST [SEARCH_DIR]
#   LOCK_JSON   a Spec/lock.json, of any commit (e.g. `git show origin/main:Spec/lock.json >base-lock.json`).
#   DEST        where the spec goes; left alone when it already has the lock's sha256.
#   SEARCH_DIR  a folder searched (with its subfolders) for a *.yaml with the lock's sha256 before downloading;
#               default: ../shared/spec beside the repository (its openapi.yaml and history/), when it exists.
# Otherwise the lock's url is downloaded with curl. The sha256 is checked before the file is moved to DEST; on a
# failure DEST is left as it was.
#
# Exit status: 0 DEST holds the locked spec; 1 no such file, download failed or hash mismatch; 2 usage error.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
    echo "usage: .github/scripts/locked-spec.sh LOCK_JSON DEST [SEARCH_DIR]" >&2
    exit 2
fi
LOCK="$1"
DEST="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
SEARCH_DIR="${3:-$ROOT/../shared/spec}"

# Warnings become annotations on GitHub Actions.
warn() {
    if [[ "${GITHUB_ACTIONS:-}" == "true" ]]; then
        printf '::warning::%s\n' "$*"
    else
        printf 'locked-spec: warning: %s\n' "$*" >&2
    fi
}

lock_field() {
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$LOCK" "$1"
}

sha256_of() {
    python3 -c '
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
print(h.hexdigest())' "$1"
}

SHA="$(lock_field sha256)"
URL="$(lock_field url)"
COMMIT="$(lock_field commit)"

if [[ -f "$DEST" ]]; then
    current="$(sha256_of "$DEST")"
    if [[ "$current" == "$SHA" ]]; then
        echo "locked-spec: $DEST already is the locked spec (sha256 $SHA, commit ${COMMIT:0:7})."
        exit 0
    fi
    warn "$DEST is not the spec that $LOCK pins (sha256 $current, the lock wants $SHA); replacing it for this run."
fi

mkdir -p "$(dirname "$DEST")"
TMP="$(mktemp "$DEST.XXXXXX")"
trap 'rm -f "$TMP"' EXIT

found=""
if [[ -d "$SEARCH_DIR" ]]; then
    while IFS= read -r -d '' candidate; do
        if [[ "$(sha256_of "$candidate")" == "$SHA" ]]; then
            found="$candidate"
            break
        fi
    done < <(find "$SEARCH_DIR" -type f \( -name '*.yaml' -o -name '*.yml' \) -print0 | sort -z)
fi

if [[ -n "$found" ]]; then
    echo "locked-spec: copying $found"
    cat "$found" >"$TMP"
else
    echo "locked-spec: no file with sha256 $SHA under $SEARCH_DIR; downloading $URL"
    if ! curl --fail --silent --show-error --location --retry 3 --output "$TMP" "$URL"; then
        echo "locked-spec: download failed: $URL; $DEST left as it was." >&2
        exit 1
    fi
fi

actual="$(sha256_of "$TMP")"
if [[ "$actual" != "$SHA" ]]; then
    echo "locked-spec: REFUSED: $URL has sha256 $actual, $LOCK wants $SHA; $DEST not written." >&2
    exit 1
fi
chmod 644 "$TMP"
mv -f "$TMP" "$DEST"
trap - EXIT
echo "locked-spec: wrote $DEST (sha256 $SHA, commit ${COMMIT:0:7})."
