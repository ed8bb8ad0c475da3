#!/usr/bin/env bash
# Fuzzes every parser of bytes from the network or from a spec with libFuzzer (Fuzz/, one folder
# per target, each an `LLVMFuzzerTestOneInput` function that also checks cheap invariants):
#   SSE                  server-sent event framing (ServerSentEventParser), against WHATWG's reading
#   PartialJSON          the partial-JSON decoder, against JSONDecoder; the depth limit
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
# Usage: Scripts/fuzz.sh SECONDS [TARGET...]   (all targets by default; SECONDS 0 only builds)
# Environment:
#   BUILD_LOCK=FILE      run each compiler command under `flock FILE` (a machine shared with other builds)
#   FUZZ_RSS_LIMIT_MB=N  libFuzzer's -rss_limit_mb (default 2048)
#   FIXTURES=DIR         the recorded traffic (default ../shared/fixtures beside the repository)
# Prints one line per target:
#   fuzz_target: NAME execs=N crashes=N
# and, for a target that crashed, the input that did (.build-fuzz/crashes/TARGET/crash-…: replay it
# with `.build-fuzz/bin/TARGET FILE`) and the first lines of libFuzzer's report.
# Exit status: 0 no target crashed; 1 a target crashed (or leaked, timed out, ran out of memory);
# 2 usage error, or a build failed.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ALL_TARGETS=(SSE PartialJSON WebSocketFrames WebhookHeaders ErrorBody YAMLSpec
    ResponseStreamEvent Response RealtimeServerEvent ChatCompletion)
SCRATCH=".build-fuzz"
FIXTURES="${FIXTURES:-$ROOT/../shared/fixtures}"
SANITIZE=("-sanitize=fuzzer,address" -parse-as-library -swift-version 6 -package-name openai -gline-tables-only)

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
# Swift file of SOURCE_DIR; for OpenAI, Sources/OpenAI without the admin module's files).
library() {
    local name="$1" optimization="$2" dir="$3" dependencies="$4" sources=()
    shift 4
    if [[ "$name" == "OpenAI" ]]; then
        mapfile -t sources < <(swift_files "$dir" -not -path '*/Generated/Admin/*')
    else
        mapfile -t sources < <(swift_files "$dir")
    fi
    step "$name" "$SCRATCH/lib/lib$name.a" "$dependencies" -- swiftc -emit-library -static -emit-module \
        -emit-module-path "$SCRATCH/modules/$name.swiftmodule" -module-name "$name" -enable-testing \
        "$optimization" -j2 "${SANITIZE[@]}" -I "$SCRATCH/modules" "$@" "${sources[@]}" -o "$SCRATCH/lib/lib$name.a"
}

# The modules a target links, in link order.
libraries_of() {
    case "$1" in
        SSE | PartialJSON | WebhookHeaders | ErrorBody) echo OpenAIRuntime ;;
        WebSocketFrames) ;;
        YAMLSpec) echo OpenAIGeneratorCore OpenAIGeneratorOpenAPI OpenAIGeneratorYAML ;;
        *) echo OpenAI OpenAIRuntime ;;
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
    esac
    swift_files "Fuzz/$1"
}

build_target() {
    local target="$1" libraries=() sources=() library archives=()
    read -r -a libraries <<<"$(libraries_of "$target")"
    for library in ${libraries[@]+"${libraries[@]}"}; do
        [[ -f "$SCRATCH/lib/lib$library.a" ]] || build_library "$library"
        archives+=("$SCRATCH/lib/lib$library.a")
    done
    mapfile -t sources < <(swift_files Fuzz/Support; sources_of "$target")
    step "target-$target" "$SCRATCH/bin/$target" "${libraries[*]-}" -- swiftc -O "${SANITIZE[@]}" -module-name "Fuzz$target" \
        -I "$SCRATCH/modules" -I Generator/CYaml "${sources[@]}" ${archives[@]+"${archives[@]}"} \
        -o "$SCRATCH/bin/$target"
}

build_library() {
    case "$1" in
        OpenAIRuntime) library OpenAIRuntime -O Sources/OpenAIRuntime "" ;;
        OpenAI) library OpenAI -Onone Sources/OpenAI OpenAIRuntime ;;
        OpenAIGeneratorYAML) library OpenAIGeneratorYAML -O Generator/YAML "" -I Generator/CYaml ;;
        OpenAIGeneratorOpenAPI) library OpenAIGeneratorOpenAPI -O Generator/OpenAPI OpenAIGeneratorYAML -I Generator/CYaml ;;
        OpenAIGeneratorCore) library OpenAIGeneratorCore -O Generator/Core OpenAIGeneratorOpenAPI -I Generator/CYaml ;;
    esac
}

build_start="$(now)"
needed=()
for target in "${targets[@]}"; do
    read -r -a libraries <<<"$(libraries_of "$target")"
    needed+=(${libraries[@]+"${libraries[@]}"})
done
# Dependencies first, so a changed runtime rebuilds the OpenAI module (its stamp is one of the inputs).
for library in OpenAIRuntime OpenAI OpenAIGeneratorYAML OpenAIGeneratorOpenAPI OpenAIGeneratorCore; do
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
    python3 "$ROOT/Scripts/fuzz-seeds.py" "$target" "$FIXTURES" "$ROOT/Tests/OpenAIGeneratorTests" "$dir.partial"
    mv "$dir.partial" "$dir"
}

# The longest input per target, in bytes: long enough for a real event or reply, short enough to stay fast.
max_len_of() {
    case "$1" in
        SSE | PartialJSON | WebSocketFrames | ErrorBody) echo 4096 ;;
        *) echo 16384 ;;
    esac
}

# --- running ---------------------------------------------------------------------------------------------------------

failed=0
for target in "${targets[@]}"; do
    make_seeds "$target"
    corpus="$SCRATCH/corpus/$target"
    crashes="$SCRATCH/crashes/$target"
    log="$SCRATCH/logs/run-$target.log"
    mkdir -p "$corpus" "$crashes"
    status=0
    # Without the Swift runtime's backtracer: libFuzzer's handler reports the crash (the backtracer trips ASan).
    SWIFT_BACKTRACE=enable=no "$SCRATCH/bin/$target" -max_total_time="$seconds" -rss_limit_mb="${FUZZ_RSS_LIMIT_MB:-2048}" \
        -max_len="$(max_len_of "$target")" -timeout=30 -print_final_stats=1 -artifact_prefix="$crashes/" \
        "$corpus" "$SCRATCH/seeds/$target" >"$log" 2>&1 || status=$?
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    if [[ $status -eq 0 ]]; then
        echo "fuzz_target: $target execs=${execs:-0} crashes=0"
    else
        failed=1
        echo "fuzz_target: $target execs=${execs:-0} crashes=1"
        artifact="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)"
        echo "  input: ${artifact:-none written (see $log)}"
        grep -E 'Fatal error|fuzz invariant|ERROR: |SUMMARY|^ *#[0-9]+ 0x' "$log" | sed -n '1,12p' | sed 's/^/  /'
        echo "  log: $log"
    fi
done
exit "$failed"
