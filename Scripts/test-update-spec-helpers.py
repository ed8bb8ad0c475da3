#!/usr/bin/env python3
"""Helpers of Scripts/test-update-spec.sh (its Python parts, called as `test-update-spec-helpers.py COMMAND ARGS...`):
copying, tree states, spec edits, checks of the workflow and the docs, signals."""

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def _load_update_spec_helpers():
    """Scripts/spec/update-spec-helpers.py as a module (its name has dashes), for the helpers both scripts use."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "update-spec-helpers.py")
    spec = importlib.util.spec_from_file_location("update_spec_helpers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


digest = _load_update_spec_helpers().digest


def same_file(a, b):
    if os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


# The generator's output folders (`openai-generator generate --list-outputs` in the checkout, the DocC articles aside).
GENERATED = ("Sources/OpenAI/Generated", "Sources/OpenAIAdmin/Generated", "Sources/OpenAICatalogue/Generated")


def sync(main, copy):
    """Makes copy hold exactly main's listed files (NUL-separated on stdin) and the generated folders (GENERATED);
    files with the same bytes are left alone (their modification times too), so builds stay incremental."""
    wanted = {rel for rel in sys.stdin.read().split("\0") if rel}
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
    print(f"copy: {len(wanted)} files, {copied} copied, {removed} removed")


def state(root, out):
    """sha256 and modification time of every file under the generated folders (GENERATED, the DocC articles in
    Sources/OpenAI/OpenAI.docc/Generated/) and Spec/, plus stray staging folders beside them."""
    files = {}
    for top in GENERATED + ("Sources/OpenAI/OpenAI.docc/Generated", "Spec"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                path = os.path.join(dirpath, n)
                files[os.path.relpath(path, root)] = [digest(path), os.stat(path).st_mtime_ns]
    # The generator stages a folder's files in `.NAME.staging-PID` beside it.
    staging = sorted(
        n
        for folder in ("Sources/OpenAI", "Sources/OpenAIAdmin", "Sources/OpenAICatalogue", "Sources/OpenAI/OpenAI.docc")
        if os.path.isdir(os.path.join(root, folder))
        for n in os.listdir(os.path.join(root, folder))
        if n.startswith(".Generated")
    )
    json.dump({"files": files, "staging": staging}, open(out, "w"), indent=1, sort_keys=True)


def compare(before, after, mode):
    """Exit 0 when the two states agree: `bytes` compares the file list and every sha256, `times` the modification
    times too. Prints the differences."""
    a, b = json.load(open(before)), json.load(open(after))
    problems = []
    for rel in sorted(set(a["files"]) | set(b["files"])):
        if rel not in b["files"]:
            problems.append(f"missing: {rel}")
        elif rel not in a["files"]:
            problems.append(f"added: {rel}")
        elif a["files"][rel][0] != b["files"][rel][0]:
            problems.append(f"bytes differ: {rel}")
        elif mode == "times" and a["files"][rel][1] != b["files"][rel][1]:
            problems.append(f"modification time differs: {rel}")
    if b["staging"]:
        problems.append(f"left beside Generated/: {b['staging']}")
    for p in problems[:20]:
        print("      " + p)
    sys.exit(1 if problems else 0)


def changed(before, after):
    """Prints `content REL` for files whose bytes changed (or that were added or removed) and `touched REL` for
    files whose bytes are the same but whose modification time changed."""
    a, b = json.load(open(before))["files"], json.load(open(after))["files"]
    for rel in sorted(set(a) | set(b)):
        if a.get(rel, [None])[0] != b.get(rel, [None])[0]:
            print("content", rel)
        elif a[rel][1] != b[rel][1]:
            print("touched", rel)


def make_specs(locked, out):
    """breaking.yaml: the locked spec without Batch's optional `completed_at`; clean.yaml: the locked spec with an
    optional string `note` in InviteRequest."""
    text = open(locked, encoding="utf-8").read()
    lines = text.split("\n")

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
        sys.exit("Batch requires completed_at in this spec; choose another property for the test")
    open(os.path.join(out, "breaking.yaml"), "w", encoding="utf-8").write("\n".join(lines[:first] + lines[last:]))
    start, end = schema("InviteRequest")
    props = lines.index("      properties:", start, end)
    if "        note:" in lines[start:end]:
        sys.exit("InviteRequest already has `note`; choose another name for the test")
    added = [
        "        note:",
        "          type: string",
        "          description: A note for the invitee (added by Scripts/test-update-spec.sh).",
    ]
    open(os.path.join(out, "clean.yaml"), "w", encoding="utf-8").write(
        "\n".join(lines[: props + 1] + added + lines[props + 1 :])
    )


def make_new_area(locked, out):
    """widgets.yaml: the locked spec plus POST /widgets (tag Widgets, a new area) whose body schema requires `name`
    although the requestBody does not say `required: true`."""
    text = open(locked, encoding="utf-8").read()
    if "\n  /widgets:" in text or "\n    CreateWidgetRequest:" in text:
        sys.exit("the locked spec has /widgets or CreateWidgetRequest already; choose other names for the test")
    path = """paths:
  /widgets:
    post:
      operationId: createWidget
      tags: [Widgets]
      summary: Creates a widget (added by Scripts/test-update-spec.sh).
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
    schemas = """components:
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
    if text.count("\npaths:\n") != 1 or text.count("\ncomponents:\n  schemas:\n") != 1:
        sys.exit("the locked spec's paths: or components: schemas: are not where the test expects them")
    text = text.replace("\npaths:\n", "\n" + path, 1).replace("\ncomponents:\n  schemas:\n", "\n" + schemas, 1)
    open(os.path.join(out, "widgets.yaml"), "w", encoding="utf-8").write(text)


def under_paths(changes_file, paths_file):
    """Exit 0 when every changed file (the `changed` output) lies under a path of --print-paths or is the
    git-ignored Spec/openapi.yaml; prints the others."""
    paths = [p.strip().rstrip("/") for p in open(paths_file) if p.strip()]
    outside = []
    for line in open(changes_file):
        rel = line.split(" ", 1)[1].strip()
        if rel != "Spec/openapi.yaml" and not any(rel == p or rel.startswith(p + "/") for p in paths):
            outside.append(rel)
    for rel in outside:
        print(f"      not in --print-paths: {rel}")
    sys.exit(1 if outside else 0)


def workflow_uses_print_paths(workflow):
    """Exit 0 when update-spec.yml's pull request adds exactly the paths `Scripts/spec/update-spec.sh --print-paths`
    printed in its update step (the step's `paths` output), and lists no path of its own."""
    text = open(workflow, encoding="utf-8").read()
    problems = []
    adds = re.findall(r"^\s*add-paths:\s*(.*)$", text, re.M)
    if adds != ["${{ steps.update.outputs.paths }}"]:
        problems.append(f"add-paths is {adds!r}, not the update step's paths output")
    step = re.search(r"^\s*- name: Move to it.*?(?=^\s*- name:)", text, re.M | re.S)
    if not step or "id: update" not in step.group(0):
        problems.append("no update step with id: update")
    elif "Scripts/spec/update-spec.sh --print-paths" not in step.group(0) or "paths<<" not in step.group(0):
        problems.append("the update step does not write Scripts/spec/update-spec.sh --print-paths to its paths output")
    for p in problems:
        print("      " + p)
    sys.exit(1 if problems else 0)


def mentions_all(paths_file, *docs):
    """Exit 0 when every doc names every path of --print-paths and the --print-paths option itself."""
    paths = [p.strip().rstrip("/") for p in open(paths_file) if p.strip()]
    missing = []
    for doc in docs:
        text = open(doc, encoding="utf-8").read()
        missing += [f"{os.path.basename(doc)}: {p}" for p in paths + ["--print-paths"] if p not in text]
    for m in missing:
        print("      does not name " + m)
    sys.exit(1 if missing else 0)


def lock_is(lock, expected):
    """Exit 0 when the lock holds exactly the expected JSON object (same keys, same values)."""
    got, want = json.load(open(lock)), json.loads(expected)
    for key in sorted(set(got) | set(want)):
        if got.get(key) != want.get(key):
            print(f"      {key}: got {got.get(key)!r}, want {want.get(key)!r}")
    sys.exit(0 if got == want else 1)


def fields_are(path, expected):
    """Exit 0 when the JSON object in path has the expected values for the expected keys (others not compared)."""
    got, want = json.load(open(path)), json.loads(expected)
    wrong = [key for key in sorted(want) if got.get(key) != want[key]]
    for key in wrong:
        print(f"      {key}: got {got.get(key)!r}, want {want[key]!r}")
    sys.exit(1 if wrong else 0)


def flip_byte(source, out):
    """Writes source with one byte changed (same size, other sha256): a `description` in its second half becomes
    `Description`."""
    data = bytearray(open(source, "rb").read())
    at = data.index(b"description", len(data) // 2)
    data[at] = ord("D")
    open(out, "wb").write(data)


def make_lock(template, out, sha, size, url):
    lock = json.load(open(template))
    lock.update({"sha256": sha, "size": int(size), "url": url})
    json.dump(lock, open(out, "w"), indent=2)


def interrupt(log, marker, *command):
    """Runs command in its own process group (SIGINT not ignored), sends SIGINT to the whole group (as Ctrl-C
    does) once `marker` appears in its output, and exits with the command's exit status (-1: the marker never
    came)."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    deadline, sent = time.time() + 900, False
    while proc.poll() is None and time.time() < deadline:
        if not sent and marker in open(log, errors="replace").read():
            time.sleep(1)
            os.killpg(proc.pid, signal.SIGINT)
            sent = True
        time.sleep(0.2)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    status = proc.wait()
    sys.exit(status if sent else 255)


def serve(root, port_file):
    """Serves root over HTTP on 127.0.0.1 (a free port, written to port_file) until killed."""
    import functools
    import http.server

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    open(port_file, "w").write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    globals()[sys.argv[1].replace("-", "_")](*sys.argv[2:])
