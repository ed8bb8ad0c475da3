#!/usr/bin/env python3
"""The parts of Scripts/spec/update-spec.sh that are easier in Python: where the new spec comes from (the lock it gets),
the snapshot and the rollback of the files the update changes, and the explanation of a failed step.

Usage (from Scripts/spec/update-spec.sh; the paths are its work files):
  update-spec-helpers.py provenance ROOT LOCK NEW SOURCE IS_URL COMMIT DATE URL ALLOW_LOCAL ALLOW_OLDER DRY_RUN
                                    HISTORY_DIR OUT_JSON
      Decides the new lock's source, url, commit, date, openapi, size and sha256 and the diff's labels, writes them
      to OUT_JSON ({"same": true} when NEW is the locked spec); prints warnings (an older spec) to stderr.
      Exit 2 with `update-spec: REFUSED: ...` when the lock could not say where the spec comes from, or when NEW
      looks older than the locked spec and neither ALLOW_OLDER nor DRY_RUN is 1 (before any summary exists).
      A commit is taken from SOURCE only when it is openai/openai-openapi's raw URL at a commit (or github.com's
      raw|blob URL of it); any other URL needs COMMIT. A local path goes into the lock only when it is under the
      repository's parent folder and not under a temporary folder.
      COMMIT may be abbreviated (7 to 39 hex): it is expanded to the one full commit that the lock, the spec cache's
      records (OPENAI_SPEC_CACHE, <sha256>.json) or ../shared/spec/PROVENANCE.md name, else refused.
  update-spec-helpers.py relabel SUMMARY_MD REPORT_JSON PROVENANCE_JSON OLD_PATH NEW_PATH RENAME
      Heads the markdown summary with the warnings about the spec itself (older than the lock) and ends it with those
      about this repository's own code (a section of their own); with RENAME=1 (a generator without
      --old-label/--new-label) replaces the two paths by the labels in both reports.
  update-spec-helpers.py write-lock LOCK PROVENANCE_JSON
  update-spec-helpers.py snapshot ROOT BACKUP FOLDER...   copy and hash the generator's output folders (relative to
                                                   ROOT; `openai-generator generate --list-outputs`) and the two Spec
                                                   files
  update-spec-helpers.py rollback ROOT BACKUP       put them back; exit 1 when the result differs from the snapshot
  update-spec-helpers.py explain ROOT LOG DIFF_JSON WHAT PROVENANCE_JSON LOCKED_LOG KEEP FOLDER...
      Prints what a failed step's log says: compiler errors in hand-written files (outside the generated FOLDERs)
      with the spec change behind each (matched on the diff's `swift` field) and, when LOCKED_LOG (the same build
      on the locked spec) is not empty, whether the locked spec gives the same error; errors inside the generated
      code; failed tests; and what to do.
Exit status: 0 done; 1 failure (rollback not verified, unreadable spec); 2 refused (provenance).
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

UPSTREAM_REPO = "openai/openai-openapi"
UPSTREAM = "https://raw.githubusercontent.com/openai/openai-openapi/{}/openapi.yaml"
COMMIT_HEX = re.compile(r"^[0-9a-fA-F]{40}$")
PATH_SEGMENT = re.compile(r"^(?!\.{1,2}$)[A-Za-z0-9._-]+$")
HISTORY_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9a-f]{7,40})\.ya?ml$")
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


def spec_cache_dir():
    """The spec cache (as Scripts/lib/spec.sh's spec_cache_dir says): $OPENAI_SPEC_CACHE, else
    ${XDG_CACHE_HOME:-$HOME/.cache}/openai-swift/specs."""
    return os.environ.get("OPENAI_SPEC_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", ""), ".cache"), "openai-swift", "specs"
    )


def known_commits(root, lock, history_dir):
    """Every full (40-hex) openai/openai-openapi commit this machine has a record of: the lock's, the locks in the
    repository's history of Spec/lock.json, the spec cache's records (<sha256>.json, written by update-spec.sh with
    each spec it caches) and the files beside the history folder (../shared/spec/PROVENANCE.md)."""
    found = set()
    hex40 = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{40}(?![0-9a-fA-F])")
    if COMMIT_HEX.match(lock.get("commit") or ""):
        found.add(lock["commit"].lower())
    try:
        log = subprocess.run(
            ["git", "-C", root, "log", "--format=", "-p", "--", "Spec/lock.json"],
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout
        found |= {m.lower() for m in re.findall(r'"commit":\s*"([0-9a-fA-F]{40})"', log)}
    except (OSError, ValueError, subprocess.SubprocessError):
        pass
    for record in glob.glob(os.path.join(spec_cache_dir(), "*.json")):
        try:
            commit = json.load(open(record)).get("commit") or ""
        except (OSError, ValueError, AttributeError):
            continue
        if COMMIT_HEX.match(commit):
            found.add(commit.lower())
    spec_folder = os.path.dirname(os.path.normpath(history_dir))
    for name in glob.glob(os.path.join(spec_folder, "*.md")):
        try:
            found |= {m.lower() for m in hex40.findall(open(name, errors="replace").read())}
        except OSError:
            pass
    return found


def full_commit(abbreviated, root, lock, history_dir):
    """The one known full commit that starts with `abbreviated` (7 to 39 hex), or a refusal (exit 2)."""
    matches = sorted(c for c in known_commits(root, lock, history_dir) if c.startswith(abbreviated))
    if len(matches) == 1:
        print(f"update-spec: --commit {abbreviated} is {matches[0]}", file=sys.stderr)
        return matches[0]
    if matches:
        refuse(f"--commit {abbreviated} is ambiguous: {', '.join(matches)}; pass more of it")
    refuse(
        f"--commit {abbreviated} is abbreviated and no record here names its full commit (the lock and its git "
        "history, the spec cache, ../shared/spec/PROVENANCE.md); pass all 40 hex (`git rev-parse` in a clone of "
        f"{UPSTREAM_REPO}, or the commit's page on GitHub)"
    )


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

    if opt_commit and len(opt_commit) < 40:
        opt_commit = full_commit(opt_commit, root, lock, history_dir)
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
                # Relative to the repository (../shared/...), as Scripts/spec/fetch-spec.sh reads it.
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
    # Older than the oldest spec the hand-written helpers support (Spec/helpers-oldest-spec.txt)? A warning about
    # this repository's code, not about the spec: the summary gives it a section of its own.
    repository_warnings = []
    oldest = helpers_oldest_spec(root)
    if oldest and date and f"{date}-{commit[:7]}" < oldest:
        repository_warnings.append(
            f"the new spec ({date}) is older than the oldest one the hand-written helpers support ({oldest}, "
            "Spec/helpers-oldest-spec.txt): the hand-written code (Sources/OpenAI/Helpers/ and the tests that use "
            "it) may not compile with it, whatever the spec's changes; a failed build says which errors the locked "
            "spec has too and what to do. Scripts/spec/check-history.sh compiles specs older than that without the "
            "helpers"
        )
    for w in warnings + repository_warnings:
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
        "repository_warnings": repository_warnings,
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
    if p.get("repository_warnings"):
        text = text.rstrip("\n") + "\n\n### This repository's own code\n\n"
        text += "".join(f"- **Warning:** {w}.\n" for w in p["repository_warnings"])
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


def snapshot(root, backup, *outputs):
    """Copies the generator's output folders (relative to root, times kept) and the two Spec files into backup,
    hashing the bytes copied, and writes backup/manifest.json (which lists the folders for the rollback)."""
    if not outputs:
        sys.exit("update-spec-helpers.py snapshot: no output folder given")
    folders = {}
    for index, rel in enumerate(outputs):
        rel = rel.rstrip("/")
        generated, saved = os.path.join(root, rel), os.path.join(backup, f"output-{index}")
        files, dirs = {}, []
        if os.path.isdir(generated):
            os.makedirs(saved)
            for dirpath, dirnames, filenames in os.walk(generated):
                dirs += [os.path.relpath(os.path.join(dirpath, d), generated) for d in dirnames]
                for name in filenames:
                    file = os.path.relpath(os.path.join(dirpath, name), generated)
                    files[file] = copy_hashing(os.path.join(generated, file), os.path.join(saved, file))
        folders[rel] = {"saved": f"output-{index}", "existed": os.path.isdir(generated), "dirs": dirs, "sha256": files}
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
    for rel, state in manifest["folders"].items():
        generated, saved = os.path.join(root, rel), os.path.join(backup, state["saved"])
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
        for staging in glob.glob(os.path.join(os.path.dirname(generated), f".{os.path.basename(generated)}.staging-*")):
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
            f"{', '.join(rel + '/' for rel in manifest['folders'])}, Spec/openapi.yaml and Spec/lock.json are byte "
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


def compile_errors(text, root, outputs):
    """The compiler errors of a build log, each once: (hand-written [(rel, line, col, msg)], XCTest assertion
    lines [(rel, line, None, msg)], the number of errors inside the generated folders)."""
    seen, handwritten, assertions, generated = set(), [], [], 0
    for m in ERROR_LINE.finditer(text):
        path = os.path.realpath(m["path"])
        rel = os.path.relpath(path, root) if path.startswith(root + os.sep) else m["path"]
        key = (rel, m["line"], m["col"], m["msg"])
        if key in seen:
            continue
        seen.add(key)
        if any(under(rel, folder) for folder in outputs):
            generated += 1
        elif m["col"] is None:
            assertions.append(key)  # XCTest's `file:line: error: -[Suite test] : XCTAssert… failed`
        else:
            handwritten.append(key)
    return handwritten, assertions, generated


def explain(root, log, diff_path, what, provenance_path="", locked_log="", keep="0", *outputs):
    outputs = [o.rstrip("/") for o in outputs] or ["Sources/OpenAI/Generated"]
    text = open(log, errors="replace").read()
    try:
        changes = json.load(open(diff_path)).get("changes", [])
    except (OSError, ValueError):
        changes = []
    try:
        prov = json.load(open(provenance_path)) if provenance_path else {}
    except (OSError, ValueError):
        prov = {}
    handwritten, assertions, generated = compile_errors(text, root, outputs)
    # The same build on the locked spec (after the rollback): its errors, or None when it did not run.
    locked = None
    if locked_log and os.path.exists(locked_log):
        locked_text = open(locked_log, errors="replace").read()
        locked_handwritten, _, locked_generated = compile_errors(locked_text, root, outputs)
        # The same file and message: the hand-written files do not change between the two builds.
        locked = {(rel, msg) for rel, _, _, msg in locked_handwritten}
        locked_count = len(locked_handwritten) + locked_generated

    def also_locked(key):
        rel, _, _, msg = key
        return locked is not None and (rel, msg) in locked

    out = [f"update-spec: FAILED: {what}."]
    new_errors, old_errors = [], []
    if handwritten:
        files = sorted({k[0] for k in handwritten})
        out.append(
            f"Hand-written code that does not compile with the new spec: {len(handwritten)} error(s) in "
            f"{len(files)} file(s): " + ", ".join(files)
        )
        for key in handwritten[:30]:
            rel, line, col, msg = key
            out.append(f"  {rel}:{line}:{col}: error: {msg}")
            if also_locked(key):
                old_errors.append(key)
                out.append(
                    "      ALSO on the locked spec: the same build fails there, so this spec change is not its cause"
                )
                continue
            new_errors.append(key)
            found = causes(msg, changes)
            for change in found[:3]:
                out.append(
                    f"      caused by the spec change {change['kind']} `{change.get('swift')}`: "
                    f"{change['message']} ({change['pointer']})"
                )
            if len(found) > 3:
                out.append(f"      … and {len(found) - 3} more matching spec changes")
            if not found and changes:
                why = "; the locked spec builds without it, so the new spec is its cause" if locked is not None else ""
                out.append(f"      (no spec change in the diff names these identifiers{why})")
        if len(handwritten) > 30:
            out.append(f"  … and {len(handwritten) - 30} more (see the build output above)")
    if generated:
        out.append(
            f"{generated} error(s) inside {', '.join(o + '/' for o in outputs)}: the generated code itself does not "
            "compile (a generator problem, not a hand-written one; see the build output above)."
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

    # Against the locked spec, and what to do.
    if handwritten or generated:
        if locked is None:
            out.append(
                "Not compared with the locked spec: --keep-on-failure keeps the new state."
                if keep == "1"
                else "Not compared with the locked spec (only a failed `swift build` is built again there)."
            )
        elif locked_count == 0:
            out.append("On the locked spec the same build succeeds: every error above comes with the new spec.")
        else:
            out.append(
                f"On the locked spec the same build fails too ({locked_count} error(s)): "
                f"{len(old_errors)} of the errors above are there already, {len(new_errors)} come with the new spec."
            )
    todo = []
    oldest = helpers_oldest_spec(root)
    older_than_helpers = any(
        "oldest one the hand-written helpers support" in w for w in prov.get("repository_warnings", [])
    )
    if old_errors:
        todo.append(
            "the hand-written code does not build on the locked spec either: fix that first (it is not this update's "
            "doing; `swift build --target OpenAIRealtime` on a clean checkout shows it), then run the update again."
        )
    if new_errors and older_than_helpers:
        todo.append(
            f"the new spec is older than the oldest one the hand-written code supports ({oldest}, "
            "Spec/helpers-oldest-spec.txt). To move to it on purpose: run again with --allow-older --keep-on-failure, "
            "change the helpers and tests named above to what this spec has, set Spec/helpers-oldest-spec.txt to the "
            "new spec (Scripts/spec/check-history.sh then compiles the helpers against it and every later spec), "
            "build, and commit all of it together."
        )
    elif new_errors:
        todo.append(
            "the new spec changes what the hand-written code above uses. Run again with --keep-on-failure (the new "
            "spec and generated code stay), update those files to the new API, check with `swift build "
            "--build-tests`, and commit them with the update's paths (Scripts/spec/update-spec.sh --print-paths)."
        )
    if generated:
        todo.append("report the generator problem with the new spec (openai-generator check, the errors above).")
    if failed_tests or assertions:
        todo.append("run the failed tests with `swift test --filter NAME` after --keep-on-failure to see why.")
    if todo:
        out.append("What to do:")
        out += [f"  - {item}" for item in todo]
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
