#!/usr/bin/env bash
# Builds the DocC documentation of the OpenAI and OpenAIRealtime modules and fails on any DocC warning.
#
# Usage: Scripts/docs/build-docs.sh [--convert-only] [--module NAME] [--catalog DIR] [--graphs DIR] [--output DIR]
#   Phases: (1) the debug build of the documented modules, only when a module is missing or older than a source file
#           (Scripts/test.sh calls this script after `swift build --build-tests`, so nothing is built then);
#           (2) their symbol graphs (`swift symbolgraph-extract`: public symbols without synthesized members such as
#           `!=` and `hash(into:)`, a fifth of OpenAI's; OpenAI's with the re-exported OpenAIRuntime, OpenAIRealtime's
#           with the re-exported OpenAIWebSocket); (3) `docc convert` of each catalog (Sources/OpenAI/OpenAI.docc,
#           Sources/OpenAIRealtime/OpenAIRealtime.docc) with --warnings-as-errors, for static hosting: OpenAI's with
#           the link metadata another archive resolves links against, OpenAIRealtime's against OpenAI's archive
#           (`--dependency`: its declarations link the OpenAI types they name, and ``/OpenAI/Type`` links resolve);
#           then, with both modules, `docc merge` of the two into <output>/swift-openai.doccarchive, the site to host
#           (its pages link each other; Scripts/docs/check-docs-site.py opens it in a browser).
#   --convert-only  phase 3 only, with the symbol graphs a previous run left in the graphs folder (no swift command).
#   --module NAME   only this module: OpenAI or OpenAIRealtime (default: both).
#   --catalog DIR   the catalog to convert instead of Sources/NAME/NAME.docc (needs --module; test-build-docs.sh).
#   --graphs DIR    the symbol graphs folder, DIR/<Module>/ (default: <scratch>/docs/symbol-graphs).
#   --output DIR    where DIR/<Module>.doccarchive and DIR/<Module>.diagnostics.json go (default: <scratch>/docs).
# Environment:
#   SCRATCH_PATH=DIR  SwiftPM build folder instead of .build: its debug build is documented, <scratch> is DIR.
#   DOCC=PATH         the docc executable (default: `docc` on PATH, `xcrun --find docc`, else the one beside `swift`).
# Prints each phase's time, every DocC diagnostic (file:line:column, severity, text) with a count by kind, the
# archive paths and how to look at them locally.
#
# Exit status: 0 when every module converted without a warning; 1 when a build, an extraction or a conversion failed,
# or DocC reported any warning or error; 2 on a usage error.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

usage() {
    sed -n '4,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

CONVERT_ONLY=0
ONLY_MODULE=""
CATALOG_OVERRIDE=""
GRAPHS_DIR=""
OUTPUT_DIR=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --convert-only) CONVERT_ONLY=1 ;;
        --module) [[ $# -ge 2 ]] || usage; ONLY_MODULE="$2"; shift ;;
        --catalog) [[ $# -ge 2 ]] || usage; CATALOG_OVERRIDE="$2"; shift ;;
        --graphs) [[ $# -ge 2 ]] || usage; GRAPHS_DIR="$2"; shift ;;
        --output) [[ $# -ge 2 ]] || usage; OUTPUT_DIR="$2"; shift ;;
        -h | --help) usage ;;
        *) echo "build-docs: unknown argument: $1" >&2; usage ;;
    esac
    shift
done

# The documented modules (each target's sources are in Sources/<target>/; OpenAIRealtime depends on OpenAI, so
# building it builds both) and the internal module each re-exports, whose symbols its documentation shows.
ALL_MODULES=(OpenAI OpenAIRealtime)
reexported_module() {
    case "$1" in
        OpenAI) echo OpenAIRuntime ;;
        OpenAIRealtime) echo OpenAIWebSocket ;;
    esac
}

MODULES=("${ALL_MODULES[@]}")
if [[ -n "$ONLY_MODULE" ]]; then
    [[ -n "$(reexported_module "$ONLY_MODULE")" ]] || {
        echo "build-docs: --module must be one of: ${ALL_MODULES[*]} (not $ONLY_MODULE)" >&2
        exit 2
    }
    MODULES=("$ONLY_MODULE")
fi
if [[ -n "$CATALOG_OVERRIDE" ]]; then
    [[ -n "$ONLY_MODULE" ]] || { echo "build-docs: --catalog needs --module" >&2; exit 2; }
    [[ -d "$CATALOG_OVERRIDE" ]] || { echo "build-docs: no catalog at $CATALOG_OVERRIDE" >&2; exit 2; }
fi

set_swift_flags
SCRATCH="${SCRATCH_PATH:-$ROOT/.build}"
GRAPHS_DIR="${GRAPHS_DIR:-$SCRATCH/docs/symbol-graphs}"
OUTPUT_DIR="${OUTPUT_DIR:-$SCRATCH/docs}"

if [[ -n "${DOCC:-}" ]]; then
    :
elif command -v docc >/dev/null 2>&1; then
    DOCC="$(command -v docc)"
elif command -v xcrun >/dev/null 2>&1 && xcrun --find docc >/dev/null 2>&1; then
    DOCC="$(xcrun --find docc)"
else
    DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[[ -x "$DOCC" ]] || { echo "build-docs: docc not found (set DOCC=PATH); it ships with the Swift toolchain" >&2; exit 1; }

PHASE_NAMES=()
PHASE_TIMES=()
phase_done() {
    PHASE_NAMES+=("$1")
    PHASE_TIMES+=("$(elapsed_since "$2")")
    printf '    %s: %ss\n' "$1" "${PHASE_TIMES[${#PHASE_TIMES[@]} - 1]}"
}

# --- (1) build ---------------------------------------------------------------------------------------------------

if [[ $CONVERT_ONLY -eq 0 ]]; then
    printf '==> [1/3] Modules (debug build)\n'
    start="$(now)"
    BIN_DIR="$(swift_bin_path debug)"
    MODULES_DIR="$BIN_DIR/Modules"
    reason=""
    for module in "${MODULES[@]}"; do
        for needed in "$module" "$(reexported_module "$module")"; do
            file="$MODULES_DIR/$needed.swiftmodule"
            if [[ ! -e "$file" ]]; then
                reason="$needed.swiftmodule is missing"
                break 2
            fi
            newer="$(find "Sources/$needed" -name '*.swift' -newer "$file" -print -quit)"
            if [[ -n "$newer" ]]; then
                reason="$newer is newer than $needed.swiftmodule"
                break 2
            fi
        done
    done
    if [[ -n "$reason" ]]; then
        # One target: the last module listed, which depends on the others.
        target="${MODULES[${#MODULES[@]} - 1]}"
        echo "$reason: + swift build --target $target"
        swift build --target "$target" ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
    else
        echo "Up to date in $MODULES_DIR."
    fi
    phase_done "build" "$start"

    # --- (2) symbol graphs ---------------------------------------------------------------------------------------

    printf '\n==> [2/3] Symbol graphs (swift symbolgraph-extract)\n'
    TRIPLE="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
    # The C modules the Swift modules import, without which loading them fails ("missing required module 'OpenAIRuntimeLibcurl'"):
    # OpenAIRuntimeLibcurl (a C target: SwiftPM writes its module map into the build folder) and OpenAIWebSocketOpenSSL (a system library
    # target with its own module map); on macOS, the SDK.
    EXTRACT_FLAGS=()
    for map in "$BIN_DIR/OpenAIRuntimeLibcurl.build/module.modulemap" "$ROOT/Sources/COpenSSL/module.modulemap"; do
        if [[ -f "$map" ]]; then EXTRACT_FLAGS+=(-Xcc "-fmodule-map-file=$map"); fi
    done
    EXTRACT_FLAGS+=(-Xcc "-I$ROOT/Sources/CLibcurl/include")
    if command -v xcrun >/dev/null 2>&1; then
        EXTRACT_FLAGS+=(-sdk "$(xcrun --sdk macosx --show-sdk-path)")
    fi
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists openssl; then
        for flag in $(pkg-config --cflags-only-I openssl); do EXTRACT_FLAGS+=(-Xcc "$flag"); done
    fi
    for module in "${MODULES[@]}"; do
        start="$(now)"
        rm -rf "${GRAPHS_DIR:?}/$module"
        mkdir -p "$GRAPHS_DIR/$module"
        reexported="$(reexported_module "$module")"
        echo "+ swift symbolgraph-extract -module-name $module -experimental-allowed-reexported-modules=$reexported ..."
        swift symbolgraph-extract -module-name "$module" -target "$TRIPLE" -I "$MODULES_DIR" "${EXTRACT_FLAGS[@]}" \
            -module-cache-path "$SCRATCH/docs/module-cache" -minimum-access-level public \
            -experimental-allowed-reexported-modules="$reexported" -emit-extension-block-symbols \
            -skip-synthesized-members -output-dir "$GRAPHS_DIR/$module"
        # The re-exported module's symbols must be in the module's own graph (as DocC shows them: in `module`).
        python3 "$ROOT/Scripts/lib/docs_check.py" graph "$GRAPHS_DIR/$module" "$module" "$reexported"
        phase_done "extract $module" "$start"
    done
else
    for module in "${MODULES[@]}"; do
        [[ -f "$GRAPHS_DIR/$module/$module.symbols.json" ]] || {
            echo "build-docs: --convert-only: no symbol graph at $GRAPHS_DIR/$module (run Scripts/docs/build-docs.sh first)" >&2
            exit 1
        }
    done
fi

# --- (3) convert -------------------------------------------------------------------------------------------------

printf '\n==> [3/3] Documentation archives (docc convert --warnings-as-errors)\n'
mkdir -p "$OUTPUT_DIR"
FAILED=()
# OpenAIRealtime's links to OpenAI types resolve against OpenAI's archive: the one converted just before, else the one
# an earlier run left in this output folder or in the default one (<scratch>/docs).
OPENAI_ARCHIVE="$OUTPUT_DIR/OpenAI.doccarchive"
if [[ " ${MODULES[*]} " == *" OpenAIRealtime "* && " ${MODULES[*]} " != *" OpenAI "* ]]; then
    [[ -f "$OPENAI_ARCHIVE/linkable-entities.json" ]] || OPENAI_ARCHIVE="$SCRATCH/docs/OpenAI.doccarchive"
    [[ -f "$OPENAI_ARCHIVE/linkable-entities.json" ]] || {
        echo "build-docs: OpenAIRealtime's documentation links to OpenAI's archive, and there is none in $OUTPUT_DIR" \
            "or $SCRATCH/docs: run Scripts/docs/build-docs.sh without --module first" >&2
        exit 1
    }
fi
for module in "${MODULES[@]}"; do
    start="$(now)"
    catalog="${CATALOG_OVERRIDE:-$ROOT/Sources/$module/$module.docc}"
    archive="$OUTPUT_DIR/$module.doccarchive"
    diagnostics="$OUTPUT_DIR/$module.diagnostics.json"
    log="$OUTPUT_DIR/$module.docc.log"
    rm -rf "$archive" "$diagnostics"
    # Every archive carries the link metadata (linkable-entities.json, link-hierarchy.json) that --dependency reads;
    # the flag also turns on resolving links against dependencies.
    LINK_FLAGS=(--enable-experimental-external-link-support)
    if [[ "$module" == OpenAIRealtime ]]; then LINK_FLAGS+=(--dependency "$OPENAI_ARCHIVE"); fi
    echo "+ docc convert ${catalog#"$ROOT"/} --additional-symbol-graph-dir ${GRAPHS_DIR#"$ROOT"/}/$module" \
        "--output-dir ${archive#"$ROOT"/} ${LINK_FLAGS[*]#"$ROOT"/} --warnings-as-errors"
    status=0
    "$DOCC" convert "$catalog" --additional-symbol-graph-dir "$GRAPHS_DIR/$module" --output-dir "$archive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "com.github.swift-openai.$module" \
        --fallback-default-module-kind "Swift Package" --transform-for-static-hosting "${LINK_FLAGS[@]}" \
        --warnings-as-errors --diagnostics-file "$diagnostics" >"$log" 2>&1 || status=$?
    # Every diagnostic, counted by severity and kind (Scripts/lib/docs_check.py); the log holds DocC's own output.
    python3 "$ROOT/Scripts/lib/docs_check.py" diagnostics "$diagnostics" "$log" "$module" "$status" ||
        FAILED+=("$module")
    phase_done "convert $module" "$start"
done

# The site to host: both archives in one, so that OpenAIRealtime's links to OpenAI pages lead somewhere.
SITE="$OUTPUT_DIR/swift-openai.doccarchive"
if [[ ${#FAILED[@]} -eq 0 && ${#MODULES[@]} -eq ${#ALL_MODULES[@]} ]]; then
    start="$(now)"
    rm -rf "$SITE"
    echo "+ docc merge OpenAI.doccarchive OpenAIRealtime.doccarchive --output-path ${SITE#"$ROOT"/}"
    "$DOCC" merge "$OUTPUT_DIR/OpenAI.doccarchive" "$OUTPUT_DIR/OpenAIRealtime.doccarchive" \
        --synthesized-landing-page-name swift-openai --synthesized-landing-page-topics-style list \
        --output-path "$SITE" >"$OUTPUT_DIR/merge.log" 2>&1 || {
        cat "$OUTPUT_DIR/merge.log"
        FAILED+=(merge)
    }
    phase_done "merge" "$start"
fi

printf '\n==> Summary\n'
for i in "${!PHASE_NAMES[@]}"; do
    printf '  %8ss  %s\n' "${PHASE_TIMES[$i]}" "${PHASE_NAMES[$i]}"
done
for module in "${MODULES[@]}" swift-openai; do
    [[ "$module" != swift-openai || -d "$SITE" ]] || continue
    if [[ -d "$OUTPUT_DIR/$module.doccarchive" ]]; then
        printf '  archive: %s (%s)\n' "$OUTPUT_DIR/$module.doccarchive" "$(du -sh "$OUTPUT_DIR/$module.doccarchive" | cut -f1)"
    else
        printf '  archive: %s not written (DocC writes none when it reports an error)\n' "$OUTPUT_DIR/$module.doccarchive"
    fi
done
if [[ ${#FAILED[@]} -gt 0 ]]; then
    printf '\nbuild-docs: FAILED: DocC reported warnings or errors for %s (listed above).\n' "${FAILED[*]}" >&2
    exit 1
fi
cat <<EOF

build-docs: no DocC warnings. To read the documentation locally:
  python3 -m http.server --directory "$( [[ -d "$SITE" ]] && echo "$SITE" || echo "$OUTPUT_DIR/${MODULES[0]}.doccarchive")" 8000
  then open http://localhost:8000/documentation/$(printf '%s' "${MODULES[0]}" | tr '[:upper:]' '[:lower:]')/
  (a host serves the site's JSON compressed: see CONTRIBUTING.md, "Documentation")
  or, converting again as it serves:
  docc preview "${CATALOG_OVERRIDE:-Sources/${MODULES[0]}/${MODULES[0]}.docc}" \\
      --additional-symbol-graph-dir "$GRAPHS_DIR/${MODULES[0]}"
EOF
