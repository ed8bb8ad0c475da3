#!/usr/bin/env bash
# Moves the SDK to a new OpenAI spec as one transaction. First it diffs the new spec against the locked one and
# prints the markdown change summary (for the pull request and the changelog); then it puts the new spec at
# Spec/openapi.yaml, rewrites Spec/lock.json, regenerates the folders `openai-generator generate --list-outputs`
# names (Sources/OpenAI/Generated/, Sources/OpenAIAdmin/Generated/, Sources/OpenAICatalogue/Generated/ and the DocC articles in
# Sources/OpenAI/OpenAI.docc/Generated/), runs
# `openai-generator check`, builds every library target with the hand-written code (OpenAI, OpenAIRealtime,
# OpenAIAdmin) and runs the fast tests (preparing the test servers' Python venv when OPENAI_TEST_PYTHON is unset).
# When any of those fails, or the run is interrupted (Ctrl-C, TERM), those folders (whole: files the new generation
# added are removed), Spec/openapi.yaml and Spec/lock.json are put back byte for byte and the failure is explained:
# for a compile error, the hand-written files and lines, the spec change that caused each error when the diff can
# tell, and whether the same error happens on the locked spec (the build is repeated there), with what to do.
# (The Python parts are in Scripts/spec/update-spec-helpers.py.)
#
# Usage: Scripts/spec/update-spec.sh [options] NEW_SPEC_PATH_OR_URL
#        Scripts/spec/update-spec.sh --print-paths     the paths an update changes and its commit must hold, one a line:
#                                                 Spec/lock.json and the generator's output folders (what the
#                                                 workflow's pull request adds; Spec/openapi.yaml is git-ignored)
#   --commit SHA          the openai/openai-openapi commit the new spec is: 40 hex, or an abbreviation of at least 7
#                         that the lock, the spec cache or ../shared/spec (PROVENANCE.md) names in full (refused
#                         when none or several do). Taken from the URL only when it is
#                         openai/openai-openapi's at a commit: https://raw.githubusercontent.com/openai/openai-openapi/
#                         <40-hex>/... or https://github.com/openai/openai-openapi/raw|blob/<40-hex>/.... Required
#                         for any other URL (40 hex in its path are never taken as a commit) and for a local file
#                         unless --allow-local-source; the lock's url is then the raw GitHub URL at that commit.
#   --date YYYY-MM-DD     the commit's date. Default: the date in the file name when it is a history name
#                         (2026-08-13-855e5d4.yaml), or in the name of the file in ../shared/spec/history/ with the
#                         same sha256; required otherwise.
#   --url URL             the lock's url (http or https). Default: the raw URL of an openai/openai-openapi URL given
#                         at a commit, else the raw URL at --commit. The lock's `source` is openai/openai-openapi
#                         when its url is a raw.githubusercontent.com/openai/openai-openapi one (or a path, below),
#                         otherwise the url's host and path (mirror.example/specs/openapi.yaml): a mirror is never
#                         recorded as upstream.
#   --allow-local-source  accept a local file without --commit: the lock's url is the path relative to the
#                         repository and its commit the hex in a history file name, or empty. Refused (give --commit
#                         or --url) for a file outside the repository's parent folder (the lock would hold an
#                         absolute path only this machine has) or under a temporary folder (/tmp, /var/tmp, /dev/shm,
#                         $TMPDIR, $XDG_RUNTIME_DIR).
#   --allow-older         move to a spec that looks older than the locked one (by the dates, or by the history file
#                         names). Without it such a spec is refused (exit 2, nothing changed) before any summary is
#                         printed, with the warning on stderr; with it, or with --dry-run, the warning is the
#                         summary's first line.
#   --keep-on-failure     when a step fails, keep the new spec, lock and generated code for fixing by hand
#                         (an interrupt still rolls back).
#   --dry-run             print the summary only (with any warning); change no file. Provenance is not required.
# Environment:
#   SPEC_COMMIT, SPEC_DATE, SPEC_URL   the same as --commit, --date, --url (an option given wins).
#   OPENAI_GENERATOR=PATH      use this generator binary (e.g. .build/debug/openai-generator) instead of building it.
#                              Otherwise `swift build --product openai-generator` (debug: the test build below
#                              compiles the generator's modules in debug anyway; release would compile them twice).
#   UPDATE_SPEC_TEST_FILTER=REGEX  the fast tests, as `swift test --filter REGEX` (after `swift build --build-tests`,
#                              which also compiles every test and benchmark against the new code). `none` skips the
#                              test step. Default: the generated-model and decoding tests (about 2 s to run):
#                              OpenAISDKTests.(GeneratedModelTests|LenientDecodingTests|RecordedResponseDecodingTests|
#                              SpecExampleDecodingTests|StreamingConformanceTests|ReadmeExampleTests|DocExampleTests)
#                              and OpenAISDKRealtimeTests.RealtimeFixtureDecodingTests.
#                              The step says how many tests ran and how many skipped (named in the summary); a
#                              skipped one is a failure with CI=true (a skipped test has not passed), a warning
#                              otherwise. OPENAI_TEST_PYTHON (the test server's Python) is prepared as Scripts/test.sh
#                              does (Scripts/lib/test-env.sh: Scripts/.venv) when it is unset.
#   SKIP_SDK_BUILD=1           skip the build and test steps (generate and check only).
#   SCRATCH_PATH=DIR           SwiftPM build folder (passed as --scratch-path).
#   SUMMARY_FILE=PATH          where the markdown summary is written (before anything changes; the checks that ran,
#                              tests skipped among them, are added at the end on success). Default
#                              ${SCRATCH_PATH:-.build}/update-spec/summary.md. The path is printed.
#   SUMMARY_JSON=PATH          where the diff's JSON report is written (`openai-generator diff --format json`):
#                              default beside SUMMARY_FILE, its name ending .json instead of .md. Printed too.
#   HISTORY_DIR=DIR            historical specs, to date a spec by its file name (default ../shared/spec/history).
#   OPENAI_SPEC_CACHE=DIR      where the new spec is kept on success, as <sha256>.yaml, for Scripts/spec/fetch-spec.sh
#                              (default ${XDG_CACHE_HOME:-$HOME/.cache}/openai-swift/specs).
#
# Exit status: 0 updated, nothing to do, or --dry-run; 1 a step failed (everything rolled back unless
# --keep-on-failure); 2 usage error or a refused source (nothing changed); 130 / 143 interrupted (rolled back).
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
CALLER_PWD="$PWD"
cd "$ROOT"
# shellcheck source=lib/spec.sh source-path=SCRIPTDIR/..
source "$ROOT/Scripts/lib/spec.sh"
# shellcheck source=lib/test-env.sh source-path=SCRIPTDIR/..
source "$ROOT/Scripts/lib/test-env.sh"

# Prints a path given by the caller as an absolute one (relative paths are the caller's, not the repository's).
from_caller() {
    case "$1" in
        "" | /* | http://* | https://*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$CALLER_PWD" "$1" ;;
    esac
}

# Prints the usage lines of the header above; exits with the given status (2 unless told).
usage() {
    sed -n '/^# Usage:/,/^# Environment:/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit "${1:-2}"
}

DRY_RUN=0
PRINT_PATHS=0
KEEP_ON_FAILURE=0
ALLOW_LOCAL=0
ALLOW_OLDER=0
OPT_COMMIT="${SPEC_COMMIT:-}"
OPT_DATE="${SPEC_DATE:-}"
OPT_URL="${SPEC_URL:-}"
SOURCE=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --print-paths) PRINT_PATHS=1 ;;
        --keep-on-failure) KEEP_ON_FAILURE=1 ;;
        --allow-local-source) ALLOW_LOCAL=1 ;;
        --allow-older) ALLOW_OLDER=1 ;;
        --commit | --date | --url)
            if [[ $# -lt 2 ]]; then
                echo "update-spec: $1 needs a value" >&2
                usage
            fi
            case "$1" in
                --commit) OPT_COMMIT="$2" ;;
                --date) OPT_DATE="$2" ;;
                --url) OPT_URL="$2" ;;
            esac
            shift
            ;;
        --commit=*) OPT_COMMIT="${1#--commit=}" ;;
        --date=*) OPT_DATE="${1#--date=}" ;;
        --url=*) OPT_URL="${1#--url=}" ;;
        -h | --help) usage 0 ;;
        -*)
            echo "update-spec: unknown option: $1" >&2
            usage
            ;;
        *)
            if [[ -n "$SOURCE" ]]; then
                echo "update-spec: one spec at a time (got '$SOURCE' and '$1')" >&2
                usage
            fi
            SOURCE="$1"
            ;;
    esac
    shift
done
if [[ $PRINT_PATHS -eq 1 && -n "$SOURCE" ]]; then
    echo "update-spec: --print-paths takes no spec" >&2
    usage
fi
if [[ -z "$SOURCE" && $PRINT_PATHS -eq 0 ]]; then
    usage
fi
SOURCE="$(from_caller "$SOURCE")"
SUMMARY_FILE="$(from_caller "${SUMMARY_FILE:-${SCRATCH_PATH:-$ROOT/.build}/update-spec/summary.md}")"
SUMMARY_JSON="$(from_caller "${SUMMARY_JSON:-${SUMMARY_FILE%.md}.json}")"
if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
    OPENAI_GENERATOR="$(from_caller "$OPENAI_GENERATOR")"
fi
if [[ -n "$OPT_COMMIT" ]]; then
    if [[ ! "$OPT_COMMIT" =~ ^[0-9a-fA-F]{7,40}$ ]]; then
        echo "update-spec: --commit wants a commit as hex (40 digits, or an abbreviation of at least 7), got '$OPT_COMMIT' (nothing changed)" >&2
        exit 2
    fi
    OPT_COMMIT="$(printf '%s' "$OPT_COMMIT" | tr 'A-F' 'a-f')"
fi
if [[ -n "$OPT_DATE" ]]; then
    if [[ ! "$OPT_DATE" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] \
        || ! python3 -c 'import datetime, sys; datetime.date.fromisoformat(sys.argv[1])' "$OPT_DATE" 2>/dev/null; then
        echo "update-spec: --date wants a date as YYYY-MM-DD, got '$OPT_DATE' (nothing changed)" >&2
        exit 2
    fi
fi
if [[ -n "$OPT_URL" && ! "$OPT_URL" =~ ^https?://[^[:space:]]+$ ]]; then
    echo "update-spec: --url wants an http(s) URL, got '$OPT_URL' (nothing changed)" >&2
    exit 2
fi

LOCK="$ROOT/Spec/lock.json"
DEST="$ROOT/Spec/openapi.yaml"
HISTORY_DIR="${HISTORY_DIR:-$ROOT/../shared/spec/history}"
DEFAULT_TEST_FILTER='OpenAISDKTests\.(GeneratedModelTests|LenientDecodingTests|RecordedResponseDecodingTests|SpecExampleDecodingTests|StreamingConformanceTests|ReadmeExampleTests|DocExampleTests)|OpenAISDKRealtimeTests\.RealtimeFixtureDecodingTests'
TEST_FILTER="${UPDATE_SPEC_TEST_FILTER:-$DEFAULT_TEST_FILTER}"

set_swift_flags

STEP_TIMES=()
STEP_NAME=""
STEP_START=""
# Ends the current step's timer (printed at exit as "time per step").
close_step() {
    if [[ -n "$STEP_NAME" ]]; then
        STEP_TIMES+=("$STEP_NAME $(elapsed_since "$STEP_START")s")
        STEP_NAME=""
    fi
}
step() {
    close_step
    STEP_NAME="${1%% *}"
    STEP_START="$(now)"
    printf '\n==> %s\n' "$*" >&2
}

# --- the transaction's state and its rollback ----------------------------------------------------------------------

WORK="$(temp_dir update-spec)"
NEW="$WORK/new.yaml"
BACKUP="$WORK/backup"
# idle: nothing changed yet; changing: files may differ from the snapshot; finished: the update succeeded.
STATE=idle
INTERRUPTED=""

HELPERS="$ROOT/Scripts/spec/update-spec-helpers.py"
helper() { python3 "$HELPERS" "$@"; }

# Takes the snapshot rollback() restores: a copy of the generator's output folders (OUTPUTS, times kept),
# Spec/openapi.yaml and Spec/lock.json, with every file's sha256.
snapshot() { helper snapshot "$ROOT" "$BACKUP" "${OUTPUTS[@]}"; }
# Makes them what they were at the snapshot (files that differ in bytes or time copied back, files the run added
# removed) and verifies every hash; non-zero when the result differs.
rollback() { helper rollback "$ROOT" "$BACKUP"; }

on_exit() {
    local status=$?
    trap - EXIT
    trap '' INT TERM
    close_step
    if [[ ${#STEP_TIMES[@]} -gt 0 ]]; then
        { printf 'update-spec: time per step:'; printf ' %s,' "${STEP_TIMES[@]}"; printf '\n'; } | sed 's/,$//' >&2
    fi
    if [[ "$STATE" == changing ]]; then
        [[ $status -ne 0 ]] || status=1
        if [[ $KEEP_ON_FAILURE -eq 1 && -z "$INTERRUPTED" ]]; then
            {
                echo "update-spec: --keep-on-failure: the new state is kept for fixing by hand: Spec/openapi.yaml and"
                echo "  Spec/lock.json are the new spec's, ${OUTPUTS[*]} are what it generated."
                echo "  To go back: git checkout -- Spec/lock.json ${OUTPUTS[*]} &&"
                echo "  git clean -fd ${OUTPUTS[*]} && Scripts/spec/fetch-spec.sh"
            } >&2
        elif ! rollback; then
            echo "update-spec: ROLLBACK INCOMPLETE; the snapshot is kept at $BACKUP" >&2
            exit "$status"
        fi
    fi
    rm -rf "$WORK"
    exit "$status"
}
on_signal() {
    INTERRUPTED="$1"
    if [[ "$STATE" == changing ]]; then
        echo "update-spec: interrupted ($1); rolling back" >&2
    else
        echo "update-spec: interrupted ($1); nothing had changed" >&2
    fi
    exit "$2"
}
trap on_exit EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM

# Prints what a failed step's log means: compiler errors in hand-written files (outside the generated folders)
# with file:line:column, the spec change behind each and whether the build on the locked spec (its log, when there
# is one) has the same error, errors inside the generated code, failed tests, and what to do; else its last lines:
# explain_failure LOG WHAT [LOCKED_LOG].
explain_failure() {
    helper explain "$ROOT" "$1" "$WORK/diff.json" "$2" "$WORK/provenance.json" "${3:-}" "$KEEP_ON_FAILURE" \
        "${OUTPUTS[@]}"
}

# Runs a step's command with its output on stderr and in a log; on failure, explains it and exits 1 (the EXIT
# trap rolls back). When a `swift build` fails with compiler errors, it rolls back first and runs the same build on
# the locked spec, so the explanation can tell the errors the new spec causes from those the code already had
# (not with --keep-on-failure, which keeps the new state).
run_logged() {
    local what="$1" name="$2" log="$WORK/$2.log" status=0 locked_log="" locked_status=0
    shift 2
    printf '+ %s\n' "$*" >&2
    "$@" 2>&1 | tee "$log" >&2 || status=$?
    if [[ -n "$INTERRUPTED" ]]; then
        exit 130
    fi
    if [[ $status -ne 0 ]]; then
        if [[ "$1 ${2:-}" == "swift build" && $KEEP_ON_FAILURE -eq 0 ]] && grep -q ': error: ' "$log"; then
            step "locked-build: roll back, then the same build on the locked spec (which errors come with the new one?)"
            if rollback; then
                STATE=rolledback
                locked_log="$WORK/$name-locked.log"
                printf '+ %s\n' "$*" >&2
                "$@" >"$locked_log" 2>&1 || locked_status=$?
                if [[ -n "$INTERRUPTED" ]]; then
                    exit 130
                fi
                echo "update-spec: on the locked spec the same build exits with status $locked_status" >&2
            fi
        fi
        explain_failure "$log" "$what (exit status $status)" "$locked_log"
        exit 1
    fi
}

# Sets GENERATOR: OPENAI_GENERATOR, or the debug build of this checkout's (built when needed; output on stderr).
locate_generator() {
    if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
        GENERATOR="$OPENAI_GENERATOR"
        echo "update-spec: using OPENAI_GENERATOR=$GENERATOR" >&2
    else
        echo "+ swift build --product openai-generator" >&2
        build_generator debug >&2
    fi
    if [[ ! -x "$GENERATOR" ]]; then
        echo "update-spec: no generator executable at $GENERATOR (nothing changed)" >&2
        exit 1
    fi
}

# Sets OUTPUTS: the folders `generate` writes (relative to the repository), from the generator itself, so the
# snapshot, the rollback, the last message and the workflow's pull request name the same ones.
list_outputs() {
    local listed status=0
    listed="$("$GENERATOR" generate --list-outputs)" || status=$?
    if [[ $status -ne 0 || -z "$listed" ]]; then
        echo "update-spec: $GENERATOR cannot list its output folders (generate --list-outputs, exit status $status):" \
            "use a generator built from this checkout (nothing changed)" >&2
        exit 1
    fi
    OUTPUTS=()
    local folder
    while IFS= read -r folder; do
        if [[ -n "$folder" ]]; then OUTPUTS+=("$folder"); fi
    done <<<"$listed"
}

if [[ $PRINT_PATHS -eq 1 ]]; then
    locate_generator
    list_outputs
    printf '%s\n' Spec/lock.json "${OUTPUTS[@]}"
    exit 0
fi

# --- 1. the new spec and where it came from ------------------------------------------------------------------------

step "1/9 Get the new spec ($SOURCE)"
IS_URL=0
case "$SOURCE" in
    http://* | https://*)
        IS_URL=1
        download="$SOURCE"
        # A github.com/…/blob/<commit>/… URL is a web page; its …/raw/… twin serves the file.
        blob_prefix="https://github.com/openai/openai-openapi/blob/"
        if [[ "$SOURCE" == "$blob_prefix"* ]]; then
            download="https://github.com/openai/openai-openapi/raw/${SOURCE#"$blob_prefix"}"
        fi
        if ! curl --fail --silent --show-error --location --retry 3 --output "$NEW" "$download"; then
            echo "update-spec: download failed: $SOURCE (nothing changed)" >&2
            exit 1
        fi
        ;;
    *)
        if [[ ! -f "$SOURCE" ]]; then
            echo "update-spec: $SOURCE is not a file (nothing changed)" >&2
            exit 1
        fi
        cat "$SOURCE" >"$NEW"
        ;;
esac

# Decides the new lock (url, commit, date, ...) and the report's labels, or refuses (exit 2). Writes
# $WORK/provenance.json; prints warnings to stderr.
status=0
helper provenance "$ROOT" "$LOCK" "$NEW" "$SOURCE" "$IS_URL" "$OPT_COMMIT" "$OPT_DATE" "$OPT_URL" "$ALLOW_LOCAL" \
    "$ALLOW_OLDER" "$DRY_RUN" "$HISTORY_DIR" "$WORK/provenance.json" || status=$?
if [[ $status -ne 0 ]]; then
    exit "$status"
fi
prov() { json_field "$WORK/provenance.json" "$1"; }
NEW_SHA="$(prov sha256)"
if [[ "$(prov same)" == "True" ]]; then
    echo "update-spec: $SOURCE is already the locked spec (sha256 $NEW_SHA); nothing to update." >&2
    exit 0
fi
OLD_LABEL="$(prov old_label)"
NEW_LABEL="$(prov new_label)"

step "2/9 Locked spec (Scripts/spec/fetch-spec.sh)"
"$ROOT/Scripts/spec/fetch-spec.sh" >&2

step "3/9 The generator"
locate_generator
list_outputs
echo "update-spec: the generator writes ${OUTPUTS[*]}" >&2

# --- 4. the summary, before anything changes -------------------------------------------------------------------------

step "4/9 Diff the locked spec against the new one (the summary comes first)"
DIFF_LABELS=(--old-label "$OLD_LABEL" --new-label "$NEW_LABEL")
RENAME_PATHS=0
DIFF_HELP="$("$GENERATOR" diff --help 2>&1 || true)"
if [[ "$DIFF_HELP" != *--old-label* ]]; then
    # A generator built before `diff --old-label/--new-label` existed (an older OPENAI_GENERATOR): it names the
    # files by path, which are replaced by the labels below.
    DIFF_LABELS=()
    RENAME_PATHS=1
fi
for format in markdown json; do
    status=0
    "$GENERATOR" diff "$DEST" "$NEW" --format "$format" --fail-on none ${DIFF_LABELS[@]+"${DIFF_LABELS[@]}"} \
        >"$WORK/diff.$format" || status=$?
    if [[ $status -ne 0 ]]; then
        echo "update-spec: diff failed (exit status $status); nothing changed." >&2
        exit 1
    fi
done
mv "$WORK/diff.markdown" "$WORK/summary.md"
helper relabel "$WORK/summary.md" "$WORK/diff.json" "$WORK/provenance.json" "$DEST" "$NEW" "$RENAME_PATHS"
mkdir -p "$(dirname "$SUMMARY_FILE")" "$(dirname "$SUMMARY_JSON")"
cp "$WORK/summary.md" "$SUMMARY_FILE"
cp "$WORK/diff.json" "$SUMMARY_JSON"
echo "update-spec: the summary is in $SUMMARY_FILE, the JSON report with every change in $SUMMARY_JSON" >&2
cat "$WORK/summary.md"
if grep -q '^No changes\.' "$WORK/summary.md"; then
    echo "update-spec: the new spec differs in bytes but not in anything the SDK uses; updating the lock anyway." >&2
fi
if [[ $DRY_RUN -eq 1 ]]; then
    step "--dry-run: no file changed"
    exit 0
fi

# --- 5.-9. the transaction ---------------------------------------------------------------------------------------------

step "5/9 Snapshot, then put the new spec at Spec/openapi.yaml and write Spec/lock.json"
snapshot
STATE=changing
chmod 644 "$NEW"
cp "$NEW" "$DEST.tmp"
mv -f "$DEST.tmp" "$DEST"
helper write-lock "$LOCK" "$WORK/provenance.json"

step "6/9 Regenerate Sources/OpenAI/Generated/, Sources/OpenAIAdmin/Generated/, Sources/OpenAICatalogue/Generated/ (and the DocC articles)"
run_logged "generation (openai-generator generate)" generate \
    "$GENERATOR" generate --spec Spec/openapi.yaml --output Sources/OpenAI/Generated

step "7/9 Check (openai-generator check)"
run_logged "openai-generator check" check "$GENERATOR" check

# What ran, for the summary's last section (the pull request shows it): one markdown list item each.
CHECKS=("\`openai-generator check\`: ${OUTPUTS[*]} are what the new spec generates.")
if [[ "${SKIP_SDK_BUILD:-0}" == "1" ]]; then
    step "8/9 Build and 9/9 fast tests: skipped (SKIP_SDK_BUILD=1)"
    CHECKS+=("Not built and no test run (SKIP_SDK_BUILD=1): this update has not been compiled.")
else
    step "8/9 Build the library targets with the hand-written code (OpenAI, OpenAIRealtime, OpenAIAdmin)"
    # OpenAIRealtime and OpenAIAdmin depend on OpenAI: the first command builds it too.
    run_logged "the SDK build (swift build --target OpenAIRealtime)" build \
        swift build --target OpenAIRealtime ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
    run_logged "the admin module build (swift build --target OpenAIAdmin)" build-admin \
        swift build --target OpenAIAdmin ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
    CHECKS+=("Built with the hand-written code: \`OpenAI\`, \`OpenAIRealtime\`, \`OpenAIAdmin\`.")
    if [[ "$TEST_FILTER" == "none" ]]; then
        step "9/9 Fast tests: skipped (UPDATE_SPEC_TEST_FILTER=none)"
        CHECKS+=("No fast test run (UPDATE_SPEC_TEST_FILTER=none).")
    else
        step "9/9 Fast tests (every test and benchmark compiles; swift test --filter)"
        if [[ -z "${OPENAI_TEST_PYTHON:-}" ]]; then
            # The README examples run against the local test server: its Python, as Scripts/test.sh prepares it.
            echo "update-spec: OPENAI_TEST_PYTHON is unset; preparing Scripts/.venv for the test server (Scripts/lib/test-env.sh)" >&2
            prepare_test_python >&2
        fi
        run_logged "the test build (swift build --build-tests)" build-tests \
            swift build --build-tests ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
        run_logged "the fast tests (swift test --filter)" tests \
            swift test --skip-build --filter "$TEST_FILTER" ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
        # XCTest's last "Executed N tests" line is the total; swift-testing says "Test run with N tests".
        xctest_total="$({ grep -Eo 'Executed [0-9]+ tests?' "$WORK/tests.log" || true; } | tail -n 1 | tr -dc '0-9')"
        if [[ "${xctest_total:-0}" -eq 0 ]] && ! grep -Eq 'Test run with [1-9][0-9]* tests?' "$WORK/tests.log"; then
            echo "update-spec: FAILED: UPDATE_SPEC_TEST_FILTER=$TEST_FILTER matched no test." >&2
            exit 1
        fi
        # XCTest: "Executed N tests, with K tests skipped and F failures"; each skipped test also has a line.
        skipped_tests=()
        while IFS= read -r test_name; do
            if [[ -n "$test_name" ]]; then skipped_tests+=("$test_name"); fi
        done < <({ grep -Eo "Test Case '[^']*' skipped" "$WORK/tests.log" || true; } \
            | sed "s/^Test Case '//; s/' skipped\$//" | LC_ALL=C sort -u)
        skipped="${#skipped_tests[@]}"
        echo "update-spec: fast tests: ${xctest_total:-0} ran (XCTest), $skipped skipped" >&2
        if [[ "$skipped" -gt 0 ]]; then
            if [[ "${CI:-}" == "true" ]]; then
                echo "update-spec: FAILED: $skipped fast test(s) skipped, and CI=true makes a skipped test a failure" \
                    "(a skipped test has not passed):" >&2
                printf '  %s\n' "${skipped_tests[@]}" >&2
                exit 1
            fi
            echo "update-spec: warning: $skipped fast test(s) skipped: they have not passed." >&2
            names=""
            for test_name in "${skipped_tests[@]}"; do
                names+="${names:+, }\`$test_name\`"
            done
            CHECKS+=("Fast tests (\`$TEST_FILTER\`): ${xctest_total:-0} ran, **$skipped skipped, so not passed**: $names.")
        else
            CHECKS+=("Fast tests (\`$TEST_FILTER\`): ${xctest_total:-0} ran, none skipped; every test and benchmark compiles.")
        fi
    fi
fi
STATE=finished

# Keep the new spec where Scripts/spec/fetch-spec.sh looks, so a fresh checkout on this machine finds it.
if cached="$(spec_cache_put "$NEW" "$NEW_SHA")"; then
    echo "update-spec: cached the new spec as $cached" >&2
    # Its lock beside it: where the spec comes from, and the full commit a later --commit abbreviation expands to.
    cp "$LOCK" "${cached%.yaml}.json" 2>/dev/null || true
else
    echo "update-spec: warning: could not write the spec cache $(spec_cache_dir) (continuing)" >&2
fi
# The checks, at the end of the summary (stdout and SUMMARY_FILE).
{
    printf '\n### Checks of this update\n\n'
    printf -- '- %s\n' "${CHECKS[@]}"
} | tee -a "$SUMMARY_FILE"
printf '\nupdate-spec: updated to %s (sha256 %s); review the summary (%s) and commit %s (Scripts/spec/update-spec.sh --print-paths).\n' \
    "$NEW_LABEL" "$NEW_SHA" "$SUMMARY_FILE" "Spec/lock.json ${OUTPUTS[*]}" >&2
