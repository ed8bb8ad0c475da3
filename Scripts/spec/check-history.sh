#!/usr/bin/env bash
# Generates the SDK from every historical spec in ../shared/spec/history/*.yaml and compiles each result on the
# runtime target it is built on, in a temporary Swift package of the SDK's layers: `OpenAIRuntime` (and `OpenAIRuntimeLibcurl`)
# copied as they are, `OpenAI` holding the generated code, the file that re-exports the runtime and, for every spec
# from the one Spec/helpers-oldest-spec.txt names on (by file name: they start with the commit date), the hand-written
# Helpers/, and `OpenAIAdmin` when the spec has admin-key resources. Helpers/ is written against the locked spec's
# types; older specs lack some of them, and are compiled without it. The newest spec older than the one
# helpers-oldest-spec.txt names is compiled a second time with Helpers/, which must fail: when it compiles, the file
# names a spec newer than the oldest the helpers support, and Scripts/spec/update-spec.sh would warn about a spec that works.
#
# The runtime is built once (`swift build --target OpenAIRuntime`, or taken from OPENAI_RUNTIME_BUILD). Each spec's
# `OpenAI` and `OpenAIAdmin` modules are then compiled by `swiftc -emit-sil` with the flags SwiftPM gives a debug
# build: the compiler runs everything that can reject Swift code (parsing, type checking, SIL generation and the
# mandatory SIL passes: definite initialization, missing returns, exclusivity, unreachable code) and stops before IRGen
# and LLVM, which turn valid SIL into machine code and report nothing about the source. That took 12 to 37 s a spec in CI instead of 43 to 83 s.
# With --full-build each spec is built by `swift build` to object files instead, as an app would build it.
#
# Usage: Scripts/spec/check-history.sh [--only NAME] [--jobs N] [--generate-only] [--full-build] [--keep]
#   --only NAME       check one spec: its file name, the name without .yaml, or a unique prefix (e.g. 2025-04).
#   --jobs N          compile parallelism (`swiftc -j N`, `swift build --jobs N`); specs are always checked one at a
#                     time. Default: the number of processors.
#   --generate-only   run the generator only; skip compiling.
#   --full-build      compile to object files with `swift build` (the package as an app's build compiles it).
#   --keep            keep the temporary package and the logs (their folder is printed).
# Environment:
#   HISTORY_DIR=DIR        specs folder (default ../shared/spec/history beside the repository).
#   JOBS=N                 same as --jobs N.
#   OPENAI_GENERATOR=PATH  use this generator binary instead of building it (swift build -c release).
#   OPENAI_RUNTIME_BUILD=DIR  compile against the runtime module of this checkout's debug build (DIR: its
#                          `swift build --show-bin-path`, made from the same Sources/OpenAIRuntime) instead of building
#                          the runtime in the temporary package (about 20 s). Ignored with --full-build.
#   SCRATCH_PATH=DIR       SwiftPM build folder for building the generator (default .build).
#
# Exit status: 0 when every spec generates and compiles, or when the history folder does not exist (skipped);
#              1 when any spec fails or the generator cannot be built; 2 on a usage error.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
TOTAL_START="$(now)"

# Prints the usage lines of the header above; exits with the given status (2 unless told).
usage() {
    sed -n '/^# Usage:/,/^# Environment:/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit "${1:-2}"
}

ONLY=""
JOBS="${JOBS:-}"
GENERATE_ONLY=0
FULL_BUILD=0
KEEP=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --only)
            [[ $# -ge 2 ]] || usage
            ONLY="$2"
            shift 2
            ;;
        --only=*)
            ONLY="${1#--only=}"
            shift
            ;;
        --jobs | -j)
            [[ $# -ge 2 ]] || usage
            JOBS="$2"
            shift 2
            ;;
        --jobs=*)
            JOBS="${1#--jobs=}"
            shift
            ;;
        --generate-only)
            GENERATE_ONLY=1
            shift
            ;;
        --full-build)
            FULL_BUILD=1
            shift
            ;;
        --keep)
            KEEP=1
            shift
            ;;
        -h | --help) usage 0 ;;
        *)
            echo "check-history: unknown argument: $1" >&2
            usage
            ;;
    esac
done
if [[ -n "$JOBS" && ! "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
    echo "check-history: --jobs wants a positive integer, got '$JOBS'" >&2
    exit 2
fi

HISTORY_DIR="${HISTORY_DIR:-$ROOT/../shared/spec/history}"
# The oldest spec the helpers compile against (Spec/helpers-oldest-spec.txt: its first line that is not a comment).
HELPERS_OLDEST="$(grep -v '^#' "$ROOT/Spec/helpers-oldest-spec.txt" | grep -m 1 . || true)"
if [[ -z "$HELPERS_OLDEST" ]]; then
    echo "check-history: Spec/helpers-oldest-spec.txt names no spec" >&2
    exit 1
fi
if [[ ! -d "$HISTORY_DIR" ]]; then
    echo "check-history: SKIPPED: no history folder at $HISTORY_DIR (it lives in ../shared beside the repository)."
    exit 0
fi

# The specs to check, sorted by name (names start with the date).
SPECS=()
while IFS= read -r spec; do
    SPECS+=("$spec")
done < <(find "$HISTORY_DIR" -maxdepth 1 -type f -name '*.yaml' | LC_ALL=C sort)
# The newest spec older than the oldest the helpers support: the helpers must not compile against it.
HELPERS_BOUNDARY=""
for spec in "${SPECS[@]}"; do
    name="$(basename "$spec")"
    if [[ "${name%.yaml}" < "$HELPERS_OLDEST" ]]; then
        HELPERS_BOUNDARY="$name"
    fi
done
if [[ ${#SPECS[@]} -eq 0 ]]; then
    echo "check-history: no *.yaml files in $HISTORY_DIR" >&2
    exit 1
fi

if [[ -n "$ONLY" ]]; then
    matches=()
    for spec in "${SPECS[@]}"; do
        base="$(basename "$spec")"
        if [[ "$base" == "$ONLY" || "${base%.yaml}" == "$ONLY" ]]; then
            matches=("$spec")
            break
        fi
        if [[ "$base" == "$ONLY"* ]]; then
            matches+=("$spec")
        fi
    done
    if [[ ${#matches[@]} -ne 1 ]]; then
        echo "check-history: --only '$ONLY' matches ${#matches[@]} specs; available:" >&2
        for spec in "${SPECS[@]}"; do echo "  $(basename "$spec")" >&2; done
        exit 2
    fi
    SPECS=("${matches[@]}")
fi

# --- the generator ----------------------------------------------------------------------------------

if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
    GENERATOR="$OPENAI_GENERATOR"
    echo "check-history: using OPENAI_GENERATOR=$GENERATOR"
else
    set_swift_flags
    echo "check-history: building the generator (swift build -c release --product openai-generator)"
    if ! build_generator release; then
        echo "check-history: FAILED: the generator does not build." >&2
        exit 1
    fi
fi
if [[ ! -x "$GENERATOR" ]]; then
    echo "check-history: FAILED: no generator executable at $GENERATOR" >&2
    exit 1
fi

# --- the temporary package's manifest, mirroring the root Package.swift ------------------------------

WORK="$(temp_dir openai-history)"
cleanup() {
    if [[ $KEEP -eq 1 ]]; then
        echo "check-history: kept $WORK"
    else
        rm -rf "$WORK"
        remove_swiftpm_locks "$WORK"
    fi
}
trap cleanup EXIT

# Writes Package.swift (the SDK's layers without the admin module) and Package.swift.admin (with OpenAIAdmin) from
# the root manifest's target declarations (Scripts/lib/history_package.py says how, and what it refuses).
python3 "$ROOT/Scripts/lib/history_package.py" manifests "$ROOT/Package.swift" "$WORK/Package.swift"

echo "check-history: ${#SPECS[@]} spec(s) from $HISTORY_DIR; temporary package and logs under $WORK"
echo "check-history: temporary Package.swift:"
sed 's/^/    /' "$WORK/Package.swift"

# Prints the generator's warning count from its output (Scripts/lib/history_package.py).
generator_warnings() {
    python3 "$ROOT/Scripts/lib/history_package.py" warnings "$1"
}

# Prints the number of distinct compiler warnings in a build log.
compiler_warnings() {
    { grep -E ': warning: ' "$1" || true; } | LC_ALL=C sort -u | wc -l | tr -d ' '
}

BUILD_FLAGS=(--disable-index-store)
SWIFTC_JOBS="${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}"
if [[ -n "$JOBS" ]]; then
    BUILD_FLAGS+=(--jobs "$JOBS")
fi

RESULTS=()
FAILURES=0
# The one package: the runtime and its C target as they are, and of the OpenAI module only its top-level files (the
# re-export of the runtime); Generated/ is each spec's.
pkg="$WORK/package"
mkdir -p "$pkg/Sources/OpenAI"
cp -R "$ROOT/Sources/OpenAIRuntime" "$ROOT/Sources/CLibcurl" "$pkg/Sources/"
find "$ROOT/Sources/OpenAI" -maxdepth 1 -type f -name '*.swift' -exec cp {} "$pkg/Sources/OpenAI/" \;

# Without --full-build: the runtime is built once by SwiftPM, and each spec's modules are compiled against its
# module by `swiftc -emit-sil` (compile_modules below).
if [[ $GENERATE_ONLY -eq 0 && $FULL_BUILD -eq 0 ]]; then
    cp "$WORK/Package.swift" "$pkg/Package.swift"
    # The package whose runtime module the specs compile against: its root, its debug build's folder, and the folder
    # of modules the compiler may import (the runtime's alone: a checkout's build also holds today's OpenAI module,
    # which OpenAIAdmin must not import in place of the spec's).
    runtime_root="$pkg"
    if [[ -n "${OPENAI_RUNTIME_BUILD:-}" ]]; then
        runtime_root="$ROOT"
        PKG_BIN="$(cd "$OPENAI_RUNTIME_BUILD" && pwd -P)"
        if [[ ! -e "$PKG_BIN/Modules/OpenAIRuntime.swiftmodule" ]]; then
            echo "check-history: FAILED: OPENAI_RUNTIME_BUILD=$OPENAI_RUNTIME_BUILD has no Modules/OpenAIRuntime.swiftmodule" >&2
            exit 1
        fi
        RUNTIME_MODULES="$WORK/runtime-modules"
        mkdir -p "$RUNTIME_MODULES"
        for file in "$PKG_BIN/Modules"/OpenAIRuntime.swift*; do
            ln -s "$file" "$RUNTIME_MODULES/"
        done
        echo "check-history: the runtime of this checkout's debug build (OPENAI_RUNTIME_BUILD=$PKG_BIN)"
    else
        runtime_log="$WORK/runtime-build.log"
        start="$(now)"
        if ! swift build --package-path "$pkg" --target OpenAIRuntime "${BUILD_FLAGS[@]}" >"$runtime_log" 2>&1; then
            echo "check-history: FAILED: the runtime does not build; last lines of $runtime_log:" >&2
            tail -n 30 "$runtime_log" >&2
            exit 1
        fi
        PKG_BIN="$(swift build --package-path "$pkg" --show-bin-path)"
        RUNTIME_MODULES="$PKG_BIN/Modules"
        echo "check-history: runtime built in $(elapsed_since "$start")s ($PKG_BIN)"
    fi
    # What SwiftPM passes to every Swift target of the package in a debug build. The package name is the root
    # package's identity as a C99 identifier: its folder's name in lower case, each character other than a-z, 0-9
    # and _ (and a leading digit) replaced by _ (`swift-openai` gives swift_openai). The C module's map is SwiftPM's
    # (Linux only).
    SWIFTC_FLAGS=(-parse-as-library -swift-version 6
        -package-name "$(basename "$runtime_root" | tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9_]/_/g; s/^[0-9]/_/')"
        -Onone -enable-batch-mode -j "$SWIFTC_JOBS" -DSWIFT_PACKAGE -DDEBUG -I "$RUNTIME_MODULES"
        -module-cache-path "$PKG_BIN/ModuleCache")
    if [[ -f "$PKG_BIN/OpenAIRuntimeLibcurl.build/module.modulemap" ]]; then
        SWIFTC_FLAGS+=(-Xcc "-fmodule-map-file=$PKG_BIN/OpenAIRuntimeLibcurl.build/module.modulemap"
            -Xcc "-I$runtime_root/Sources/CLibcurl/include")
    fi
    mkdir -p "$WORK/modules"
fi

# Whether the spec gave the OpenAIAdmin module files (beyond the manifest its folder always gets).
has_admin() {
    [[ -n "$(find "$pkg/Sources/OpenAIAdmin/Generated" -name '*.swift' -not -name Manifest.swift 2>/dev/null | head -n 1)" ]]
}

# Compiles OpenAI and, when the spec has it, OpenAIAdmin with `swiftc -emit-sil`: SIL to /dev/null, diagnostics to
# the log. OpenAI's module goes to $WORK/modules for OpenAIAdmin to import (emitted only then: it is one more compiler
# job). Sources/OpenAICatalogue/Generated is the `openai` tool's, not the SDK's.
compile_modules() {
    local log="$1" sources=() file module=()
    rm -rf "$WORK/modules/OpenAI.swiftmodule"
    if has_admin; then
        module=(-emit-module -emit-module-path "$WORK/modules/OpenAI.swiftmodule")
    fi
    while IFS= read -r file; do sources+=("$file"); done < <(find "$pkg/Sources/OpenAI" -name '*.swift' \
        | LC_ALL=C sort)
    swiftc -module-name OpenAI "${SWIFTC_FLAGS[@]}" -emit-sil ${module[@]+"${module[@]}"} "${sources[@]}" \
        >/dev/null 2>"$log" || return
    [[ ${#module[@]} -gt 0 ]] || return 0
    sources=()
    while IFS= read -r file; do sources+=("$file"); done < <(find "$pkg/Sources/OpenAIAdmin/Generated" -name '*.swift' \
        | LC_ALL=C sort)
    swiftc -module-name OpenAIAdmin "${SWIFTC_FLAGS[@]}" -I "$WORK/modules" -emit-sil "${sources[@]}" \
        >/dev/null 2>>"$log"
}
for spec in "${SPECS[@]}"; do
    name="$(basename "$spec")"
    dir="$WORK/${name%.yaml}"
    mkdir -p "$dir"
    rm -rf "$pkg/Sources/OpenAI/Generated" "$pkg/Sources/OpenAIAdmin/Generated" "$pkg/Sources/OpenAICatalogue/Generated"

    printf '\n==> %s\n' "$name"
    gen_log="$dir/generate.log"
    start="$(now)"
    gen_status=0
    "$GENERATOR" generate --spec "$spec" --output "$pkg/Sources/OpenAI/Generated" \
        --admin-output "$pkg/Sources/OpenAIAdmin/Generated" --catalogue-output "$pkg/Sources/OpenAICatalogue/Generated" \
        >"$gen_log" 2>&1 || gen_status=$?
    gen_seconds="$(elapsed_since "$start")"
    # A spec with admin-key resources also gets the OpenAIAdmin module (Sources/OpenAIAdmin/Generated). The manifest is
    # rewritten only when it changes, so that SwiftPM keeps the runtime's build.
    manifest="$WORK/Package.swift"
    admin="no"
    if has_admin; then
        manifest="$WORK/Package.swift.admin"
        admin="yes"
    fi
    if ! cmp -s "$manifest" "$pkg/Package.swift"; then
        cp "$manifest" "$pkg/Package.swift"
    fi
    # The helpers, for specs from the oldest they support on.
    rm -rf "$pkg/Sources/OpenAI/Helpers"
    helpers="no"
    if [[ ! "${name%.yaml}" < "$HELPERS_OLDEST" ]]; then
        cp -R "$ROOT/Sources/OpenAI/Helpers" "$pkg/Sources/OpenAI/Helpers"
        helpers="yes"
    fi
    gen_warnings="$(generator_warnings "$gen_log")"
    if [[ $gen_status -eq 0 ]]; then
        gen_result="OK"
        echo "generate: OK in ${gen_seconds}s, generator warnings: $gen_warnings"
        grep -Ev '^[[:space:]]*(warning|.*: warning)' "$gen_log" | tail -n 15 | sed 's/^/    /' || true
    else
        gen_result="FAIL"
        echo "generate: FAIL (exit status $gen_status) after ${gen_seconds}s; last lines of the output:"
        tail -n 30 "$gen_log" | sed 's/^/    /'
    fi

    build_result="-"
    build_seconds="-"
    build_warnings="-"
    if [[ $gen_status -eq 0 && $GENERATE_ONLY -eq 0 ]]; then
        build_log="$dir/build.log"
        start="$(now)"
        build_status=0
        if [[ $FULL_BUILD -eq 1 ]]; then
            swift build --package-path "$pkg" "${BUILD_FLAGS[@]}" >"$build_log" 2>&1 || build_status=$?
        else
            compile_modules "$build_log" || build_status=$?
        fi
        build_seconds="$(elapsed_since "$start")"
        build_warnings="$(compiler_warnings "$build_log")"
        if [[ $build_status -eq 0 ]]; then
            build_result="OK"
            echo "compile:  OK in ${build_seconds}s (helpers: $helpers, OpenAIAdmin: $admin), compiler warnings: $build_warnings"
            if [[ "$name" == "$HELPERS_BOUNDARY" && $FULL_BUILD -eq 0 ]]; then
                # Spec/helpers-oldest-spec.txt is exact: the helpers do not compile against the spec just before it.
                cp -R "$ROOT/Sources/OpenAI/Helpers" "$pkg/Sources/OpenAI/Helpers"
                boundary_start="$(now)"
                if compile_modules "$dir/helpers-boundary.log"; then
                    build_result="FAIL"
                    echo "compile:  FAIL: the helpers compile against $name too, which is older than" \
                        "Spec/helpers-oldest-spec.txt ($HELPERS_OLDEST): set that file to ${name%.yaml} (or to an older" \
                        "spec the helpers still compile against), so Scripts/spec/update-spec.sh warns only where they fail"
                else
                    echo "helpers:  do not compile against $name, the newest spec older than $HELPERS_OLDEST, as" \
                        "Spec/helpers-oldest-spec.txt says ($(grep -c ': error: ' "$dir/helpers-boundary.log") error(s), $(elapsed_since "$boundary_start")s)"
                fi
                rm -rf "$pkg/Sources/OpenAI/Helpers"
            fi
        else
            build_result="FAIL"
            echo "compile:  FAIL (exit status $build_status) after ${build_seconds}s (helpers: $helpers, OpenAIAdmin: $admin); first errors:"
            { grep -E ': error: ' "$build_log" || tail -n 30 "$build_log"; } | awk '!seen[$0]++ && shown++ < 30 { print "    " $0 }'
        fi
    fi
    if [[ "$gen_result" == "FAIL" || "$build_result" == "FAIL" ]]; then
        FAILURES=$((FAILURES + 1))
    fi
    RESULTS+=("$(printf '%-28s %-4s %7ss %8s   %-4s %7s %8s   %s' "$name" "$gen_result" "$gen_seconds" "$gen_warnings" \
        "$build_result" "$build_seconds$([[ "$build_seconds" == "-" ]] || echo s)" "$build_warnings" "$helpers")")
done

if [[ $FULL_BUILD -eq 1 ]]; then
    compiler="swift build"
else
    compiler="swiftc -emit-sil"
fi
printf '\n==> Summary (generate, and compile on the runtime target with %s; the helpers from %s on)\n' "$compiler" \
    "$HELPERS_OLDEST"
printf '%-28s %-4s %8s %8s   %-4s %7s %8s   %s\n' "spec" "gen" "time" "gen-warn" "build" "time" "swift-warn" "helpers"
for row in "${RESULTS[@]}"; do
    printf '%s\n' "$row"
done
if [[ $FAILURES -ne 0 ]]; then
    printf '\ncheck-history: FAILED: %d of %d spec(s) failed (%ss in all).\n' "$FAILURES" "${#SPECS[@]}" \
        "$(elapsed_since "$TOTAL_START")"
    exit 1
fi
if [[ $GENERATE_ONLY -eq 1 ]]; then
    printf '\ncheck-history: all %d spec(s) generate (compile skipped: --generate-only; %ss in all).\n' \
        "${#SPECS[@]}" "$(elapsed_since "$TOTAL_START")"
else
    printf '\ncheck-history: all %d spec(s) generate and compile (%ss in all).\n' "${#SPECS[@]}" \
        "$(elapsed_since "$TOTAL_START")"
fi
