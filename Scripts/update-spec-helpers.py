#!/usr/bin/env python3
"""The parts of Scripts/update-spec.sh that are easier in Python: where the new spec comes from (the lock it gets),
the snapshot and the rollback of the files the update changes, and the explanation of a failed step.

Usage (from Scripts/update-spec.sh; the paths are its work files):
  update-spec-helpers.py provenance ROOT LOCK NEW SOURCE IS_URL COMMIT DATE URL ALLOW_LOCAL ALLOW_OLDER DRY_RUN
                                    HISTORY_DIR OUT_JSON
      Decides the new lock's source, url, commit, date, openapi, size and sha256 and the diff's labels, writes them
      to OUT_JSON ({"same": true} when NEW is the locked spec); prints warnings (an older spec) to stderr.
      Exit 2 with `update-spec: REFUSED: ...` when the lock could not say where the spec comes from, or when NEW
      looks older than the locked spec and neither ALLOW_OLDER nor DRY_RUN is 1 (before any summary exists).
      A commit is taken from SOURCE only when it is openai/openai-openapi's raw URL at a commit (or github.com's
      raw|blob URL of it); any other URL needs COMMIT. A local path goes into the lock only when it is under the
      repository's parent folder and not under a temporary folder.
  update-spec-helpers.py relabel SUMMARY_MD REPORT_JSON PROVENANCE_JSON OLD_PATH NEW_PATH RENAME
      Heads the markdown summary with the warnings; with RENAME=1 (a generator without --old-label/--new-label)
      replaces the two paths by the labels in both reports.
  update-spec-helpers.py write-lock LOCK PROVENANCE_JSON
  update-spec-helpers.py snapshot ROOT BACKUP       copy and hash the generated folders (Sources/OpenAI/Generated/,
                                                   Sources/OpenAI/OpenAI.docc/Generated/) and the two Spec files
  update-spec-helpers.py rollback ROOT BACKUP       put them back; exit 1 when the result differs from the snapshot
  update-spec-helpers.py explain ROOT LOG DIFF_JSON WHAT
      Prints what a failed step's log says: compiler errors in hand-written files (outside Generated/) with the spec
      change behind each (matched on the diff's `swift` field), errors inside Generated/, failed tests.
Exit status: 0 done; 1 failure (rollback not verified, unreadable spec); 2 refused (provenance).
"""

import glob
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import urllib.parse

UPSTREAM_REPO = "openai/openai-openapi"
UPSTREAM = "https://raw.githubusercontent.com/openai/openai-openapi/{}/openapi.yaml"
COMMIT_HEX = re.compile(r"^[0-9a-fA-F]{40}$")
PATH_SEGMENT = re.compile(r"^(?!\.{1,2}$)[A-Za-z0-9._-]+$")
HISTORY_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9a-f]{7,40})\.ya?ml$")
GENERATED = "Sources/OpenAI/Generated"
# The folders `openai-generator generate` writes, and the name of each one's copy in a snapshot: the sources and the
# DocC articles that curate them.
GENERATED_FOLDERS = ((GENERATED, "Generated"), ("Sources/OpenAI/OpenAI.docc/Generated", "Documentation"))
SPEC_FILES = ("Spec/openapi.yaml", "Spec/lock.json")


def digest(path):
    """The sha256 (hex) of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def copy_hashing(source, target):
    """Copies source to target (with its modification time and mode) and returns the sha256 of the bytes copied."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    h = hashlib.sha256()
    with open(source, "rb") as f, open(target, "wb") as out:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
            out.write(chunk)
    shutil.copystat(source, target)
    return h.hexdigest()


# --- provenance ----------------------------------------------------------------------------------------------------


def refuse(message):
    print(f"update-spec: REFUSED: {message} (nothing changed)", file=sys.stderr)
    sys.exit(2)


def upstream_at_commit(url):
    """(commit, raw URL) when url is a file of openai/openai-openapi at a 40-hex commit: its raw URL
    https://raw.githubusercontent.com/openai/openai-openapi/<commit>/<path>, or github.com's
    /openai/openai-openapi/raw|blob/<commit>/<path>; the raw URL has no query or fragment. None for any other URL,
    whatever hex its path holds (https://mirror.example/<40-hex>/openapi.yaml names no commit of ours)."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    # No user name, password or port: `https://raw.githubusercontent.com@evil.example/...` is evil.example.
    if parts.scheme.lower() != "https" or port is not None or parts.netloc.lower() != host:
        return None
    segments = parts.path.split("/")[1:]
    if len(segments) < 2 or f"{segments[0]}/{segments[1]}".lower() != UPSTREAM_REPO:
        return None
    rest = segments[2:]
    if host == "github.com" and rest and rest[0] in ("raw", "blob"):
        rest = rest[1:]
    elif host != "raw.githubusercontent.com":
        return None
    # Plain file-name segments only: `..` (or an escaped one) would leave the repository once the URL is resolved.
    if len(rest) < 2 or not COMMIT_HEX.match(rest[0]) or not all(PATH_SEGMENT.match(p) for p in rest[1:]):
        return None
    commit = rest[0].lower()
    return commit, f"https://raw.githubusercontent.com/{UPSTREAM_REPO}/{commit}/" + "/".join(rest[1:])


def source_of(url):
    """The lock's `source` for its url: openai/openai-openapi for its raw URL at a commit or a path (a local file's
    commit, from a history name, is upstream's); otherwise the URL's host and path, so a mirror never reads as
    upstream."""
    if not re.match(r"^https?://", url, re.IGNORECASE) or upstream_at_commit(url):
        return UPSTREAM_REPO
    parts = urllib.parse.urlsplit(url)
    return (parts.netloc.rpartition("@")[2] + parts.path) or url


def helpers_oldest_spec(root):
    """The spec name (date-commit) in Spec/helpers-oldest-spec.txt: its first line that is not a comment."""
    try:
        lines = open(os.path.join(root, "Spec", "helpers-oldest-spec.txt")).read().splitlines()
    except OSError:
        return ""
    return next((line.strip() for line in lines if line.strip() and not line.startswith("#")), "")


def under(path, folder):
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def provenance(
    root,
    lock_path,
    new,
    source,
    is_url,
    opt_commit,
    opt_date,
    opt_url,
    allow_local,
    allow_older,
    dry_run,
    history_dir,
    out_path,
):
    is_url, allow_local, allow_older, dry_run = (v == "1" for v in (is_url, allow_local, allow_older, dry_run))
    lock = json.load(open(lock_path))
    sha, size = digest(new), os.path.getsize(new)
    if sha == lock.get("sha256"):
        json.dump({"same": True, "sha256": sha}, open(out_path, "w"))
        return

    version = ""
    with open(new, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"""openapi:\s*['"]?([0-9][0-9.]*)""", line)
            if m:
                version = m.group(1)
                break

    # A history name (2026-08-13-855e5d4.yaml) dates the spec: its own name, or that of the history file with its
    # hash (only files of the same size are hashed).
    history = sorted(n for n in os.listdir(history_dir) if HISTORY_NAME.match(n)) if os.path.isdir(history_dir) else []
    by_hash = next(
        (
            n
            for n in history
            if os.path.getsize(os.path.join(history_dir, n)) == size and digest(os.path.join(history_dir, n)) == sha
        ),
        None,
    )
    named = HISTORY_NAME.match(os.path.basename(source.split("?")[0])) or (
        HISTORY_NAME.match(by_hash) if by_hash else None
    )

    commit, url = opt_commit, opt_url
    given_url = upstream_at_commit(opt_url) if opt_url else None
    if given_url and commit and given_url[0] != commit:
        refuse(f"--url names commit {given_url[0]} but --commit says {commit}")
    if given_url:
        url = given_url[1]  # github.com's raw|blob form becomes the raw URL fetch-spec.sh downloads
    if is_url:
        upstream = upstream_at_commit(source)
        if upstream and commit and upstream[0] != commit:
            refuse(f"the URL names commit {upstream[0]} but --commit says {commit}")
        if upstream:
            commit = commit or upstream[0]
            url = url or upstream[1]
        elif not commit and not dry_run:
            hex_note = (
                " (the 40 hex in its path are not taken as a commit: it is not an openai/openai-openapi URL)"
                if re.search(r"(?<![0-9a-fA-F])[0-9a-fA-F]{40}(?![0-9a-fA-F])", source)
                else ""
            )
            refuse(
                f"{source} does not pin a commit of {UPSTREAM_REPO}{hex_note}; only its raw URL at a commit "
                f"(https://raw.githubusercontent.com/{UPSTREAM_REPO}/<40-hex>/openapi.yaml, or "
                f"https://github.com/{UPSTREAM_REPO}/raw|blob/<40-hex>/...) says which commit it is: use that, or "
                "pass --commit SHA for the commit this file is (the lock's url becomes its raw GitHub URL; --url "
                "keeps this one, and then the lock's source is this URL's host and path)"
            )
        else:
            url = url or UPSTREAM.format(commit)
    else:
        real = os.path.realpath(source)
        temp_roots = {
            os.path.realpath(p)
            for p in (
                "/tmp",
                "/var/tmp",
                "/dev/shm",
                tempfile.gettempdir(),
                os.environ.get("TMPDIR") or "/tmp",
                os.environ.get("XDG_RUNTIME_DIR") or "/tmp",
            )
        }
        parent = os.path.dirname(root)
        beside = under(real, parent)
        # A file beside the repository goes into the lock as a relative path (../shared/...), which
        # is fine even when the checkout itself sits in a temporary folder (a CI clone in /tmp).
        is_temp = any(under(real, t) for t in temp_roots) and not beside
        if commit and named and not commit.startswith(named.group(2)):
            refuse(f"{os.path.basename(source)} names commit {named.group(2)} but --commit says {commit}")
        if commit:
            url = url or UPSTREAM.format(commit)
        elif allow_local:
            if not url and is_temp and not dry_run:
                refuse(
                    f"{source} is under a temporary folder (/tmp, /var/tmp, /dev/shm, $TMPDIR, $XDG_RUNTIME_DIR), "
                    "which must not go into the lock even with --allow-local-source; pass --commit SHA (or --url "
                    "URL) for where it really comes from"
                )
            if not url and not beside and not dry_run:
                refuse(
                    f"{source} is outside the repository's parent folder ({parent}): with --allow-local-source the "
                    "lock's url would be an absolute path only this machine has. Put the file beside the "
                    "repository (e.g. ../shared/spec/history/) or pass --commit SHA (or --url URL)"
                )
            if not url and beside:
                # Relative to the repository (../shared/...), as Scripts/fetch-spec.sh reads it.
                url = os.path.relpath(real, root)
            commit = named.group(2) if named else ""
        elif not dry_run:
            refuse(
                f"{source} is a local file; the lock must say where the spec comes from. Pass --commit SHA (the "
                "openai/openai-openapi commit it is; the lock's url becomes its raw GitHub URL) or, for a spec "
                "with no upstream commit, --allow-local-source"
            )

    date = opt_date or (named.group(1) if named else "")
    if not date and not dry_run:
        refuse("cannot tell the spec's commit date; pass --date YYYY-MM-DD")

    # Older than the locked spec? The lock's date, or the history name of its commit, against the new date.
    warnings = []
    old_date = lock.get("date") or next(
        (
            HISTORY_NAME.match(n).group(1)
            for n in history
            if lock.get("commit") and lock["commit"].startswith(HISTORY_NAME.match(n).group(2))
        ),
        "",
    )
    if old_date and date and date < old_date:
        warnings.append(
            f"the new spec ({date}{', ' + commit[:7] if commit else ''}) looks OLDER than the locked "
            f"one ({old_date}, {lock.get('commit', '')[:7]}): this moves the SDK backwards"
        )
    older = bool(warnings)
    # Older than the oldest spec the hand-written helpers support (Spec/helpers-oldest-spec.txt)?
    oldest = helpers_oldest_spec(root)
    if oldest and date and f"{date}-{commit[:7]}" < oldest:
        warnings.append(
            f"the new spec ({date}) is older than the oldest one the hand-written helpers support ({oldest}, "
            "Spec/helpers-oldest-spec.txt): the build step fails in Sources/OpenAI/Helpers/ whatever the spec's "
            "changes; Scripts/check-history.sh compiles such specs without the helpers"
        )
    for w in warnings:
        print(f"update-spec: WARNING: {w}", file=sys.stderr)
    if older and not allow_older and not dry_run:
        refuse("the new spec looks older than the locked one; pass --allow-older to move back on purpose")

    result = {
        "same": False,
        "source": source_of(url) if url else UPSTREAM_REPO,
        "sha256": sha,
        "size": size,
        "openapi": version,
        "url": url,
        "commit": commit,
        "date": date,
        "warnings": warnings,
        "old_label": lock.get("url") or lock.get("commit") or "Spec/openapi.yaml (locked)",
        "new_label": url or commit or (source if is_url else os.path.basename(source)),
    }
    if not dry_run:
        if not version:
            print(f"update-spec: {source} has no `openapi:` version line; is it an OpenAPI document?", file=sys.stderr)
            sys.exit(1)
        missing = [k for k in ("url", "sha256", "date", "openapi", "size") if not result[k]]
        if not commit and not allow_local:
            missing.append("commit")
        if missing:
            refuse("the lock would lack " + ", ".join(missing))
    json.dump(result, open(out_path, "w"), indent=2)


def relabel(summary, report, provenance_path, old_path, new_path, rename):
    p = json.load(open(provenance_path))

    def names(text):
        if rename == "1":
            text = text.replace(old_path, p["old_label"]).replace(new_path, p["new_label"])
        return text

    text = names(open(report).read())
    open(report, "w").write(text)
    text = names(open(summary).read())
    if p["warnings"]:
        text = "".join(f"> **Warning:** {w}.\n" for w in p["warnings"]) + "\n" + text
    open(summary, "w").write(text)


def write_lock(lock_path, provenance_path):
    lock, p = json.load(open(lock_path)), json.load(open(provenance_path))
    lock.update({k: p[k] for k in ("source", "url", "commit", "sha256", "date", "openapi", "size")})
    with open(lock_path + ".tmp", "w") as f:
        json.dump(lock, f, indent=2)
        f.write("\n")
    os.replace(lock_path + ".tmp", lock_path)
    print(
        f"update-spec: lock now sha256 {p['sha256']}, commit {p['commit'] or '(none: --allow-local-source)'}, "
        f"date {p['date']}, url {p['url']}, source {p['source']}",
        file=sys.stderr,
    )


# --- snapshot and rollback -------------------------------------------------------------------------------------------


def snapshot(root, backup):
    """Copies the generated folders (GENERATED_FOLDERS, times kept) and the two Spec files into backup, hashing the
    bytes copied, and writes backup/manifest.json."""
    folders = {}
    for rel, saved_name in GENERATED_FOLDERS:
        generated, saved = os.path.join(root, rel), os.path.join(backup, saved_name)
        files, dirs = {}, []
        if os.path.isdir(generated):
            os.makedirs(saved)
            for dirpath, dirnames, filenames in os.walk(generated):
                dirs += [os.path.relpath(os.path.join(dirpath, d), generated) for d in dirnames]
                for name in filenames:
                    file = os.path.relpath(os.path.join(dirpath, name), generated)
                    files[file] = copy_hashing(os.path.join(generated, file), os.path.join(saved, file))
        folders[rel] = {"existed": os.path.isdir(generated), "dirs": dirs, "sha256": files}
    spec = {}
    for rel in SPEC_FILES:
        path = os.path.join(root, rel)
        spec[rel] = copy_hashing(path, os.path.join(backup, rel)) if os.path.exists(path) else None
    json.dump({"folders": folders, "spec_sha256": spec}, open(os.path.join(backup, "manifest.json"), "w"))


def same_file(a, b):
    """Same size, modification time and bytes."""
    sa, sb = os.stat(a), os.stat(b)
    if sa.st_size != sb.st_size or sa.st_mtime_ns != sb.st_mtime_ns:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            ca, cb = fa.read(1 << 20), fb.read(1 << 20)
            if ca != cb:
                return False
            if not ca:
                return True


def rollback(root, backup):
    """Makes the generated folders and the Spec files what they were at the snapshot: files that differ in bytes or
    time are copied back with their times, files the run added are removed; then verifies every hash."""
    manifest = json.load(open(os.path.join(backup, "manifest.json")))
    counts = {"restored": 0, "removed": 0}

    def put_back(source, target):
        if os.path.islink(target):
            os.remove(target)
        elif os.path.isdir(target):
            shutil.rmtree(target)
        elif os.path.exists(target) and same_file(source, target):
            return
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = target + ".update-spec-restore"
        shutil.copy2(source, tmp)
        os.replace(tmp, target)
        counts["restored"] += 1

    problems = []
    for rel, saved_name in GENERATED_FOLDERS:
        generated, saved = os.path.join(root, rel), os.path.join(backup, saved_name)
        state = manifest["folders"][rel]
        wanted = state["sha256"]
        if state["existed"]:
            for dirpath, dirnames, filenames in os.walk(generated, topdown=False):
                for name in filenames:
                    path = os.path.join(dirpath, name)
                    if os.path.relpath(path, generated) not in wanted:
                        os.remove(path)
                        counts["removed"] += 1
                for name in dirnames:
                    path = os.path.join(dirpath, name)
                    if os.path.islink(path):
                        os.remove(path)
                        counts["removed"] += 1
                    elif not os.listdir(path) and os.path.relpath(path, generated) not in state["dirs"]:
                        os.rmdir(path)
            for file in sorted(wanted):
                put_back(os.path.join(saved, file), os.path.join(generated, file))
        elif os.path.isdir(generated):
            shutil.rmtree(generated)
            counts["removed"] += 1
        # What an interrupted generator leaves beside the folder.
        for staging in glob.glob(os.path.join(os.path.dirname(generated), ".Generated.staging-*")):
            shutil.rmtree(staging, ignore_errors=True)
        now = {}
        for dirpath, _, filenames in os.walk(generated):
            for name in filenames:
                path = os.path.join(dirpath, name)
                now[os.path.relpath(path, generated)] = digest(path)
        if now != wanted:
            problems.append(f"{rel}/ differs from the snapshot")
    # And an interrupted write of the new spec or lock (update-spec.sh writes PATH.tmp, then renames it).
    for rel in SPEC_FILES:
        if os.path.exists(os.path.join(root, rel + ".tmp")):
            os.remove(os.path.join(root, rel + ".tmp"))
    for rel, sha in manifest["spec_sha256"].items():
        target = os.path.join(root, rel)
        if sha is not None:
            put_back(os.path.join(backup, rel), target)
        elif os.path.exists(target):
            os.remove(target)
            counts["removed"] += 1

    for rel, sha in manifest["spec_sha256"].items():
        path = os.path.join(root, rel)
        if (digest(path) if os.path.exists(path) else None) != sha:
            problems.append(f"{rel} differs from the snapshot")
    print(
        f"update-spec: rolled back: {counts['restored']} file(s) put back, {counts['removed']} removed; "
        + (
            f"{', '.join(rel + '/' for rel, _ in GENERATED_FOLDERS)}, Spec/openapi.yaml and Spec/lock.json are byte "
            "for byte as before."
            if not problems
            else "BUT " + "; ".join(problems)
        ),
        file=sys.stderr,
    )
    sys.exit(1 if problems else 0)


# --- explaining a failure --------------------------------------------------------------------------------------------

ERROR_LINE = re.compile(r"^(?P<path>/[^:\n]+?\.swift):(?P<line>\d+):(?:(?P<col>\d+):)? error: (?P<msg>.*)$", re.M)


def clean_name(name):
    name = re.sub(r"<.*>", "", name).rstrip("?!").removesuffix(".Type").removeprefix("OpenAI.")
    return name.removeprefix("any ").removeprefix("some ")


def identifiers(message):
    """(type, member) pairs the compiler message is about, and every quoted name in it."""
    pairs = [
        (clean_name(m[1]), m[2].split("(")[0])
        for m in re.finditer(r"(?:value of type |type )?'([^']+)' has no member '([^']+)'", message)
    ]
    pairs += [
        (clean_name(m[2]), m[1]) for m in re.finditer(r"'([^']+)' is not a member type of [a-z ]*'([^']+)'", message)
    ]
    return pairs, [clean_name(q) for q in re.findall(r"'([^']+)'", message)]


def swift_names(change):
    """The Swift names a change affects: `Type.member`, or both sides of `Old → New`."""
    return [p.strip() for p in (change.get("swift") or "").split("→") if p.strip()]


def causes(message, changes):
    """The spec changes whose Swift names best match the message's identifiers: the member itself, then (for
    changes that break Swift code) a client method of that name, then the type or an enclosing one."""
    pairs, names = identifiers(message)
    scored = []
    for change in changes:
        best = None
        for p in swift_names(change):
            levels = []
            for t, member in pairs:
                full = f"{t}.{member}"
                if p == full or p.endswith("." + full):
                    levels.append(0)
                elif p.startswith("client.") and p.split("(")[0].split(".")[-1] == member:
                    levels.append(1)
                elif p == t or p.endswith("." + t):
                    levels.append(2)
                elif t.startswith(p + "."):
                    levels.append(3)
            for name in [] if pairs else names:
                if p == name or p.endswith("." + name):
                    levels.append(0)
                elif p.startswith(name + "."):
                    levels.append(2)
            if levels:
                best = min(levels) if best is None else min(best, *levels)
        breaks_swift = (change.get("judgements") or {}).get("swift") == "breaking"
        # A looser match (method name, type) counts only for a change that breaks Swift code.
        if best is not None and (best == 0 or breaks_swift):
            scored.append(((best, 0 if breaks_swift else 1), change))
    if not scored:
        return []
    top = min(score for score, _ in scored)
    return [change for score, change in scored if score == top]


def explain(root, log, diff_path, what):
    text = open(log, errors="replace").read()
    try:
        changes = json.load(open(diff_path)).get("changes", [])
    except (OSError, ValueError):
        changes = []
    seen, handwritten, assertions, generated = set(), [], [], 0
    for m in ERROR_LINE.finditer(text):
        path = os.path.realpath(m["path"])
        rel = os.path.relpath(path, root) if path.startswith(root + os.sep) else m["path"]
        key = (rel, m["line"], m["col"], m["msg"])
        if key in seen:
            continue
        seen.add(key)
        if rel.startswith(GENERATED + "/"):
            generated += 1
        elif m["col"] is None:
            assertions.append(key)  # XCTest's `file:line: error: -[Suite test] : XCTAssert… failed`
        else:
            handwritten.append(key)

    out = [f"update-spec: FAILED: {what}."]
    if handwritten:
        files = sorted({k[0] for k in handwritten})
        out.append(
            f"Hand-written code that no longer compiles: {len(handwritten)} error(s) in {len(files)} "
            f"file(s): " + ", ".join(files)
        )
        for rel, line, col, msg in handwritten[:30]:
            out.append(f"  {rel}:{line}:{col}: error: {msg}")
            found = causes(msg, changes)
            for change in found[:3]:
                out.append(
                    f"      caused by the spec change {change['kind']} `{change.get('swift')}`: "
                    f"{change['message']} ({change['pointer']})"
                )
            if len(found) > 3:
                out.append(f"      … and {len(found) - 3} more matching spec changes")
            if not found and changes:
                out.append("      (no spec change in the diff names these identifiers)")
        if len(handwritten) > 30:
            out.append(f"  … and {len(handwritten) - 30} more (see the build output above)")
    if generated:
        out.append(
            f"{generated} error(s) inside {GENERATED}/: the generated code itself does not compile "
            "(a generator problem, not a hand-written one; see the build output above)."
        )
    failed_tests = sorted(
        set(re.findall(r"Test Case '([^']+)' failed", text))
        | set(re.findall(r'✘ Test (\S+(?: "[^"]*")?) failed', text))
    )
    if failed_tests or assertions:
        out.append(f"Failed tests ({len(failed_tests)}): " + ", ".join(failed_tests[:20]))
        out += [f"  {rel}:{line}: {msg}" for rel, line, _, msg in assertions[:20]]
    if not handwritten and not generated and not failed_tests and not assertions:
        out.append("Last lines of its output:")
        out += ["  " + line for line in [s for s in text.splitlines() if s.strip()][-15:]]
    print("\n".join(out), file=sys.stderr)


COMMANDS = {
    "provenance": provenance,
    "relabel": relabel,
    "write-lock": write_lock,
    "snapshot": snapshot,
    "rollback": rollback,
    "explain": explain,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
