#!/usr/bin/env bash
# Fuzzes every parser of bytes from the network or from a spec with libFuzzer (Fuzz/, one folder
# per target, each an `LLVMFuzzerTestOneInput` function that also checks cheap invariants):
#   SSE                  server-sent event framing (ServerSentEventParser), against WHATWG's reading
#   PartialJSON          the partial-JSON decoder, against JSONDecoder; the depth limit
#   JSON                 the SDK's JSON decoder and writer (OrderedJSONDecoder), against JSONDecoder; round trips
#   WebSocketFrames      RFC 6455 framing (WebSocketFrameParser) and UTF-8 validation
#   WebhookHeaders       WebhookVerifier on webhook-id / webhook-timestamp / webhook-signature
#   ErrorBody            error replies (ErrorBody, OpenAIError.fromResponse) and their redaction
#   YAMLSpec             the generator on a spec file's bytes: libyaml, the loader, translate, render
#   ResponseStreamEvent, Response, RealtimeServerEvent, ChatCompletion
#                        the generated types decoded leniently and strictly
#
# Builds the targets with `swiftc -sanitize=fuzzer,address` (Linux; macOS's Xcode toolchain has no
# libFuzzer) into .build-fuzz: the runtime (-O) and the generator modules (-O) and the OpenAI
# module (-Onone: it is 120,000 lines) as static libraries, then one executable per target. Each
# step is skipped when a hash of its command and input files matches the last build's.
# Seeds are made once into .build-fuzz/seeds/TARGET (delete the folder to make them again) from the
# recorded traffic in ../shared/fixtures (read in place) and the generator's snapshot specs; what
# libFuzzer finds is kept in .build-fuzz/corpus/TARGET for the next run.
#
# Usage: Scripts/check/fuzz.sh SECONDS [TARGET...]   (all targets by default; SECONDS 0 only builds)
# Environment:
#   BUILD_LOCK=FILE      run each compiler command under `flock FILE` (a machine shared with other builds)
#   FUZZ_BUILD=quick     compile every module and target at -Onone: the build takes about a third of the time, each
#                        input runs slower (for short runs such as Scripts/test.sh's; the default optimizes all but
#                        the OpenAI module)
#   FUZZ_JOBS=N          fuzz N targets at once (default 1; each libFuzzer process uses one core)
#   FUZZ_OPENAI_BUILD=DIR  a SwiftPM debug build's folder (`swift build --show-bin-path`) whose OpenAI module the
#                        targets of generated types link as it is, instead of compiling it for fuzzing (about 2 min).
#                        Its code then gives libFuzzer no coverage: the search is guided by the runtime's decoding
#                        helpers and the target's own code only (in one 5 s run of Response: 927 coverage points
#                        against 9,103). For short runs on a fresh build, such as Scripts/test.sh's.
#   FUZZ_RSS_LIMIT_MB=N  libFuzzer's -rss_limit_mb (default 2048)
#   FIXTURES=DIR         the recorded traffic (default ../shared/fixtures beside the repository)
# Prints one line per target:
#   fuzz_target: NAME execs=N crashes=N
# and, for a target that crashed, the input that did (.build-fuzz/crashes/TARGET/crash-…: replay it
# with `.build-fuzz/bin/TARGET FILE`) and the first lines of libFuzzer's report.
# Exit status: 0 no target crashed; 1 a target crashed (or leaked, timed out, ran out of memory);
# 2 usage error, or a build failed.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

ALL_TARGETS=(SSE PartialJSON JSON WebSocketFrames WebhookHeaders ErrorBody YAMLSpec
    ResponseStreamEvent Response RealtimeServerEvent ChatCompletion)
SCRATCH=".build-fuzz"
FIXTURES="${FIXTURES:-$ROOT/../shared/fixtures}"
SANITIZE=("-sanitize=fuzzer,address" -parse-as-library -swift-version 6 -package-name openai -gline-tables-only)
OPTIMIZE="-O"
case "${FUZZ_BUILD:-}" in
    "") ;;
    quick) OPTIMIZE="-Onone" ;;
    *)
        echo "fuzz: FUZZ_BUILD is 'quick' or unset, not '$FUZZ_BUILD'" >&2
        exit 2
        ;;
esac
OPENAI_BUILD="${FUZZ_OPENAI_BUILD:-}"
if [[ -n "$OPENAI_BUILD" && ! -d "$OPENAI_BUILD/OpenAI.build" ]]; then
    echo "fuzz: FUZZ_OPENAI_BUILD=$OPENAI_BUILD holds no OpenAI.build: build first (swift build)" >&2
    exit 2
fi
JOBS="${FUZZ_JOBS:-1}"
if [[ ! "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz: FUZZ_JOBS wants a positive integer, not '$JOBS'" >&2
    exit 2
fi

usage() {
    sed -n '/^# Usage:/,/^# Exit status/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

[[ $# -ge 1 && "$1" =~ ^[0-9]+$ ]] || usage
seconds="$1"
shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${ALL_TARGETS[@]}")
for target in "${targets[@]}"; do
    [[ " ${ALL_TARGETS[*]} " == *" $target "* ]] || { echo "fuzz: unknown target $target" >&2; usage; }
done
if [[ "$(uname -s)" != "Linux" ]]; then
    echo "fuzz: libFuzzer (swiftc -sanitize=fuzzer) needs the Linux toolchain" >&2
    exit 2
fi
mkdir -p "$SCRATCH"/{lib,modules,bin,stamps,logs}

# --- building --------------------------------------------------------------------------------------------------------

# Runs a compiler command, holding `flock $BUILD_LOCK` when it is set; its output goes to the step's log. Sets
# COMPILE_SECONDS to its time, the wait for the lock left out.
compile() {
    local log="$1" lock_fd start status=0
    shift
    if [[ -n "${BUILD_LOCK:-}" ]]; then
        exec {lock_fd}>"$BUILD_LOCK"
        flock "$lock_fd"
    fi
    start="$(now)"
    "$@" >"$log" 2>&1 || status=$?
    COMPILE_SECONDS="$(elapsed_since "$start")"
    if [[ -n "${lock_fd:-}" ]]; then exec {lock_fd}>&-; fi
    return "$status"
}

# Builds one step unless its stamp (a hash of the command, of the inputs' contents and of the stamps of the steps it
# depends on) is the last build's: step NAME OUTPUT "DEPENDENCY..." -- COMMAND... (the inputs: every argument that
# is a file; the dependencies: names of earlier steps, space-separated).
step() {
    local output="$2" dependencies="$3" hash stamp="$SCRATCH/stamps/$1" argument dependency name="$1"
    shift 4
    hash="$({
        printf '%s\n' "$@"
        for argument in "$@"; do
            # Files under the scratch folder (outputs, the libraries a target links) are left to the stamps.
            if [[ -f "$argument" && "$argument" != "$SCRATCH"/* ]]; then cat "$argument"; fi
        done
        for dependency in $dependencies; do cat "$SCRATCH/stamps/$dependency"; done
    } | cksum)"
    if [[ -f "$output" && -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
        return 0
    fi
    rm -f "$stamp"
    if ! compile "$SCRATCH/logs/build-$name.log" "$@"; then
        grep -E 'error:' "$SCRATCH/logs/build-$name.log" | sed -n '1,20p' >&2 || true
        echo "fuzz: building $name failed (log: $SCRATCH/logs/build-$name.log)" >&2
        exit 2
    fi
    printf '%s\n' "$hash" >"$stamp"
    echo "fuzz: built $name in $COMPILE_SECONDS s" >&2
}

# Swift files of a folder, sorted: swift_files DIR [find arguments...]
swift_files() {
    local dir="$1"
    shift
    find "$dir" -name '*.swift' "$@" | LC_ALL=C sort
}

# A library module: library NAME OPTIMIZATION SOURCE_DIR "DEPENDENCY..." [extra swiftc arguments...] (sources: every
# Swift file of SOURCE_DIR).
library() {
    local name="$1" optimization="$2" dir="$3" dependencies="$4" sources=()
    shift 4
    mapfile -t sources < <(swift_files "$dir")
    step "$name" "$SCRATCH/lib/lib$name.a" "$dependencies" -- swiftc -emit-library -static -emit-module \
        -emit-module-path "$SCRATCH/modules/$name.swiftmodule" -module-name "$name" -enable-testing \
        "$optimization" -j2 "${SANITIZE[@]}" -I "$SCRATCH/modules" "$@" "${sources[@]}" -o "$SCRATCH/lib/lib$name.a"
}

# The modules a target links, in link order.
libraries_of() {
    case "$1" in
        SSE | PartialJSON | JSON | WebhookHeaders | ErrorBody) echo OpenAIRuntime ;;
        WebSocketFrames) ;;
        YAMLSpec) echo OpenAIGeneratorCore OpenAICatalogueModel OpenAIGeneratorOpenAPI OpenAIYAML ;;
        *)
            if [[ -n "$OPENAI_BUILD" ]]; then echo OpenAIRuntime; else echo OpenAI OpenAIRuntime; fi
            ;;
    esac
}

# What a target links besides its libraries: with FUZZ_OPENAI_BUILD, the OpenAI module's objects from that build for
# the targets of generated types (one argument per line): those its last build linked (swiftpm_objects, Scripts/lib.sh),
# never every object in the folder, where a file removed since leaves an object built for older types.
extra_inputs_of() {
    case "$1" in
        ResponseStreamEvent | Response | RealtimeServerEvent | ChatCompletion)
            if [[ -n "$OPENAI_BUILD" ]]; then
                echo -I
                echo "$OPENAI_BUILD/Modules"
                swiftpm_objects "$OPENAI_BUILD" OpenAI
            fi
            ;;
    esac
}

# The source files of a target besides Fuzz/Support.
sources_of() {
    case "$1" in
        WebSocketFrames)
            local file
            for file in WebSocketFrameParser WebSocketFrameEncoder WebSocketOpcode WebSocketCloseCode UTF8Validation; do
                echo "Sources/OpenAIWebSocket/$file.swift"
            done
            ;;
        ResponseStreamEvent | Response | RealtimeServerEvent | ChatCompletion) swift_files Fuzz/GeneratedTypes ;;
        JSON | PartialJSON) swift_files Fuzz/JSONSupport ;;
    esac
    swift_files "Fuzz/$1"
}

build_target() {
    local target="$1" libraries=() sources=() library archives=() extra=()
    read -r -a libraries <<<"$(libraries_of "$target")"
    for library in ${libraries[@]+"${libraries[@]}"}; do
        [[ -f "$SCRATCH/lib/lib$library.a" ]] || build_library "$library"
        archives+=("$SCRATCH/lib/lib$library.a")
    done
    mapfile -t sources < <(swift_files Fuzz/Support; sources_of "$target")
    mapfile -t extra < <(extra_inputs_of "$target")
    # The fuzzing build's modules come first in the search path: they are the ones linked. The extra objects come
    # before the archives, which the linker searches only for symbols already wanted.
    step "target-$target" "$SCRATCH/bin/$target" "${libraries[*]-}" -- swiftc "$OPTIMIZE" "${SANITIZE[@]}" -module-name "Fuzz$target" \
        -I "$SCRATCH/modules" -I Sources/CLibYAML "${sources[@]}" ${extra[@]+"${extra[@]}"} ${archives[@]+"${archives[@]}"} \
        -o "$SCRATCH/bin/$target"
}

build_library() {
    case "$1" in
        OpenAIRuntime) library OpenAIRuntime "$OPTIMIZE" Sources/OpenAIRuntime "" ;;
        OpenAI) library OpenAI -Onone Sources/OpenAI OpenAIRuntime ;;
        OpenAIYAML) library OpenAIYAML "$OPTIMIZE" Sources/OpenAIYAML "" -I Sources/CLibYAML ;;
        OpenAIGeneratorOpenAPI)
            library OpenAIGeneratorOpenAPI "$OPTIMIZE" Generator/OpenAPI OpenAIYAML -I Sources/CLibYAML
            ;;
        OpenAICatalogueModel) library OpenAICatalogueModel "$OPTIMIZE" Sources/OpenAICatalogueModel "" ;;
        OpenAIGeneratorCore)
            library OpenAIGeneratorCore "$OPTIMIZE" Generator/Core "OpenAIGeneratorOpenAPI OpenAICatalogueModel" \
                -I Sources/CLibYAML
            ;;
    esac
}

build_start="$(now)"
needed=()
for target in "${targets[@]}"; do
    read -r -a libraries <<<"$(libraries_of "$target")"
    needed+=(${libraries[@]+"${libraries[@]}"})
done
# Dependencies first, so a changed runtime rebuilds the OpenAI module (its stamp is one of the inputs).
for library in OpenAIRuntime OpenAI OpenAIYAML OpenAIGeneratorOpenAPI OpenAICatalogueModel OpenAIGeneratorCore; do
    if [[ " ${needed[*]-} " == *" $library "* ]]; then build_library "$library"; fi
done
for target in "${targets[@]}"; do build_target "$target"; done
echo "fuzz: build (${#targets[@]} targets) took $(elapsed_since "$build_start") s" >&2
[[ "$seconds" -gt 0 ]] || exit 0

# --- seeds -----------------------------------------------------------------------------------------------------------

make_seeds() {
    local target="$1" dir="$SCRATCH/seeds/$1"
    [[ -d "$dir" ]] && return 0
    if [[ ! -d "$FIXTURES" && "$target" != "YAMLSpec" ]]; then
        echo "fuzz: no fixtures at $FIXTURES; $target starts from an empty corpus" >&2
    fi
    mkdir -p "$dir.partial"
    python3 "$ROOT/Scripts/check/fuzz-seeds.py" "$target" "$FIXTURES" "$ROOT/Tests/OpenAIGeneratorTests" "$dir.partial"
    mv "$dir.partial" "$dir"
}

# The longest input per target, in bytes: long enough for a real event or reply, short enough to stay fast.
max_len_of() {
    case "$1" in
        SSE | PartialJSON | JSON | WebSocketFrames | ErrorBody) echo 4096 ;;
        *) echo 16384 ;;
    esac
}

# --- running ---------------------------------------------------------------------------------------------------------

# Fuzzes one target and prints its line (and, when it crashed, the input and the report's first lines); its status
# is 1 when the target crashed.
run_target() {
    local target="$1" corpus="$SCRATCH/corpus/$1" crashes="$SCRATCH/crashes/$1" log="$SCRATCH/logs/run-$1.log"
    local status=0 execs artifact
    mkdir -p "$corpus" "$crashes"
    # Without the Swift runtime's backtracer: libFuzzer's handler reports the crash (the backtracer trips ASan).
    SWIFT_BACKTRACE=enable=no "$SCRATCH/bin/$target" -max_total_time="$seconds" -rss_limit_mb="${FUZZ_RSS_LIMIT_MB:-2048}" \
        -max_len="$(max_len_of "$target")" -timeout=30 -print_final_stats=1 -artifact_prefix="$crashes/" \
        "$corpus" "$SCRATCH/seeds/$target" >"$log" 2>&1 || status=$?
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    if [[ $status -eq 0 ]]; then
        echo "fuzz_target: $target execs=${execs:-0} crashes=0"
        return 0
    fi
    echo "fuzz_target: $target execs=${execs:-0} crashes=1"
    artifact="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)"
    echo "  input: ${artifact:-none written (see $log)}"
    grep -E 'Fatal error|fuzz invariant|ERROR: |SUMMARY|^ *#[0-9]+ 0x' "$log" | sed -n '1,12p' | sed 's/^/  /'
    echo "  log: $log"
    return 1
}

for target in "${targets[@]}"; do make_seeds "$target"; done
# Up to JOBS targets at once. Each one's lines go to a file, printed in the targets' order when all have ended; its
# status too (`wait -n` gives the status of whichever ended first).
echo "fuzz: ${#targets[@]} targets, $seconds s each, $JOBS at once" >&2
running=0
for target in "${targets[@]}"; do
    if [[ $running -ge $JOBS ]]; then
        wait -n || true
        running=$((running - 1))
    fi
    rm -f "$SCRATCH/logs/status-$target"
    (
        status=0
        run_target "$target" >"$SCRATCH/logs/line-$target.txt" || status=$?
        echo "$status" >"$SCRATCH/logs/status-$target"
    ) &
    running=$((running + 1))
done
wait
failed=0
for target in "${targets[@]}"; do
    cat "$SCRATCH/logs/line-$target.txt"
    [[ "$(cat "$SCRATCH/logs/status-$target" 2>/dev/null)" == "0" ]] || failed=1
done
exit "$failed"
