#!/usr/bin/env bash
# The one test command: everything CI checks, in order, stopping at the first failure.
#
# Usage: Scripts/test.sh
#   Steps: system packages, locked spec, Python venv (test servers, linters), GitHub workflows lint, Scripts/check/lint.sh
#          (swift format, ruff, the test server's pytest suite, file sizes, generated headers: no build needed) with
#          Scripts/check/test-lint.sh (each lint check fails on a planted violation) beside it, build (with tests),
#          `openai-generator check`, the tests (two XCTest processes at once on Linux, Scripts/lib/test-lanes.sh; else
#          `swift test`), Scripts/check/fuzz.sh 10 (every target: the runtime's parsers, the generated types' lenient
#          decoding, the generator's YAML loader), Scripts/check/sanitize.sh thread (the concurrency-heavy tests under
#          ThreadSanitizer) with beside it Scripts/docs/build-docs.sh (documentation, warnings as errors),
#          Scripts/docs/test-build-docs.sh (a broken symbol link fails the docs build) and Scripts/docs/check-docs-site.py
#          (the merged documentation site: every page reference, and pages rendered in headless Chromium), then
#          Scripts/spec/tests (pytest: update-spec.sh and fetch-spec.sh end to end) with beside it, one after another,
#          Scripts/spec/check-history.sh, Scripts/bench/test-benchmarks.sh (every Scripts/bench/bench-*.sh in its smoke
#          mode, two at once, on the debug build) and Scripts/check/test-app-probes.sh (the README's code compiled as
#          apps configure their targets, run against the local test server). Checks run beside another where one
#          alone leaves a core idle (at_once, Scripts/lib.sh). The summary gives each step's wall and CPU time.
# Environment:
#   SKIP_HISTORY=1       skip Scripts/spec/check-history.sh (it compiles the SDK once per historical spec: slow).
#   SKIP_FUZZ=1          skip Scripts/check/fuzz.sh (eleven targets, 10 s each, two at once, built in .build-fuzz: about 2 min
#                        cold).
#   SKIP_SANITIZE=1      skip Scripts/check/sanitize.sh thread (a ThreadSanitizer build in .build-tsan: about 3 min
#                        cold).
#   SKIP_UPDATE_SPEC_TEST=1  skip Scripts/spec/tests (update-spec.sh and fetch-spec.sh end to end in a copy
#                        of the repository, built in .build/update-spec-e2e: about 5 min cold, 2.5 min warm).
#   SCRATCH_PATH=DIR     SwiftPM build folder instead of .build (passed as --scratch-path to every swift command, and
#                        to Scripts/docs/build-docs.sh in the environment).
#   OPENAI_TEST_PYTHON   when already set, used as is and the venv step is skipped.
#   TEST_LANES=1         run the tests in one process (`swift test`) instead of two lanes (Scripts/lib/test-lanes.sh),
#                        and Scripts/check/sanitize.sh's tests too.
#   CI=true              a check that cannot run (a missing linter, ../shared) fails instead of being skipped.
# Exported for the tests: OPENAI_TEST_PYTHON (Scripts/.venv's python with every Scripts/*/*/requirements.txt and
# requirements-dev.txt installed, or python3 when there are none).
#
# Exit status: 0 when every step passed; otherwise the failing step's status (at least 1).
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
# shellcheck source=lib/test-env.sh source-path=SCRIPTDIR
source "$ROOT/Scripts/lib/test-env.sh"
set_swift_flags

STEP_NAMES=()
STEP_TIMES=()
STEP_CPU=()
STEP_RESULTS=()
TOTAL_START="$(now)"
TOTAL_CPU_START="$(children_cpu_seconds)"

print_summary() {
    local i
    printf '\n==> Summary (seconds: wall time, and CPU time of the step'"'"'s processes on every core)\n'
    printf '  %-8s %9s %9s  %s\n' result wall cpu step
    for i in "${!STEP_NAMES[@]}"; do
        printf '  %-8s %8ss %9s  %s\n' "${STEP_RESULTS[$i]}" "${STEP_TIMES[$i]}" "${STEP_CPU[$i]}" "${STEP_NAMES[$i]}"
    done
    printf '  %-8s %8ss %9s\n' total "$(elapsed_since "$TOTAL_START")" "$(cpu_since "$TOTAL_CPU_START")"
}

CURRENT_STEP=""
CURRENT_START=""
CURRENT_CPU_START=""

# Runs one step: prints a header, times it and records the result. The step runs directly under `set -e`
# (not inside `if` or `||`, which would switch `set -e` off inside it); a failure ends the script through
# the EXIT trap below, which records the step as FAILED and prints the summary.
run_step() {
    CURRENT_STEP="$1"
    shift
    printf '\n==> [%d] %s\n' "$((${#STEP_NAMES[@]} + 1))" "$CURRENT_STEP"
    CURRENT_START="$(now)"
    CURRENT_CPU_START="$(children_cpu_seconds)"
    "$@"
    STEP_NAMES+=("$CURRENT_STEP")
    STEP_TIMES+=("$(elapsed_since "$CURRENT_START")")
    STEP_CPU+=("$(cpu_since "$CURRENT_CPU_START")")
    STEP_RESULTS+=("ok")
    CURRENT_STEP=""
}

on_exit() {
    local status=$?
    # The background side of an at_once step (Scripts/lib.sh), when the script ends before it does.
    end_background_jobs
    if [[ $status -ne 0 && -n "$CURRENT_STEP" ]]; then
        STEP_NAMES+=("$CURRENT_STEP")
        STEP_TIMES+=("$(elapsed_since "$CURRENT_START")")
        STEP_CPU+=("$(cpu_since "$CURRENT_CPU_START")")
        STEP_RESULTS+=("FAILED")
        print_summary
        printf '\ntest.sh: FAILED at step "%s" (exit status %d).\n' "$CURRENT_STEP" "$status" >&2
    fi
    exit "$status"
}
trap on_exit EXIT

# --- (a) system packages ---------------------------------------------------------------------------

# apt_install: Scripts/lib/test-env.sh.

# Installs the Debian package when pkg-config does not know the module.
ensure_pkg_config_module() {
    local module="$1" package="$2"
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$module"; then
        echo "pkg-config $module: found ($(pkg-config --modversion "$module"))"
        return 0
    fi
    echo "pkg-config $module: missing; installing $package"
    apt_install "$package" pkg-config
    pkg-config --exists "$module" || {
        echo "test.sh: pkg-config still cannot find $module after installing $package" >&2
        return 1
    }
}

step_system_packages() {
    ensure_pkg_config_module yaml-0.1 libyaml-dev # OpenAILibYAML: the generator's and the openai tool's YAML
    ensure_pkg_config_module openssl libssl-dev   # the OpenAIRealtime product
    # The realtime tests make a throwaway CA with the openssl command-line tool.
    command -v openssl >/dev/null 2>&1 || apt_install openssl
    # The `openai` tool's completion scripts are run by their shells in the tests.
    command -v zsh >/dev/null 2>&1 || apt_install zsh
    command -v fish >/dev/null 2>&1 || apt_install fish
    # Scripts/docs/check-docs-site.py opens the documentation site in headless Chromium; without one (no apt-get) it skips
    # its browser check, except when CI=true.
    if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
        && ! command -v google-chrome >/dev/null 2>&1; then
        apt_install --no-install-recommends chromium || [[ "${CI:-}" != true ]]
    fi
}

# --- (c) Python venv for the test servers -----------------------------------------------------------

# The venv: prepare_test_python in Scripts/lib/test-env.sh (Scripts/spec/update-spec.sh prepares its fast tests with it
# too).
step_python_venv() { prepare_test_python; }

# --- (c2) GitHub workflows lint ----------------------------------------------------------------------

# actionlint (Scripts/check/lint/requirements.txt, in Scripts/.venv) on .github/workflows/*.yml, with shellcheck on every
# `run:` script when there is one (the venv's, else PATH's), and shellcheck on .github/scripts/*.sh. Any finding
# fails the step. A missing actionlint skips the step outside CI and fails it when CI=true.
step_lint_workflows() {
    local actionlint="" shellcheck="" workflows=() scripts=() file
    for file in "$ROOT"/.github/workflows/*.yml "$ROOT"/.github/workflows/*.yaml; do
        if [[ -f "$file" ]]; then
            workflows+=("${file#"$ROOT"/}")
        fi
    done
    for file in "$ROOT"/.github/scripts/*.sh; do
        if [[ -f "$file" ]]; then
            scripts+=("${file#"$ROOT"/}")
        fi
    done
    if [[ ${#workflows[@]} -eq 0 && ${#scripts[@]} -eq 0 ]]; then
        echo "No .github/workflows/*.yml or .github/scripts/*.sh; nothing to lint."
        return 0
    fi
    actionlint="$(find_tool actionlint || true)"
    shellcheck="$(find_tool shellcheck || true)"
    if [[ -z "$actionlint" ]]; then
        skip_unless_ci "Workflows lint" "actionlint not found in Scripts/.venv (installed from" \
            "Scripts/check/lint/requirements.txt by the venv step, which OPENAI_TEST_PYTHON skips) nor on PATH." || return
        return 0
    fi
    if [[ -z "$shellcheck" ]]; then
        echo "shellcheck not found (Scripts/.venv, PATH): actionlint runs without checking the run: scripts," \
            "and .github/scripts/*.sh are not checked. Debian: apt-get install shellcheck."
    fi
    if [[ ${#workflows[@]} -gt 0 ]]; then
        # Named explicitly: actionlint finds .github/actionlint.yaml by itself only in a git checkout.
        local config=()
        if [[ -f "$ROOT/.github/actionlint.yaml" ]]; then
            config=(-config-file .github/actionlint.yaml)
        fi
        echo "+ ${actionlint#"$ROOT"/} ${config[*]} -shellcheck=${shellcheck#"$ROOT"/} ${workflows[*]}"
        "$actionlint" -no-color ${config[@]+"${config[@]}"} -shellcheck="$shellcheck" "${workflows[@]}"
    fi
    if [[ ${#scripts[@]} -gt 0 && -n "$shellcheck" ]]; then
        echo "+ ${shellcheck#"$ROOT"/} ${scripts[*]}"
        "$shellcheck" "${scripts[@]}"
    fi
    echo "Workflows lint: no findings (actionlint $("$actionlint" -version | head -n 1 | awk '{print $NF}'))."
}

# --- (d)-(g) -----------------------------------------------------------------------------------------

step_build() {
    echo "+ swift build --build-tests"
    swift build --build-tests ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
}

step_check() {
    local bin_dir
    bin_dir="$(swift_bin_path debug)"
    echo "+ $bin_dir/openai-generator check"
    "$bin_dir/openai-generator" check
}

# Runs the tests, their output kept in a log, then prints how many XCTest cases passed, failed and skipped
# (Scripts/lib/count-tests.sh). On Linux the test executable the build step made runs in two lanes at once
# (Scripts/lib/test-lanes.sh: one process per core, about 117 s instead of 210 s); elsewhere, or with TEST_LANES=1,
# `swift test` runs it in one. With CI=true a skipped test fails the step: a test that skips in CI has not passed (the
# tests' own rule, Tests/OpenAISDKTestSupport/Unavailable.swift, turns their skips into failures there; this catches
# any other XCTSkip).
step_swift_test() {
    local log status=0 executable
    log="$(mktemp "${TMPDIR:-/tmp}/openai-swift-test.XXXXXX")"
    if executable="$(test_lanes_executable "$(swift_bin_path debug)")"; then
        echo "+ Scripts/lib/test-lanes.sh ${executable#"$ROOT"/} (swift build --build-tests made it)"
        "$ROOT/Scripts/lib/test-lanes.sh" "$executable" "$log" || status=$?
        cat "$log"
    else
        echo "+ swift test"
        swift test ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} 2>&1 | tee "$log" || status=$?
    fi
    "$ROOT/Scripts/lib/count-tests.sh" "$log" || status=$((status == 0 ? 1 : status))
    rm -f "$log"
    return "$status"
}

# Scripts/bench/test-benchmarks.sh: every benchmark in its smoke mode (a few seconds each, on the debug build just made), so
# that a benchmark that no longer builds or traps fails here. It reads SCRATCH_PATH from the environment.
# OPENAI_GENERATOR names the debug generator the build step made, which bench-diff.sh and bench-generate.sh would
# otherwise build themselves: beside the end-to-end test, which runs that binary, nothing may relink it.
step_benchmarks() {
    local generator
    generator="$(swift_bin_path debug)/openai-generator"
    echo "+ OPENAI_GENERATOR=$generator ${SCRATCH_PATH:+SCRATCH_PATH=$SCRATCH_PATH }Scripts/bench/test-benchmarks.sh"
    OPENAI_GENERATOR="$generator" "$ROOT/Scripts/bench/test-benchmarks.sh"
}

# Scripts/docs/build-docs.sh: the documentation from the debug build's symbol graphs, docc warnings as errors. It reads
# SCRATCH_PATH from the environment, as this script does.
step_docs() {
    echo "+ ${SCRATCH_PATH:+SCRATCH_PATH=$SCRATCH_PATH }Scripts/docs/build-docs.sh"
    "$ROOT/Scripts/docs/build-docs.sh"
}

# Scripts/docs/check-docs-site.py: every page reference of the site build-docs.sh merged, and pages rendered in headless
# Chromium; --self-test first shows its link check failing on a broken link. It reads SCRATCH_PATH as build-docs does.
step_docs_site() {
    echo "+ Scripts/docs/check-docs-site.py --self-test"
    python3 "$ROOT/Scripts/docs/check-docs-site.py" --self-test
}

# The end-to-end test of update-spec.sh and fetch-spec.sh (pytest, Scripts/spec/tests; Scripts/spec/pytest.ini), with
# the test Python of the venv step and the debug generator the build step made.
step_update_spec() {
    local bin_dir python="${OPENAI_TEST_PYTHON:-$ROOT/Scripts/.venv/bin/python}"
    bin_dir="$(swift_bin_path debug)"
    echo "+ OPENAI_GENERATOR=$bin_dir/openai-generator ${python#"$ROOT"/} -m pytest Scripts/spec/tests"
    OPENAI_GENERATOR="$bin_dir/openai-generator" "$python" -m pytest Scripts/spec/tests
}

# The debug generator the build step made: it generates a spec in about 3 s instead of 1 s, and spares
# check-history.sh a release build of its own (about 75 s from clean); and that build's runtime module, which spares it
# building the runtime again (about 20 s).
step_history() {
    local bin_dir
    bin_dir="$(swift_bin_path debug)"
    echo "+ OPENAI_GENERATOR=$bin_dir/openai-generator OPENAI_RUNTIME_BUILD=$bin_dir Scripts/spec/check-history.sh"
    OPENAI_GENERATOR="$bin_dir/openai-generator" OPENAI_RUNTIME_BUILD="$bin_dir" "$ROOT/Scripts/spec/check-history.sh"
}

# Scripts/check/fuzz.sh: libFuzzer on every parser of bytes from the network or a spec, 10 s each, two at once (one per
# core), from the seeds and the corpus .build-fuzz keeps (a clean clone starts from the seeds). Built quick (-Onone);
# the targets of generated types link the OpenAI module of the build step as it is (FUZZ_OPENAI_BUILD: not compiled a
# second time for fuzzing, at the cost of coverage from generated code).
step_fuzz() {
    local bin_dir
    bin_dir="$(swift_bin_path debug)"
    echo "+ FUZZ_BUILD=quick FUZZ_JOBS=2 FUZZ_OPENAI_BUILD=$bin_dir Scripts/check/fuzz.sh 10"
    FUZZ_BUILD=quick FUZZ_JOBS=2 FUZZ_OPENAI_BUILD="$bin_dir" "$ROOT/Scripts/check/fuzz.sh" 10
}

# Scripts/check/lint.sh and Scripts/check/test-lint.sh, for at_once (both read the checkout; test-lint.sh lints a copy
# of it in a temporary folder).
step_lint() { "$ROOT/Scripts/check/lint.sh"; }
step_test_lint() { "$ROOT/Scripts/check/test-lint.sh"; }

# Scripts/check/test-app-probes.sh, for at_once.
step_app_probes() { "$ROOT/Scripts/check/test-app-probes.sh"; }

# Scripts/check/sanitize.sh thread, for at_once.
step_sanitize_thread() { "$ROOT/Scripts/check/sanitize.sh" thread; }

# The documentation, then a broken symbol link failing its build (Scripts/docs/test-build-docs.sh, on the symbol graphs
# build-docs.sh extracted), then the site in a browser.
step_documentation() {
    step_docs
    echo "+ Scripts/docs/test-build-docs.sh"
    "$ROOT/Scripts/docs/test-build-docs.sh"
    step_docs_site
}

echo "test.sh: repository $ROOT (CI=${CI:-false})"
run_step "System packages (libyaml-dev, libssl-dev, chromium)" step_system_packages
run_step "Locked spec (Scripts/spec/fetch-spec.sh)" "$ROOT/Scripts/spec/fetch-spec.sh"
run_step "Python venv for test servers" step_python_venv
run_step "GitHub workflows lint (actionlint, shellcheck)" step_lint_workflows
run_step "Lint, and each lint check failing on a violation, at once (Scripts/check/lint.sh, test-lint.sh)" \
    at_once step_lint step_test_lint
run_step "Build with tests (swift build --build-tests)" step_build
run_step "Generated code matches the locked spec (openai-generator check)" step_check
run_step "Tests (swift test, in two lanes on Linux)" step_swift_test
if [[ "${SKIP_FUZZ:-0}" == "1" ]]; then
    printf '\n==> Fuzzing: skipped (SKIP_FUZZ=1)\n'
else
    run_step "Every parser under libFuzzer, 10 s each (Scripts/check/fuzz.sh)" step_fuzz
fi
DOCS_STEP="Documentation, a broken symbol link failing it, the site in a browser (build-docs.sh, test-build-docs.sh,"
DOCS_STEP+=" check-docs-site.py)"
if [[ "${SKIP_SANITIZE:-0}" == "1" ]]; then
    printf '\n==> ThreadSanitizer: skipped (SKIP_SANITIZE=1)\n'
    run_step "$DOCS_STEP" step_documentation
else
    run_step "Concurrency tests under ThreadSanitizer (Scripts/check/sanitize.sh thread); beside it: $DOCS_STEP" \
        at_once step_sanitize_thread step_documentation
fi
# The update-spec end-to-end test keeps a core busy for most of its time (its own build in .build/update-spec-e2e aside,
# it runs the debug generator): the historical specs, the benchmarks' smoke modes and the app probes run beside it.
# Those two run the build step's products: the app probes build in .build/app-probes; the benchmarks' smoke modes
# build their executables in .build only when stale (after the build step, nothing to do) and take the generator as it
# is (step_benchmarks).
# The title of each check that runs beside the end-to-end test, as a step of its own or in the end-to-end test's title.
beside_e2e_title() {
    case "$1" in
        step_history) echo "Historical specs generate and compile (Scripts/spec/check-history.sh)" ;;
        step_benchmarks) echo "Benchmarks in smoke mode (Scripts/bench/test-benchmarks.sh)" ;;
        step_app_probes) echo "The README's code as apps configure it (Scripts/check/test-app-probes.sh)" ;;
    esac
}
if [[ "${SKIP_HISTORY:-0}" == "1" ]]; then
    printf '\n==> Historical specs: skipped (SKIP_HISTORY=1)\n'
    BESIDE_E2E=()
else
    BESIDE_E2E=(step_history)
fi
BESIDE_E2E+=(step_benchmarks step_app_probes)
if [[ "${SKIP_UPDATE_SPEC_TEST:-0}" == "1" ]]; then
    printf '\n==> update-spec.sh end to end: skipped (SKIP_UPDATE_SPEC_TEST=1)\n'
    for check in "${BESIDE_E2E[@]}"; do
        run_step "$(beside_e2e_title "$check")" "$check"
    done
else
    E2E_STEP="update-spec.sh and fetch-spec.sh end to end (pytest Scripts/spec/tests); beside it, one after another:"
    for check in "${BESIDE_E2E[@]}"; do
        E2E_STEP+=" $(beside_e2e_title "$check");"
    done
    run_step "${E2E_STEP%;}" at_once step_update_spec "${BESIDE_E2E[@]}"
fi

print_summary
printf '\ntest.sh: all steps passed.\n'
