"""What test_update_spec.py does to files, apart from running the scripts: copying the repository, the state of the
generated folders, the test's specs, reading locks, checking the workflow and the docs, curl stubs, a local HTTP
server, and an interrupt. Plain functions: a check returns what it found wrong (empty when all is well), for the test
to assert on."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

# The sha256 the spec scripts compute (Scripts/lib/script_tools.py), re-exported as `sha256_of` for the test.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "lib"))
from script_tools import sha256 as sha256_of  # noqa: E402, F401

# The generator's output folders (`openai-generator generate --list-outputs` in the checkout, the DocC articles aside).
GENERATED = ("Sources/OpenAI/Generated", "Sources/OpenAIAdmin/Generated", "Sources/OpenAICatalogue/Generated")
# The DocC articles the generator writes.
GENERATED_ARTICLES = "Sources/OpenAI/OpenAI.docc/Generated"

# --- files ------------------------------------------------------------------------------------------------------------


def fake_commit(text: str) -> str:
    """A commit-shaped name (40 hex) for a spec the test makes: the sha1 of text."""
    return hashlib.sha1(text.encode()).hexdigest()


def same_file(a: Path, b: Path) -> bool:
    return os.path.getsize(a) == os.path.getsize(b) and Path(a).read_bytes() == Path(b).read_bytes()


def read_text(path: Path) -> str:
    """A log or summary as text (invalid UTF-8 replaced); empty when the file is missing."""
    path = Path(path)
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""


def first_line(path: Path) -> str:
    """The first line of a file that is not blank (empty when there is none)."""
    return next((line for line in read_text(path).splitlines() if line.strip()), "")


def read_json(path: Path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# --- the copy and its state -------------------------------------------------------------------------------------------


def sync(main: Path, copy: Path, listed: Iterable[str]) -> str:
    """Makes copy hold exactly main's listed files (paths relative to main) and the generated folders (GENERATED);
    files with the same bytes are left alone (their modification times too), so builds stay incremental. Returns a
    line saying what it did."""
    wanted = {rel for rel in listed if rel}
    for folder in GENERATED:
        for dirpath, _, names in os.walk(os.path.join(main, folder)):
            wanted |= {os.path.relpath(os.path.join(dirpath, n), main) for n in names}
    copied = 0
    for rel in sorted(wanted):
        src, dst = os.path.join(main, rel), os.path.join(copy, rel)
        if os.path.islink(src) or not os.path.isfile(src):
            continue
        if os.path.isfile(dst) and not os.path.islink(dst) and same_file(src, dst):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst):
            shutil.rmtree(dst) if os.path.isdir(dst) and not os.path.islink(dst) else os.remove(dst)
        shutil.copy2(src, dst)
        copied += 1
    removed = 0
    for dirpath, dirnames, names in os.walk(copy, topdown=False):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), copy)
            if rel not in wanted:
                os.remove(os.path.join(dirpath, n))
                removed += 1
        for d in dirnames:
            path = os.path.join(dirpath, d)
            if os.path.isdir(path) and not os.path.islink(path) and not os.listdir(path):
                os.rmdir(path)
    return f"copy: {len(wanted)} files, {copied} copied, {removed} removed"


def state(root: Path) -> dict:
    """sha256 and modification time of every file under the generated folders (GENERATED, the DocC articles) and
    Spec/, plus stray staging folders beside them."""
    files = {}
    for top in (*GENERATED, GENERATED_ARTICLES, "Spec"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                path = os.path.join(dirpath, n)
                files[os.path.relpath(path, root)] = [sha256_of(path), os.stat(path).st_mtime_ns]
    # The generator stages a folder's files in `.NAME.staging-PID` beside it.
    staging = sorted(
        n
        for folder in ("Sources/OpenAI", "Sources/OpenAIAdmin", "Sources/OpenAICatalogue", "Sources/OpenAI/OpenAI.docc")
        if os.path.isdir(os.path.join(root, folder))
        for n in os.listdir(os.path.join(root, folder))
        if n.startswith(".Generated")
    )
    return {"files": files, "staging": staging}


def compare(before: dict, after: dict, times: bool = True) -> list[str]:
    """What differs between two states: the file list and every sha256, with `times` the modification times too, and
    staging folders left behind. Empty when they agree."""
    a, b = before["files"], after["files"]
    problems = []
    for rel in sorted(set(a) | set(b)):
        if rel not in b:
            problems.append(f"missing: {rel}")
        elif rel not in a:
            problems.append(f"added: {rel}")
        elif a[rel][0] != b[rel][0]:
            problems.append(f"bytes differ: {rel}")
        elif times and a[rel][1] != b[rel][1]:
            problems.append(f"modification time differs: {rel}")
    if after["staging"]:
        problems.append(f"left beside Generated/: {after['staging']}")
    return problems


def changed(before: dict, after: dict) -> list[str]:
    """`content REL` for files whose bytes changed (or that were added or removed) and `touched REL` for files whose
    bytes are the same but whose modification time changed, sorted by path."""
    a, b = before["files"], after["files"]
    lines = []
    for rel in sorted(set(a) | set(b)):
        if a.get(rel, [None])[0] != b.get(rel, [None])[0]:
            lines.append(f"content {rel}")
        elif a[rel][1] != b[rel][1]:
            lines.append(f"touched {rel}")
    return lines


# --- the test's specs -------------------------------------------------------------------------------------------------


def make_specs(locked: Path, out: Path) -> tuple[Path, Path]:
    """Writes out/breaking.yaml, the locked spec without Batch's optional `completed_at`, and out/clean.yaml, the
    locked spec with an optional string `note` in InviteRequest; returns their paths."""
    lines = Path(locked).read_text(encoding="utf-8").split("\n")

    def schema(name):
        start = lines.index(f"    {name}:")
        end = start + 1
        while end < len(lines) and not re.match(r"^ {0,4}\S", lines[end]):
            end += 1
        return start, end

    start, end = schema("Batch")
    first = lines.index("        completed_at:", start, end)
    last = first + 1
    while last < end and (not lines[last].strip() or re.match(r"^ {9,}", lines[last])):
        last += 1
    if "completed_at" in "\n".join(lines[start:end]).split("required:")[-1].split("x-oaiMeta")[0]:
        raise ValueError("Batch requires completed_at in this spec; choose another property for the test")
    breaking = Path(out) / "breaking.yaml"
    breaking.write_text("\n".join(lines[:first] + lines[last:]), encoding="utf-8")
    start, end = schema("InviteRequest")
    props = lines.index("      properties:", start, end)
    if "        note:" in lines[start:end]:
        raise ValueError("InviteRequest already has `note`; choose another name for the test")
    added = [
        "        note:",
        "          type: string",
        "          description: A note for the invitee (added by Scripts/spec/tests/test_update_spec.py).",
    ]
    clean = Path(out) / "clean.yaml"
    clean.write_text("\n".join(lines[: props + 1] + added + lines[props + 1 :]), encoding="utf-8")
    return breaking, clean


NEW_AREA_PATH = """paths:
  /widgets:
    post:
      operationId: createWidget
      tags: [Widgets]
      summary: Creates a widget (added by Scripts/spec/tests/test_update_spec.py).
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/CreateWidgetRequest'
      responses:
        '200':
          description: The widget.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Widget'
"""
NEW_AREA_SCHEMAS = """components:
  schemas:
    CreateWidgetRequest:
      type: object
      required: [name]
      properties:
        name:
          type: string
    Widget:
      type: object
      required: [id, name]
      properties:
        id:
          type: string
        name:
          type: string
"""


def make_new_area(locked: Path, out: Path) -> Path:
    """Writes out/widgets.yaml, the locked spec plus POST /widgets (tag Widgets, a new area) whose body schema
    requires `name` although the requestBody does not say `required: true`; returns its path."""
    text = Path(locked).read_text(encoding="utf-8")
    if "\n  /widgets:" in text or "\n    CreateWidgetRequest:" in text:
        raise ValueError("the locked spec has /widgets or CreateWidgetRequest already; choose other names for the test")
    if text.count("\npaths:\n") != 1 or text.count("\ncomponents:\n  schemas:\n") != 1:
        raise ValueError("the locked spec's paths: or components: schemas: are not where the test expects them")
    text = text.replace("\npaths:\n", "\n" + NEW_AREA_PATH, 1)
    text = text.replace("\ncomponents:\n  schemas:\n", "\n" + NEW_AREA_SCHEMAS, 1)
    widgets = Path(out) / "widgets.yaml"
    widgets.write_text(text, encoding="utf-8")
    return widgets


def flip_byte(source: Path, out: Path) -> None:
    """Writes source with one byte changed (same size, other sha256): a `description` in its second half becomes
    `Description`."""
    data = bytearray(Path(source).read_bytes())
    at = data.index(b"description", len(data) // 2)
    data[at] = ord("D")
    Path(out).write_bytes(data)


# --- locks, the workflow and the docs ---------------------------------------------------------------------------------


def make_lock(template: Path, out: Path, sha: str, size: int, url: str) -> None:
    """Writes template's lock with another sha256, size and url."""
    lock = read_json(template)
    lock.update({"sha256": sha, "size": int(size), "url": url})
    Path(out).write_text(json.dumps(lock, indent=2), encoding="utf-8")


def lock_differences(lock: Path, expected: Mapping) -> list[str]:
    """How the lock differs from exactly the expected object (same keys, same values); empty when it is that."""
    got = read_json(lock)
    return [
        f"{key}: got {got.get(key)!r}, want {expected.get(key)!r}"
        for key in sorted(set(got) | set(expected))
        if key not in got or key not in expected or got[key] != expected[key]
    ]


def field_differences(path: Path, expected: Mapping) -> list[str]:
    """The expected keys whose values the JSON object in path does not have (other keys not compared)."""
    got = read_json(path)
    return [
        f"{key}: got {got.get(key)!r}, want {expected[key]!r}"
        for key in sorted(expected)
        if got.get(key) != expected[key]
    ]


def path_lines(text: str) -> list[str]:
    """The paths of a --print-paths output, one a line, without a trailing slash."""
    return [p.strip().rstrip("/") for p in text.splitlines() if p.strip()]


def outside_paths(changes: Sequence[str], paths: Sequence[str]) -> list[str]:
    """The changed files (`changed` lines) under no path of --print-paths, the git-ignored Spec/openapi.yaml aside."""
    outside = []
    for line in changes:
        rel = line.split(" ", 1)[1].strip()
        if rel != "Spec/openapi.yaml" and not any(rel == p or rel.startswith(p + "/") for p in paths):
            outside.append(rel)
    return outside


def workflow_print_paths_problems(workflow: Path) -> list[str]:
    """Why update-spec.yml's pull request does not add exactly the paths `update-spec.sh --print-paths` printed in
    its update step (the step's `paths` output) and nothing of its own; empty when it does."""
    text = Path(workflow).read_text(encoding="utf-8")
    problems = []
    adds = re.findall(r"^\s*add-paths:\s*(.*)$", text, re.M)
    if adds != ["${{ steps.update.outputs.paths }}"]:
        problems.append(f"add-paths is {adds!r}, not the update step's paths output")
    step = re.search(r"^\s*- name: Move to it.*?(?=^\s*- name:)", text, re.M | re.S)
    if not step or "id: update" not in step.group(0):
        problems.append("no update step with id: update")
    elif "Scripts/spec/update-spec.sh --print-paths" not in step.group(0) or "paths<<" not in step.group(0):
        problems.append("the update step does not write Scripts/spec/update-spec.sh --print-paths to its paths output")
    return problems


def unnamed_paths(paths: Sequence[str], *docs: Path) -> list[str]:
    """`DOC: PATH` for every path of --print-paths (and the --print-paths option itself) a doc does not name."""
    missing = []
    for doc in docs:
        text = Path(doc).read_text(encoding="utf-8")
        missing += [f"{Path(doc).name}: {p}" for p in [*paths, "--print-paths"] if p not in text]
    return missing


# --- stubs, a server and an interrupt ---------------------------------------------------------------------------------


def write_offline_curl(bin_dir: Path, called: Path) -> None:
    """bin_dir/curl: a curl that records its arguments in `called` and fails as when there is no network."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    stub = bin_dir / "curl"
    stub.write_text(
        f"""#!/bin/sh
echo "$*" >>"{called}"
echo "curl (stub of Scripts/spec/tests/test_update_spec.py): no network" >&2
exit 7
""",
        encoding="utf-8",
    )
    stub.chmod(0o755)


def write_https_curl(bin_dir: Path, hosts: Path, called: Path, real_curl: str) -> None:
    """bin_dir/curl: https://HOST/PATH is served from hosts/HOST/PATH (404 when there is no such file), each URL
    recorded in `called`; any other URL goes to the real curl."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    stub = bin_dir / "curl"
    stub.write_text(
        f"""#!/usr/bin/env bash
# curl stub of Scripts/spec/tests/test_update_spec.py: https://HOST/PATH is served from {hosts}/HOST/PATH.
args=("$@") out="" url=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --output) out="$2"; shift ;;
        -*) ;;
        *) url="$1" ;;
    esac
    shift
done
printf '%s\\n' "$url" >>"{called}"
case "$url" in
    https://*)
        file="{hosts}/${{url#https://}}"
        if [[ -f "$file" ]]; then cp "$file" "$out"; exit 0; fi
        echo "curl: (22) The requested URL returned error: 404 (stub: no $file)" >&2
        exit 22
        ;;
    *) exec "{real_curl}" "${{args[@]}}" ;;
esac
""",
        encoding="utf-8",
    )
    stub.chmod(0o755)


@contextlib.contextmanager
def serve(root: Path) -> Iterator[int]:
    """Serves root over HTTP on 127.0.0.1 (a free port, yielded) until the block ends."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def interrupt(log: Path, marker: str, command: Sequence[str], cwd: Path, env: Mapping[str, str]) -> int:
    """Runs command in its own process group (SIGINT not ignored), its output in log, sends SIGINT to the whole group
    (as Ctrl-C does) once `marker` appears in that output, and returns the command's exit status (255: the marker
    never came; it is killed after 15 minutes)."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(c) for c in command],
            cwd=cwd,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    deadline, sent = time.time() + 900, False
    while proc.poll() is None and time.time() < deadline:
        if not sent and marker in read_text(log):
            time.sleep(1)
            os.killpg(proc.pid, signal.SIGINT)
            sent = True
        time.sleep(0.2)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    status = proc.wait()
    return status if sent else 255
