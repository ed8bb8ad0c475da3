#!/usr/bin/env bash
# Proves that the documentation build fails on a broken symbol link and passes without one: copies a module's DocC
# catalog twice into a temporary folder, adds ``NoSuchSymbol`` to one article of one copy, and converts both with
# `Scripts/docs/build-docs.sh --convert-only` against the symbol graphs the last build-docs.sh run extracted (no build, no
# extraction; when there are none, `Scripts/docs/build-docs.sh --module NAME` extracts them first).
#
# Usage: Scripts/docs/test-build-docs.sh [--module NAME]
#   --module NAME   OpenAIRealtime (default: its graph is the smallest, so this is the cheap check) or OpenAI.
# Environment:
#   SCRATCH_PATH=DIR  as for Scripts/docs/build-docs.sh: the symbol graphs are read from DIR/docs/symbol-graphs.
#   KEEP=1            keep the temporary folder (its path is printed).
#
# Exit status: 0 when the broken copy fails naming the article, its line and the symbol, and the untouched copy
# converts without a diagnostic; 1 otherwise; 2 on a usage error.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

usage() {
    sed -n '7,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

MODULE=OpenAIRealtime
while [[ $# -gt 0 ]]; do
    case "$1" in
        --module) [[ $# -ge 2 ]] || usage; MODULE="$2"; shift ;;
        *) usage ;;
    esac
    shift
done
case "$MODULE" in
    OpenAI) ARTICLE=PagingThroughLists.md ;;
    OpenAIRealtime) ARTICLE=Realtime.md ;;
    *) echo "test-build-docs: --module must be OpenAI or OpenAIRealtime (not $MODULE)" >&2; exit 2 ;;
esac
CATALOG="$ROOT/Sources/$MODULE/$MODULE.docc"
GRAPHS="${SCRATCH_PATH:-$ROOT/.build}/docs/symbol-graphs"

START="$(now)"
if [[ ! -f "$GRAPHS/$MODULE/$MODULE.symbols.json" ]]; then
    echo "No symbol graph of $MODULE in $GRAPHS yet: + Scripts/docs/build-docs.sh --module $MODULE"
    "$ROOT/Scripts/docs/build-docs.sh" --module "$MODULE"
fi

WORK="$(temp_dir test-build-docs)"
cleanup() {
    if [[ "${KEEP:-0}" == "1" ]]; then echo "Kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

cp -R "$CATALOG" "$WORK/untouched.docc"
cp -R "$CATALOG" "$WORK/broken.docc"
# shellcheck disable=SC2016 # DocC's double-backtick link syntax, not a command substitution
BROKEN_LINK='``NoSuchSymbol``'
printf '\nA link to a symbol that does not exist: %s.\n' "$BROKEN_LINK" >>"$WORK/broken.docc/$ARTICLE"
LINE="$(grep -n 'NoSuchSymbol' "$WORK/broken.docc/$ARTICLE" | cut -d: -f1)"

FAILURES=0
fail() {
    printf 'test-build-docs: FAIL: %s\n' "$*" >&2
    FAILURES=$((FAILURES + 1))
}

# Converts the copy $WORK/NAME.docc into $WORK/NAME-out against the extracted graphs, shows its output indented
# (kept in $WORK/NAME.log) and sets `status` to its exit status: convert_copy NAME
convert_copy() {
    status=0
    "$ROOT/Scripts/docs/build-docs.sh" --convert-only --module "$MODULE" --catalog "$WORK/$1.docc" \
        --output "$WORK/$1-out" >"$WORK/$1.log" 2>&1 || status=$?
    sed 's/^/    | /' "$WORK/$1.log"
}

printf '==> A catalog with %s in %s (line %s) must fail\n' "$BROKEN_LINK" "$ARTICLE" "$LINE"
convert_copy broken
if [[ $status -eq 0 ]]; then
    fail "the conversion with a broken link exited 0"
fi
# --warnings-as-errors: DocC reports the unresolved link, a warning, with the severity "error".
if ! grep -Eq "$ARTICLE:$LINE:[0-9]+: (warning|error): .*NoSuchSymbol" "$WORK/broken.log"; then
    fail "the output does not name $ARTICLE:$LINE and NoSuchSymbol"
fi
if ! grep -Eq "^$MODULE: diagnostics: 1 (warning|error)$" "$WORK/broken.log"; then
    fail "the broken link is not the one and only diagnostic"
fi

echo "==> The untouched copy must pass"
convert_copy untouched
if [[ $status -ne 0 ]]; then
    fail "the untouched catalog failed (exit status $status)"
fi
if [[ ! -d "$WORK/untouched-out/$MODULE.doccarchive" ]]; then
    fail "the untouched catalog left no archive"
fi

if [[ $FAILURES -gt 0 ]]; then
    printf '\ntest-build-docs: %d check(s) failed (%ss).\n' "$FAILURES" "$(elapsed_since "$START")" >&2
    exit 1
fi
printf '\ntest-build-docs: a broken symbol link fails the documentation build, naming %s:%s;' "$ARTICLE" "$LINE"
printf ' the untouched catalog passes (%ss).\n' "$(elapsed_since "$START")"
