#!/usr/bin/env bash
# Lint: the checks that need no build. Each prints its findings; the script fails when any check has one.
#
# Usage: Scripts/lint.sh [--only CHECK[,CHECK...]] [--root DIR]
#   --only CHECKS   run only these checks (comma-separated, or the option repeated): swift, python, pytest, sizes,
#                   headers, portability. Default: all six, in that order.
#   --root DIR      lint the tree at DIR instead of this repository (Scripts/test-lint.sh lints copies); the tools
#                   still come from this repository's Scripts/.venv.
# Checks (the files: the tree's tracked files and its untracked ones .gitignore does not exclude; in a tree that is
# not a git checkout, every file outside dot and .build* folders):
#   swift    `swift format lint --strict` with the root .swift-format on the hand-written Swift files: every *.swift
#            file except the paths the root .swift-format-ignore lists (generated code, snapshot data).
#   python   `ruff check` and `ruff format --check` on every *.py file, each with its closest ruff.toml
#            (Scripts/testserver/ruff.toml, Scripts/ruff.toml; a [format] exclude there keeps files from formatting).
#   pytest   the test server's own tests, `python -m pytest Scripts/testserver/tests` (Scripts/testserver/pytest.ini).
#            Their server runs on ../shared/spec/openapi.yaml and ../shared/fixtures beside the tree; without those
#            these tests skip (and with CI=true the check fails).
#   sizes    hand-written Swift files (the swift check's) at most 800 lines (STYLE.md habit 15). Generated Swift files
#            (Sources/OpenAI/Generated) at most the generator's line cap in lines below their header and imports, as
#            the generator counts them when it splits files (Generator/Core/Naming/FileLayout.swift): the default of
#            `openai-generator generate --line-cap`, read from `GeneratorConfiguration.defaultLineCap`
#            (Generator/Core/Rendering/SwiftGenerator.swift), which
#            Scripts/regenerate.sh and Scripts/update-spec.sh keep.
#   headers  every Swift file under Sources/OpenAI/Generated starts with the generator's two header lines (its name
#            and version, then DO NOT EDIT) exactly as the folder's Manifest.swift does; the manifest's spec-sha256
#            (the spec hash is in the manifest alone) is Spec/lock.json's sha256; the manifest lists exactly the
#            folder's Swift files.
#   portability  no Linux-only spelling outside a branch only Linux compiles (Scripts/lint/portability.py, which
#            lists the spellings and the branches), in every Swift file of the tree (hand-written, generated, snapshot
#            data): `Glibc.`, `import Glibc`, `import FoundationNetworking` unguarded, `.rawValue` on a C constant
#            (`SOCK_STREAM.rawValue`), `MSG_NOSIGNAL`, `/proc` and `/dev/shm` paths. Such a spelling stops a build on
#            Apple platforms.
# Each check ends with a line `lint: CHECK: ok|FAILED|SKIPPED (details; seconds)`; a summary of them comes last.
# Environment:
#   CI=true              a check that cannot run here (swift format, ruff, pytest or ../shared/spec missing) fails
#                        instead of being skipped.
#   OPENAI_TEST_PYTHON   the Python for pytest (default Scripts/.venv/bin/python, which Scripts/test.sh's venv step
#                        makes from Scripts/*/requirements.txt and requirements-dev.txt).
#
# Exit status: 0 no check has a finding (outside CI, checks that cannot run are skipped); 1 a finding, or with CI=true
#              a check that cannot run; 2 usage error.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Paths in the linted tree, and the limits.
GENERATED_DIR="Sources/OpenAI/Generated"   # the generator's output folder (`generate --output`'s default)
HAND_WRITTEN_MAX_LINES=800                 # STYLE.md habit 15
LINE_CAP_SOURCE="Generator/Core/Rendering/SwiftGenerator.swift" # `static let defaultLineCap = N`: `generate --line-cap`
ALL_CHECKS=(swift python pytest sizes headers portability)

# Prints the usage lines of the header above; exits with the given status (2 unless told).
usage() {
    sed -n '/^# Usage:/,/^# Checks/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit "${1:-2}"
}

SELECTED=" "
# Adds the comma-separated checks to the selection; a name that is not a check is a usage error.
select_checks() {
    local name known
    for name in ${1//,/ }; do
        known=0
        for check in "${ALL_CHECKS[@]}"; do
            [[ "$name" == "$check" ]] && known=1
        done
        if [[ $known -eq 0 ]]; then
            echo "lint: unknown check '$name' (checks: ${ALL_CHECKS[*]})" >&2
            usage
        fi
        SELECTED+="$name "
    done
}

LINT_ROOT="$ROOT"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --only)
            [[ $# -ge 2 ]] || usage
            select_checks "$2"
            shift 2
            ;;
        --only=*)
            select_checks "${1#--only=}"
            shift
            ;;
        --root)
            [[ $# -ge 2 ]] || usage
            LINT_ROOT="$2"
            shift 2
            ;;
        --root=*)
            LINT_ROOT="${1#--root=}"
            shift
            ;;
        -h | --help) usage 0 ;;
        *)
            echo "lint: unknown argument: $1" >&2
            usage
            ;;
    esac
done
if [[ ! -d "$LINT_ROOT" ]]; then
    echo "lint: --root $LINT_ROOT is not a folder" >&2
    exit 2
fi
LINT_ROOT="$(cd "$LINT_ROOT" && pwd -P)"
CHECKS=()
for check in "${ALL_CHECKS[@]}"; do
    if [[ "$SELECTED" == " " || "$SELECTED" == *" $check "* ]]; then
        CHECKS+=("$check")
    fi
done
cd "$LINT_ROOT"

WORK="$(temp_dir openai-lint)"
trap 'rm -rf "$WORK"' EXIT

# --- the files ---------------------------------------------------------------------------------------------------------

# Writes the NUL-separated lists the checks read: $WORK/hand-written (*.swift but what .swift-format-ignore lists),
# $WORK/generated (*.swift under GENERATED_DIR) and $WORK/python (*.py). Fails on an unreadable ignore file.
tree_files "$LINT_ROOT" >"$WORK/files"
python3 - "$WORK" "$GENERATED_DIR" <<'PY'
import os, re, sys

work, generated_dir = sys.argv[1], sys.argv[2]
files = sorted({p for p in open(os.path.join(work, "files"), "rb").read().decode().split("\0") if p})


def compile_pattern(line):
    """A .gitignore pattern (no negation) as (regex over a path, whether it matches folders only)."""
    folder_only = line.endswith("/")
    body = line.rstrip("/")
    anchored = "/" in body
    body = body.lstrip("/")
    rx, i = "", 0
    while i < len(body):
        if body.startswith("**/", i):
            rx, i = rx + "(?:.*/)?", i + 3
        elif body.startswith("**", i):
            rx, i = rx + ".*", i + 2
        elif body[i] == "*":
            rx, i = rx + "[^/]*", i + 1
        elif body[i] == "?":
            rx, i = rx + "[^/]", i + 1
        else:
            rx, i = rx + re.escape(body[i]), i + 1
    return re.compile(("" if anchored else "(?:.*/)?") + rx), folder_only


patterns = []
if os.path.exists(".swift-format-ignore"):
    for number, raw in enumerate(open(".swift-format-ignore", encoding="utf-8").read().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            sys.exit(f"lint: .swift-format-ignore:{number}: negation (!) is not supported: {line}")
        patterns.append(compile_pattern(line))


def ignored(path):
    parts = path.split("/")
    candidates = [("/".join(parts[:k]), True) for k in range(1, len(parts))] + [(path, False)]
    return any(
        rx.fullmatch(candidate) and (is_folder or not folder_only)
        for rx, folder_only in patterns
        for candidate, is_folder in candidates
    )


swift = [p for p in files if p.endswith(".swift")]
lists = {
    "hand-written": [p for p in swift if not ignored(p)],
    "generated": [p for p in swift if p.startswith(generated_dir + "/")],
    "python": [p for p in files if p.endswith(".py")],
}
for name, paths in lists.items():
    with open(os.path.join(work, name), "w") as out:
        out.write("".join(p + "\0" for p in paths))
PY

# Prints how many NUL-separated entries a list file holds.
count_entries() { tr -cd '\0' <"$1" | wc -c | tr -d ' '; }

# --- the checks --------------------------------------------------------------------------------------------------------
# Each sets NOTE (what the result line says) and returns non-zero when it has a finding. They run in a condition
# (`check_x || status=$?`), where `set -e` is off: every command's status is checked by hand.

# A check that cannot run here: skipped outside CI (returns 0), a failure with CI=true (returns 1).
skip_check() {
    SKIPPED=1
    NOTE="cannot run: $*"
    skip_unless_ci "lint: $CURRENT" "$@"
}

check_swift() {
    local count status=0 findings
    count="$(count_entries "$WORK/hand-written")"
    if [[ ! -f .swift-format ]]; then
        echo "lint: no .swift-format at the root of $LINT_ROOT (the formatter's configuration)" >&2
        NOTE="no .swift-format"
        return 1
    fi
    if [[ ! -f .swift-format-ignore ]]; then
        echo "lint: no .swift-format-ignore at the root of $LINT_ROOT (generated code would be linted)" >&2
        NOTE="no .swift-format-ignore"
        return 1
    fi
    if ! swift format --version >/dev/null 2>&1; then
        skip_check "swift format not found (it comes with a Swift 6 toolchain: swift on PATH)"
        return
    fi
    if [[ $count -eq 0 ]]; then
        NOTE="no hand-written Swift files"
        return 0
    fi
    echo "+ swift format lint --strict --parallel --configuration .swift-format FILES" \
        "($count *.swift files; not those .swift-format-ignore lists)"
    xargs -0 swift format lint --strict --parallel --configuration .swift-format <"$WORK/hand-written" \
        >"$WORK/swift.out" 2>&1 || status=$?
    cat "$WORK/swift.out"
    findings="$(grep -cE ':[0-9]+:[0-9]+: (error|warning):' "$WORK/swift.out" || true)"
    NOTE="swift format $(swift format --version 2>/dev/null | sed -n 1p), $count files, $findings findings"
    if [[ $status -ne 0 && $findings -eq 0 ]]; then
        NOTE+=", exit status $status"
    fi
    [[ $status -eq 0 && $findings -eq 0 ]]
}

check_python() {
    local ruff count status=0 findings reformat
    count="$(count_entries "$WORK/python")"
    if ! ruff="$(find_tool ruff)"; then
        skip_check "ruff not found in Scripts/.venv (from Scripts/testserver/requirements-dev.txt, installed by" \
            "Scripts/test.sh's venv step) nor on PATH"
        return
    fi
    if [[ $count -eq 0 ]]; then
        NOTE="no Python files"
        return 0
    fi
    # --force-exclude: the files are named on the command line, and the ruff.toml excludes must still apply.
    echo "+ ruff check --force-exclude FILES ($count *.py files)"
    xargs -0 "$ruff" check --force-exclude --output-format concise <"$WORK/python" >"$WORK/ruff-check.out" 2>&1 \
        || status=$?
    cat "$WORK/ruff-check.out"
    echo "+ ruff format --check --force-exclude FILES"
    xargs -0 "$ruff" format --check --force-exclude <"$WORK/python" >"$WORK/ruff-format.out" 2>&1 || status=$?
    cat "$WORK/ruff-format.out"
    findings="$(grep -cE '^[^ ].*:[0-9]+:[0-9]+: ' "$WORK/ruff-check.out" || true)"
    reformat="$(grep -c '^Would reformat: ' "$WORK/ruff-format.out" || true)"
    NOTE="$("$ruff" --version), $count files, $findings findings, $reformat to reformat"
    if [[ $status -ne 0 && $findings -eq 0 && $reformat -eq 0 ]]; then
        NOTE+=", exit status $status"
    fi
    [[ $status -eq 0 ]]
}

check_pytest() {
    local python="${OPENAI_TEST_PYTHON:-$ROOT/Scripts/.venv/bin/python}" status=0 shared
    if ! "$python" -c 'import pytest' >/dev/null 2>&1; then
        skip_check "no pytest for $python (Scripts/testserver/requirements-dev.txt, installed into Scripts/.venv by" \
            "Scripts/test.sh's venv step)"
        return
    fi
    if [[ ! -d Scripts/testserver/tests ]]; then
        echo "lint: no Scripts/testserver/tests in $LINT_ROOT" >&2
        NOTE="no Scripts/testserver/tests"
        return 1
    fi
    # Where Scripts/testserver/tests/conftest.py looks: ../shared beside the tree.
    shared="$(dirname "$LINT_ROOT")/shared"
    if [[ ! -f "$shared/spec/openapi.yaml" ]]; then
        if [[ "${CI:-}" == "true" ]]; then
            echo "lint: $shared/spec/openapi.yaml is missing: the test server's tests would skip, and CI=true" \
                "makes a skipped check a failure." >&2
            NOTE="no ../shared/spec/openapi.yaml"
            return 1
        fi
        echo "lint: $shared/spec/openapi.yaml is missing: the tests that start the server skip."
    fi
    echo "+ ${python#"$ROOT"/} -m pytest -q -rfEs Scripts/testserver/tests"
    "$python" -m pytest -q -rfEs Scripts/testserver/tests 2>&1 | tee "$WORK/pytest.out"
    status="${PIPESTATUS[0]}"
    # pytest's last line: "50 passed in 8.58s", "1 failed, 49 passed in ...".
    NOTE="$(tail -n 1 "$WORK/pytest.out" | sed -E 's/^=+ //; s/ =+$//; s/ in [0-9.]+s.*$//')"
    [[ $status -eq 0 ]]
}

check_sizes() {
    python3 - "$WORK" "$HAND_WRITTEN_MAX_LINES" "$LINE_CAP_SOURCE" "$WORK/note" <<'PY'
import os, re, sys

work, limit, cap_source, note_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]


def listed(name):
    return [p for p in open(os.path.join(work, name), "rb").read().decode().split("\0") if p]


def line_count(path):
    with open(path, "rb") as f:
        return len(f.read().decode("utf-8", errors="replace").splitlines())


findings, notes = 0, []
hand_written = [(line_count(p), p) for p in listed("hand-written")]
for lines, path in sorted(hand_written, reverse=True):
    if lines > limit:
        print(f"{path}: {lines} lines, over the {limit}-line limit for a hand-written file (STYLE.md habit 15)")
        findings += 1
if hand_written:
    lines, path = max(hand_written)
    notes.append(f"{len(hand_written)} hand-written, largest {path} {lines} lines (limit {limit})")

generated = listed("generated")
if generated:
    try:
        cap = int(re.search(r"(?m)^\s*public static let defaultLineCap = (\d+)\s*$", open(cap_source).read()).group(1))
    except (OSError, AttributeError) as error:
        print(f"lint: cannot read the generator's line cap (`static let defaultLineCap = N` in {cap_source}): {error}")
        cap = None
        findings += 1
    if cap is not None:
        print(f"generated line cap: {cap} (the default of `openai-generator generate --line-cap`, {cap_source})")
        measured = []
        for path in generated:
            with open(path, "rb") as f:
                lines = f.read().decode("utf-8", errors="replace").splitlines()
            # The header the generator puts above the body it splits: two comment lines, then a blank line, the
            # imports and a blank line when there are imports (Manifest.swift and OperationIndex.swift have none).
            header = min(2, len(lines))
            imports = header + 1
            while imports < len(lines) and lines[imports].startswith("import "):
                imports += 1
            if imports > header + 1 and lines[header] == "":
                header = imports + (1 if imports < len(lines) and lines[imports] == "" else 0)
            body = len(lines) - header
            measured.append((body, len(lines), path))
            if body > cap:
                print(f"{path}: {body} lines below its {header}-line header ({len(lines)} in all), over the"
                      f" generator's line cap of {cap} ({cap_source})")
                findings += 1
        body, total, path = max(measured)
        notes.append(f"{len(generated)} generated, largest {path} {body} + header = {total} lines (cap {cap})")
with open(note_path, "w") as f:
    f.write("; ".join(notes + [f"{findings} findings"]))
sys.exit(1 if findings else 0)
PY
    local status=$?
    NOTE="$(cat "$WORK/note" 2>/dev/null || true)"
    return "$status"
}

check_headers() {
    python3 - "$WORK" "$GENERATED_DIR" "$WORK/note" <<'PY'
import json, os, re, sys

work, folder, note_path = sys.argv[1], sys.argv[2], sys.argv[3]
generated = sorted(p for p in open(os.path.join(work, "generated"), "rb").read().decode().split("\0") if p)
manifest_path = f"{folder}/Manifest.swift"
findings = []


def first_lines(path, count):
    with open(path, "rb") as f:
        return f.read(4096).decode("utf-8", errors="replace").split("\n")[:count]


header, manifest_sha, listed = None, None, None
if not os.path.isfile(manifest_path):
    findings.append(f"{manifest_path}: missing (the generator writes it with every generation)")
else:
    text = open(manifest_path, encoding="utf-8", errors="replace").read()
    header = text.split("\n")[:2]
    if len(header) < 2 or not re.fullmatch(r"// Generated by openai-generator \S+ from the OpenAI OpenAPI spec\.",
                                           header[0]) or "DO NOT EDIT" not in header[1]:
        findings.append(f"{manifest_path}: does not start with the generator's header (`// Generated by"
                        f" openai-generator VERSION ...`, then `// DO NOT EDIT...`): {header!r}")
        header = None
    shas = re.findall(r"(?m)^// spec-sha256: ([0-9a-f]{64})$", text)
    listed = set(re.findall(r"(?m)^// file: (.+)$", text))
    try:
        locked = json.load(open("Spec/lock.json")).get("sha256")
    except (OSError, ValueError) as error:
        locked = None
        findings.append(f"Spec/lock.json: unreadable: {error}")
    if len(shas) != 1:
        findings.append(f"{manifest_path}: {len(shas)} `// spec-sha256:` lines, expected one")
    elif locked is not None and shas[0] != locked:
        findings.append(f"{manifest_path}: spec-sha256 {shas[0]}, but Spec/lock.json's sha256 is {locked}"
                        " (regenerate with Scripts/regenerate.sh)")
    manifest_sha = shas[0] if shas else None

if header is not None:
    for path in generated:
        if first_lines(path, 2) != header:
            findings.append(f"{path}: does not start with the generator's header, as {manifest_path} does:"
                            f" {header[0]!r} / {header[1]!r}")
if listed is not None:
    present = {p[len(folder) + 1:] for p in generated} - {"Manifest.swift"}
    for name in sorted(present - listed):
        findings.append(f"{folder}/{name}: not in {manifest_path} (not generated, or the manifest is stale)")
    for name in sorted(listed - present):
        findings.append(f"{folder}/{name}: listed in {manifest_path} but missing")

for finding in findings:
    print(finding)
with open(note_path, "w") as f:
    version = header[0].split()[4] if header else "?"
    f.write(f"{len(generated)} generated files, openai-generator {version}, spec-sha256 "
            f"{(manifest_sha or '?')[:12]}…, {len(findings)} findings")
sys.exit(1 if findings else 0)
PY
    local status=$?
    NOTE="$(cat "$WORK/note" 2>/dev/null || true)"
    return "$status"
}

check_portability() {
    local status=0
    # Every Swift file of the tree: hand-written, generated, and the snapshots' expected output (compiled on macOS too).
    python3 "$ROOT/Scripts/lint/portability.py" "$WORK/files" >"$WORK/portability.out" || status=$?
    cat "$WORK/portability.out"
    NOTE="$(tail -n 1 "$WORK/portability.out" | sed 's/^portability: //')"
    [[ $status -eq 0 ]]
}

# --- running them ------------------------------------------------------------------------------------------------------

# Prints what a check does, for its heading.
describe() {
    case "$1" in
        swift) echo "swift format lint --strict (hand-written Swift)" ;;
        python) echo "ruff check and ruff format --check (Python)" ;;
        pytest) echo "the test server's tests (pytest Scripts/testserver/tests)" ;;
        sizes) echo "file sizes (hand-written Swift at most $HAND_WRITTEN_MAX_LINES lines, generated at most the line cap)" ;;
        headers) echo "generated files' header; the manifest's spec hash against Spec/lock.json" ;;
        portability) echo "no Linux-only spelling outside a Linux branch (Scripts/lint/portability.py)" ;;
    esac
}
RESULTS=()
FAILED=()
CURRENT=""
echo "lint: $LINT_ROOT (checks: ${CHECKS[*]}; CI=${CI:-false})"
for CURRENT in "${CHECKS[@]}"; do
    printf '\n==> %s: %s\n' "$CURRENT" "$(describe "$CURRENT")"
    NOTE=""
    SKIPPED=0
    start="$(now)"
    status=0
    "check_$CURRENT" || status=$?
    seconds="$(elapsed_since "$start")"
    if [[ $status -ne 0 ]]; then
        result=FAILED
        FAILED+=("$CURRENT")
    elif [[ $SKIPPED -eq 1 ]]; then
        result=SKIPPED
    else
        result=ok
    fi
    line="$(printf 'lint: %s: %s (%s; %ss)' "$CURRENT" "$result" "$NOTE" "$seconds")"
    RESULTS+=("$line")
    printf '%s\n' "$line"
done

printf '\n==> Summary\n'
printf '%s\n' "${RESULTS[@]}"
if [[ ${#FAILED[@]} -ne 0 ]]; then
    printf '\nlint: FAILED: %s.\n' "${FAILED[*]}" >&2
    exit 1
fi
printf '\nlint: no findings.\n'
