#!/usr/bin/env bash
# Benchmarks the main job: `openai-generator generate` (release build) on the locked spec, and a clean debug build
# of the OpenAI module.
#
# Usage: Scripts/bench-generate.sh
# Environment:
#   RUNS=N             generator runs; the median wall time is reported (default 7).
#   OPENAI_GENERATOR=PATH  time this generator binary instead of building it (swift build -c release).
#   SCRATCH_PATH=DIR   SwiftPM build folder for building the generator (default .build). The debug build of the
#                      OpenAI module always uses a fresh temporary scratch folder, so it is clean.
#
# The output ends with exactly two lines (seconds, two decimals):
#   generate_seconds: <median wall time of one generate run>
#   build_debug_seconds: <wall time of a clean `swift build --target OpenAI`>
#
# Exit status: 0 on success; non-zero when a build or a generator run fails.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

RUNS="${RUNS:-7}"
if [[ ! "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-generate: RUNS wants a positive integer, got '$RUNS'" >&2
    exit 2
fi

SWIFT_FLAGS=()
if [[ -n "${SCRATCH_PATH:-}" ]]; then
    SWIFT_FLAGS+=(--scratch-path "$SCRATCH_PATH")
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/openai-bench.XXXXXX")"
# SwiftPM also leaves empty lock files named after the scratch path (slashes as underscores) in the temp folder.
cleanup() {
    rm -rf "$WORK"
    rm -f "${TMPDIR:-/tmp}/$(printf '%s' "$WORK" | tr '/' '_')"_*.lock
}
trap cleanup EXIT

printf '==> Locked spec\n'
"$ROOT/Scripts/fetch-spec.sh"

if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
    GENERATOR="$OPENAI_GENERATOR"
    printf '\n==> Using OPENAI_GENERATOR=%s\n' "$GENERATOR"
else
    printf '\n==> Building the generator (swift build -c release --product openai-generator)\n'
    swift build -c release --product openai-generator ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
    GENERATOR="$(swift build -c release --show-bin-path ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"})/openai-generator"
fi

printf '\n==> openai-generator generate, %d runs into fresh temporary folders\n' "$RUNS"
# Runs the generator RUNS times (each into a new folder), prints each wall time and the summary of the first run,
# and writes the median to $WORK/generate_seconds.
python3 - "$GENERATOR" "$ROOT/Spec/openapi.yaml" "$WORK" "$RUNS" <<'PY'
import os, statistics, subprocess, sys, time

generator, spec, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
times = []
for i in range(runs):
    out = os.path.join(work, f"generated-{i}")
    start = time.perf_counter()
    result = subprocess.run([generator, "generate", "--spec", spec, "--output", out],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        print(result.stdout, end="")
        sys.exit(f"bench-generate: run {i + 1} failed with exit status {result.returncode}")
    if i == 0:
        print("summary of the first run:")
        for line in result.stdout.splitlines()[-25:]:
            print("    " + line)
        files = sum(len(names) for _, _, names in os.walk(out))
        size = sum(os.path.getsize(os.path.join(d, n)) for d, _, names in os.walk(out) for n in names)
        print(f"    ({files} files, {size} bytes written)")
    times.append(elapsed)
    print(f"run {i + 1}/{runs}: {elapsed:.3f} s", flush=True)
median = statistics.median(times)
print(f"min {min(times):.3f} s, median {median:.3f} s, max {max(times):.3f} s")
with open(os.path.join(work, "generate_seconds"), "w") as f:
    f.write(f"{median:.2f}\n")
PY

printf '\n==> Clean debug build of the OpenAI module (swift build --target OpenAI, fresh scratch folder)\n'
generated_files="$(find Sources/OpenAI/Generated -name '*.swift' 2>/dev/null | wc -l | tr -d ' ')"
generated_lines="$(find Sources/OpenAI/Generated -name '*.swift' -exec cat {} + 2>/dev/null | wc -l | tr -d ' ')"
echo "Sources/OpenAI/Generated: $generated_files Swift files, $generated_lines lines (the committed output is what is built)"
python3 - "$WORK" <<'PY'
import os, subprocess, sys, time

work = sys.argv[1]
scratch = os.path.join(work, "scratch")
command = ["swift", "build", "--target", "OpenAI", "--scratch-path", scratch]
print("+ " + " ".join(command), flush=True)
start = time.perf_counter()
result = subprocess.run(command)
elapsed = time.perf_counter() - start
if result.returncode != 0:
    sys.exit(f"bench-generate: the debug build failed with exit status {result.returncode}")
print(f"clean debug build: {elapsed:.2f} s")
with open(os.path.join(work, "build_debug_seconds"), "w") as f:
    f.write(f"{elapsed:.2f}\n")
PY

printf '\n==> Results (machine: %s, %s CPU cores)\n' "$(uname -sm)" \
    "$(python3 -c 'import os; print(os.cpu_count())')"
echo "generate: median of $RUNS runs on Spec/openapi.yaml (release build); build: clean debug build of the OpenAI target."
echo "generate_seconds: $(cat "$WORK/generate_seconds")"
echo "build_debug_seconds: $(cat "$WORK/build_debug_seconds")"
