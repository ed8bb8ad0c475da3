#!/usr/bin/env bash
# Lint: the checks that need no build. Each prints its findings; the script fails when any check has one.
#
# Usage: Scripts/check/lint.sh [--only CHECK[,CHECK...]] [--root DIR]
#   --only CHECKS   run only these checks (comma-separated, or the option repeated): swift, python, pytest, sizes,
#                   headers, portability. Default: all six, in that order.
#   --root DIR      lint the tree at DIR instead of this repository (Scripts/check/test-lint.sh lints copies); the tools
#                   still come from this repository's Scripts/.venv.
# Checks (the files: the tree's tracked files and its untracked ones .gitignore does not exclude; in a tree that is
# not a git checkout, every file outside dot and .build* folders):
#   swift    `swift format lint --strict` with the root .swift-format on the hand-written Swift files: every *.swift
#            file except the paths the root .swift-format-ignore lists (generated code, snapshot data).
#   python   `ruff check` and `ruff format --check` on every *.py file, each with its closest ruff.toml
#            (Scripts/servers/testserver/ruff.toml, Scripts/ruff.toml; a [format] exclude there keeps files from formatting).
#   pytest   the test server's own tests, `python -m pytest Scripts/servers/testserver/tests` (Scripts/servers/testserver/pytest.ini),
#            those of the lint checks' Python, `python -m pytest Scripts/check/lint/tests`, and those of the other scripts'
#            Python helpers, `python -m pytest Scripts/lib/tests Scripts/bench/tests`.
#            Their server runs on ../shared/spec/openapi.yaml and ../shared/fixtures beside the tree; without those
#            these tests skip (and with CI=true the check fails).
#   sizes    hand-written Swift files (the swift check's) at most 800 lines (STYLE.md habit 15). Generated Swift files
#            (GENERATED_DIRS below) at most the generator's line cap in lines below their header and imports, as
#            the generator counts them when it splits files (Generator/Core/Naming/FileLayout.swift): the default of
#            `openai-generator generate --line-cap`, read from `GeneratorConfiguration.defaultLineCap`
#            (Generator/Core/Rendering/SwiftGenerator.swift), which
#            Scripts/regenerate.sh and Scripts/spec/update-spec.sh keep.
#   headers  every Swift file under each of GENERATED_DIRS starts with the generator's two header lines (its name
#            and version, then DO NOT EDIT) exactly as the folder's Manifest.swift does; the manifest's spec-sha256
#            (the spec hash is in the manifest alone) is Spec/lock.json's sha256; the manifest lists exactly the
#            folder's Swift files.
#   portability  no Linux-only spelling outside a branch only Linux compiles (Scripts/check/lint/portability.py, which
#            lists the spellings and the branches), in every Swift file of the tree (hand-written, generated, snapshot
#            data): `Glibc.`, `import Glibc`, `import FoundationNetworking` unguarded, `.rawValue` on a C constant
#            (`SOCK_STREAM.rawValue`), `MSG_NOSIGNAL`, `/proc` and `/dev/shm` paths. Such a spelling stops a build on
#            Apple platforms.
# Each check ends with a line `lint: CHECK: ok|FAILED|SKIPPED (details; seconds)`; a summary of them comes last.
# Environment:
#   CI=true              a check that cannot run here (swift format, ruff, pytest or ../shared/spec missing) fails
#                        instead of being skipped.
#   OPENAI_TEST_PYTHON   the Python for pytest (default Scripts/.venv/bin/python, which Scripts/test.sh's venv step
#                        makes from Scripts/*/*/requirements.txt and requirements-dev.txt).
#
# Exit status: 0 no check has a finding (outside CI, checks that cannot run are skipped); 1 a finding, or with CI=true
#              a check that cannot run; 2 usage error.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# Paths in the linted tree, and the limits.
# The generator's output folders (`generate --list-outputs`' defaults, the DocC articles aside).
GENERATED_DIRS=(Sources/OpenAI/Generated Sources/OpenAIAdmin/Generated Sources/OpenAICatalogue/Generated)
HAND_WRITTEN_MAX_LINES=800                 # STYLE.md habit 15
LINE_CAP_SOURCE="Generator/Core/Rendering/SwiftGenerator.swift" # `static let defaultLineCap = N`: `generate --line-cap`
ALL_CHECKS=(swift python pytest sizes headers portability)

# Prints the usage lines of the header above; exits with the given status (2 unless told).
usage() {
    sed -n '/^# Usage:/,/^# Checks/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit "${1:-2}"
}

SELECTED=" "
# Adds the comma-separated checks to the selection; a name that is not a check is a usage error.
select_checks() {
    local name known
    for name in ${1//,/ }; do
        known=0
        for check in "${ALL_CHECKS[@]}"; do
            [[ "$name" == "$check" ]] && known=1
        done
        if [[ $known -eq 0 ]]; then
            echo "lint: unknown check '$name' (checks: ${ALL_CHECKS[*]})" >&2
            usage
        fi
        SELECTED+="$name "
    done
}

LINT_ROOT="$ROOT"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --only)
            [[ $# -ge 2 ]] || usage
            select_checks "$2"
            shift 2
            ;;
        --only=*)
            select_checks "${1#--only=}"
            shift
            ;;
        --root)
            [[ $# -ge 2 ]] || usage
            LINT_ROOT="$2"
            shift 2
            ;;
        --root=*)
            LINT_ROOT="${1#--root=}"
            shift
            ;;
        -h | --help) usage 0 ;;
        *)
            echo "lint: unknown argument: $1" >&2
            usage
            ;;
    esac
done
if [[ ! -d "$LINT_ROOT" ]]; then
    echo "lint: --root $LINT_ROOT is not a folder" >&2
    exit 2
fi
LINT_ROOT="$(cd "$LINT_ROOT" && pwd -P)"
CHECKS=()
for check in "${ALL_CHECKS[@]}"; do
    if [[ "$SELECTED" == " " || "$SELECTED" == *" $check "* ]]; then
        CHECKS+=("$check")
    fi
done
cd "$LINT_ROOT"

WORK="$(temp_dir openai-lint)"
trap 'rm -rf "$WORK"' EXIT

# --- the files ---------------------------------------------------------------------------------------------------------

# Writes the NUL-separated lists the checks read: $WORK/hand-written (*.swift but what .swift-format-ignore lists),
# $WORK/generated (*.swift under GENERATED_DIRS) and $WORK/python (*.py). Fails on an unreadable ignore file.
tree_files "$LINT_ROOT" >"$WORK/files"
python3 "$ROOT/Scripts/check/lint/file_lists.py" "$WORK" "${GENERATED_DIRS[@]}"

# Prints how many NUL-separated entries a list file holds.
count_entries() { tr -cd '\0' <"$1" | wc -c | tr -d ' '; }

# --- the checks --------------------------------------------------------------------------------------------------------
# Each sets NOTE (what the result line says) and returns non-zero when it has a finding. They run in a condition
# (`check_x || status=$?`), where `set -e` is off: every command's status is checked by hand.

# A check that cannot run here: skipped outside CI (returns 0), a failure with CI=true (returns 1).
skip_check() {
    SKIPPED=1
    NOTE="cannot run: $*"
    skip_unless_ci "lint: $CURRENT" "$@"
}

check_swift() {
    local count status=0 findings
    count="$(count_entries "$WORK/hand-written")"
    if [[ ! -f .swift-format ]]; then
        echo "lint: no .swift-format at the root of $LINT_ROOT (the formatter's configuration)" >&2
        NOTE="no .swift-format"
        return 1
    fi
    if [[ ! -f .swift-format-ignore ]]; then
        echo "lint: no .swift-format-ignore at the root of $LINT_ROOT (generated code would be linted)" >&2
        NOTE="no .swift-format-ignore"
        return 1
    fi
    if ! swift format --version >/dev/null 2>&1; then
        skip_check "swift format not found (it comes with a Swift 6 toolchain: swift on PATH)"
        return
    fi
    if [[ $count -eq 0 ]]; then
        NOTE="no hand-written Swift files"
        return 0
    fi
    echo "+ swift format lint --strict --parallel --configuration .swift-format FILES" \
        "($count *.swift files; not those .swift-format-ignore lists)"
    xargs -0 swift format lint --strict --parallel --configuration .swift-format <"$WORK/hand-written" \
        >"$WORK/swift.out" 2>&1 || status=$?
    cat "$WORK/swift.out"
    findings="$(grep -cE ':[0-9]+:[0-9]+: (error|warning):' "$WORK/swift.out" || true)"
    NOTE="swift format $(swift format --version 2>/dev/null | sed -n 1p), $count files, $findings findings"
    if [[ $status -ne 0 && $findings -eq 0 ]]; then
        NOTE+=", exit status $status"
    fi
    [[ $status -eq 0 && $findings -eq 0 ]]
}

check_python() {
    local ruff count status=0 findings reformat
    count="$(count_entries "$WORK/python")"
    if ! ruff="$(find_tool ruff)"; then
        skip_check "ruff not found in Scripts/.venv (from Scripts/servers/testserver/requirements-dev.txt, installed by" \
            "Scripts/test.sh's venv step) nor on PATH"
        return
    fi
    if [[ $count -eq 0 ]]; then
        NOTE="no Python files"
        return 0
    fi
    # --force-exclude: the files are named on the command line, and the ruff.toml excludes must still apply.
    echo "+ ruff check --force-exclude FILES ($count *.py files)"
    xargs -0 "$ruff" check --force-exclude --output-format concise <"$WORK/python" >"$WORK/ruff-check.out" 2>&1 \
        || status=$?
    cat "$WORK/ruff-check.out"
    echo "+ ruff format --check --force-exclude FILES"
    xargs -0 "$ruff" format --check --force-exclude <"$WORK/python" >"$WORK/ruff-format.out" 2>&1 || status=$?
    cat "$WORK/ruff-format.out"
    findings="$(grep -cE '^[^ ].*:[0-9]+:[0-9]+: ' "$WORK/ruff-check.out" || true)"
    reformat="$(grep -c '^Would reformat: ' "$WORK/ruff-format.out" || true)"
    NOTE="$("$ruff" --version), $count files, $findings findings, $reformat to reformat"
    if [[ $status -ne 0 && $findings -eq 0 && $reformat -eq 0 ]]; then
        NOTE+=", exit status $status"
    fi
    [[ $status -eq 0 ]]
}

check_pytest() {
    local python="${OPENAI_TEST_PYTHON:-$ROOT/Scripts/.venv/bin/python}" status=0 shared
    if ! "$python" -c 'import pytest' >/dev/null 2>&1; then
        skip_check "no pytest for $python (Scripts/servers/testserver/requirements-dev.txt, installed into Scripts/.venv by" \
            "Scripts/test.sh's venv step)"
        return
    fi
    if [[ ! -d Scripts/servers/testserver/tests ]]; then
        echo "lint: no Scripts/servers/testserver/tests in $LINT_ROOT" >&2
        NOTE="no Scripts/servers/testserver/tests"
        return 1
    fi
    # Where Scripts/servers/testserver/tests/conftest.py looks: ../shared beside the tree.
    shared="$(dirname "$LINT_ROOT")/shared"
    if [[ ! -f "$shared/spec/openapi.yaml" ]]; then
        if [[ "${CI:-}" == "true" ]]; then
            echo "lint: $shared/spec/openapi.yaml is missing: the test server's tests would skip, and CI=true" \
                "makes a skipped check a failure." >&2
            NOTE="no ../shared/spec/openapi.yaml"
            return 1
        fi
        echo "lint: $shared/spec/openapi.yaml is missing: the tests that start the server skip."
    fi
    echo "+ ${python#"$ROOT"/} -m pytest -q -rfEs Scripts/servers/testserver/tests"
    "$python" -m pytest -q -rfEs Scripts/servers/testserver/tests 2>&1 | tee "$WORK/pytest.out"
    status="${PIPESTATUS[0]}"
    # The lint checks' own Python (Scripts/check/lint/*.py), from this script's tree.
    echo "+ ${python#"$ROOT"/} -m pytest -q -rfEs -p no:cacheprovider Scripts/check/lint/tests"
    "$python" -m pytest -q -rfEs -p no:cacheprovider "$ROOT/Scripts/check/lint/tests" 2>&1 | tee "$WORK/pytest-lint.out"
    local lint_status="${PIPESTATUS[0]}"
    # The other scripts' Python helpers (Scripts/lib/*.py, Scripts/bench/benchlib.py), in the linted tree.
    echo "+ ${python#"$ROOT"/} -m pytest -q -rfEs -p no:cacheprovider Scripts/lib/tests Scripts/bench/tests"
    "$python" -m pytest -q -rfEs -p no:cacheprovider Scripts/lib/tests Scripts/bench/tests 2>&1 \
        | tee "$WORK/pytest-lib.out"
    local lib_status="${PIPESTATUS[0]}"
    # pytest's last line: "50 passed in 8.58s", "1 failed, 49 passed in ...".
    NOTE="test server $(tail -n 1 "$WORK/pytest.out" | sed -E 's/^=+ //; s/ =+$//; s/ in [0-9.]+s.*$//')"
    NOTE+="; lint scripts $(tail -n 1 "$WORK/pytest-lint.out" | sed -E 's/^=+ //; s/ =+$//; s/ in [0-9.]+s.*$//')"
    NOTE+="; script helpers $(tail -n 1 "$WORK/pytest-lib.out" | sed -E 's/^=+ //; s/ =+$//; s/ in [0-9.]+s.*$//')"
    [[ $status -eq 0 && $lint_status -eq 0 && $lib_status -eq 0 ]]
}

check_sizes() {
    python3 "$ROOT/Scripts/check/lint/sizes.py" "$WORK" "$HAND_WRITTEN_MAX_LINES" "$LINE_CAP_SOURCE" "$WORK/note"
    local status=$?
    NOTE="$(cat "$WORK/note" 2>/dev/null || true)"
    return "$status"
}

check_headers() {
    python3 "$ROOT/Scripts/check/lint/headers.py" "$WORK" "$WORK/note" "${GENERATED_DIRS[@]}"
    local status=$?
    NOTE="$(cat "$WORK/note" 2>/dev/null || true)"
    return "$status"
}

check_portability() {
    local status=0
    # Every Swift file of the tree: hand-written, generated, and the snapshots' expected output (compiled on macOS too).
    python3 "$ROOT/Scripts/check/lint/portability.py" "$WORK/files" >"$WORK/portability.out" || status=$?
    cat "$WORK/portability.out"
    NOTE="$(tail -n 1 "$WORK/portability.out" | sed 's/^portability: //')"
    [[ $status -eq 0 ]]
}

# --- running them ------------------------------------------------------------------------------------------------------

# Prints what a check does, for its heading.
describe() {
    case "$1" in
        swift) echo "swift format lint --strict (hand-written Swift)" ;;
        python) echo "ruff check and ruff format --check (Python)" ;;
        pytest) echo "the test server's and the scripts' tests (pytest Scripts/servers/testserver/tests Scripts/check/lint/tests Scripts/lib/tests Scripts/bench/tests)" ;;
        sizes) echo "file sizes (hand-written Swift at most $HAND_WRITTEN_MAX_LINES lines, generated at most the line cap)" ;;
        headers) echo "generated files' header; the manifest's spec hash against Spec/lock.json" ;;
        portability) echo "no Linux-only spelling outside a Linux branch (Scripts/check/lint/portability.py)" ;;
    esac
}
RESULTS=()
FAILED=()
CURRENT=""
echo "lint: $LINT_ROOT (checks: ${CHECKS[*]}; CI=${CI:-false})"
for CURRENT in "${CHECKS[@]}"; do
    printf '\n==> %s: %s\n' "$CURRENT" "$(describe "$CURRENT")"
    NOTE=""
    SKIPPED=0
    start="$(now)"
    status=0
    "check_$CURRENT" || status=$?
    seconds="$(elapsed_since "$start")"
    if [[ $status -ne 0 ]]; then
        result=FAILED
        FAILED+=("$CURRENT")
    elif [[ $SKIPPED -eq 1 ]]; then
        result=SKIPPED
    else
        result=ok
    fi
    line="$(printf 'lint: %s: %s (%s; %ss)' "$CURRENT" "$result" "$NOTE" "$seconds")"
    RESULTS+=("$line")
    printf '%s\n' "$line"
done

printf '\n==> Summary\n'
printf '%s\n' "${RESULTS[@]}"
if [[ ${#FAILED[@]} -ne 0 ]]; then
    printf '\nlint: FAILED: %s.\n' "${FAILED[*]}" >&2
    exit 1
fi
printf '\nlint: no findings.\n'
