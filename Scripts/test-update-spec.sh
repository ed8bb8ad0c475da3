#!/usr/bin/env bash
# End-to-end test of Scripts/spec/update-spec.sh (a transaction: summary first, rollback on any failure) and
# Scripts/spec/fetch-spec.sh (finds the locked spec by sha256 before downloading), run in a copy of the repository
# (the working tree's tracked and untracked-but-not-ignored files, plus the current generated folders) so
# the checkout itself is never touched. The copy sits beside a `shared` symbolic link to ../shared, and its
# SwiftPM scratch folder persists, so a second run builds incrementally.
#
# Scenarios (each prints what it checked):
#   sources    refused, nothing changed: a local file in a temporary folder without --commit (also with
#              --allow-local-source), --allow-local-source with a file in /dev/shm or outside the repository's
#              parent folder, a spec older than the lock (--dry-run: the warning is the summary's first line) or
#              than the oldest the helpers support (Spec/helpers-oldest-spec.txt), a
#              branch URL, a URL on another host with 40 hex in its path (https://evil.example/<40-hex>/...);
#              the lock update-spec-helpers.py decides for URLs on other hosts (--commit: the upstream raw URL;
#              --url: that URL, its host and path as `source`) and github.com's blob URL; accepted with
#              SKIP_SDK_BUILD=1 (generate and check): openai/openai-openapi's raw URL at a commit (the lock's url
#              and commit from it) and --allow-local-source with a file beside the repository (its relative path
#              in the lock, which fetch-spec.sh then reads). The https URLs are served by a curl stub from files
#              (no network);
#              --commit abbreviated (the locked commit's first 9 hex: the lock holds the full one; an unknown one is
#              refused); the summary's sections (a warning about the helpers at the end, the JSON report beside the
#              markdown, both paths printed);
#   paths      --print-paths is Spec/lock.json and the generator's --list-outputs; update-spec.yml's pull request adds
#              exactly that list and Spec/README.md and CONTRIBUTING.md name it; a spec adding POST /widgets in a new
#              area (SKIP_SDK_BUILD=1): every changed file (the DocC articles among them) lies in that list, the
#              summary leads with the operation and its Swift call and ends with the checks, and the body its schema
#              requires is a required parameter;
#   clean      run as the workflow runs it (CI=true, no OPENAI_TEST_PYTHON, no Scripts/.venv in the copy: the script
#              prepares it, and no test may skip), the locked spec plus an optional property InviteRequest.note, with
#              --commit and --date: exit 0, the
#              lock exactly as expected, `openai-generator check` passes, only the file declaring InviteRequest and
#              Manifest.swift changed (the other files keep their modification time), the spec is in the cache. It runs
#              first of the scenarios that build: its build (cold in a clean clone) leaves the copy's scratch warm,
#              so that the failing builds below are incremental (the failed ones leave it as it was);
#   interrupt  SIGINT (Ctrl-C) to the whole run during the SDK build: exit 130, everything as before;
#   breaking   a hand-written file (Sources/OpenAI/Helpers/UpdateSpecProbe.swift) uses Batch.completedAt and the new
#              spec (the locked one without #/components/schemas/Batch/properties/completed_at) removes it, and has an
#              error of its own besides: exit 1, every file of Generated/ and Spec/ byte-identical (and with its
#              modification time), the output names the probe's file:line and the spec change, repeats the build on
#              the locked spec and marks the other error as the locked spec's too, and says what to do; then again
#              with --keep-on-failure: the new state is kept (and the locked spec is not built);
#   fetch      fetch-spec.sh in a fresh copy without network (curl replaced by a failing stub, SPEC_SOURCE unset):
#              a lock naming a history file's sha256 finds it in ../shared/spec/history, the lock the clean scenario
#              wrote finds its spec in the cache (also through .github/scripts/locked-spec.sh, i.e. fetch-spec.sh's
#              LOCK_FILE and SPEC_DEST), a cached file of the right size whose sha256 differs (one byte changed) is
#              not installed, a spec found nowhere fails and leaves no Spec/openapi.yaml.
#
# Usage: Scripts/test-update-spec.sh            (no arguments; works from any directory)
# Environment:
#   OPENAI_GENERATOR=PATH    the generator binary (default: `swift build --show-bin-path`/openai-generator, built with
#                            `swift build --product openai-generator` when missing).
#   UPDATE_SPEC_E2E_DIR=DIR  persistent work folder (default ${SCRATCH_PATH:-.build}/update-spec-e2e): the copy
#                            (work/repo), its SwiftPM scratch (scratch/), logs of the last run (logs/).
#   SCRATCH_PATH=DIR         the checkout's SwiftPM folder (for the default generator and work folder).
#   CI=true                  a missing ../shared fails the test instead of skipping it.
#
# Exit status: 0 every check passed (or skipped: no ../shared outside CI); 1 a check failed; 2 usage error.
set -euo pipefail

if [[ $# -ne 0 ]]; then
    echo "usage: Scripts/test-update-spec.sh   (takes no arguments)" >&2
    exit 2
fi

# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
# shellcheck source=lib/spec.sh source-path=SCRIPTDIR
source "$ROOT/Scripts/lib/spec.sh"

if [[ ! -d "$ROOT/../shared/spec/history" || ! -f "$ROOT/../shared/spec/openapi.yaml" ]]; then
    if [[ "${CI:-}" == "true" ]]; then
        echo "test-update-spec: FAILED: ../shared/spec (the locked spec and its history) is missing beside $ROOT; CI must have it." >&2
        exit 1
    fi
    echo "test-update-spec: SKIPPED: ../shared/spec is missing beside the repository (a skipped test has not passed)."
    exit 0
fi
SHARED="$(cd "$ROOT/../shared" && pwd -P)"
if ! git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "test-update-spec: FAILED: $ROOT is not a git checkout (the copy is made from \`git ls-files\`)." >&2
    exit 1
fi

set_swift_flags
if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
    GENERATOR="$OPENAI_GENERATOR"
else
    GENERATOR="$(swift_bin_path debug)/openai-generator"
    if [[ ! -x "$GENERATOR" ]]; then
        echo "+ swift build --product openai-generator"
        build_generator debug
    fi
fi
if [[ ! -x "$GENERATOR" ]]; then
    echo "test-update-spec: FAILED: no generator executable at $GENERATOR" >&2
    exit 1
fi
GENERATOR="$(cd "$(dirname "$GENERATOR")" && pwd -P)/$(basename "$GENERATOR")"
export OPENAI_GENERATOR="$GENERATOR"

E2E="${UPDATE_SPEC_E2E_DIR:-${SCRATCH_PATH:-$ROOT/.build}/update-spec-e2e}"
mkdir -p "$E2E/work" "$E2E/scratch"
E2E="$(cd "$E2E" && pwd -P)"
COPY="$E2E/work/repo"
FRESH="$E2E/work/fresh"
LOGS="$E2E/logs"
rm -rf "$LOGS" "$FRESH" "$E2E/cache"
mkdir -p "$COPY" "$LOGS"
ln -sfn "$SHARED" "$E2E/work/shared"
# Specs made by the test live in a temporary folder on purpose: update-spec.sh must never write such a path.
TMPW="$(temp_dir test-update-spec)"
SERVER_PID=""
SHM_DIR=""
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$TMPW"
    if [[ -n "$SHM_DIR" ]]; then
        rm -rf "$SHM_DIR"
    fi
}
trap cleanup EXIT

unset SPEC_SOURCE SPEC_URL SPEC_COMMIT SPEC_DATE SUMMARY_FILE SUMMARY_JSON SKIP_SDK_BUILD UPDATE_SPEC_TEST_FILTER HISTORY_DIR
export SCRATCH_PATH_COPY="$E2E/scratch"
export OPENAI_SPEC_CACHE="$E2E/cache/specs"

# --- helpers ----------------------------------------------------------------------------------------------------------

# The Python parts: Scripts/test-update-spec-helpers.py.
HELPERS_PY="$ROOT/Scripts/test-update-spec-helpers.py"
helper() { python3 "$HELPERS_PY" "$@"; }

FAILURES=0
SCENARIO=""
TIMES=()
ok() { printf '  ok    %s\n' "$*"; }
# A check that could not run here (not counted as passed).
skip() { printf '  skip  %s\n' "$*"; }
fail() {
    printf '  FAIL  %s\n' "$*"
    FAILURES=$((FAILURES + 1))
}
# check DESCRIPTION COMMAND...: runs the command (its output indented), ok when it exits 0.
check() {
    local description="$1"
    shift
    if "$@"; then ok "$description"; else fail "$description"; fi
}
# expect_status WANT GOT WHAT
expect_status() {
    if [[ "$2" -eq "$1" ]]; then ok "$3: exit status $2"; else fail "$3: exit status $2, expected $1"; fi
}
# has FILE PATTERN DESCRIPTION: the file contains the fixed string.
has() {
    if grep -qF -- "$2" "$1"; then ok "$3"; else fail "$3 (no '$2' in ${1#"$E2E"/})"; fi
}
# lacks FILE STRING DESCRIPTION
lacks() {
    if grep -qF -- "$2" "$1"; then fail "$3 ('$2' found in ${1#"$E2E"/})"; else ok "$3"; fi
}
begin() {
    SCENARIO="$1"
    SCENARIO_START="$(now)"
    printf '\n==> %s\n' "$1"
}
finish() {
    TIMES+=("$(printf '%8ss  %s' "$(elapsed_since "$SCENARIO_START")" "$SCENARIO")")
}

# Puts the copy back to the checkout's state, with the locked spec fetched (from ../shared, as a checkout does).
reset_copy() {
    git -C "$ROOT" ls-files -z --cached --others --exclude-standard | helper sync "$ROOT" "$COPY"
    (cd "$COPY" && env -u SPEC_SOURCE Scripts/spec/fetch-spec.sh >/dev/null)
}
# Runs update-spec.sh in the copy: update NAME [args...]; stdout in logs/NAME.out, stderr in logs/NAME.err.
update() {
    local name="$1" status=0
    shift
    (cd "$COPY" && SCRATCH_PATH="$SCRATCH_PATH_COPY" Scripts/spec/update-spec.sh "$@") \
        >"$LOGS/$name.out" 2>"$LOGS/$name.err" || status=$?
    return "$status"
}
# Prints the first line of a file that is not empty.
first_line() { grep -m 1 -v '^[[:space:]]*$' "$1" || true; }

size_of() { python3 -c 'import os, sys; print(os.path.getsize(sys.argv[1]))' "$1"; }
fake_commit() { printf '%s' "$1" | python3 -c 'import hashlib, sys; print(hashlib.sha1(sys.stdin.buffer.read()).hexdigest())'; }

TOTAL_START="$(now)"
echo "test-update-spec: copy $COPY (beside $E2E/work/shared -> $SHARED), SwiftPM scratch $SCRATCH_PATH_COPY"
echo "test-update-spec: generator $GENERATOR"

# --- baseline -----------------------------------------------------------------------------------------------------------

begin "baseline: the copy is the checkout, and check passes in it"
reset_copy
if (cd "$COPY" && "$GENERATOR" check >"$LOGS/baseline-check.log" 2>&1); then
    ok "openai-generator check passes in the copy"
else
    fail "openai-generator check fails in the copy: the checkout's Generated/ and the generator disagree (see $LOGS/baseline-check.log); fix that first"
    exit 1
fi
helper make-specs "$COPY/Spec/openapi.yaml" "$TMPW"
BREAKING="$TMPW/breaking.yaml"
CLEAN="$TMPW/clean.yaml"
LOCKED_SHA="$(sha256_of "$COPY/Spec/openapi.yaml")"
helper make-new-area "$COPY/Spec/openapi.yaml" "$TMPW"
WIDGETS="$TMPW/widgets.yaml"
ok "made breaking.yaml (Batch without completed_at), clean.yaml (InviteRequest + note) and widgets.yaml (POST /widgets, a new area) from the locked spec"
BREAKING_COMMIT="$(fake_commit "update-spec e2e: breaking")"
CLEAN_COMMIT="$(fake_commit "update-spec e2e: clean")"
WIDGETS_COMMIT="$(fake_commit "update-spec e2e: widgets")"
URL_COMMIT="$(fake_commit "update-spec e2e: url")"
UPSTREAM="https://raw.githubusercontent.com/openai/openai-openapi"
finish

# --- refusals -----------------------------------------------------------------------------------------------------------

begin "sources: what the lock may not name is refused, what it may is recorded"
helper state "$COPY" "$TMPW/before.json"
status=0
update local-no-commit "$CLEAN" || status=$?
expect_status 2 "$status" "a local file in a temporary folder without --commit"
has "$LOGS/local-no-commit.err" "is a local file; the lock must say where the spec comes from" "  says why (pass --commit or --allow-local-source)"
status=0
update local-allow-temp --allow-local-source "$CLEAN" || status=$?
expect_status 2 "$status" "the same with --allow-local-source (a temporary path never goes into the lock)"
has "$LOGS/local-allow-temp.err" "is under a temporary folder" "  says it is a temporary folder"
if [[ -d /dev/shm && -w /dev/shm ]]; then
    SHM_DIR="$(mktemp -d /dev/shm/test-update-spec.XXXXXX)"
    cp "$CLEAN" "$SHM_DIR/2026-09-04-abcdef1.yaml"
    status=0
    update local-shm --allow-local-source "$SHM_DIR/2026-09-04-abcdef1.yaml" || status=$?
    expect_status 2 "$status" "--allow-local-source with a file in /dev/shm (a temporary folder too)"
    has "$LOGS/local-shm.err" "is under a temporary folder" "  says it is a temporary folder"
    rm -rf "$SHM_DIR"
    SHM_DIR=""
else
    skip "--allow-local-source with a file in /dev/shm: no writable /dev/shm here"
fi
mkdir -p "$E2E/outside-specs"
OUTSIDE_SPEC="$E2E/outside-specs/2026-09-04-abcdef1.yaml"
cp "$CLEAN" "$OUTSIDE_SPEC"
status=0
update local-outside --allow-local-source "$OUTSIDE_SPEC" || status=$?
expect_status 2 "$status" "--allow-local-source with a file outside the repository's parent folder (an absolute path in the lock)"
if grep -Eq "is outside the repository's parent folder|is under a temporary folder" "$LOGS/local-outside.err"; then
    ok "  says it is outside the repository's parent folder"
else
    fail "  does not say why (logs/local-outside.err)"
fi
rm -rf "$E2E/outside-specs"
OLDER="$SHARED/spec/history/2026-08-13-855e5d4.yaml"
status=0
update older --commit "855e5d4$(printf '0%.0s' {1..33})" "$OLDER" || status=$?
expect_status 2 "$status" "an older spec (history 2026-08-13 against the lock's 2026-08-21) without --allow-older"
has "$LOGS/older.err" "WARNING: the new spec (2026-08-13, 855e5d4) looks OLDER than the locked one (2026-08-21" "  warns on stderr"
has "$LOGS/older.err" "pass --allow-older" "  names --allow-older"
check "  and prints no summary (refused before the diff)" test ! -s "$LOGS/older.out"
status=0
SUMMARY_FILE="$TMPW/older-summary.md" update older-dry-run --dry-run "$OLDER" || status=$?
expect_status 0 "$status" "the older spec with --dry-run"
if first_line "$LOGS/older-dry-run.out" | grep -q '^> \*\*Warning:\*\* the new spec (2026-08-13) looks OLDER'; then
    ok "  the summary's first line is the warning (stdout)"
else
    fail "  the summary's first line is not the warning: $(first_line "$LOGS/older-dry-run.out")"
fi
if first_line "$TMPW/older-summary.md" | grep -q 'looks OLDER'; then ok "  and in SUMMARY_FILE"; else fail "  SUMMARY_FILE does not start with the warning"; fi
has "$LOGS/older-dry-run.out" "## OpenAPI spec changes" "  the summary follows"
# A spec older than the oldest the helpers support (Spec/helpers-oldest-spec.txt) is named as such.
cp -p "$COPY/Spec/helpers-oldest-spec.txt" "$TMPW/helpers-oldest-spec.txt"
printf '# for the test\n2026-08-20-0000000\n' >"$COPY/Spec/helpers-oldest-spec.txt"
status=0
update older-than-helpers --dry-run "$OLDER" || status=$?
cp -p "$TMPW/helpers-oldest-spec.txt" "$COPY/Spec/helpers-oldest-spec.txt"  # bytes and time, as before
expect_status 0 "$status" "a spec older than the oldest the helpers support, with --dry-run"
has "$LOGS/older-than-helpers.out" "is older than the oldest one the hand-written helpers support (2026-08-20-0000000" \
    "  the summary says the helpers do not support it"
has "$LOGS/older-than-helpers.err" "WARNING: the new spec (2026-08-13) is older than the oldest one the hand-written helpers" \
    "  and so does stderr"
check "  in a section of its own at the end (### This repository's own code), not at the top" python3 -c '
import sys
text = open(sys.argv[1]).read()
section = text.find("### This repository" + chr(39) + "s own code")
warning = text.find("hand-written helpers support")
heading = text.find("## OpenAPI spec changes")
sys.exit(0 if 0 <= heading < section < warning else 1)' "$LOGS/older-than-helpers.out"
# The JSON report is written beside the markdown summary, and both paths are printed.
has "$LOGS/older-dry-run.err" "the summary is in $TMPW/older-summary.md, the JSON report with every change in $TMPW/older-summary.json" \
    "  the summary and the JSON report beside it are written and named (SUMMARY_FILE given, SUMMARY_JSON not)"
check "  the JSON report is there" python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["changes"] else 1)' \
    "$TMPW/older-summary.json"
has "$LOGS/older-than-helpers.err" "the summary is in $SCRATCH_PATH_COPY/update-spec/summary.md" \
    "  without SUMMARY_FILE the summary goes to \$SCRATCH_PATH/update-spec/summary.md"
check "  with its JSON report beside it" test -s "$SCRATCH_PATH_COPY/update-spec/summary.json"


# URLs: http from a local HTTP server; https from files, through a curl stub on PATH (https://HOST/PATH is
# $TMPW/hosts/HOST/PATH; any other URL goes to the real curl).
mkdir -p "$TMPW/www/$URL_COMMIT" "$TMPW/www/main"
cp "$CLEAN" "$TMPW/www/$URL_COMMIT/openapi.yaml"
cp "$CLEAN" "$TMPW/www/main/openapi.yaml"
python3 "$HELPERS_PY" serve "$TMPW/www" "$TMPW/port" &
SERVER_PID=$!
for _ in $(seq 50); do [[ -s "$TMPW/port" ]] && break; sleep 0.1; done
PORT="$(cat "$TMPW/port")"
for served in "raw.githubusercontent.com/openai/openai-openapi/$URL_COMMIT" "github.com/openai/openai-openapi/raw/$URL_COMMIT" \
    "evil.example/$URL_COMMIT"; do
    mkdir -p "$TMPW/hosts/$served"
    cp "$CLEAN" "$TMPW/hosts/$served/openapi.yaml"
done
mkdir -p "$TMPW/https-bin"
REAL_CURL="$(command -v curl || echo /usr/bin/curl)"
cat >"$TMPW/https-bin/curl" <<EOF
#!/usr/bin/env bash
# curl stub of Scripts/test-update-spec.sh: https://HOST/PATH is served from $TMPW/hosts/HOST/PATH.
args=("\$@") out="" url=""
while [[ \$# -gt 0 ]]; do
    case "\$1" in
        --output) out="\$2"; shift ;;
        -*) ;;
        *) url="\$1" ;;
    esac
    shift
done
printf '%s\n' "\$url" >>"$TMPW/https-curl-called"
case "\$url" in
    https://*)
        file="$TMPW/hosts/\${url#https://}"
        if [[ -f "\$file" ]]; then cp "\$file" "\$out"; exit 0; fi
        echo "curl: (22) The requested URL returned error: 404 (stub: no \$file)" >&2
        exit 22
        ;;
    *) exec "$REAL_CURL" "\${args[@]}" ;;
esac
EOF
chmod +x "$TMPW/https-bin/curl"
STUB_PATH="$TMPW/https-bin:$PATH"
status=0
update url-branch "http://127.0.0.1:$PORT/main/openapi.yaml" || status=$?
expect_status 2 "$status" "a URL that pins no commit (a branch)"
has "$LOGS/url-branch.err" "does not pin a commit" "  says it pins no commit"
status=0
update url-other-host "http://127.0.0.1:$PORT/$URL_COMMIT/openapi.yaml" || status=$?
expect_status 2 "$status" "a URL on another host with 40 hex in its path, without --commit"
has "$LOGS/url-other-host.err" "the 40 hex in its path are not taken as a commit" "  says its hex is not taken as a commit"
EVIL_URL="https://evil.example/$URL_COMMIT/openapi.yaml"
status=0
PATH="$STUB_PATH" update url-evil --date 2026-09-03 "$EVIL_URL" || status=$?
expect_status 2 "$status" "$EVIL_URL without --commit"
has "$LOGS/url-evil.err" "does not pin a commit of openai/openai-openapi" "  says it pins no commit of openai/openai-openapi"
check "nothing changed after the refusals (every file of Generated/ and Spec/, bytes and times)" \
    bash -c "python3 '$HELPERS_PY' state '$COPY' '$TMPW/after.json' && python3 '$HELPERS_PY' compare '$TMPW/before.json' '$TMPW/after.json' times"
# --commit abbreviated: expanded from a record naming the full commit (the lock, ../shared/spec/PROVENANCE.md).
LOCK_COMMIT="$(json_field "$COPY/Spec/lock.json" commit)"
status=0
SKIP_SDK_BUILD=1 update abbreviated --commit "${LOCK_COMMIT:0:9}" --date 2026-09-02 "$CLEAN" || status=$?
expect_status 0 "$status" "--commit ${LOCK_COMMIT:0:9} (the locked commit, abbreviated; SKIP_SDK_BUILD=1)"
has "$LOGS/abbreviated.err" "--commit ${LOCK_COMMIT:0:9} is $LOCK_COMMIT" "  says which full commit it is"
check "  the lock holds the full commit" test "$(json_field "$COPY/Spec/lock.json" commit)" == "$LOCK_COMMIT"
rm -rf "$E2E/cache"
reset_copy
status=0
update abbreviated-unknown --dry-run --commit 0123456789 "$CLEAN" || status=$?
expect_status 2 "$status" "--commit 0123456789 (no record names it)"
has "$LOGS/abbreviated-unknown.err" "no record here names its full commit" "  says no record names it, and to pass all 40 hex"

# What the lock says for other URLs, from update-spec-helpers.py itself (provenance, then write-lock on a copy).
provenance_of() {
    local name="$1" source="$2" commit="$3" url="$4"
    python3 "$COPY/Scripts/spec/update-spec-helpers.py" provenance "$COPY" "$COPY/Spec/lock.json" "$CLEAN" "$source" 1 \
        "$commit" 2026-09-03 "$url" 0 0 0 "$SHARED/spec/history" "$TMPW/provenance-$name.json" 2>"$LOGS/provenance-$name.err"
}
status=0
provenance_of evil-commit "$EVIL_URL" "$URL_COMMIT" "" || status=$?
expect_status 0 "$status" "$EVIL_URL with --commit"
check "  the lock's url is the upstream raw URL at that commit, its source openai/openai-openapi" helper fields-are \
    "$TMPW/provenance-evil-commit.json" "{\"source\": \"openai/openai-openapi\", \"url\": \"$UPSTREAM/$URL_COMMIT/openapi.yaml\", \"commit\": \"$URL_COMMIT\"}"
status=0
provenance_of evil-url "$EVIL_URL" "$URL_COMMIT" "$EVIL_URL" || status=$?
expect_status 0 "$status" "$EVIL_URL with --commit and --url (that URL)"
cp "$COPY/Spec/lock.json" "$TMPW/lock-evil.json"
python3 "$COPY/Scripts/spec/update-spec-helpers.py" write-lock "$TMPW/lock-evil.json" "$TMPW/provenance-evil-url.json" 2>/dev/null
check "  the lock names that URL, and its host and path as the source (not openai/openai-openapi)" helper lock-is "$TMPW/lock-evil.json" \
    "{\"source\": \"evil.example/$URL_COMMIT/openapi.yaml\", \"url\": \"$EVIL_URL\", \"commit\": \"$URL_COMMIT\", \"sha256\": \"$(sha256_of "$CLEAN")\", \"date\": \"2026-09-03\", \"openapi\": \"3.1.0\", \"size\": $(size_of "$CLEAN")}"
status=0
provenance_of blob "https://github.com/openai/openai-openapi/blob/$URL_COMMIT/openapi.yaml" "" "" || status=$?
expect_status 0 "$status" "github.com/openai/openai-openapi/blob/<40-hex>/openapi.yaml without --commit"
check "  commit from the URL, the lock's url its raw URL" helper fields-are "$TMPW/provenance-blob.json" \
    "{\"source\": \"openai/openai-openapi\", \"url\": \"$UPSTREAM/$URL_COMMIT/openapi.yaml\", \"commit\": \"$URL_COMMIT\"}"
rm -f "$TMPW/https-curl-called"
status=0
PATH="$STUB_PATH" update url-blob-dry-run --dry-run "https://github.com/openai/openai-openapi/blob/$URL_COMMIT/openapi.yaml" || status=$?
expect_status 0 "$status" "  update-spec.sh --dry-run with that URL"
has "$TMPW/https-curl-called" "https://github.com/openai/openai-openapi/raw/$URL_COMMIT/openapi.yaml" "  downloads its raw twin, not the web page"
has "$LOGS/url-blob-dry-run.out" "$UPSTREAM/$URL_COMMIT/openapi.yaml" "  the summary names the raw URL"

URL="$UPSTREAM/$URL_COMMIT/openapi.yaml"
status=0
PATH="$STUB_PATH" SKIP_SDK_BUILD=1 update url-commit --date 2026-09-03 "$URL" || status=$?
expect_status 0 "$status" "openai/openai-openapi's raw URL at a 40-hex commit, with --date (SKIP_SDK_BUILD=1: generate and check only)"
check "  lock: url and commit from the URL, sha256, size, date, openapi" helper lock-is "$COPY/Spec/lock.json" \
    "{\"source\": \"openai/openai-openapi\", \"url\": \"$URL\", \"commit\": \"$URL_COMMIT\", \"sha256\": \"$(sha256_of "$CLEAN")\", \"date\": \"2026-09-03\", \"openapi\": \"3.1.0\", \"size\": $(size_of "$CLEAN")}"
has "$LOGS/url-commit.out" "$URL" "  the summary names the new spec by its URL"
rm -rf "$E2E/cache" # that success cached clean.yaml; the clean scenario must show it caches by itself
reset_copy

# --allow-local-source with a file beside the repository (not a temporary folder), named like a history file.
mkdir -p "$E2E/work/local-specs"
LOCAL_SPEC="$E2E/work/local-specs/2026-09-04-abcdef1.yaml"
cp "$CLEAN" "$LOCAL_SPEC"
status=0
SKIP_SDK_BUILD=1 update local-allowed --allow-local-source "$LOCAL_SPEC" || status=$?
expect_status 0 "$status" "--allow-local-source with a file beside the repository (SKIP_SDK_BUILD=1)"
check "  lock: url the path relative to the repository, commit and date from the file name" helper lock-is "$COPY/Spec/lock.json" \
    "{\"source\": \"openai/openai-openapi\", \"url\": \"../local-specs/2026-09-04-abcdef1.yaml\", \"commit\": \"abcdef1\", \"sha256\": \"$(sha256_of "$CLEAN")\", \"date\": \"2026-09-04\", \"openapi\": \"3.1.0\", \"size\": $(size_of "$CLEAN")}"
rm -rf "$E2E/cache" "$COPY/Spec/openapi.yaml"
status=0
(cd "$COPY" && env -u SPEC_SOURCE Scripts/spec/fetch-spec.sh) >"$LOGS/fetch-local-url.log" 2>&1 || status=$?
expect_status 0 "$status" "  fetch-spec.sh then reads the lock's url as that path"
check "  and gets the same bytes" cmp -s "$CLEAN" "$COPY/Spec/openapi.yaml"
kill "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
reset_copy
finish

# --- paths and a new area ----------------------------------------------------------------------------------------------

begin "paths: one list of what an update changes (the generator's), used by the workflow and the docs; a new area"
reset_copy
status=0
(cd "$COPY" && Scripts/spec/update-spec.sh --print-paths) >"$LOGS/print-paths.out" 2>"$LOGS/print-paths.err" || status=$?
expect_status 0 "$status" "update-spec.sh --print-paths"
check "  is Spec/lock.json and what \`openai-generator generate --list-outputs\` lists" \
    test "$(cat "$LOGS/print-paths.out")" == "$(printf 'Spec/lock.json\n'; cd "$COPY" && "$GENERATOR" generate --list-outputs)"
check "  which names the sources and the DocC articles" grep -qx 'Sources/OpenAI/OpenAI.docc/Generated' "$LOGS/print-paths.out"
check "  and the admin module's and the catalogue's folders" \
    bash -c "grep -qx 'Sources/OpenAIAdmin/Generated' '$LOGS/print-paths.out' && grep -qx 'Sources/OpenAICatalogue/Generated' '$LOGS/print-paths.out'"
check "  the workflow's pull request adds exactly that list" helper workflow-uses-print-paths "$COPY/.github/workflows/update-spec.yml"
check "  Spec/README.md and CONTRIBUTING.md name every path and --print-paths" \
    helper mentions-all "$LOGS/print-paths.out" "$COPY/Spec/README.md" "$COPY/CONTRIBUTING.md"
helper state "$COPY" "$TMPW/before.json"
status=0
SKIP_SDK_BUILD=1 SUMMARY_FILE="$TMPW/widgets.md" update widgets --commit "$WIDGETS_COMMIT" --date 2026-09-05 "$WIDGETS" || status=$?
expect_status 0 "$status" "a spec adding POST /widgets in a new area (SKIP_SDK_BUILD=1: generate and check)"
helper state "$COPY" "$TMPW/after.json"
helper changed "$TMPW/before.json" "$TMPW/after.json" >"$TMPW/widgets-changed.txt"
check "  the DocC articles changed too" grep -q ' Sources/OpenAI/OpenAI.docc/Generated/' "$TMPW/widgets-changed.txt"
check "  every changed file is under a path of --print-paths (the pull request holds the whole update)" \
    helper under-paths "$TMPW/widgets-changed.txt" "$LOGS/print-paths.out"
# shellcheck disable=SC2016 # Python source with markdown backticks, not shell
check "  the summary leads with the new operation, its call and area, before the table of the rest" python3 -c '
import sys
text = open(sys.argv[1]).read()
row = text.find("| New | `POST /widgets` | `client.widgets.create(_:)` | Widgets |")
sys.exit(0 if 0 < text.find("### Operations") < row < text.find("| What | Changes | Areas |") else 1)' "$TMPW/widgets.md"
has "$TMPW/widgets.md" "### Checks of this update" "  the summary ends with the checks that ran"
has "$TMPW/widgets.md" "Not built and no test run (SKIP_SDK_BUILD=1)" "  and says the update was not compiled"
check "  the body its schema requires is a required parameter (no \`= nil\`)" \
    grep -qx '        _ body: CreateWidgetRequest,' "$COPY/Sources/OpenAI/Generated/Resources/WidgetsAPI.swift"
rm -rf "$E2E/cache"
reset_copy
finish

# --- clean -------------------------------------------------------------------------------------------------------------

begin "clean: a harmless addition updates the lock and touches only the files that change (CI=true, no test venv)"
reset_copy
helper state "$COPY" "$TMPW/before.json"
# As the workflow runs it: CI=true (a skipped test fails the update), no OPENAI_TEST_PYTHON, no Scripts/.venv.
check "  (the copy has no Scripts/.venv)" test ! -e "$COPY/Scripts/.venv"
status=0
(cd "$COPY" && env -u OPENAI_TEST_PYTHON CI=true SCRATCH_PATH="$SCRATCH_PATH_COPY" SUMMARY_FILE="$TMPW/clean.md" \
    SUMMARY_JSON="$TMPW/clean.json" Scripts/spec/update-spec.sh --commit "$CLEAN_COMMIT" --date 2026-09-02 "$CLEAN") \
    >"$LOGS/clean.out" 2>"$LOGS/clean.err" || status=$?
expect_status 0 "$status" "CI=true update-spec.sh --commit $CLEAN_COMMIT --date 2026-09-02 clean.yaml"
has "$LOGS/clean.err" "OPENAI_TEST_PYTHON is unset; preparing Scripts/.venv" "  prepared the test server's Python itself"
check "  (Scripts/.venv is there now)" test -x "$COPY/Scripts/.venv/bin/python"
has "$LOGS/clean.err" " skipped" "  counts the skipped tests"
lacks "$LOGS/clean.err" "fast test(s) skipped" "  and none skipped"
has "$TMPW/clean.md" "none skipped; every test and benchmark compiles." "  the summary's checks say so"
has "$LOGS/clean.err" "commit Spec/lock.json $(sed -n '2,$p' "$LOGS/print-paths.out" | tr '\n' ' ' | sed 's/ $//')" \
    "  the last message names the paths to commit, as --print-paths does"
CLEAN_SHA="$(sha256_of "$CLEAN")"
check "  lock: source, url, commit, sha256, date, openapi, size (and nothing else)" helper lock-is "$COPY/Spec/lock.json" \
    "{\"source\": \"openai/openai-openapi\", \"url\": \"$UPSTREAM/$CLEAN_COMMIT/openapi.yaml\", \"commit\": \"$CLEAN_COMMIT\", \"sha256\": \"$CLEAN_SHA\", \"date\": \"2026-09-02\", \"openapi\": \"3.1.0\", \"size\": $(size_of "$CLEAN")}"
check "  Spec/openapi.yaml is clean.yaml" cmp -s "$CLEAN" "$COPY/Spec/openapi.yaml"
check "  openai-generator check passes in the copy" bash -c "cd '$COPY' && '$GENERATOR' check >'$LOGS/clean-check.log' 2>&1"
helper state "$COPY" "$TMPW/after.json"
INVITE_FILE="$(cd "$COPY/Sources/OpenAIAdmin/Generated" && grep -l 'struct InviteRequest\b' -r . | sed 's|^\./||' | head -n 1)"
# The `openai` tool's catalogue and schemas change too: the new member is a new flag and a new schema property. Each
# output folder's manifest names the new spec's sha256.
expected_changes="$(printf 'content Sources/OpenAIAdmin/Generated/%s\ncontent Sources/OpenAIAdmin/Generated/Manifest.swift\ncontent Sources/OpenAI/Generated/Manifest.swift\ncontent Sources/OpenAICatalogue/Generated/Manifest.swift\ncontent Sources/OpenAICatalogue/Generated/OperationCatalogue.swift\ncontent Sources/OpenAICatalogue/Generated/OperationSchemas.swift\ncontent Spec/lock.json\ncontent Spec/openapi.yaml\n' "$INVITE_FILE" | LC_ALL=C sort)"
actual_changes="$(helper changed "$TMPW/before.json" "$TMPW/after.json" | LC_ALL=C sort)"
if [[ "$actual_changes" == "$expected_changes" ]]; then
    ok "  only $INVITE_FILE, the CLI's catalogue and schemas, and each folder's Manifest.swift changed (the other files keep bytes and modification times)"
else
    fail "  changed files: $(echo "$actual_changes" | tr '\n' ';'), expected: $(echo "$expected_changes" | tr '\n' ';')"
fi
for folder in Sources/OpenAI/Generated Sources/OpenAIAdmin/Generated Sources/OpenAICatalogue/Generated; do
    has "$COPY/$folder/Manifest.swift" "spec-sha256: $CLEAN_SHA" "  $folder/Manifest.swift holds the new sha256"
done
if grep -rlF -e "$CLEAN_SHA" -e "$LOCKED_SHA" "$COPY/Sources/OpenAI/Generated" "$COPY/Sources/OpenAIAdmin/Generated" \
    "$COPY/Sources/OpenAICatalogue/Generated" | grep -v '/Manifest.swift$' >/dev/null; then
    fail "  a generated file other than a Manifest.swift holds a spec hash"
else
    ok "  no other generated file holds a spec hash"
fi
has "$COPY/Sources/OpenAIAdmin/Generated/$INVITE_FILE" "public var note: Swift.String?" "  InviteRequest has the new property"
check "  the new spec is in the cache ($OPENAI_SPEC_CACHE/<sha256>.yaml)" cmp -s "$CLEAN" "$OPENAI_SPEC_CACHE/$CLEAN_SHA.yaml"
if first_line "$LOGS/clean.out" | grep -q '^## OpenAPI spec changes'; then ok "  stdout is the summary"; else fail "  stdout does not start with the summary"; fi
has "$TMPW/clean.md" "InviteRequest.note" "  the summary names InviteRequest.note"
lacks "$TMPW/clean.md" "$TMPW" "  and no temporary path"
check "  SUMMARY_JSON lists property-added InviteRequest.note" python3 -c '
import json, sys
changes = json.load(open(sys.argv[1]))["changes"]
sys.exit(0 if any(c["kind"] == "property-added" and c.get("swift") == "InviteRequest.note" for c in changes) else 1)' "$TMPW/clean.json"
if tests_ran="$(grep -Eo 'Executed [0-9]+ tests?' "$LOGS/clean.err" | tail -n 1)" && [[ "${tests_ran//[!0-9]/}" -gt 0 ]]; then
    ok "  the fast tests ran ($tests_ran)"
else
    fail "  the fast tests did not run (no 'Executed N tests' in logs/clean.err)"
fi
cp "$COPY/Spec/lock.json" "$TMPW/clean-lock.json"
finish

# --- interrupt ---------------------------------------------------------------------------------------------------------

begin "interrupt: Ctrl-C during the SDK build rolls everything back"
reset_copy
helper state "$COPY" "$TMPW/before.json"
status=0
(cd "$COPY" && SCRATCH_PATH="$SCRATCH_PATH_COPY" python3 "$HELPERS_PY" interrupt "$LOGS/interrupt.log" "==> 8/9" \
    Scripts/spec/update-spec.sh --commit "$BREAKING_COMMIT" --date 2026-09-01 "$BREAKING") || status=$?
expect_status 130 "$status" "SIGINT to the process group after '==> 8/9' (255: the marker never came)"
has "$LOGS/interrupt.log" "interrupted (INT); rolling back" "  says it rolls back"
has "$LOGS/interrupt.log" "byte for byte as before" "  says the rollback was verified"
check "  every file of Generated/ and Spec/ as before (bytes, list and modification times; no staging folder)" \
    bash -c "python3 '$HELPERS_PY' state '$COPY' '$TMPW/after.json' && python3 '$HELPERS_PY' compare '$TMPW/before.json' '$TMPW/after.json' times"
finish

# --- breaking ----------------------------------------------------------------------------------------------------------

begin "breaking: a spec change that breaks a hand-written file is rolled back and explained"
reset_copy
PROBE="Sources/OpenAI/Helpers/UpdateSpecProbe.swift"
cat >"$COPY/$PROBE" <<'SWIFT'
// Written by Scripts/test-update-spec.sh: hand-written code using a member that the test's new spec removes.
func updateSpecProbe(_ batch: Batch) {
    _ = batch.completedAt
}
// And an error that has nothing to do with the spec: the locked spec's build has it too.
func updateSpecProbeBrokenBefore() -> Int { "not a number" }
SWIFT
PROBE_LINE=3
BROKEN_LINE=6
helper state "$COPY" "$TMPW/before.json"
cp "$COPY/Spec/lock.json" "$TMPW/lock-before.json"
status=0
(cd "$COPY" && SCRATCH_PATH="$SCRATCH_PATH_COPY" SUMMARY_FILE="$TMPW/breaking.md" SUMMARY_JSON="$TMPW/breaking.json" \
    Scripts/spec/update-spec.sh --commit "$BREAKING_COMMIT" --date 2026-09-01 "$BREAKING") >"$LOGS/breaking.log" 2>&1 || status=$?
expect_status 1 "$status" "update-spec.sh to breaking.yaml"
check "  every file of Generated/ and Spec/ byte-identical to before, same file list, same modification times" \
    bash -c "python3 '$HELPERS_PY' state '$COPY' '$TMPW/after.json' && python3 '$HELPERS_PY' compare '$TMPW/before.json' '$TMPW/after.json' times"
check "  Spec/lock.json unchanged" cmp -s "$TMPW/lock-before.json" "$COPY/Spec/lock.json"
has "$LOGS/breaking.log" "$PROBE:$PROBE_LINE:" "  names the probe's file and line ($PROBE:$PROBE_LINE)"
has "$LOGS/breaking.log" "has no member 'completedAt'" "  quotes the compiler's error"
has "$LOGS/breaking.log" "caused by the spec change property-removed \`Batch.completedAt\`" "  names the spec change that caused it"
has "$LOGS/breaking.log" "rolled back" "  says it rolled back"
lacks "$LOGS/breaking.log" "Generated/: the generated code itself does not compile" "  blames no generated file"
has "$LOGS/breaking.log" "==> locked-build" "  repeats the build on the locked spec after the rollback"
check "  marks the error the locked spec has too ($PROBE:$BROKEN_LINE)" python3 -c '
import sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
at = [i for i, l in enumerate(lines) if l.startswith("  " + sys.argv[2]) and ": error: " in l]
sys.exit(0 if at and "ALSO on the locked spec" in lines[at[-1] + 1] else 1)' "$LOGS/breaking.log" "$PROBE:$BROKEN_LINE:"
check "  and not the one the new spec causes ($PROBE:$PROBE_LINE)" python3 -c '
import sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
at = [i for i, l in enumerate(lines) if l.startswith("  " + sys.argv[2]) and ": error: " in l]
sys.exit(0 if at and "ALSO" not in lines[at[-1] + 1] else 1)' "$LOGS/breaking.log" "$PROBE:$PROBE_LINE:"
has "$LOGS/breaking.log" "1 of the errors above are there already, 1 come with the new spec" "  counts both kinds"
has "$LOGS/breaking.log" "What to do:" "  and says what to do"
summary_line="$(grep -n -m 1 '^## OpenAPI spec changes' "$LOGS/breaking.log" | cut -d: -f1 || true)"
generate_line="$(grep -n -m 1 '^==> 6/9' "$LOGS/breaking.log" | cut -d: -f1 || true)"
if [[ -n "$summary_line" && -n "$generate_line" && "$summary_line" -lt "$generate_line" ]]; then
    ok "  the summary came first (line $summary_line, regeneration at line $generate_line)"
else
    fail "  the summary did not come before regeneration (summary line '${summary_line}', regeneration '${generate_line}')"
fi
has "$TMPW/breaking.md" "$UPSTREAM/$BREAKING_COMMIT/openapi.yaml" "  SUMMARY_FILE names the new spec by its upstream URL"
has "$TMPW/breaking.md" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$TMPW/lock-before.json")" "  and the old one by the lock's URL"
lacks "$TMPW/breaking.md" "$TMPW" "  and never by a temporary path"
check "  SUMMARY_JSON lists property-removed Batch.completedAt" python3 -c '
import json, sys
changes = json.load(open(sys.argv[1]))["changes"]
sys.exit(0 if any(c["kind"] == "property-removed" and c.get("swift") == "Batch.completedAt" for c in changes) else 1)' "$TMPW/breaking.json"
check "  the failed spec is not cached" test ! -e "$OPENAI_SPEC_CACHE/$(sha256_of "$BREAKING").yaml"

status=0
update breaking-keep --keep-on-failure --commit "$BREAKING_COMMIT" --date 2026-09-01 "$BREAKING" || status=$?
expect_status 1 "$status" "again with --keep-on-failure"
has "$LOGS/breaking-keep.err" "--keep-on-failure: the new state is kept" "  says the new state is kept"
has "$LOGS/breaking-keep.err" "Not compared with the locked spec: --keep-on-failure keeps the new state." "  and that it did not build the locked spec"
check "  the lock is the new spec's" helper lock-is "$COPY/Spec/lock.json" \
    "{\"source\": \"openai/openai-openapi\", \"url\": \"$UPSTREAM/$BREAKING_COMMIT/openapi.yaml\", \"commit\": \"$BREAKING_COMMIT\", \"sha256\": \"$(sha256_of "$BREAKING")\", \"date\": \"2026-09-01\", \"openapi\": \"3.1.0\", \"size\": $(size_of "$BREAKING")}"
check "  Generated/ is the new spec's (check passes on it)" bash -c "cd '$COPY' && '$GENERATOR' check >/dev/null 2>&1"
rm -f "$COPY/$PROBE"
finish

# --- fetch -------------------------------------------------------------------------------------------------------------

begin "fetch: fetch-spec.sh finds the locked spec by sha256 without network"
mkdir -p "$FRESH/Scripts/lib" "$FRESH/Spec" "$TMPW/bin"
cp "$COPY/Scripts/spec/fetch-spec.sh" "$COPY/Scripts/lib.sh" "$FRESH/Scripts/"
cp "$COPY/Scripts/lib/spec.sh" "$COPY/Scripts/lib/spec_copy.py" "$FRESH/Scripts/lib/"
cat >"$TMPW/bin/curl" <<EOF
#!/bin/sh
echo "\$*" >>"$TMPW/curl-called"
echo "curl (stub of Scripts/test-update-spec.sh): no network" >&2
exit 7
EOF
chmod +x "$TMPW/bin/curl"
fetch() { (cd "$FRESH" && env -u SPEC_SOURCE PATH="$TMPW/bin:$PATH" Scripts/spec/fetch-spec.sh) >"$LOGS/$1.log" 2>&1; }

HISTORY_SPEC="$SHARED/spec/history/2026-08-05-dc708bb.yaml"
helper make-lock "$COPY/Spec/lock.json" "$FRESH/Spec/lock.json" "$(sha256_of "$HISTORY_SPEC")" "$(size_of "$HISTORY_SPEC")" "http://127.0.0.1:9/unreachable/openapi.yaml"
rm -f "$TMPW/curl-called"
status=0
fetch fetch-history || status=$?
expect_status 0 "$status" "a lock naming history/2026-08-05-dc708bb.yaml's sha256 (url unreachable)"
has "$LOGS/fetch-history.log" "found the locked spec at ../shared/spec/history/2026-08-05-dc708bb.yaml" "  found it in ../shared/spec/history"
check "  Spec/openapi.yaml is that file" cmp -s "$HISTORY_SPEC" "$FRESH/Spec/openapi.yaml"
check "  no download was tried" test ! -e "$TMPW/curl-called"

cp "$TMPW/clean-lock.json" "$FRESH/Spec/lock.json"
rm -f "$FRESH/Spec/openapi.yaml" "$TMPW/curl-called"
status=0
fetch fetch-cache || status=$?
expect_status 0 "$status" "the lock the clean scenario wrote, in a fresh checkout"
has "$LOGS/fetch-cache.log" "found the locked spec at $OPENAI_SPEC_CACHE/$CLEAN_SHA.yaml" "  found it in the cache update-spec.sh filled"
check "  Spec/openapi.yaml is the clean spec" cmp -s "$CLEAN" "$FRESH/Spec/openapi.yaml"
check "  no download was tried" test ! -e "$TMPW/curl-called"

# The workflows' way: .github/scripts/locked-spec.sh LOCK DEST, i.e. fetch-spec.sh with LOCK_FILE and SPEC_DEST.
copy_spec_sha="$(sha256_of "$COPY/Spec/openapi.yaml")"
status=0
(cd "$COPY" && env -u SPEC_SOURCE PATH="$TMPW/bin:$PATH" .github/scripts/locked-spec.sh "$TMPW/clean-lock.json" "$TMPW/locked/openapi.yaml") \
    >"$LOGS/fetch-locked-spec.log" 2>&1 || status=$?
expect_status 0 "$status" ".github/scripts/locked-spec.sh with that lock and another destination"
check "  the destination is the clean spec" cmp -s "$CLEAN" "$TMPW/locked/openapi.yaml"
check "  the repository's Spec/openapi.yaml is untouched" test "$(sha256_of "$COPY/Spec/openapi.yaml")" == "$copy_spec_sha"
check "  no download was tried" test ! -e "$TMPW/curl-called"

# A candidate of the right size whose sha256 differs (one byte changed), where fetch-spec.sh looks: the cache.
helper flip-byte "$CLEAN" "$OPENAI_SPEC_CACHE/$CLEAN_SHA.yaml"
rm -f "$FRESH/Spec/openapi.yaml" "$TMPW/curl-called"
status=0
fetch fetch-wrong-sha || status=$?
expect_status 1 "$status" "the cache file has the lock's size but not its sha256 (one byte changed)"
check "  (it has the lock's size)" test "$(size_of "$OPENAI_SPEC_CACHE/$CLEAN_SHA.yaml")" == "$(size_of "$CLEAN")"
check "  (and another sha256)" test "$(sha256_of "$OPENAI_SPEC_CACHE/$CLEAN_SHA.yaml")" != "$CLEAN_SHA"
lacks "$LOGS/fetch-wrong-sha.log" "found the locked spec" "  it is not taken"
check "  the lock's url was tried after it" test -s "$TMPW/curl-called"
check "  no Spec/openapi.yaml was left" test ! -e "$FRESH/Spec/openapi.yaml"

helper make-lock "$COPY/Spec/lock.json" "$FRESH/Spec/lock.json" "$(sha256_of "$BREAKING")" "$(size_of "$BREAKING")" "http://127.0.0.1:9/unreachable/openapi.yaml"
rm -f "$FRESH/Spec/openapi.yaml" "$TMPW/curl-called"
status=0
fetch fetch-miss || status=$?
expect_status 1 "$status" "a sha256 found nowhere"
check "  the lock's url was tried after the local places" test -s "$TMPW/curl-called"
check "  no Spec/openapi.yaml was left" test ! -e "$FRESH/Spec/openapi.yaml"
finish

# --- summary -----------------------------------------------------------------------------------------------------------

reset_copy
printf '\n==> Summary (logs of this run: %s)\n' "$LOGS"
for row in "${TIMES[@]}"; do
    printf '%s\n' "$row"
done
printf '%8ss  total\n' "$(elapsed_since "$TOTAL_START")"
if [[ $FAILURES -ne 0 ]]; then
    printf '\ntest-update-spec: FAILED: %d check(s) failed.\n' "$FAILURES"
    exit 1
fi
printf '\ntest-update-spec: all checks passed.\n'
