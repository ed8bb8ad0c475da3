#!/usr/bin/env bash
# Runs the concurrency-heavy tests under ThreadSanitizer and the parser tests under AddressSanitizer, each in a debug
# build of its own (SwiftPM `--sanitize`, in .build-tsan / .build-asan): a data race or a memory error fails the run.
#
# ThreadSanitizer: tool runners (concurrent tool calls), stream close, cancel and back-pressure, chunked and spooled
# uploads, downloads, timeouts, and realtime sessions and WebSockets against their local servers.
# AddressSanitizer: server-sent events, partial JSON, lenient decoding, error envelopes, webhooks, WebSocket frames,
# multipart encoding.
#
# On Linux the tests run in two lanes at once (Scripts/lib/test-lanes.sh, one XCTest process per core, given the same
# classes `swift test --filter` would run); elsewhere, or with TEST_LANES=1, `swift test` runs them in one process.
# Each sanitizer's lane 1 is its slowest classes. Measured on 2 cores (the time of each class's cases, in one process):
# ThreadSanitizer's two slowest take 29 s of 62 s, and its two lanes 37 s of wall time instead of 67 s;
# AddressSanitizer's SSEFixtureTests takes 65 s of 84 s, and its two lanes 63 s instead of 84 s.
#
# Usage: Scripts/check/sanitize.sh [thread|address]...     (default: both)
# Environment:
#   OPENAI_TEST_PYTHON   the test servers' Python (default Scripts/.venv/bin/python)
#   TEST_LANES=1         run the tests in one `swift test` process
#
# Ends with one line per sanitizer: `sanitize: thread: N tests, 0 reports, B s build, T s tests`.
# Exit status: 0 when every test passed with no sanitizer report; 1 otherwise; 2 on a usage error.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

THREAD_FILTER='OpenAIRuntimeTests\.(StreamBackPressureTests|MultipartStreamingTests)|OpenAISDKTests\.(ChatToolRunnerTests|ResponsesToolRunnerTests|ToolIsolationTests|EventSequenceTests|StreamEndingTests|StreamingServerTests|StreamingBehaviorTests|UploadChunkedTests|SpooledUploadTests|DirectUploadTests|DirectTransferTests|RedirectTests|FileDownloadTests|TimeoutTests|ResponsesBackgroundStreamTests)|OpenAIWebSocketTests\.WebSocketIntegrationTests|OpenAISDKRealtimeTests\.(RealtimeSessionIntegrationTests|RealtimeSessionLifetimeTests)'
# Lane 1 of each (test-lanes.sh's TEST_LANE_1): the classes that hold about half of its tests' time, or more.
THREAD_LANE_1='OpenAISDKTests\.(StreamEndingTests|FileDownloadTests)'
ADDRESS_LANE_1='OpenAIRuntimeTests\.SSEFixtureTests'
ADDRESS_FILTER='OpenAIRuntimeTests\.(SSEParserTests|SSEFixtureTests|SSEStreamTests|PartialJSONDecoderTests|WebhookHardeningTests|MultipartEncodingTests|JSONValueTests)|OpenAISDKTests\.(LenientDecodingTests|ErrorEnvelopeTests|ErrorBodyBoundTests|RecordedResponseDecodingTests)|OpenAIWebSocketTests\.WebSocketFrameParserTests|OpenAISDKRealtimeTests\.RealtimeFixtureDecodingTests'

sanitizers=("$@")
if [[ ${#sanitizers[@]} -eq 0 ]]; then
    sanitizers=(thread address)
fi
export OPENAI_TEST_PYTHON="${OPENAI_TEST_PYTHON:-$ROOT/Scripts/.venv/bin/python}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"

summary=()
failed=0
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        thread) filter="$THREAD_FILTER" lane_1="$THREAD_LANE_1" scratch=".build-tsan" ;;
        address) filter="$ADDRESS_FILTER" lane_1="$ADDRESS_LANE_1" scratch=".build-asan" ;;
        *)
            echo "sanitize: unknown sanitizer '$sanitizer' (thread or address)" >&2
            exit 2
            ;;
    esac
    log="$scratch/sanitize-test.log"
    mkdir -p "$scratch"
    # With an index store: SwiftPM's XCTest discovery on Linux reads it (`--disable-index-store` fails a cold build
    # with "index store path does not exist"). Only the tests' product: none of the tests run here starts one of the
    # package's executables, so they are not built (about 8 s of a 150 s cold build).
    echo "==> $sanitizer: swift build --product $TEST_PRODUCT --sanitize=$sanitizer --scratch-path $scratch"
    start="$(now)"
    if ! swift build --product "$TEST_PRODUCT" --sanitize="$sanitizer" --scratch-path "$scratch" \
        >"$scratch/sanitize-build.log" 2>&1; then
        grep -E 'error:' "$scratch/sanitize-build.log" | sort -u | sed 's/^/    /' || tail -n 30 "$scratch/sanitize-build.log"
        echo "sanitize: $sanitizer: the build failed" >&2
        failed=1
        continue
    fi
    build_seconds="$(elapsed_since "$start")"
    start="$(now)"
    status=0
    if executable="$(test_lanes_executable "$(swift build --scratch-path "$scratch" --show-bin-path)")"; then
        echo "==> $sanitizer: Scripts/lib/test-lanes.sh, the classes of '$filter'"
        TEST_LANES_FILTER="$filter" TEST_LANE_1="$lane_1" "$ROOT/Scripts/lib/test-lanes.sh" "$executable" "$log" ||
            status=$?
    else
        echo "==> $sanitizer: swift test --filter '$filter'"
        swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --filter "$filter" >"$log" 2>&1 ||
            status=$?
    fi
    test_seconds="$(elapsed_since "$start")"
    reports="$(grep -c -E '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)' "$log" || true)"
    tests="$(grep -cE "^Test Case '[^']+' (passed|failed|skipped) \\(" "$log" || true)"
    if [[ $reports -ne 0 ]]; then
        echo "sanitize: $sanitizer: $reports report(s); the first:" >&2
        awk '/^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)/ { shown = 1 } shown && n++ < 60' "$log" >&2
        failed=1
    fi
    if [[ $status -ne 0 ]]; then
        echo "sanitize: $sanitizer: the tests failed (exit status $status); failures:" >&2
        grep -E 'error: |failed \(' "$log" | head -n 30 >&2 || tail -n 30 "$log" >&2
        failed=1
    fi
    summary+=("sanitize: $sanitizer: ${tests:-0} tests, $reports reports, ${build_seconds} s build, ${test_seconds} s tests")
done
printf '%s\n' "${summary[@]}"
exit "$failed"
