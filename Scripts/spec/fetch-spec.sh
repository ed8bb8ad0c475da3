#!/usr/bin/env bash
# Puts the locked OpenAI spec at Spec/openapi.yaml (git-ignored).
#
# Usage: Scripts/spec/fetch-spec.sh            (no arguments; works from any directory)
#
# Source, in order:
#   1. $SPEC_SOURCE when set (a file path or an http(s) URL; used by tests and for offline mirrors): the only source
#      then, and it must have the locked hash;
#   2. otherwise the first of these local files whose sha256 is the lock's (files whose size differs from the lock's
#      `size` are skipped without being read):
#        ../shared/spec/openapi.yaml beside the repository,
#        every ../shared/spec/history/*.yaml,
#        the spec cache, $OPENAI_SPEC_CACHE/<sha256>.yaml
#          (default ${XDG_CACHE_HOME:-$HOME/.cache}/openai-swift/specs; Scripts/spec/update-spec.sh puts every spec it
#          moves to there, and a successful download below is put there too);
#   3. the `url` in the lock, downloaded with curl (a lock written with update-spec.sh --allow-local-source may name
#      a file instead: a path relative to the repository).
# The file's sha256 must equal the lock's `sha256`; otherwise the script exits 1 and leaves no file at the
# destination (a file that was there is removed). When the destination already has the locked hash, nothing is done.
# Environment:
#   LOCK_FILE=PATH     the lock to read instead of Spec/lock.json (any commit's, e.g. from `git show
#                      origin/main:Spec/lock.json`); a relative path is the caller's.
#   SPEC_DEST=PATH     where the spec goes instead of Spec/openapi.yaml (its folder is created); a relative path is
#                      the caller's. The workflows in .github/workflows/ use both (.github/scripts/locked-spec.sh).
#   SPEC_SOURCE, OPENAI_SPEC_CACHE, XDG_CACHE_HOME   see above.
#   GITHUB_ACTIONS=true  replacing a destination that is not the locked spec, and a cache that cannot be written,
#                      are workflow warnings (::warning::) instead of plain lines.
#
# Exit status: 0 the locked spec is in place; 1 hash mismatch, download or copy failure; 2 usage error.
set -euo pipefail

if [[ $# -ne 0 ]]; then
    echo "usage: Scripts/spec/fetch-spec.sh   (takes no arguments; set SPEC_SOURCE to use another source)" >&2
    exit 2
fi

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=lib/spec.sh source-path=SCRIPTDIR/..
source "$ROOT/Scripts/lib/spec.sh"
SHARED_SPEC_DIR="$ROOT/../shared/spec"

# Prints a path given by the caller as an absolute one.
absolute() {
    case "$1" in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$PWD" "$1" ;;
    esac
}
LOCK="$(absolute "${LOCK_FILE:-$ROOT/Spec/lock.json}")"
DEST="$(absolute "${SPEC_DEST:-$ROOT/Spec/openapi.yaml}")"

# Shows a path inside the repository relative to it (Spec/openapi.yaml), one under the repository's parent folder
# as ../NAME/… (how the documentation names ../shared), any other as it is.
display_path() {
    local parent
    parent="$(dirname "$ROOT")"
    case "$1" in
        "$ROOT"/../*) printf '..%s\n' "${1#"$ROOT"/..}" ;;
        "$ROOT"/*) printf '%s\n' "${1#"$ROOT"/}" ;;
        "$parent"/*) printf '..%s\n' "${1#"$parent"}" ;;
        *) printf '%s\n' "$1" ;;
    esac
}
LOCK_NAME="$(display_path "$LOCK")"
DEST_NAME="$(display_path "$DEST")"

# A warning: a workflow command on GitHub Actions, otherwise a line on standard error.
warn() {
    if [[ "${GITHUB_ACTIONS:-}" == "true" ]]; then
        printf '::warning::fetch-spec: %s\n' "$*"
    else
        printf 'fetch-spec: warning: %s\n' "$*" >&2
    fi
}

if [[ ! -f "$LOCK" ]]; then
    echo "fetch-spec: missing lock file $LOCK" >&2
    exit 1
fi

EXPECTED_SHA="$(json_field "$LOCK" sha256)"
EXPECTED_SIZE="$(json_field "$LOCK" size)"
LOCK_URL="$(json_field "$LOCK" url)"
LOCK_COMMIT="$(json_field "$LOCK" commit)"
if [[ ! "$EXPECTED_SHA" =~ ^[0-9a-f]{64}$ ]]; then
    echo "fetch-spec: $LOCK_NAME has no valid sha256 ('$EXPECTED_SHA')" >&2
    exit 1
fi
SPEC_CACHE="$(spec_cache_dir)"

if [[ -f "$DEST" ]]; then
    current="$(sha256_of "$DEST")"
    if [[ "$current" == "$EXPECTED_SHA" ]]; then
        echo "fetch-spec: $DEST_NAME already matches $LOCK_NAME (sha256 $EXPECTED_SHA, commit ${LOCK_COMMIT:0:7}); nothing to do."
        exit 0
    fi
    message="$DEST_NAME has sha256 $current, $LOCK_NAME wants $EXPECTED_SHA; replacing it."
    if [[ "${GITHUB_ACTIONS:-}" == "true" ]]; then
        warn "$message"
    else
        echo "fetch-spec: $message"
    fi
fi

# Write next to the destination first so the final rename is atomic and a bad file never lands at DEST.
mkdir -p "$(dirname "$DEST")"
TMP="$(mktemp "$(dirname "$DEST")/.$(basename "$DEST").XXXXXX")"
cleanup() { rm -f "$TMP"; }
trap cleanup EXIT

download() {
    if ! command -v curl >/dev/null 2>&1; then
        echo "fetch-spec: curl is not installed (Debian: apt-get install curl); cannot download $1" >&2
        return 1
    fi
    echo "fetch-spec: downloading $1"
    if ! curl --fail --silent --show-error --location --retry 3 --output "$TMP" "$1"; then
        echo "fetch-spec: download failed: $1 ($DEST_NAME left unchanged)" >&2
        return 1
    fi
}

# Copies the first candidate file whose size and sha256 are the lock's into $TMP (Scripts/lib/spec_copy.py). Prints
# the path found; exits 1 when none matches.
find_local_copy() {
    python3 "$(dirname "${BASH_SOURCE[0]}")/../lib/spec_copy.py" "$TMP" "$EXPECTED_SHA" "$EXPECTED_SIZE" "$@"
}

TRIED=()
SOURCE_DESC=""
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
else
    CANDIDATES=("$SHARED_SPEC_DIR/openapi.yaml")
    if [[ -d "$SHARED_SPEC_DIR/history" ]]; then
        while IFS= read -r file; do
            CANDIDATES+=("$file")
        done < <(find "$SHARED_SPEC_DIR/history" -maxdepth 1 -type f -name '*.yaml' | LC_ALL=C sort)
    fi
    if [[ -n "$SPEC_CACHE" ]]; then
        CANDIDATES+=("$SPEC_CACHE/$EXPECTED_SHA.yaml")
    fi
    if found="$(find_local_copy "${CANDIDATES[@]}")"; then
        SOURCE_DESC="$(display_path "$found")"
        echo "fetch-spec: found the locked spec at $SOURCE_DESC (sha256 matches)"
    else
        TRIED=("../shared/spec/openapi.yaml" "../shared/spec/history/*.yaml" "${SPEC_CACHE:-(no cache folder)}/$EXPECTED_SHA.yaml")
        echo "fetch-spec: not found locally (looked in ${TRIED[*]})"
        case "$LOCK_URL" in
            http://* | https://*)
                download "$LOCK_URL" || exit 1
                SOURCE_DESC="$LOCK_URL"
                ;;
            "")
                echo "fetch-spec: $LOCK_NAME has no url to download from" >&2
                exit 1
                ;;
            *)
                # A lock written with update-spec.sh --allow-local-source names a file, relative to the repository.
                local_path="$LOCK_URL"
                [[ "$local_path" == /* ]] || local_path="$ROOT/$local_path"
                if [[ ! -f "$local_path" ]]; then
                    echo "fetch-spec: the lock's url $LOCK_URL is not a file (looked at $local_path)" >&2
                    exit 1
                fi
                echo "fetch-spec: copying $LOCK_URL (the lock's url)"
                cat "$local_path" >"$TMP"
                SOURCE_DESC="$LOCK_URL"
                ;;
        esac
    fi
fi

actual="$(sha256_of "$TMP")"
if [[ "$actual" != "$EXPECTED_SHA" ]]; then
    stale_note=""
    if [[ -e "$DEST" ]]; then
        rm -f "$DEST"
        stale_note=" (the stale copy that was there has been removed)"
    fi
    {
        echo "fetch-spec: REFUSED: the spec from $SOURCE_DESC does not match $LOCK_NAME."
        echo "  expected sha256 $EXPECTED_SHA"
        echo "  actual   sha256 $actual"
        if [[ ${#TRIED[@]} -gt 0 ]]; then
            echo "  no local copy had the locked hash either (${TRIED[*]})."
        fi
        echo "  $DEST_NAME was not written$stale_note."
        echo "  To move to a new spec on purpose, use Scripts/spec/update-spec.sh."
    } >&2
    exit 1
fi

chmod 644 "$TMP"
# A downloaded spec goes into the cache too, so the next checkout on this machine need not download it.
if [[ "$SOURCE_DESC" == "$LOCK_URL" && "$LOCK_URL" == http* ]]; then
    if cached="$(spec_cache_put "$TMP" "$EXPECTED_SHA")"; then
        echo "fetch-spec: cached as $cached"
    else
        warn "could not write the spec cache $SPEC_CACHE (continuing)"
    fi
fi
mv -f "$TMP" "$DEST"
trap - EXIT
size="$(python3 -c 'import os, sys; print(os.path.getsize(sys.argv[1]))' "$DEST")"
echo "fetch-spec: wrote $DEST_NAME ($size bytes, sha256 $EXPECTED_SHA, commit ${LOCK_COMMIT:0:7}) from $SOURCE_DESC."
