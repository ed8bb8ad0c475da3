#!/usr/bin/env bash
# Generates the SDK from every historical spec in ../shared/spec/history/*.yaml and compiles each result together
# with the hand-written runtime (a copy of Sources/OpenAI without Generated/ and Helpers/) in a temporary Swift package.
#
# Usage: Scripts/check-history.sh [--only NAME] [--jobs N] [--generate-only] [--keep]
#   --only NAME       check one spec: its file name, the name without .yaml, or a unique prefix (e.g. 2025-04).
#   --jobs N          passed to `swift build --jobs N` (compile parallelism; specs are always checked one at a time).
#   --generate-only   run the generator only; skip compiling.
#   --keep            keep the temporary packages and logs (their folder is printed).
# Environment:
#   HISTORY_DIR=DIR        specs folder (default ../shared/spec/history beside the repository).
#   JOBS=N                 same as --jobs N.
#   OPENAI_GENERATOR=PATH  use this generator binary instead of building it (swift build -c release).
#   SCRATCH_PATH=DIR       SwiftPM build folder for building the generator (default .build).
#
# Exit status: 0 when every spec generates and compiles, or when the history folder does not exist (skipped);
#              1 when any spec fails or the generator cannot be built; 2 on a usage error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

# Prints the usage lines of the header above; exits with the given status (2 unless told).
usage() {
    sed -n '5,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit "${1:-2}"
}

ONLY=""
JOBS="${JOBS:-}"
GENERATE_ONLY=0
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
if [[ ! -d "$HISTORY_DIR" ]]; then
    echo "check-history: SKIPPED: no history folder at $HISTORY_DIR (it lives in ../shared beside the repository)."
    exit 0
fi

# The specs to check, sorted by name (names start with the date).
SPECS=()
while IFS= read -r spec; do
    SPECS+=("$spec")
done < <(find "$HISTORY_DIR" -maxdepth 1 -type f -name '*.yaml' | LC_ALL=C sort)
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

now() {
    if [[ -n "${EPOCHREALTIME:-}" ]]; then
        printf '%s\n' "${EPOCHREALTIME/,/.}"
    else
        python3 -c 'import time; print(time.time())'
    fi
}
elapsed_since() {
    python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$1" "$(now)"
}

# --- the generator ----------------------------------------------------------------------------------

if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
    GENERATOR="$OPENAI_GENERATOR"
    echo "check-history: using OPENAI_GENERATOR=$GENERATOR"
else
    SWIFT_FLAGS=()
    if [[ -n "${SCRATCH_PATH:-}" ]]; then
        SWIFT_FLAGS+=(--scratch-path "$SCRATCH_PATH")
    fi
    echo "check-history: building the generator (swift build -c release --product openai-generator)"
    if ! swift build -c release --product openai-generator ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}; then
        echo "check-history: FAILED: the generator does not build." >&2
        exit 1
    fi
    GENERATOR="$(swift build -c release --show-bin-path ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"})/openai-generator"
fi
if [[ ! -x "$GENERATOR" ]]; then
    echo "check-history: FAILED: no generator executable at $GENERATOR" >&2
    exit 1
fi

# --- the temporary package's manifest, mirroring the root Package.swift ------------------------------

WORK="$(mktemp -d "${TMPDIR:-/tmp}/openai-history.XXXXXX")"
cleanup() {
    if [[ $KEEP -eq 1 ]]; then
        echo "check-history: kept $WORK"
    else
        rm -rf "$WORK"
        # SwiftPM also leaves empty lock files named after each .build path (slashes as underscores).
        rm -f "${TMPDIR:-/tmp}/$(printf '%s' "$WORK" | tr '/' '_')"_*.lock
    fi
}
trap cleanup EXIT

# Writes Package.swift for a one-target package, and Package.swift.admin that adds the OpenAIAdmin target: the root
# manifest's tools version, platforms and the OpenAI target's swiftSettings (if any), in Swift 6 language mode. Warns about OpenAI target settings it cannot copy.
python3 - "$ROOT/Package.swift" "$WORK/Package.swift" <<'PY'
import re, sys

text = open(sys.argv[1]).read()
tools = text.splitlines()[0].strip()
if not tools.startswith("// swift-tools-version"):
    sys.exit("check-history: the root Package.swift does not start with a swift-tools-version line")

def balanced(s, start):
    """Returns s[start:end] where s[start] is an opening bracket and end is just past its match."""
    pairs = {"(": ")", "[": "]"}
    stack = []
    for i in range(start, len(s)):
        c = s[i]
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return s[start:i + 1]
    raise ValueError("unbalanced brackets")

m = re.search(r"platforms:\s*\[", text)
platforms = balanced(text, m.end() - 1) if m else None

settings = None
m = re.search(r'\.target\(\s*name:\s*"OpenAI"\s*,', text)
if m:
    block = balanced(text, m.end() - len(m.group(0)) + len(".target"))
    s = re.search(r"swiftSettings:\s*\[", block)
    if s:
        settings = balanced(block, s.end() - 1)
    for key in ("dependencies", "exclude", "resources", "cSettings", "linkerSettings"):
        if key == "exclude" and re.search(r'exclude:\s*\[\s*"Generated/Admin"\s*\]', block):
            continue  # the admin module's folder: the admin manifest below excludes it too
        if key == "dependencies":
            d = re.search(r"dependencies:\s*\[", block)
            if d and re.findall(r'name:\s*"([^"]+)"', balanced(block, d.end() - 1)) == ["CLibcurl"]:
                continue  # Linux direct uploads (Runtime/CurlUpload.swift): compiled out without the module
        if re.search(key + r":\s*\[\s*[^\]\s]", block):
            print(f"check-history: warning: the OpenAI target has {key}; the temporary package does not copy them",
                  file=sys.stderr)

lines = [tools, "import PackageDescription", "", "let package = Package(", '    name: "OpenAIHistoryCheck",']
if platforms:
    lines.append(f"    platforms: {platforms},")
# Two manifests: one for output without an admin module, one with `OpenAIAdmin` (the generated folder's Admin/).
for admin, path in ((False, sys.argv[2]), (True, sys.argv[2] + ".admin")):
    products = '.library(name: "OpenAI", targets: ["OpenAI"])'
    target = '.target(name: "OpenAI", path: "Sources/OpenAI"'
    if admin:
        products += ', .library(name: "OpenAIAdmin", targets: ["OpenAIAdmin"])'
        target += ', exclude: ["Generated/Admin"]'
    if settings:
        target += f", swiftSettings: {settings}"
    target += ")"
    if admin:
        target += ', .target(name: "OpenAIAdmin", dependencies: ["OpenAI"], path: "Sources/OpenAI/Generated/Admin")'
    manifest = lines + [f"    products: [{products}],", f"    targets: [{target}],", "    swiftLanguageModes: [.v6]", ")"]
    open(path, "w").write("\n".join(manifest) + "\n")
PY

echo "check-history: ${#SPECS[@]} spec(s) from $HISTORY_DIR; temporary packages under $WORK"
echo "check-history: temporary Package.swift:"
sed 's/^/    /' "$WORK/Package.swift"

# Prints the generator's warning count from its output: a "warnings: N" or "N warnings" summary if it prints one,
# else the number of lines starting with "warning", else "?".
generator_warnings() {
    python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
m = re.search(r"(?im)^\s*warnings?\b\D{0,20}?(\d+)", text) or re.search(r"(?i)\b(\d+)\s+warnings?\b", text)
if m:
    print(m.group(1))
else:
    n = len(re.findall(r"(?im)^\s*(?:\S+:\s*)?warning\b", text))
    print(n if n else "?")
PY
}

# Prints the number of distinct compiler warnings in a build log.
compiler_warnings() {
    { grep -E ': warning: ' "$1" || true; } | LC_ALL=C sort -u | wc -l | tr -d ' '
}

BUILD_FLAGS=()
if [[ -n "$JOBS" ]]; then
    BUILD_FLAGS+=(--jobs "$JOBS")
fi

RESULTS=()
FAILURES=0
for spec in "${SPECS[@]}"; do
    name="$(basename "$spec")"
    dir="$WORK/${name%.yaml}"
    pkg="$dir/package"
    mkdir -p "$pkg/Sources"
    cp "$WORK/Package.swift" "$pkg/Package.swift"
    cp -R "$ROOT/Sources/OpenAI" "$pkg/Sources/OpenAI"
    # Generated/ is what this run makes; Helpers/ is hand-written against the locked spec's types
    # (accumulators, chunked uploads...), which older specs name differently.
    rm -rf "$pkg/Sources/OpenAI/Generated" "$pkg/Sources/OpenAI/Helpers"

    printf '\n==> %s\n' "$name"
    gen_log="$dir/generate.log"
    start="$(now)"
    gen_status=0
    "$GENERATOR" generate --spec "$spec" --output "$pkg/Sources/OpenAI/Generated" >"$gen_log" 2>&1 || gen_status=$?
    gen_seconds="$(elapsed_since "$start")"
    # A spec with admin-key resources also gets the OpenAIAdmin module (Generated/Admin/).
    if [[ -d "$pkg/Sources/OpenAI/Generated/Admin" ]]; then
        cp "$WORK/Package.swift.admin" "$pkg/Package.swift"
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
        swift build --package-path "$pkg" ${BUILD_FLAGS[@]+"${BUILD_FLAGS[@]}"} >"$build_log" 2>&1 || build_status=$?
        build_seconds="$(elapsed_since "$start")"
        build_warnings="$(compiler_warnings "$build_log")"
        if [[ $build_status -eq 0 ]]; then
            build_result="OK"
            echo "compile:  OK in ${build_seconds}s, compiler warnings: $build_warnings"
        else
            build_result="FAIL"
            echo "compile:  FAIL (exit status $build_status) after ${build_seconds}s; first errors:"
            { grep -E ': error: ' "$build_log" || tail -n 30 "$build_log"; } | awk '!seen[$0]++ && shown++ < 30 { print "    " $0 }'
        fi
    fi
    if [[ "$gen_result" == "FAIL" || "$build_result" == "FAIL" ]]; then
        FAILURES=$((FAILURES + 1))
    fi
    RESULTS+=("$(printf '%-28s %-4s %7ss %8s   %-4s %7s %8s' "$name" "$gen_result" "$gen_seconds" "$gen_warnings" \
        "$build_result" "$build_seconds$([[ "$build_seconds" == "-" ]] || echo s)" "$build_warnings")")
    if [[ $KEEP -eq 0 ]]; then
        rm -rf "$pkg/.build"
    fi
done

printf '\n==> Summary (generate and compile with the hand-written runtime)\n'
printf '%-28s %-4s %8s %8s   %-4s %7s %8s\n' "spec" "gen" "time" "gen-warn" "build" "time" "swift-warn"
for row in "${RESULTS[@]}"; do
    printf '%s\n' "$row"
done
if [[ $FAILURES -ne 0 ]]; then
    printf '\ncheck-history: FAILED: %d of %d spec(s) failed.\n' "$FAILURES" "${#SPECS[@]}"
    exit 1
fi
if [[ $GENERATE_ONLY -eq 1 ]]; then
    printf '\ncheck-history: all %d spec(s) generate (compile skipped: --generate-only).\n' "${#SPECS[@]}"
else
    printf '\ncheck-history: all %d spec(s) generate and compile.\n' "${#SPECS[@]}"
fi
