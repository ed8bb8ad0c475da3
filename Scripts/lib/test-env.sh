# shellcheck shell=bash
# What the tests need around them, shared by Scripts/test.sh and Scripts/spec/update-spec.sh (whose fast tests, run
# unattended by .github/workflows/update-spec.yml with CI=true, need the same test server): Debian packages and the
# Python venv of the test servers. Sourced, never run: `source "$ROOT/Scripts/lib/test-env.sh"` after Scripts/lib.sh
# (for $ROOT). Messages go to standard output; callers that keep stdout for a report redirect them.

# Installs Debian packages (apt-get update first, once per process); with sudo when not root. Returns 1, saying
# why, where that cannot work (no apt-get, not root and no sudo): apt_install PACKAGE...
APT_UPDATED=0
apt_install() {
    local sudo=()
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "${0##*/}: apt-get is not available; install these yourself: $* (macOS: brew install libyaml openssl pkg-config)" >&2
        return 1
    fi
    if [[ "$(id -u)" -ne 0 ]]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "${0##*/}: not root and sudo is missing; run as root: apt-get install -y $*" >&2
            return 1
        fi
        sudo=(sudo)
    fi
    if [[ $APT_UPDATED -eq 0 ]]; then
        echo "+ ${sudo[*]+${sudo[*]} }apt-get update"
        ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -q
        APT_UPDATED=1
    fi
    echo "+ ${sudo[*]+${sudo[*]} }apt-get install -y $*"
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

# Makes OPENAI_TEST_PYTHON (exported) a Python with every test server's requirements and the linters: when it is
# already set it is used as is; otherwise Scripts/.venv, created when missing (python3-venv installed with apt-get when
# python3 lacks ensurepip) and `pip install -r` every Scripts/*/*/requirements.txt and requirements-dev.txt whenever
# those files changed since the last install (a stamp in the venv records their hash and the Python version).
prepare_test_python() {
    local venv="$ROOT/Scripts/.venv"
    if [[ -n "${OPENAI_TEST_PYTHON:-}" ]]; then
        echo "OPENAI_TEST_PYTHON is already set ($OPENAI_TEST_PYTHON); leaving it as is."
        return 0
    fi
    # Every test server's runtime requirements and the linters (Scripts/*/*/requirements.txt), and the -dev files'
    # tools (Scripts/servers/testserver/requirements-dev.txt: pytest and ruff, which Scripts/check/lint.sh runs).
    local requirements=() file
    for file in "$ROOT"/Scripts/*/*/requirements.txt "$ROOT"/Scripts/*/*/requirements-dev.txt; do
        if [[ -f "$file" ]]; then
            requirements+=("$file")
        fi
    done
    if [[ ${#requirements[@]} -eq 0 ]]; then
        OPENAI_TEST_PYTHON="$(command -v python3)"
        export OPENAI_TEST_PYTHON
        echo "No Scripts/*/*/requirements.txt; OPENAI_TEST_PYTHON=$OPENAI_TEST_PYTHON"
        return 0
    fi
    # The stamp records the requirement files' contents and the Python version they were installed for.
    local stamp="$venv/.requirements.sha256" wanted hasher=(sha256sum)
    if ! command -v sha256sum >/dev/null 2>&1; then
        hasher=(shasum -a 256) # macOS
    fi
    wanted="$(
        for file in "${requirements[@]}"; do
            printf '%s\0' "$file"
            cat "$file"
            printf '\0'
        done | "${hasher[@]}" | cut -d ' ' -f 1
    ) $(python3 --version)"
    if [[ -e "$venv" ]] && ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
        echo "The venv at Scripts/.venv is broken; recreating it."
        rm -rf "$venv"
    fi
    if [[ ! -x "$venv/bin/python" ]]; then
        if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
            echo "python3 has no ensurepip; installing python3-venv"
            apt_install python3-venv
        fi
        echo "+ python3 -m venv Scripts/.venv"
        python3 -m venv "$venv"
    fi
    local args=() relative=()
    for file in "${requirements[@]}"; do
        args+=(-r "$file")
        relative+=("${file#"$ROOT"/}")
    done
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
        echo "Requirements unchanged since the last install (${relative[*]}); skipping pip."
    else
        echo "+ Scripts/.venv/bin/python -m pip install ${relative[*]/#/-r }"
        "$venv/bin/python" -m pip install --disable-pip-version-check --quiet "${args[@]}"
        printf '%s\n' "$wanted" >"$stamp"
    fi
    OPENAI_TEST_PYTHON="$venv/bin/python"
    export OPENAI_TEST_PYTHON
    echo "OPENAI_TEST_PYTHON=$OPENAI_TEST_PYTHON"
}
