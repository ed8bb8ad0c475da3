#!/usr/bin/env bash
# Runs the test executable `swift build --build-tests` made (Linux) as two processes at once, one per core, and writes
# their output to LOG one lane after the other. Lane 1 runs the test classes TEST_LANE_1 names, lane 2 every other one
# (a new test target lands there). Each lane is one XCTest process given its test classes, in the order the executable
# lists them, as `swift test` runs them; only the split is ours. On 2 cores the suite takes about 117 s instead of
# 210 s in one process, because most of it waits on local servers, timeouts and child processes.
#
# Usage: Scripts/lib/test-lanes.sh EXECUTABLE LOG
#   EXECUTABLE  the test executable (`swift build --show-bin-path`/swift-openaiPackageTests.xctest)
#   LOG         both lanes' output, for Scripts/lib/count-tests.sh
# Environment:
#   TEST_LANES_FILTER=ERE  run only the test classes whose `Target.Class` the extended regular expression matches
#                          somewhere, as `swift test --filter` would select them (default: every class)
#   TEST_LANE_1=ERE        the classes of lane 1: those where the expression matches the whole `Target.Class`, or the
#                          whole target; so it names targets (`OpenAIWebSocketTests`) or classes
#                          (`OpenAISDKTests\.StreamEndingTests`). Default: the generator's, WebSocket and Realtime
#                          targets. A name that no longer matches moves its class to lane 2: the lanes balance worse,
#                          every test still runs.
# Prints one line per lane: `lane N: TARGETS: C classes, S s, exit status X`.
# Exit status: the first failing lane's; 1 when the executable cannot list its tests or lists none (of the filter's),
# or when the lanes together reported fewer test cases than it lists (a lane that crashed); 2 on a usage error.
set -euo pipefail

# The generator's tests (about 85 s) and the transports' (about 15 s) balance the SDK's, the runtime's and the CLI's.
LANE_1="${TEST_LANE_1:-OpenAIGeneratorTests|OpenAIWebSocketTests|OpenAISDKRealtimeTests}"
FILTER="${TEST_LANES_FILTER:-}"

executable="${1:?usage: test-lanes.sh EXECUTABLE LOG}"
log="${2:?usage: test-lanes.sh EXECUTABLE LOG}"
if [[ ! -f "$executable" || ! -x "$executable" ]]; then
    echo "test-lanes: $executable is not an executable file" >&2
    exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/openai-test-lanes.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# `Target.Class/test` per line (XCTest prints a heading and a blank line first).
list_status=0
"$executable" --list-tests >"$work/listing" 2>&1 || list_status=$?
if [[ $list_status -ne 0 ]]; then
    echo "test-lanes: $executable --list-tests failed (exit status $list_status):" >&2
    tail -n 20 "$work/listing" >&2
    exit 1
fi
{ grep -E '^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*/' "$work/listing" || true; } >"$work/tests"
if [[ -n "$FILTER" ]]; then
    # A class is selected as a whole: its tests stay in when its `Target.Class` matches.
    # (From the environment, where it is whenever it is set: `awk -v` processes escape sequences, and gawk reads `\.`
    # there as `.`.)
    awk '{ name = $0; sub(/\/.*/, "", name) } name ~ ENVIRON["TEST_LANES_FILTER"]' "$work/tests" >"$work/selected"
    mv "$work/selected" "$work/tests"
fi
if [[ ! -s "$work/tests" ]]; then
    echo "test-lanes: $executable --list-tests lists no test${FILTER:+ of the classes TEST_LANES_FILTER selects}" >&2
    exit 1
fi
listed="$(wc -l <"$work/tests")"
# `Target.Class` per line, in the listed order.
sed -E 's|/.*||' "$work/tests" | awk '!seen[$0]++' >"$work/classes"
grep -E "^($LANE_1)(\\.|$)" "$work/classes" >"$work/lane1" || true
grep -Ev "^($LANE_1)(\\.|$)" "$work/classes" >"$work/lane2" || true

run_lane() {
    local lane="$1" start status=0
    start="$(date +%s)"
    if [[ -s "$work/lane$lane" ]]; then
        "$executable" "$(paste -sd, "$work/lane$lane")" >"$work/lane$lane.log" 2>&1 || status=$?
    fi
    printf '%s %s\n' "$status" "$(($(date +%s) - start))" >"$work/lane$lane.result"
}

run_lane 1 &
lane1_pid=$!
run_lane 2
wait "$lane1_pid"

status=0
: >"$log"
for lane in 1 2; do
    read -r lane_status seconds <"$work/lane$lane.result"
    targets="$(sed -E 's|\..*||' "$work/lane$lane" | awk '!seen[$0]++' | paste -sd' ')"
    {
        printf '==> lane %s: %s\n' "$lane" "$targets"
        if [[ -f "$work/lane$lane.log" ]]; then cat "$work/lane$lane.log"; fi
    } >>"$log"
    echo "lane $lane: $targets: $(wc -l <"$work/lane$lane") classes, $seconds s, exit status $lane_status"
    if [[ "$status" -eq 0 && "$lane_status" -ne 0 ]]; then
        status="$lane_status"
    fi
done

reported="$(grep -cE "^Test Case '[^']+' (passed|failed|skipped) \\(" "$log" || true)"
if [[ "$reported" -lt "$listed" ]]; then
    echo "test-lanes: the lanes reported $reported test cases of the $listed the executable lists" >&2
    if [[ "$status" -eq 0 ]]; then
        status=1
    fi
fi
exit "$status"
