#!/usr/bin/env bash
# Puts the locked OpenAI spec at Spec/openapi.yaml (git-ignored).
#
# Usage: Scripts/fetch-spec.sh            (no arguments; works from any directory)
#
# Source, in order:
#   1. $SPEC_SOURCE when set (a file path or an http(s) URL; used by tests and for offline mirrors);
#   2. ../shared/spec/openapi.yaml beside the repository, when it exists;
#   3. the `url` in Spec/lock.json, downloaded with curl.
# The file's sha256 must equal the lock's `sha256`; otherwise the script exits 1 and leaves no file at
# Spec/openapi.yaml. When Spec/openapi.yaml already has the locked hash, nothing is done.
#
# Exit status: 0 the locked spec is in place; 1 hash mismatch, download or copy failure; 2 usage error.
set -euo pipefail

if [[ $# -ne 0 ]]; then
    echo "usage: Scripts/fetch-spec.sh   (takes no arguments; set SPEC_SOURCE to use another source)" >&2
    exit 2
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
LOCK="$ROOT/Spec/lock.json"
DEST="$ROOT/Spec/openapi.yaml"
SHARED_SPEC="$ROOT/../shared/spec/openapi.yaml"

if [[ ! -f "$LOCK" ]]; then
    echo "fetch-spec: missing lock file $LOCK" >&2
    exit 1
fi

# Reads one string field of the lock with python3's json module.
lock_field() {
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$LOCK" "$1"
}

# Prints the sha256 (hex) of a file.
sha256_of() {
    python3 -c '
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
print(h.hexdigest())' "$1"
}

EXPECTED_SHA="$(lock_field sha256)"
LOCK_URL="$(lock_field url)"
LOCK_COMMIT="$(lock_field commit)"

if [[ -f "$DEST" ]]; then
    current="$(sha256_of "$DEST")"
    if [[ "$current" == "$EXPECTED_SHA" ]]; then
        echo "fetch-spec: Spec/openapi.yaml already matches the lock (sha256 $EXPECTED_SHA, commit ${LOCK_COMMIT:0:7}); nothing to do."
        exit 0
    fi
    echo "fetch-spec: Spec/openapi.yaml has sha256 $current, the lock wants $EXPECTED_SHA; replacing it."
fi

# Write next to the destination first so the final rename is atomic and a bad file never lands at DEST.
TMP="$(mktemp "$ROOT/Spec/.openapi.yaml.XXXXXX")"
cleanup() { rm -f "$TMP"; }
trap cleanup EXIT

download() {
    if ! command -v curl >/dev/null 2>&1; then
        echo "fetch-spec: curl is not installed (Debian: apt-get install curl); cannot download $1" >&2
        return 1
    fi
    echo "fetch-spec: downloading $1"
    if ! curl --fail --silent --show-error --location --retry 3 --output "$TMP" "$1"; then
        echo "fetch-spec: download failed: $1 (Spec/openapi.yaml left unchanged)" >&2
        return 1
    fi
}

if [[ -n "${SPEC_SOURCE:-}" ]]; then
    case "$SPEC_SOURCE" in
        http://* | https://*)
            download "$SPEC_SOURCE" || exit 1
            SOURCE_DESC="$SPEC_SOURCE"
            ;;
        *)
            if [[ ! -f "$SPEC_SOURCE" ]]; then
                echo "fetch-spec: SPEC_SOURCE=$SPEC_SOURCE is not a file" >&2
                exit 1
            fi
            echo "fetch-spec: copying $SPEC_SOURCE (from SPEC_SOURCE)"
            cat "$SPEC_SOURCE" >"$TMP"
            SOURCE_DESC="$SPEC_SOURCE"
            ;;
    esac
elif [[ -f "$SHARED_SPEC" ]]; then
    echo "fetch-spec: copying ../shared/spec/openapi.yaml"
    cat "$SHARED_SPEC" >"$TMP"
    SOURCE_DESC="../shared/spec/openapi.yaml"
else
    download "$LOCK_URL" || exit 1
    SOURCE_DESC="$LOCK_URL"
fi

actual="$(sha256_of "$TMP")"
if [[ "$actual" != "$EXPECTED_SHA" ]]; then
    stale_note=""
    if [[ -e "$DEST" ]]; then
        rm -f "$DEST"
        stale_note=" (the stale copy that was there has been removed)"
    fi
    {
        echo "fetch-spec: REFUSED: the spec from $SOURCE_DESC does not match Spec/lock.json."
        echo "  expected sha256 $EXPECTED_SHA"
        echo "  actual   sha256 $actual"
        echo "  Spec/openapi.yaml was not written$stale_note."
        echo "  To move to a new spec on purpose, use Scripts/update-spec.sh."
    } >&2
    exit 1
fi

chmod 644 "$TMP"
mv -f "$TMP" "$DEST"
trap - EXIT
size="$(python3 -c 'import os, sys; print(os.path.getsize(sys.argv[1]))' "$DEST")"
echo "fetch-spec: wrote Spec/openapi.yaml ($size bytes, sha256 $EXPECTED_SHA, commit ${LOCK_COMMIT:0:7})."
