#!/usr/bin/env bash
# Benchmarks the main job and what every user waits for first: `openai-generator generate` (release build) on the
# locked spec, then clean builds of the `OpenAI` module and of a one-file app that imports it, in debug and in
# release, for this checkout and for a base commit's generated output in the same run (machines and load differ,
# the ratio between the two is the figure to quote).
#
# Usage: Scripts/bench/bench-generate.sh
# Environment:
#   RUNS=N             generator runs; the median wall time is reported (default 7; 0 skips the generator).
#   BUILDS="..."       the clean builds to time, any of module-debug module-release app-debug app-release
#                      (default all four). module-*: `swift build --target OpenAI`; app-*: a package with one
#                      main.swift (the README's quick start) depending on the checkout by path, so its build
#                      includes the SDK, as a newcomer's first build does.
#   BASE_REV=REV       the commit whose SDK the ratios compare with, built from a git worktree (default
#                      d5266e2, the last commit before the generator's build-cost work; `none` skips it).
#   LINE_CAPS="N ..."  also regenerate this checkout with each `--line-cap N` (most lines per types file) into a copy
#                      of it and time a clean debug build of the OpenAI module for each (default none; needs the
#                      generator, so RUNS must not be 0): how the cap was chosen.
#   OPENAI_GENERATOR=PATH  time this generator binary instead of building it (swift build -c release).
#   SCRATCH_PATH=DIR   SwiftPM build folder for building the generator (default .build). Every timed build uses a
#                      fresh temporary scratch folder, so it is clean.
#   BENCH_SMOKE=1      smoke mode (Scripts/bench/test-benchmarks.sh): one generate run, by the debug generator (unless
#                      OPENAI_GENERATOR), on a small spec (Tests/OpenAIGeneratorTests/Snapshots/landmines-keywords,
#                      without Spec/overrides.json), and no builds (RUNS=1 BUILDS= BASE_REV=none LINE_CAPS=): a clean
#                      build of the SDK takes minutes, so what the smoke run leaves out is the timed builds; the
#                      figure means nothing and the build figures read `skipped`.
#
# Each build prints its wall time (seconds), the peak resident memory of its largest process (MiB) and the size of
# the object files it wrote (MiB). The output ends with these lines (seconds, two decimals; ratios three):
#   generate_seconds: <median wall time of one generate run>
#   build_debug_seconds: <clean debug build of the OpenAI module>
#   build_release_seconds: <clean release build of the OpenAI module>
#   app_debug_seconds: / app_release_seconds: <clean builds of the one-file app>
#   line_cap_N_debug_seconds: <for each LINE_CAPS value, before the ratios>
#   build_debug_ratio_vs_base: / build_release_ratio_vs_base: <this checkout's module build / the base's>
# A figure that was not measured (skipped by RUNS, BUILDS or BASE_REV) reads `skipped`.
#
# Exit status: 0 on success; 2 on bad settings; 1 when a build or a generator run fails.
# The builds take long (a release build of the SDK is minutes on two cores); run nothing else meanwhile.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

RUNS="${RUNS:-7}"
if [[ ! "$RUNS" =~ ^[0-9]+$ ]]; then
    echo "bench-generate: RUNS wants a whole number, got '$RUNS'" >&2
    exit 2
fi
BUILDS="${BUILDS:-module-debug module-release app-debug app-release}"
for build in $BUILDS; do
    case "$build" in
        module-debug | module-release | app-debug | app-release) ;;
        *)
            echo "bench-generate: BUILDS takes module-debug, module-release, app-debug, app-release; got '$build'" >&2
            exit 2
            ;;
    esac
done
LINE_CAPS="${LINE_CAPS:-}"
for cap in $LINE_CAPS; do
    if [[ ! "$cap" =~ ^[1-9][0-9]{2,}$ ]]; then
        echo "bench-generate: LINE_CAPS takes whole numbers of at least 100, got '$cap'" >&2
        exit 2
    fi
done
if [[ -n "$LINE_CAPS" && "$RUNS" -eq 0 ]]; then
    echo "bench-generate: LINE_CAPS needs the generator: set RUNS to 1 or more" >&2
    exit 2
fi
SPEC="$ROOT/Spec/openapi.yaml"
GENERATE_OPTIONS=()
GENERATOR_CONFIGURATION=release
if bench_smoke; then
    RUNS=1
    BUILDS=""
    BASE_REV=none
    LINE_CAPS=""
    SPEC="$ROOT/Tests/OpenAIGeneratorTests/Snapshots/landmines-keywords/spec.yaml"
    GENERATE_OPTIONS=(--overrides none)
    GENERATOR_CONFIGURATION=debug
fi

BASE_REV="${BASE_REV:-d5266e2}"
if [[ "$BASE_REV" != none ]] && ! git rev-parse --verify --quiet "$BASE_REV^{commit}" > /dev/null; then
    echo "bench-generate: BASE_REV '$BASE_REV' is not a commit of this repository" >&2
    exit 2
fi

set_swift_flags

WORK="$(temp_dir openai-bench)"
cleanup() {
    if [[ -d "$WORK/base" ]]; then git -C "$ROOT" worktree remove --force "$WORK/base" > /dev/null 2>&1 || true; fi
    rm -rf "$WORK"
    remove_swiftpm_locks "$WORK"
}
trap cleanup EXIT

if [[ "$RUNS" -gt 0 ]]; then
    if ! bench_smoke; then
        printf '==> Locked spec\n'
        "$ROOT/Scripts/spec/fetch-spec.sh"
    fi

    if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
        GENERATOR="$OPENAI_GENERATOR"
        printf '\n==> Using OPENAI_GENERATOR=%s\n' "$GENERATOR"
    else
        printf '\n==> Building the generator (swift build -c %s --product openai-generator)\n' \
            "$GENERATOR_CONFIGURATION"
        build_generator "$GENERATOR_CONFIGURATION"
    fi

    printf '\n==> openai-generator generate, %d runs into fresh temporary folders\n' "$RUNS"
    # Runs the generator RUNS times (each into a new folder), prints each wall time and the summary of the first
    # run, and writes the median to $WORK/generate_seconds.
    python3 "$ROOT/Scripts/bench/benchlib.py" generate-runs "$GENERATOR" "$SPEC" "$WORK" "$RUNS" \
        ${GENERATE_OPTIONS[@]+"${GENERATE_OPTIONS[@]}"}
fi

TREES=(current)
if [[ "$BASE_REV" != none ]]; then
    printf '\n==> Base: %s in a git worktree\n' "$(git log -1 --format='%h %s' "$BASE_REV" | cut -c1-100)"
    git worktree add --detach --quiet "$WORK/base" "$BASE_REV"
    TREES+=(base)
fi

# Prints what a tree's SDK holds: generated files and lines of the OpenAI module, and of OpenAIAdmin (which
# `--target OpenAI` does not compile) when there is one. A tree is laid out either way: Sources/OpenAIAdmin/Generated and
# Sources/OpenAICatalogue/Generated beside Sources/OpenAI, or (before) Generated/Admin and Generated/Catalogue inside it; the
# catalogue is the `openai` tool's, counted in neither module.
describe_tree() {
    local dir="$1" generated="$1/Sources/OpenAI/Generated" admin="$1/Sources/OpenAIAdmin/Generated"
    local files lines
    [[ -d "$admin" ]] || admin="$generated/Admin"
    files="$(find "$generated" -name '*.swift' -not -path "$generated/Admin/*" -not -path "$generated/Catalogue/*" \
        | wc -l | tr -d ' ')"
    lines="$(find "$generated" -name '*.swift' -not -path "$generated/Admin/*" -not -path "$generated/Catalogue/*" \
        -exec cat {} + | wc -l | tr -d ' ')"
    printf 'Sources/OpenAI/Generated (OpenAI): %s Swift files, %s lines' "$files" "$lines"
    if [[ -d "$admin" ]]; then
        files="$(find "$admin" -name '*.swift' | wc -l | tr -d ' ')"
        lines="$(find "$admin" -name '*.swift' -exec cat {} + | wc -l | tr -d ' ')"
        printf '; %s (OpenAIAdmin, not in these builds): %s files, %s lines' "${admin#"$1/"}" "$files" "$lines"
    fi
    printf '\n'
}

# Writes the one-file app's package for the checkout at $1 into $2.
make_app() {
    local tree="$1" app="$2"
    mkdir -p "$app/Sources/App"
    cat > "$app/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "bench-app",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "swift-openai", path: "$tree")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "OpenAI", package: "swift-openai")])]
)
EOF
    cat > "$app/Sources/App/main.swift" <<'EOF'
import OpenAI

let client = try OpenAIClient()
let completion = try await client.chat.completions.create(
    .init(messages: [.user(.init(content: "Say hello."))], model: .gpt4o))
print(completion.choices.first?.message.content ?? "")
EOF
}

# Runs a clean build: `timed_build RESULT_FILE SCRATCH COMMAND...` prints the wall time, the peak RSS of the largest
# process (getrusage of the reaped children) and the object bytes under SCRATCH, writes the seconds to RESULT_FILE,
# and removes SCRATCH.
timed_build() {
    python3 "$ROOT/Scripts/bench/benchlib.py" timed-build "$@"
    rm -rf "$2"
}

for tree in "${TREES[@]}"; do
    dir="$ROOT"
    [[ "$tree" == base ]] && dir="$WORK/base"
    printf '\n==> %s: %s\n' "$tree" "$(describe_tree "$dir")"
    for build in $BUILDS; do
        configuration="${build#*-}"
        scratch="$WORK/scratch-$tree-$build"
        case "$build" in
            module-*) command=(swift build -c "$configuration" --package-path "$dir" --target OpenAI) ;;
            app-*)
                make_app "$dir" "$WORK/app-$tree"
                command=(swift build -c "$configuration" --package-path "$WORK/app-$tree")
                ;;
        esac
        command+=(--scratch-path "$scratch")
        printf '\n--> %s %s: %s\n' "$tree" "$build" "${command[*]}"
        timed_build "$WORK/$tree-$build" "$scratch" "${command[@]}"
    done
done

# Each line cap: the checkout regenerated with it, in a copy, laid out afresh (not kept from the copy's
# TypeIndex.swift), and a clean debug build of its OpenAI module.
for cap in $LINE_CAPS; do
    copy="$WORK/cap-$cap"
    mkdir -p "$copy"
    tar -C "$ROOT" --exclude=./.build --exclude='./.build-*' --exclude=./.git -cf - . | tar -C "$copy" -xf -
    "$GENERATOR" generate --spec "$ROOT/Spec/openapi.yaml" --output "$copy/Sources/OpenAI/Generated" \
        --line-cap "$cap" --fresh-layout > "$WORK/cap-$cap.log"
    printf '\n--> line cap %s: %s\n' "$cap" "$(describe_tree "$copy")"
    timed_build "$WORK/line-cap-$cap" "$WORK/scratch-cap-$cap" \
        swift build --package-path "$copy" --target OpenAI --scratch-path "$WORK/scratch-cap-$cap"
    rm -rf "$copy"
done

# The figure in $WORK/$1, or `skipped`.
figure() { if [[ -f "$WORK/$1" ]]; then cat "$WORK/$1"; else echo skipped; fi; }
# current / base for the build $1, or `skipped`.
ratio() {
    if [[ -f "$WORK/current-$1" && -f "$WORK/base-$1" ]]; then
        python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.3f}")' \
            "$(cat "$WORK/current-$1")" "$(cat "$WORK/base-$1")"
    else
        echo skipped
    fi
}

printf '\n==> Results (machine: %s, %s CPU cores; base %s)\n' "$(uname -sm)" \
    "$(python3 -c 'import os; print(os.cpu_count())')" "$BASE_REV"
for build in $BUILDS; do
    [[ "$BASE_REV" != none ]] && echo "base $build: $(figure "base-$build") s"
done
echo "generate_seconds: $(figure generate_seconds)"
echo "app_debug_seconds: $(figure current-app-debug)"
echo "app_release_seconds: $(figure current-app-release)"
echo "build_debug_seconds: $(figure current-module-debug)"
echo "build_release_seconds: $(figure current-module-release)"
for cap in $LINE_CAPS; do
    echo "line_cap_${cap}_debug_seconds: $(figure "line-cap-$cap")"
done
echo "build_debug_ratio_vs_base: $(ratio module-debug)"
echo "build_release_ratio_vs_base: $(ratio module-release)"
