#!/usr/bin/env bash
# Self-test of Scripts/check/lint.sh: each check fails on a violation planted for it and names the file, and the untouched
# tree passes. It runs in a temporary copy of the repository (the files lint.sh sees: tracked, and untracked but not
# ignored), beside a `shared` link to ../shared, so the checkout is never touched; the copy is removed on exit.
#
# Cases (each plants its violation in the copy, runs `lint.sh --root COPY --only CHECK`, then puts the copy back):
#   baseline        the untouched copy: every check passes (`lint.sh --root COPY`);
#   swift           a badly formatted line at the end of Package.swift, a generated file and a snapshot's expected
#                   output: fails naming Package.swift and neither of the others (.swift-format-ignore lists their
#                   folders);
#   python          an unused import in Scripts/servers/testserver/router.py: fails naming it;
#   pytest          a copy of a test in Scripts/servers/testserver/tests/test_structured_outputs.py expecting the wrong
#                   result: fails naming the file;
#   sizes           a hand-written Swift file of 801 lines fails naming it (one of 800 lines passes); a generated file
#                   one line over the generator's line cap (the cap lint.sh prints) fails naming it;
#   headers         a generated file without its first header line fails naming it; a Spec/lock.json whose sha256
#                   is not the manifest's fails naming Sources/OpenAI/Generated/Manifest.swift;
#   portability     each Linux-only spelling (`Glibc.close`, `import Glibc` with and without an attribute, an
#                   unguarded `import FoundationNetworking`, `SOCK_STREAM.rawValue`, `MSG_NOSIGNAL`, `/proc/self/fd`,
#                   `/dev/shm`) planted in a hand-written file outside any `#if`, and `Glibc.` or `import Glibc` in
#                   branches an Apple platform also compiles (the `#else` of `os(macOS)` alone, `os(Linux) ||
#                   os(macOS)`, `! os(Linux)`, `!(os(Linux))`), each in a file of its own, all in one run: the run
#                   fails naming every file. The same spellings in
#                   Linux branches of every kind, in comments, and a `"*/*"` string before them, pass.
# To stay cheap, the copy's Scripts/servers/testserver/tests keeps only conftest.py and test_structured_outputs.py (they start
# no server); the whole suite runs in Scripts/check/lint.sh on the checkout (Scripts/test.sh's Lint step).
#
# Usage: Scripts/check/test-lint.sh            (no arguments; works from any directory)
# Environment:
#   CI=true   passed on to lint.sh: a check whose tool is missing fails there (so here); outside CI such a case is
#             reported as skipped (not passed).
#
# Exit status: 0 every case behaved (or was skipped outside CI); 1 a case did not; 2 usage error.
set -euo pipefail

if [[ $# -ne 0 ]]; then
    echo "usage: Scripts/check/test-lint.sh   (takes no arguments)" >&2
    exit 2
fi

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

LINT="$ROOT/Scripts/check/lint.sh"
WORK="$(temp_dir openai-test-lint)"
trap 'rm -rf "$WORK"' EXIT
COPY="$WORK/repo"
LOGS="$WORK/logs"
mkdir -p "$COPY" "$LOGS" "$WORK/saved"
TOTAL_START="$(now)"

# --- the copy ----------------------------------------------------------------------------------------------------------

start="$(now)"
tree_files "$ROOT" | tar -C "$ROOT" --null -T - -cf - | tar -C "$COPY" -xf -
if [[ -d "$ROOT/../shared" ]]; then
    ln -s "$(cd "$ROOT/../shared" && pwd -P)" "$WORK/shared"
fi
find "$COPY/Scripts/servers/testserver/tests" -name 'test_*.py' ! -name test_structured_outputs.py -delete
echo "test-lint: copy $COPY ($(find "$COPY" -type f | wc -l | tr -d ' ') files, $(du -sk "$COPY" | cut -f1) KiB," \
    "made in $(elapsed_since "$start")s); Scripts/servers/testserver/tests trimmed to conftest.py and test_structured_outputs.py"

# --- helpers -----------------------------------------------------------------------------------------------------------

FAILURES=0
TIMES=()
ok() { printf '  ok    %s\n' "$*"; }
# A case that could not run here (not counted as passed).
skip() { printf '  skip  %s\n' "$*"; }
fail() {
    printf '  FAIL  %s\n' "$*"
    FAILURES=$((FAILURES + 1))
}
# Shows the end of a lint log under a failed case.
show_log() { tail -n 25 "$1" | sed 's/^/        | /'; }

CASE=""
CASE_START=""
# begin ID TITLE: starts a case (ID names its logs and its line in the summary).
begin() {
    CASE="$1"
    CASE_START="$(now)"
    printf '\n==> %s: %s\n' "$1" "$2"
}
finish() {
    restore
    TIMES+=("$(printf '%8ss  %s' "$(elapsed_since "$CASE_START")" "$CASE")")
}

# Runs lint.sh on the copy: lint LOG [--only CHECKS]. Returns lint's exit status.
lint() {
    local log="$1" status=0
    shift
    "$LINT" --root "$COPY" "$@" >"$log" 2>&1 || status=$?
    return "$status"
}

# Saves the copy's files (paths relative to it) before a case changes them: plant PATH...; restore puts them back and
# removes the ones that did not exist.
PLANTED=()
plant() {
    local path
    for path in "$@"; do
        PLANTED+=("$path")
        if [[ -e "$COPY/$path" ]]; then
            mkdir -p "$WORK/saved/$(dirname "$path")"
            cp -p "$COPY/$path" "$WORK/saved/$path"
        fi
    done
}
restore() {
    local path
    for path in ${PLANTED[@]+"${PLANTED[@]}"}; do
        if [[ -e "$WORK/saved/$path" ]]; then
            cp -p "$WORK/saved/$path" "$COPY/$path"
            rm -f "$WORK/saved/$path"
        else
            rm -f "$COPY/$path"
        fi
    done
    PLANTED=()
}

# expect_failure CHECK PATH DESCRIPTION: `lint.sh --only CHECK` on the copy exits 1 and names PATH (as `PATH:`, the
# way every check starts a finding). A check lint.sh skipped (its tool missing, outside CI) is reported as skipped.
expect_failure() {
    local check="$1" path="$2" description="$3" log status=0
    log="$LOGS/$CASE.log"
    lint "$log" --only "$check" || status=$?
    if grep -q "^lint: $check: SKIPPED" "$log"; then
        skip "$description: lint.sh skipped its $check check here ($(grep "^lint: $check: SKIPPED" "$log" | sed -n 1p))"
    elif [[ $status -eq 1 ]] && grep -qF -- "$path:" "$log"; then
        ok "$description: --only $check fails (exit status 1) naming $path"
    else
        fail "$description: --only $check exit status $status, expected 1 with a finding naming $path"
        show_log "$log"
    fi
}

# expect_failures CHECK DESCRIPTION PATH...: one run of `lint.sh --only CHECK` on the copy exits 1 and names each PATH
# (each holds one planted violation: one run instead of one per case).
expect_failures() {
    local check="$1" description="$2" log status=0 path
    shift 2
    log="$LOGS/$CASE.log"
    lint "$log" --only "$check" || status=$?
    if grep -q "^lint: $check: SKIPPED" "$log"; then
        skip "$description: lint.sh skipped its $check check here ($(grep "^lint: $check: SKIPPED" "$log" | sed -n 1p))"
        return
    fi
    for path in "$@"; do
        if [[ $status -eq 1 ]] && grep -qF -- "$path:" "$log"; then
            ok "$(cat "$COPY/$path.case"): --only $check fails (exit status 1) naming $path"
        else
            fail "$(cat "$COPY/$path.case"): --only $check exit status $status, expected 1 with a finding naming $path"
            show_log "$log"
        fi
    done
}

# expect_pass CHECK DESCRIPTION: `lint.sh --only CHECK` on the copy exits 0.
expect_pass() {
    local check="$1" description="$2" log status=0
    log="$LOGS/$CASE-pass.log"
    lint "$log" --only "$check" || status=$?
    if [[ $status -eq 0 ]]; then
        ok "$description: --only $check passes"
    else
        fail "$description: --only $check exit status $status, expected 0"
        show_log "$log"
    fi
}

# Appends lines `// line N` to a file until it has COUNT lines in all: pad_to FILE COUNT
pad_to() {
    local have=0
    if [[ -f "$1" ]]; then
        have="$(wc -l <"$1")"
    fi
    for ((line = have + 1; line <= $2; line++)); do
        printf '// line %d\n' "$line"
    done >>"$1"
}

BAD_SWIFT='let  lintSelfTest=[1,2 ]'
GENERATED="Sources/OpenAI/Generated"
# A generated types file and a snapshot's expected output, the first by name (as the tree has them now).
GENERATED_FILE="$(cd "$COPY" && find "$GENERATED/Types" -name '*.swift' | LC_ALL=C sort | sed -n 1p)"
SNAPSHOT_FILE="$(cd "$COPY" && find Tests/OpenAIGeneratorTests/Snapshots -path '*/expected/*.swift' 2>/dev/null | LC_ALL=C sort | sed -n 1p)"
if [[ -z "$GENERATED_FILE" || -z "$SNAPSHOT_FILE" ]]; then
    echo "test-lint: FAILED: the copy has no $GENERATED/Types/*.swift or Tests/OpenAIGeneratorTests/Snapshots/*/expected/*.swift" >&2
    exit 1
fi

# --- the cases ---------------------------------------------------------------------------------------------------------

begin baseline "the untouched copy passes every check"
status=0
lint "$LOGS/baseline.log" || status=$?
sed -n '/^==> Summary$/,$p' "$LOGS/baseline.log" | grep '^lint: [a-z]*: ' | grep -v '^lint: [a-z]*: ok' \
    | sed 's/^/  note  /' || true
if [[ $status -eq 0 ]]; then
    ok "lint.sh --root COPY: exit status 0 ($(sed -n '/^==> Summary$/,$p' "$LOGS/baseline.log" | grep -c '^lint: [a-z]*: ok') checks ok)"
else
    fail "lint.sh --root COPY: exit status $status, expected 0 (the tree has findings of its own: see Scripts/check/lint.sh)"
    grep -v '^lint: \|^==> \|^+ \|^$' "$LOGS/baseline.log" | sed -n 1,20p | sed 's/^/        | /'
fi
LINE_CAP="$(sed -n 's/^generated line cap: \([0-9][0-9]*\) .*/\1/p' "$LOGS/baseline.log" | sed -n 1p)"
finish

begin swift "a badly formatted line in a hand-written file is named; in generated code and snapshot data it is not"
plant Package.swift "$GENERATED_FILE" "$SNAPSHOT_FILE"
for path in Package.swift "$GENERATED_FILE" "$SNAPSHOT_FILE"; do
    printf '%s\n' "$BAD_SWIFT" >>"$COPY/$path"
done
expect_failure swift Package.swift "Package.swift, a generated file and a snapshot file end with \`$BAD_SWIFT\`"
if ! grep -q '^lint: swift: SKIPPED' "$LOGS/swift.log"; then
    if grep -qF -e "$GENERATED_FILE:" -e "$SNAPSHOT_FILE:" "$LOGS/swift.log"; then
        fail "a file in a folder .swift-format-ignore lists was linted"
        show_log "$LOGS/swift.log"
    else
        ok "neither $GENERATED_FILE nor $SNAPSHOT_FILE is named (.swift-format-ignore lists their folders)"
    fi
fi
finish

begin python "a ruff violation in the test server"
plant Scripts/servers/testserver/router.py
printf '\n\nimport os\n' >>"$COPY/Scripts/servers/testserver/router.py"
expect_failure python Scripts/servers/testserver/router.py "an unused \`import os\` at the end of router.py"
finish

begin pytest "a failing assertion in a copy of a test"
plant Scripts/servers/testserver/tests/test_structured_outputs.py
cat >>"$COPY/Scripts/servers/testserver/tests/test_structured_outputs.py" <<'PY'


def test_lint_self_test_planted_failure() -> None:
    assert structured_outputs.problems(chat(STRICT_OK, strict=True)) == ["planted by Scripts/check/test-lint.sh"]
PY
expect_failure pytest test_structured_outputs.py "test_a_strict_schema_that_follows_the_rules_passes, copied with a wrong expectation"
finish

begin sizes "a hand-written Swift file over 800 lines, a generated file over the line cap"
OVERSIZED="Sources/OpenAI/LintSelfTestOversized.swift"
plant "$OVERSIZED"
pad_to "$COPY/$OVERSIZED" 800
expect_pass sizes "$OVERSIZED with 800 lines"
pad_to "$COPY/$OVERSIZED" 801
expect_failure sizes "$OVERSIZED" "$OVERSIZED with 801 lines"
restore
if [[ -z "$LINE_CAP" ]]; then
    fail "no generated line cap in the baseline's output (lint.sh's sizes check prints it)"
else
    plant "$GENERATED_FILE"
    # Every line it has, plus the cap's worth of lines: its body is then over the cap whatever its header.
    pad_to "$COPY/$GENERATED_FILE" "$(($(wc -l <"$COPY/$GENERATED_FILE") + LINE_CAP))"
    expect_failure sizes "$GENERATED_FILE" "$GENERATED_FILE grown by $LINE_CAP lines (the cap)"
fi
finish

begin headers "a generated file without its header, a lock that is not the manifest's spec"
plant "$GENERATED_FILE"
sed -i.bak '1d' "$COPY/$GENERATED_FILE" && rm -f "$COPY/$GENERATED_FILE.bak"
expect_failure headers "$GENERATED_FILE" "$GENERATED_FILE without its first line"
restore
plant Spec/lock.json
sed -E -i.bak 's/"sha256": "[0-9a-f]{64}"/"sha256": "'"$(printf '0%.0s' {1..64})"'"/' "$COPY/Spec/lock.json" \
    && rm -f "$COPY/Spec/lock.json.bak"
expect_failure headers "$GENERATED/Manifest.swift" "Spec/lock.json with sha256 0000…"
finish

begin portability "Linux-only spellings outside a Linux branch"
PORTABLE="Sources/OpenAIRuntime/LintSelfTestPortability.swift"
# Each case, in a file of its own (one lint run for all): a Linux-only spelling outside any branch, or in a branch that
# an Apple platform also compiles. FILE.case holds the case's description (not a Swift file: lint.sh does not read it).
cases=()
for planted in 'let fd = Glibc.close(3)' 'import Glibc' '@preconcurrency import Glibc' 'import FoundationNetworking' \
    'let kind = Int32(SOCK_STREAM.rawValue)' 'let flags = MSG_NOSIGNAL' \
    'let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")' \
    'let shm = URL(fileURLWithPath: "/dev/shm/openai")' \
    $'#if os(macOS)\n#else\n    import Glibc\n#endif' \
    $'#if os(Linux) || os(macOS)\n    let fd = Glibc.close(3)\n#endif' \
    $'#if ! os(Linux)\n    let fd = Glibc.close(3)\n#endif' \
    $'#if !(os(Linux))\n    let fd = Glibc.close(3)\n#endif'; do
    path="${PORTABLE%.swift}${#cases[@]}.swift"
    plant "$path" "$path.case"
    printf 'import Foundation\n\n%s\n' "$planted" >"$COPY/$path"
    printf '%s' "\`${planted//$'\n'/ ⏎ }\`" >"$COPY/$path.case"
    cases+=("$path")
done
expect_failures portability "Linux-only spellings" "${cases[@]}"
restore
plant "$PORTABLE"
cat >"$COPY/$PORTABLE" <<'SWIFT'
import Foundation

// Glibc.close(3), SOCK_STREAM.rawValue and "/proc/self/fd" in a comment; "*/*" in a string opens no comment.
let accept = "*/*"
#if os(Linux)
    import Glibc
    let kind = Int32(SOCK_STREAM.rawValue)
#endif
#if canImport(Glibc)
    let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
#endif
#if (os(Linux) && arch(x86_64)) || canImport(Musl)
    let flags = MSG_NOSIGNAL
#endif
#if !canImport(Darwin) && canImport(Foundation)
    let closed = Glibc.close(3)
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Darwin)
    let shm = ""
#else
    let shm = "/dev/shm/openai"
#endif
#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
#elseif os(Windows)
#else
    let musl = Musl.close(3)
#endif
SWIFT
expect_pass portability "the same spellings inside Linux branches and in a comment"
finish

# --- summary -----------------------------------------------------------------------------------------------------------

printf '\n==> Summary\n'
printf '%s\n' "${TIMES[@]}"
printf '%8ss  total\n' "$(elapsed_since "$TOTAL_START")"
if [[ $FAILURES -ne 0 ]]; then
    printf '\ntest-lint: FAILED: %d check(s) failed.\n' "$FAILURES"
    exit 1
fi
printf '\ntest-lint: all checks passed.\n'
