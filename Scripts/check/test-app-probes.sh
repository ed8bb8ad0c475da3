#!/usr/bin/env bash
# The code of README.md and BEHAVIOUR.md compiled as apps configure their targets, then run against the local test
# server.
#
# Scripts/check/app-probes/make_probe_package.py writes a package (under the build folder) whose executable targets each
# hold the README's Quick start, Five everyday tasks and Structured outputs blocks and BEHAVIOUR.md's Binary replies
# and Webhooks blocks, depend on this package's `OpenAI` product by path, and differ only in their Swift settings, all
# with warnings as errors:
#   XcodeAppDefaults        a new Xcode 26 app target: default MainActor isolation, the approachable-concurrency
#                           features (NonisolatedNonsendingByDefault, InferIsolatedConformances, ...),
#                           MemberImportVisibility, the Swift 5 language mode;
#   XcodeAppDefaultsSwift6  the same in the Swift 6 language mode;
#   Swift5Mode              the Swift 5 language mode and nothing else;
#   Swift6Complete          the Swift 6 language mode (complete concurrency checking).
# In the direct build (below) the DocC articles' blocks are type-checked too (Scripts/check/app-probes/make_docc_probe.py).
# Each probe then runs against Scripts/servers/testserver (on ../shared/spec/openapi.yaml and ../shared/fixtures), configured
# from the environment as the README says (`OpenAIClient()` reads OPENAI_API_KEY, OPENAI_BASE_URL and
# OPENAI_CUSTOM_HEADERS); Scripts/check/app-probes/check_probe_run.py checks every request it made against the spec and
# its output, and the probes' outputs must be the same.
#
# Usage: Scripts/check/test-app-probes.sh          (no arguments)
# Environment:
#   APP_PROBES_BUILD=direct (default)  compile each probe with swiftc, its settings as flags, against the modules and
#                       objects of this package's debug build (SCRATCH_PATH or .build; build it first): the SDK is not
#                       compiled again (about 110 s from clean);
#   APP_PROBES_BUILD=package  build the probe package with SwiftPM (the SDK compiled again as its path dependency, in
#                       SCRATCH_PATH/app-probes/scratch), as an app's package does.
#   SCRATCH_PATH        the root build folder (default .build); the probes build in SCRATCH_PATH/app-probes.
#   OPENAI_TEST_PYTHON  the Python for the test server (default Scripts/.venv/bin/python).
#   CI=true             without ../shared or the Python, fail instead of skipping the run (the build still runs).
# Exit status: 0 every probe built and ran as expected (or, outside CI, the run was skipped); 1 otherwise.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

if [[ $# -ne 0 ]]; then
    echo "usage: Scripts/check/test-app-probes.sh   (takes no arguments)" >&2
    exit 2
fi

PROBES_DIR="${SCRATCH_PATH:-$ROOT/.build}/app-probes"
PACKAGE="$PROBES_DIR/package"
mkdir -p "$PROBES_DIR"
probes="$(python3 Scripts/check/app-probes/make_probe_package.py "$ROOT" "$PACKAGE")"
read -r -a PROBES <<<"$probes"
if [[ ${#PROBES[@]} -eq 0 ]]; then
    echo "test-app-probes: FAILED: make_probe_package.py named no probe" >&2
    exit 1
fi
echo "test-app-probes: ${#PROBES[@]} probes (${PROBES[*]}) in $PACKAGE"

if [[ "${APP_PROBES_BUILD:-direct}" == "package" ]]; then
    # SwiftPM keeps a path dependency's list of source files from the probes' last build: when a file was added to or
    # removed from the SDK since, the probes' build folder is made anew.
    tree_files "$ROOT" | tr '\0' '\n' | grep -E '^Sources/.*\.(swift|c|h|modulemap)$' | LC_ALL=C sort >"$PROBES_DIR/sources.new"
    if [[ -d "$PROBES_DIR/scratch" ]] && ! cmp -s "$PROBES_DIR/sources.new" "$PROBES_DIR/sources.list"; then
        echo "test-app-probes: the SDK's files changed since the last probe build; building anew"
        rm -rf "$PROBES_DIR/scratch"
    fi
    mv "$PROBES_DIR/sources.new" "$PROBES_DIR/sources.list"
    start="$(now)"
    echo "+ swift build --package-path $PACKAGE --scratch-path $PROBES_DIR/scratch"
    swift build --package-path "$PACKAGE" --scratch-path "$PROBES_DIR/scratch"
    BIN_DIR="$(swift build --package-path "$PACKAGE" --scratch-path "$PROBES_DIR/scratch" --show-bin-path)"
    echo "test-app-probes: built in $(elapsed_since "$start")s"
else
    # Each probe's two files compiled by swiftc with its settings' flags (swiftc-flags.json), against the modules and
    # objects of this package's debug build, as SwiftPM compiles an app target against a dependency it built.
    set_swift_flags
    SDK_BIN="$(swift_bin_path debug)"
    if [[ ! -f "$SDK_BIN/Modules/OpenAI.swiftmodule" && ! -d "$SDK_BIN/Modules/OpenAI.swiftmodule" ]]; then
        echo "test-app-probes: FAILED: no OpenAI module in $SDK_BIN/Modules: build first (swift build)," \
            "or set APP_PROBES_BUILD=package" >&2
        exit 1
    fi
    # The SDK's objects the OpenAI product links (OpenAI, OpenAIRuntime and, on Linux, its C module) and the C
    # module's map, which a client of OpenAIRuntime needs to import it.
    OBJECTS=()
    for target in OpenAI OpenAIRuntime OpenAIRuntimeLibcurl; do
        [[ -d "$SDK_BIN/$target.build" ]] || continue
        while IFS= read -r object; do OBJECTS+=("$object"); done < <(swiftpm_objects "$SDK_BIN" "$target")
    done
    C_MODULE=()
    if [[ -f "$SDK_BIN/OpenAIRuntimeLibcurl.build/module.modulemap" ]]; then
        C_MODULE=(-Xcc "-fmodule-map-file=$SDK_BIN/OpenAIRuntimeLibcurl.build/module.modulemap"
            -Xcc "-I$ROOT/Sources/CLibcurl/include" -ldl)
    fi
    BIN_DIR="$PROBES_DIR/bin"
    mkdir -p "$BIN_DIR"
    start="$(now)"
    for probe in "${PROBES[@]}"; do
        flags=()
        while IFS= read -r flag; do flags+=("$flag"); done < <(python3 "$ROOT/Scripts/lib/script_tools.py" json-lines "$PACKAGE/swiftc-flags.json" "$probe")
        echo "+ swiftc -module-name $probe ${flags[*]} $PACKAGE/Sources/$probe/*.swift (against $SDK_BIN)"
        swiftc -module-name "$probe" "${flags[@]}" -Onone -g -I "$SDK_BIN/Modules" ${C_MODULE[@]+"${C_MODULE[@]}"} \
            "$PACKAGE/Sources/$probe/"*.swift "${OBJECTS[@]}" \
            -o "$BIN_DIR/$probe"
    done
    echo "test-app-probes: built in $(elapsed_since "$start")s"

    # The DocC articles' blocks (Scripts/check/app-probes/make_docc_probe.py: a file per article, a function per block),
    # type-checked in the Swift 6 language mode with MemberImportVisibility. They are fragments of a story (a value
    # set but not used is fine); an error, or any other warning (a deprecation), fails.
    DOCC="$PROBES_DIR/docc"
    python3 Scripts/check/app-probes/make_docc_probe.py "$ROOT" "$DOCC"
    for module in OpenAI OpenAIRealtime; do
        echo "+ swiftc -typecheck -swift-version 6 -enable-upcoming-feature MemberImportVisibility $DOCC/$module/*.swift"
        if ! swiftc -typecheck -swift-version 6 -enable-upcoming-feature MemberImportVisibility -I "$SDK_BIN/Modules" \
            ${C_MODULE[@]+"${C_MODULE[@]}"} -Xcc "-fmodule-map-file=$ROOT/Sources/COpenSSL/module.modulemap" \
            "$DOCC/$module/"*.swift >"$DOCC/$module.log" 2>&1 ||
            grep -E ': (error|warning):' "$DOCC/$module.log" | grep -v '\[#no-usage\]' | grep -q .; then
            grep -E ': (error|warning):' "$DOCC/$module.log" | grep -v '\[#no-usage\]' >&2 || cat "$DOCC/$module.log" >&2
            echo "test-app-probes: FAILED: the $module DocC articles' code does not type-check" >&2
            exit 1
        fi
    done
    echo "test-app-probes: the DocC articles' blocks type-check"
fi

SHARED="$ROOT/../shared"
PYTHON="${OPENAI_TEST_PYTHON:-$ROOT/Scripts/.venv/bin/python}"
if [[ ! -f "$SHARED/spec/openapi.yaml" || ! -d "$SHARED/fixtures" ]]; then
    skip_unless_ci "test-app-probes: the run" "../shared/spec/openapi.yaml or ../shared/fixtures is missing."
    exit
fi
if [[ ! -x "$PYTHON" ]]; then
    skip_unless_ci "test-app-probes: the run" "No Python for the test server at $PYTHON (run Scripts/test.sh)."
    exit
fi

WORK="$(temp_dir openai-app-probes)"
SERVER_PID=""
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

"$PYTHON" Scripts/servers/testserver/server.py --spec "$SHARED/spec/openapi.yaml" --fixtures "$SHARED/fixtures" \
    --port 0 --port-file "$WORK/port" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 1200); do
    [[ -s "$WORK/port" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.05
done
if [[ ! -s "$WORK/port" ]]; then
    echo "test-app-probes: FAILED: the test server did not start:" >&2
    tail -n 20 "$WORK/server.log" >&2
    exit 1
fi
SERVER="http://127.0.0.1:$(tr -d '[:space:]' <"$WORK/port")"
echo "test-app-probes: test server at $SERVER"

# The files the five tasks upload.
printf '%%PDF-1.4 handbook' >"$WORK/handbook.pdf"
python3 -c 'import sys; sys.stdout.buffer.write(bytes([0xFF, 0xFB, 0x90, 0x00]) + bytes(400))' >"$WORK/meeting.mp3"

FAILURES=0
DIGESTS=()
for probe in "${PROBES[@]}"; do
    scenario="app-probe-$probe-$$"
    status=0
    # The headers ask the server for one tool round and a vector-store file that is already processed.
    env -u OPENAI_ORG_ID -u OPENAI_PROJECT_ID -u OPENAI_LOG OPENAI_API_KEY=sk-app-probe \
        OPENAI_BASE_URL="$SERVER/v1" OPENAI_CUSTOM_HEADERS="x-testserver-scenario: $scenario
x-testserver-tool-rounds: 1
x-testserver-status-sequence: completed" \
        python3 Scripts/check/app-probes/run_with_timeout.py 120 "$BIN_DIR/$probe" "$WORK" \
        >"$WORK/$probe.out" 2>"$WORK/$probe.err" || status=$?
    if [[ $status -ne 0 ]]; then
        echo "test-app-probes: $probe exited with status $status:"
        head -n 40 "$WORK/$probe.err" | sed 's/^/  | /'
        FAILURES=$((FAILURES + 1))
        continue
    fi
    if ! python3 Scripts/check/app-probes/check_probe_run.py "$SERVER" "$scenario" "$WORK/$probe.out" \
        >"$WORK/$probe.check"; then
        FAILURES=$((FAILURES + 1))
    fi
    cat "$WORK/$probe.check"
    DIGESTS+=("$(sed -n 's/.*output sha256 //p' "$WORK/$probe.check")")
done
if [[ ${#DIGESTS[@]} -gt 1 && "$(printf '%s\n' "${DIGESTS[@]}" | sort -u | wc -l)" -ne 1 ]]; then
    echo "test-app-probes: the probes printed different outputs:"
    for probe in "${PROBES[@]}"; do
        diff -u "$WORK/${PROBES[0]}.out" "$WORK/$probe.out" | sed 's/^/  | /' || true
    done
    FAILURES=$((FAILURES + 1))
fi
echo "test-app-probes: what the first probe printed:"
sed 's/^/  | /' "$WORK/${PROBES[0]}.out" 2>/dev/null || true
if [[ $FAILURES -ne 0 ]]; then
    echo "test-app-probes: FAILED ($FAILURES)." >&2
    exit 1
fi
echo "test-app-probes: ${#PROBES[@]} probes built with warnings as errors and ran against the local server."
