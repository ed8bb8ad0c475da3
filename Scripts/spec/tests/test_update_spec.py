"""End-to-end test of Scripts/spec/update-spec.sh (a transaction: summary first, rollback on any failure) and
Scripts/spec/fetch-spec.sh (finds the locked spec by sha256 before downloading), run in a copy of the repository
(conftest.py: the working tree's tracked and untracked-but-not-ignored files, plus the current generated folders) so
the checkout itself is never touched. The copy sits beside a `shared` symbolic link to ../shared, and its SwiftPM
scratch folder persists, so a second run builds incrementally. The scenarios run in this file's order, which
matters: the clean one builds first, so the failing builds after it are incremental.

  sources    refused, nothing changed: a local file in a temporary folder without --commit (also with
             --allow-local-source), --allow-local-source with a file in /dev/shm or outside the repository's parent
             folder, a spec older than the lock (--dry-run: the warning is the summary's first line) or than the
             oldest the helpers support (Spec/helpers-oldest-spec.txt), a branch URL, a URL on another host with 40 hex
             in its path (https://evil.example/<40-hex>/...); the lock update-spec-helpers.py decides for URLs on other
             hosts (--commit: the upstream raw URL; --url: that URL, its host and path as `source`) and github.com's
             blob URL; accepted with SKIP_SDK_BUILD=1 (generate and check): openai/openai-openapi's raw URL at a commit
             (the lock's url and commit from it) and --allow-local-source with a file beside the repository (its
             relative path in the lock, which fetch-spec.sh then reads). The https URLs are served by a curl stub from
             files (no network); --commit abbreviated (the locked commit's first 9 hex: the lock holds the full one;
             an unknown one is refused); the summary's sections (a warning about the helpers at the end, the JSON
             report beside the markdown, both paths printed);
  paths      --print-paths is Spec/lock.json and the generator's --list-outputs; update-spec.yml's pull request adds
             exactly that list and Spec/README.md and CONTRIBUTING.md name it; a spec adding POST /widgets in a new
             area (SKIP_SDK_BUILD=1): every changed file (the DocC articles among them) lies in that list, the summary
             leads with the operation and its Swift call and ends with the checks, and the body its schema requires is
             a required parameter;
  clean      run as the workflow runs it (CI=true, no OPENAI_TEST_PYTHON, no Scripts/.venv in the copy: the script
             prepares it, and no test may skip), the locked spec plus an optional property InviteRequest.note, with
             --commit and --date: exit 0, the lock exactly as expected, `openai-generator check` passes, only the file
             declaring InviteRequest, the CLI's catalogue and schemas and each folder's Manifest.swift changed (the
             other files keep their modification time), the spec is in the cache. It runs first of the scenarios that
             build: its build (cold in a clean clone) leaves the copy's scratch warm, so that the failing builds below
             are incremental (the failed ones leave it as it was);
  interrupt  SIGINT (Ctrl-C) to the whole run during the SDK build: exit 130, everything as before;
  breaking   a hand-written file (Sources/OpenAI/Helpers/UpdateSpecProbe.swift) uses Batch.completedAt and the new
             spec (the locked one without #/components/schemas/Batch/properties/completed_at) removes it, and has an
             error of its own besides: exit 1, every file of Generated/ and Spec/ byte-identical (and with its
             modification time), the output names the probe's file:line and the spec change, repeats the build on the
             locked spec and marks the other error as the locked spec's too, and says what to do; then again with
             --keep-on-failure: the new state is kept (and the locked spec is not built);
  fetch      fetch-spec.sh in a fresh copy without network (curl replaced by a failing stub, SPEC_SOURCE unset): a lock
             naming a history file's sha256 finds it in ../shared/spec/history, the lock the clean scenario wrote finds
             its spec in the cache (also through .github/scripts/locked-spec.sh, i.e. fetch-spec.sh's LOCK_FILE and
             SPEC_DEST), a cached file of the right size whose sha256 differs (one byte changed) is not installed, a
             spec found nowhere fails and leaves no Spec/openapi.yaml.

Run: Scripts/.venv/bin/python -m pytest Scripts/spec/tests [-k sources|paths|clean|interrupt|breaking|fetch]
(about 5.5 min; `-k sources` and `-k paths` need only the generator). The environment is described in conftest.py.
Logs of the last run are in the work folder's logs/ (named in each failure)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import update_spec_fixtures as fx

UPSTREAM = "https://raw.githubusercontent.com/openai/openai-openapi"
NOWHERE = "http://127.0.0.1:9/unreachable/openapi.yaml"
# The history files the scenarios use (../shared/spec/history): older than the lock, and one fetch-spec.sh finds.
OLDER_HISTORY = "2026-08-13-855e5d4.yaml"
FETCH_HISTORY = "2026-08-05-dc708bb.yaml"
HISTORY_NAMED = "2026-09-04-abcdef1.yaml"  # a local spec named like a history file

# --- assertions -------------------------------------------------------------------------------------------------------


def assert_status(got: int, want: int, what: str) -> None:
    assert got == want, f"{what}: exit status {got}, expected {want}"


def assert_has(path: Path, text: str, what: str) -> None:
    found = text in fx.read_text(path)
    assert found, f"{what} (no {text!r} in {path})"


def assert_lacks(path: Path, text: str, what: str) -> None:
    found = text in fx.read_text(path)
    assert not found, f"{what} ({text!r} found in {path})"


def assert_same_bytes(expected: Path, got: Path, what: str) -> None:
    same = Path(got).is_file() and fx.same_file(expected, got)
    assert same, f"{what} ({got} is not {expected})"


def assert_unchanged(before: dict, after: dict, what: str) -> None:
    problems = fx.compare(before, after, times=True)
    assert not problems, f"{what}: " + "; ".join(problems[:20])


def assert_lock(lock: Path, expected: dict, what: str) -> None:
    wrong = fx.lock_differences(lock, expected)
    assert not wrong, f"{what}: " + "; ".join(wrong)


def assert_fields(path: Path, expected: dict, what: str) -> None:
    wrong = fx.field_differences(path, expected)
    assert not wrong, f"{what}: " + "; ".join(wrong)


def assert_tried_download(called: Path, what: str) -> None:
    tried = called.is_file() and called.stat().st_size > 0
    assert tried, f"{what} (nothing in {called})"


def lock_of(spec: Path, url: str, commit: str, date: str, source: str = "openai/openai-openapi") -> dict:
    """The lock update-spec.sh must write for spec."""
    sha, size = fx.sha256_of(spec), os.path.getsize(spec)
    return dict(source=source, url=url, commit=commit, sha256=sha, date=date, openapi="3.1.0", size=size)


def upstream(commit: str) -> str:
    """openai/openai-openapi's raw URL of the spec at commit."""
    return f"{UPSTREAM}/{commit}/openapi.yaml"


def pin(commit: str, date: str) -> list[str]:
    return ["--commit", commit, "--date", date]


def has_change(report: Path, kind: str, swift: str) -> bool:
    """Whether the JSON report (SUMMARY_JSON) lists a change of that kind to that Swift name."""
    changes = fx.read_json(report)["changes"]
    return any(c["kind"] == kind and c.get("swift") == swift for c in changes)


def forget_cache(e2e) -> None:
    """Removes the spec cache (a success fills it; the clean scenario must show it caches by itself)."""
    shutil.rmtree(e2e.dir / "cache", ignore_errors=True)


# --- sources: what the lock may not name is refused, what it may is recorded ------------------------------------------


@pytest.fixture(scope="module")
def before_refusals(e2e, specs) -> dict:
    """The copy's state before the refusals, which must change nothing."""
    return fx.state(e2e.copy)


def test_sources_local_file_in_a_temporary_folder_refused(e2e, specs, before_refusals):
    run = e2e.update("local-no-commit", specs.clean)
    assert_status(run.status, 2, "a local file in a temporary folder without --commit")
    why = "is a local file; the lock must say where the spec comes from"
    assert_has(run.err, why, "says why (pass --commit or --allow-local-source)")
    run = e2e.update("local-allow-temp", "--allow-local-source", specs.clean)
    assert_status(run.status, 2, "the same with --allow-local-source (a temporary path never goes into the lock)")
    assert_has(run.err, "is under a temporary folder", "says it is a temporary folder")


def test_sources_local_file_in_dev_shm_refused(e2e, specs, before_refusals):
    if not (os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK)):
        pytest.skip("--allow-local-source with a file in /dev/shm: no writable /dev/shm here")
    folder = Path(tempfile.mkdtemp(prefix="test-update-spec.", dir="/dev/shm"))
    try:
        shutil.copy(specs.clean, folder / HISTORY_NAMED)
        run = e2e.update("local-shm", "--allow-local-source", folder / HISTORY_NAMED)
        assert_status(run.status, 2, "--allow-local-source with a file in /dev/shm (a temporary folder too)")
        assert_has(run.err, "is under a temporary folder", "says it is a temporary folder")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_sources_local_file_outside_the_parent_folder_refused(e2e, specs, before_refusals):
    folder = e2e.dir / "outside-specs"
    folder.mkdir(exist_ok=True)
    try:
        shutil.copy(specs.clean, folder / HISTORY_NAMED)
        run = e2e.update("local-outside", "--allow-local-source", folder / HISTORY_NAMED)
        what = "--allow-local-source with a file outside the repository's parent folder (an absolute path in the lock)"
        assert_status(run.status, 2, what)
        err = fx.read_text(run.err)
        says_why = "is outside the repository's parent folder" in err or "is under a temporary folder" in err
        assert says_why, f"does not say it is outside the repository's parent folder ({run.err})"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_sources_older_spec_refused_without_allow_older(e2e, specs, before_refusals):
    run = e2e.update("older", "--commit", "855e5d4" + "0" * 33, e2e.history / OLDER_HISTORY)
    assert_status(
        run.status, 2, "an older spec (history 2026-08-13 against the lock's 2026-08-21) without --allow-older"
    )
    warning = "WARNING: the new spec (2026-08-13, 855e5d4) looks OLDER than the locked one (2026-08-21"
    assert_has(run.err, warning, "warns on stderr")
    assert_has(run.err, "pass --allow-older", "names --allow-older")
    printed = fx.read_text(run.out)
    assert not printed, f"prints no summary (refused before the diff), but printed: {printed[:500]!r}"


def test_sources_older_spec_with_dry_run_warns_first(e2e, specs, before_refusals):
    summary, report = e2e.tmp / "older-summary.md", e2e.tmp / "older-summary.json"
    run = e2e.update("older-dry-run", "--dry-run", e2e.history / OLDER_HISTORY, SUMMARY_FILE=summary)
    assert_status(run.status, 0, "the older spec with --dry-run")
    first = fx.first_line(run.out)
    assert first.startswith("> **Warning:** the new spec (2026-08-13) looks OLDER"), (
        f"the summary's first line (stdout) is not the warning: {first!r}"
    )
    assert "looks OLDER" in fx.first_line(summary), f"SUMMARY_FILE does not start with the warning ({summary})"
    assert_has(run.out, "## OpenAPI spec changes", "the summary follows")
    # The JSON report is written beside the markdown summary, and both paths are printed.
    assert_has(
        run.err,
        f"the summary is in {summary}, the JSON report with every change in {report}",
        "the summary and the JSON report beside it are written and named (SUMMARY_FILE given, SUMMARY_JSON not)",
    )
    assert report.is_file() and fx.read_json(report)["changes"], f"the JSON report is there, with changes ({report})"


def test_sources_spec_older_than_the_helpers_support(e2e, specs, before_refusals):
    """A spec older than the oldest the helpers support (Spec/helpers-oldest-spec.txt) is named as such."""
    oldest, saved = e2e.copy / "Spec" / "helpers-oldest-spec.txt", e2e.tmp / "helpers-oldest-spec.txt"
    default_report = e2e.scratch / "update-spec" / "summary.json"
    default_report.unlink(missing_ok=True)  # written by this run, not left from an earlier one
    shutil.copy2(oldest, saved)
    oldest.write_text("# for the test\n2026-08-20-0000000\n", encoding="utf-8")
    try:
        run = e2e.update("older-than-helpers", "--dry-run", e2e.history / OLDER_HISTORY)
    finally:
        shutil.copy2(saved, oldest)  # bytes and time, as before
    assert_status(run.status, 0, "a spec older than the oldest the helpers support, with --dry-run")
    unsupported = "is older than the oldest one the hand-written helpers support (2026-08-20-0000000"
    assert_has(run.out, unsupported, "the summary says the helpers do not support it")
    warning = "WARNING: the new spec (2026-08-13) is older than the oldest one the hand-written helpers"
    assert_has(run.err, warning, "and so does stderr")
    text = fx.read_text(run.out)
    heading = text.find("## OpenAPI spec changes")
    section = text.find("### This repository's own code")
    warning_at = text.find("hand-written helpers support")
    assert 0 <= heading < section < warning_at, (
        f"the warning is in a section of its own at the end (### This repository's own code), not at the top "
        f"(heading at {heading}, section at {section}, warning at {warning_at} in {run.out})"
    )
    where = f"the summary is in {e2e.scratch}/update-spec/summary.md"
    assert_has(run.err, where, "without SUMMARY_FILE the summary goes to $SCRATCH_PATH/update-spec/summary.md")
    assert default_report.is_file() and default_report.stat().st_size > 0, (
        f"with its JSON report beside it ({default_report})"
    )


def test_sources_url_pinning_no_commit_refused(e2e, specs, before_refusals, https_curl):
    """http from a local HTTP server; https from files, through the curl stub on PATH."""
    www = e2e.tmp / "www"
    for folder in (specs.url_commit, "main"):
        (www / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(specs.clean, www / folder / "openapi.yaml")
    with fx.serve(www) as port:
        run = e2e.update("url-branch", f"http://127.0.0.1:{port}/main/openapi.yaml")
        assert_status(run.status, 2, "a URL that pins no commit (a branch)")
        assert_has(run.err, "does not pin a commit", "says it pins no commit")
        run = e2e.update("url-other-host", f"http://127.0.0.1:{port}/{specs.url_commit}/openapi.yaml")
        assert_status(run.status, 2, "a URL on another host with 40 hex in its path, without --commit")
        hex_note = "the 40 hex in its path are not taken as a commit"
        assert_has(run.err, hex_note, "says its hex is not taken as a commit")
    evil_url = f"https://evil.example/{specs.url_commit}/openapi.yaml"
    run = e2e.update("url-evil", "--date", "2026-09-03", evil_url, PATH=https_curl.path)
    assert_status(run.status, 2, f"{evil_url} without --commit")
    why = "does not pin a commit of openai/openai-openapi"
    assert_has(run.err, why, "says it pins no commit of openai/openai-openapi")


def test_sources_refusals_changed_nothing(e2e, before_refusals):
    what = "nothing changed after the refusals (every file of Generated/ and Spec/, bytes and times)"
    assert_unchanged(before_refusals, fx.state(e2e.copy), what)


def test_sources_abbreviated_commit(e2e, specs):
    """--commit abbreviated: expanded from a record naming the full commit (the lock, ../shared/spec/PROVENANCE.md)."""
    locked_commit = fx.read_json(e2e.lock).get("commit") or ""
    short = locked_commit[:9]
    try:
        run = e2e.update("abbreviated", *pin(short, "2026-09-02"), specs.clean, SKIP_SDK_BUILD=1)
        assert_status(run.status, 0, f"--commit {short} (the locked commit, abbreviated; SKIP_SDK_BUILD=1)")
        assert_has(run.err, f"--commit {short} is {locked_commit}", "says which full commit it is")
        got = fx.read_json(e2e.lock).get("commit")
        assert got == locked_commit, f"the lock holds the full commit: {got!r}, expected {locked_commit!r}"
    finally:
        forget_cache(e2e)
        e2e.reset_copy()
    run = e2e.update("abbreviated-unknown", "--dry-run", "--commit", "0123456789", specs.clean)
    assert_status(run.status, 2, "--commit 0123456789 (no record names it)")
    assert_has(run.err, "no record here names its full commit", "says no record names it, and to pass all 40 hex")


def test_sources_lock_for_urls_on_other_hosts(e2e, specs, https_curl):
    """What the lock says for other URLs, from update-spec-helpers.py itself (provenance, then write-lock on a copy)."""
    commit = specs.url_commit
    evil_url = f"https://evil.example/{commit}/openapi.yaml"
    blob_url = f"https://github.com/openai/openai-openapi/blob/{commit}/openapi.yaml"
    from_upstream = {"source": "openai/openai-openapi", "url": upstream(commit), "commit": commit}

    def provenance(name: str, source: str, commit: str, url: str) -> int:
        out = e2e.tmp / f"provenance-{name}.json"
        args = [e2e.copy, e2e.lock, specs.clean, source, 1, commit, "2026-09-03", url, 0, 0, 0, e2e.history, out]
        return e2e.helpers(f"provenance-{name}", "provenance", *args).status

    assert_status(provenance("evil-commit", evil_url, commit, ""), 0, f"{evil_url} with --commit")
    assert_fields(
        e2e.tmp / "provenance-evil-commit.json",
        from_upstream,
        "the lock's url is the upstream raw URL at that commit, its source openai/openai-openapi",
    )
    assert_status(provenance("evil-url", evil_url, commit, evil_url), 0, f"{evil_url} with --commit and --url")
    lock = e2e.tmp / "lock-evil.json"
    shutil.copy(e2e.lock, lock)
    run = e2e.helpers("write-lock-evil", "write-lock", lock, e2e.tmp / "provenance-evil-url.json")
    assert_status(run.status, 0, "update-spec-helpers.py write-lock with that provenance")
    assert_lock(
        lock,
        lock_of(specs.clean, evil_url, commit, "2026-09-03", source=f"evil.example/{commit}/openapi.yaml"),
        "the lock names that URL, and its host and path as the source (not openai/openai-openapi)",
    )
    what = "github.com/openai/openai-openapi/blob/<40-hex>/openapi.yaml without --commit"
    assert_status(provenance("blob", blob_url, "", ""), 0, what)
    assert_fields(e2e.tmp / "provenance-blob.json", from_upstream, "commit from the URL, the lock's url its raw URL")
    https_curl.called.unlink(missing_ok=True)
    run = e2e.update("url-blob-dry-run", "--dry-run", blob_url, PATH=https_curl.path)
    assert_status(run.status, 0, "update-spec.sh --dry-run with that URL")
    raw = f"https://github.com/openai/openai-openapi/raw/{commit}/openapi.yaml"
    assert_has(https_curl.called, raw, "downloads its raw twin, not the web page")
    assert_has(run.out, upstream(commit), "the summary names the raw URL")


def test_sources_raw_url_at_a_commit_recorded(e2e, specs, https_curl):
    url = upstream(specs.url_commit)
    try:
        run = e2e.update("url-commit", "--date", "2026-09-03", url, PATH=https_curl.path, SKIP_SDK_BUILD=1)
        what = "openai/openai-openapi's raw URL at a 40-hex commit, with --date (SKIP_SDK_BUILD=1: generate and check)"
        assert_status(run.status, 0, what)
        expected = lock_of(specs.clean, url, specs.url_commit, "2026-09-03")
        assert_lock(e2e.lock, expected, "lock: url and commit from the URL, sha256, size, date, openapi")
        assert_has(run.out, url, "the summary names the new spec by its URL")
    finally:
        forget_cache(e2e)  # that success cached clean.yaml; the clean scenario must show it caches by itself
        e2e.reset_copy()


def test_sources_local_file_beside_the_repository_recorded(e2e, specs):
    """--allow-local-source with a file beside the repository (not a temporary folder), named like a history file."""
    folder = e2e.dir / "work" / "local-specs"
    folder.mkdir(exist_ok=True)
    shutil.copy(specs.clean, folder / HISTORY_NAMED)
    try:
        run = e2e.update("local-allowed", "--allow-local-source", folder / HISTORY_NAMED, SKIP_SDK_BUILD=1)
        assert_status(run.status, 0, "--allow-local-source with a file beside the repository (SKIP_SDK_BUILD=1)")
        assert_lock(
            e2e.lock,
            lock_of(specs.clean, f"../local-specs/{HISTORY_NAMED}", "abcdef1", "2026-09-04"),
            "lock: url the path relative to the repository, commit and date from the file name",
        )
        forget_cache(e2e)
        e2e.spec.unlink()
        run = e2e.fetch("fetch-local-url", e2e.copy)
        assert_status(run.status, 0, "fetch-spec.sh then reads the lock's url as that path")
        assert_same_bytes(specs.clean, e2e.spec, "and gets the same bytes")
    finally:
        e2e.reset_copy()
        shutil.rmtree(folder, ignore_errors=True)


# --- paths: one list of what an update changes (the generator's), used by the workflow and the docs; a new area -------


@dataclass
class PrintPaths:
    status: int
    text: str  # the output, one path a line

    @property
    def paths(self) -> list[str]:
        return fx.path_lines(self.text)


@pytest.fixture(scope="module")
def print_paths(e2e) -> PrintPaths:
    """`update-spec.sh --print-paths` in the copy (reset first)."""
    e2e.reset_copy()
    run = e2e.update("print-paths", "--print-paths", scratch=False)
    return PrintPaths(status=run.status, text=fx.read_text(run.out))


def test_paths_print_paths_is_the_generators_list(e2e, print_paths):
    assert_status(print_paths.status, 0, "update-spec.sh --print-paths")
    run = e2e.run("list-outputs", [e2e.generator, "generate", "--list-outputs"], e2e.copy, e2e.environment())
    assert_status(run.status, 0, "openai-generator generate --list-outputs")
    expected = "Spec/lock.json\n" + fx.read_text(run.out)
    assert print_paths.text.rstrip("\n") == expected.rstrip("\n"), (
        f"--print-paths is Spec/lock.json and what `openai-generator generate --list-outputs` lists: got "
        f"{print_paths.text!r}, expected {expected!r}"
    )
    lines = print_paths.text.splitlines()
    assert "Sources/OpenAI/OpenAI.docc/Generated" in lines, "which names the sources and the DocC articles"
    assert "Sources/OpenAIAdmin/Generated" in lines and "Sources/OpenAICatalogue/Generated" in lines, (
        "and the admin module's and the catalogue's folders"
    )
    problems = fx.workflow_print_paths_problems(e2e.copy / ".github" / "workflows" / "update-spec.yml")
    assert not problems, "the workflow's pull request adds exactly that list: " + "; ".join(problems)
    missing = fx.unnamed_paths(print_paths.paths, e2e.copy / "Spec" / "README.md", e2e.copy / "CONTRIBUTING.md")
    assert not missing, f"Spec/README.md and CONTRIBUTING.md name every path and --print-paths; not: {missing}"


def test_paths_a_new_area(e2e, specs, print_paths):
    summary = e2e.tmp / "widgets.md"
    before = fx.state(e2e.copy)
    try:
        pinned = pin(specs.widgets_commit, "2026-09-05")
        run = e2e.update("widgets", *pinned, specs.widgets, SKIP_SDK_BUILD=1, SUMMARY_FILE=summary)
        assert_status(run.status, 0, "a spec adding POST /widgets in a new area (SKIP_SDK_BUILD=1: generate and check)")
        changes = fx.changed(before, fx.state(e2e.copy))
        assert any(" Sources/OpenAI/OpenAI.docc/Generated/" in line for line in changes), (
            f"the DocC articles changed too: {changes}"
        )
        outside = fx.outside_paths(changes, print_paths.paths)
        assert not outside, (
            f"every changed file is under a path of --print-paths (the pull request holds the whole update); not: "
            f"{outside}"
        )
        text = fx.read_text(summary)
        row = text.find("| New | `POST /widgets` | `client.widgets.create(_:)` | Widgets |")
        assert 0 < text.find("### Operations") < row < text.find("| What | Changes | Areas |"), (
            f"the summary leads with the new operation, its call and area, before the table of the rest ({summary})"
        )
        assert_has(summary, "### Checks of this update", "the summary ends with the checks that ran")
        assert_has(summary, "Not built and no test run (SKIP_SDK_BUILD=1)", "and says the update was not compiled")
        api = e2e.copy / "Sources" / "OpenAI" / "Generated" / "Resources" / "WidgetsAPI.swift"
        assert "        _ body: CreateWidgetRequest," in fx.read_text(api).splitlines(), (
            f"the body its schema requires is a required parameter (no `= nil`) in {api}"
        )
    finally:
        forget_cache(e2e)
        e2e.reset_copy()


# --- clean: a harmless addition updates the lock and touches only the files that change (CI=true, no test venv) -----


@dataclass
class CleanRun:
    status: int
    out: Path
    err: Path
    before: dict
    after: dict
    check_status: int  # openai-generator check in the copy afterwards
    summary: Path
    report: Path
    lock: Path  # the lock it wrote, kept for the fetch scenario
    sha: str


@pytest.fixture(scope="module")
def clean_run(e2e, specs, print_paths) -> CleanRun:
    """update-spec.sh to clean.yaml as the workflow runs it: CI=true (a skipped test fails the update), no
    OPENAI_TEST_PYTHON, no Scripts/.venv."""
    e2e.reset_copy()
    before = fx.state(e2e.copy)
    assert not os.path.lexists(e2e.copy / "Scripts" / ".venv"), "the copy has no Scripts/.venv"
    summary, report = e2e.tmp / "clean.md", e2e.tmp / "clean.json"
    env = e2e.environment(
        unset=("OPENAI_TEST_PYTHON",), CI="true", SCRATCH_PATH=e2e.scratch, SUMMARY_FILE=summary, SUMMARY_JSON=report
    )
    run = e2e.run("clean", e2e.update_command(*pin(specs.clean_commit, "2026-09-02"), specs.clean), e2e.copy, env)
    check = e2e.generator_check("clean-check")
    after = fx.state(e2e.copy)
    lock = e2e.tmp / "clean-lock.json"
    shutil.copy(e2e.lock, lock)
    sha = fx.sha256_of(specs.clean)
    return CleanRun(run.status, run.out, run.err, before, after, check.status, summary, report, lock, sha)


def test_clean_update_passes_as_the_workflow_runs_it(e2e, specs, clean_run, print_paths):
    what = f"CI=true update-spec.sh --commit {specs.clean_commit} --date 2026-09-02 clean.yaml"
    assert_status(clean_run.status, 0, what)
    err = clean_run.err
    assert_has(err, "OPENAI_TEST_PYTHON is unset; preparing Scripts/.venv", "prepared the test server's Python itself")
    venv_python = e2e.copy / "Scripts" / ".venv" / "bin" / "python"
    assert os.access(venv_python, os.X_OK), f"Scripts/.venv is there now ({venv_python})"
    assert_has(err, " skipped", "counts the skipped tests")
    assert_lacks(err, "fast test(s) skipped", "and none skipped")
    assert_has(clean_run.summary, "none skipped; every test and benchmark compiles.", "the summary's checks say so")
    to_commit = "commit Spec/lock.json " + " ".join(print_paths.text.splitlines()[1:])
    assert_has(err, to_commit, "the last message names the paths to commit, as --print-paths does")
    ran = re.findall(r"Executed [0-9]+ tests?", fx.read_text(err))
    assert ran and int(re.sub(r"[^0-9]", "", ran[-1])) > 0, (
        f"the fast tests ran (no 'Executed N tests' with N > 0 in {err}; last: {ran[-1:]})"
    )
    first = fx.first_line(clean_run.out)
    assert first.startswith("## OpenAPI spec changes"), f"stdout is the summary; it starts with {first!r}"


def test_clean_lock_spec_and_cache(e2e, specs, clean_run):
    assert_status(clean_run.status, 0, "update-spec.sh to clean.yaml")
    assert_lock(
        e2e.lock,
        lock_of(specs.clean, upstream(specs.clean_commit), specs.clean_commit, "2026-09-02"),
        "lock: source, url, commit, sha256, date, openapi, size (and nothing else)",
    )
    assert_same_bytes(specs.clean, e2e.spec, "Spec/openapi.yaml is clean.yaml")
    assert_status(clean_run.check_status, 0, f"openai-generator check in the copy ({e2e.logs / 'clean-check.log'})")
    cached = e2e.cache / f"{clean_run.sha}.yaml"
    assert_same_bytes(specs.clean, cached, f"the new spec is in the cache ({e2e.cache}/<sha256>.yaml)")


def test_clean_changes_only_the_files_that_must_change(e2e, specs, clean_run):
    admin = e2e.copy / "Sources" / "OpenAIAdmin" / "Generated"
    declaring = sorted(
        str(path.relative_to(admin))
        for path in admin.rglob("*")
        if path.is_file() and re.search(r"struct InviteRequest\b", fx.read_text(path))
    )
    assert declaring, f"a file of {admin} declares InviteRequest"
    invite_file = declaring[0]
    # The `openai` tool's catalogue and schemas change too: the new member is a new flag and a new schema property.
    # Each output folder's manifest names the new spec's sha256.
    expected = sorted(
        f"content {rel}"
        for rel in (
            f"Sources/OpenAIAdmin/Generated/{invite_file}",
            "Sources/OpenAIAdmin/Generated/Manifest.swift",
            "Sources/OpenAI/Generated/Manifest.swift",
            "Sources/OpenAICatalogue/Generated/Manifest.swift",
            "Sources/OpenAICatalogue/Generated/OperationCatalogue.swift",
            "Sources/OpenAICatalogue/Generated/OperationSchemas.swift",
            "Spec/lock.json",
            "Spec/openapi.yaml",
        )
    )
    actual = sorted(fx.changed(clean_run.before, clean_run.after))
    assert actual == expected, (
        f"only {invite_file}, the CLI's catalogue and schemas, and each folder's Manifest.swift changed (the other "
        f"files keep bytes and modification times): changed {actual}, expected {expected}"
    )
    for folder in fx.GENERATED:
        manifest = e2e.copy / folder / "Manifest.swift"
        assert_has(manifest, f"spec-sha256: {clean_run.sha}", f"{folder}/Manifest.swift holds the new sha256")
    hashes = (clean_run.sha.encode(), specs.locked_sha.encode())
    holding = [
        str(path)
        for folder in fx.GENERATED
        for path in sorted((e2e.copy / folder).rglob("*"))
        if path.is_file() and path.name != "Manifest.swift" and any(h in path.read_bytes() for h in hashes)
    ]
    assert not holding, f"no generated file other than a Manifest.swift holds a spec hash: {holding}"
    assert_has(admin / invite_file, "public var note: Swift.String?", "InviteRequest has the new property")


def test_clean_summary_names_the_change(e2e, clean_run):
    assert_status(clean_run.status, 0, "update-spec.sh to clean.yaml")
    assert_has(clean_run.summary, "InviteRequest.note", "the summary names InviteRequest.note")
    assert_lacks(clean_run.summary, str(e2e.tmp), "and no temporary path")
    assert has_change(clean_run.report, "property-added", "InviteRequest.note"), (
        f"SUMMARY_JSON lists property-added InviteRequest.note ({clean_run.report})"
    )


# --- interrupt: Ctrl-C during the SDK build rolls everything back -----------------------------------------------------


def test_interrupt_during_the_sdk_build_rolls_back(e2e, specs):
    e2e.reset_copy()
    before = fx.state(e2e.copy)
    log = e2e.logs / "interrupt.log"
    command = e2e.update_command(*pin(specs.breaking_commit, "2026-09-01"), specs.breaking)
    status = fx.interrupt(log, "==> 8/9", command, e2e.copy, e2e.environment(SCRATCH_PATH=e2e.scratch))
    assert_status(status, 130, "SIGINT to the process group after '==> 8/9' (255: the marker never came)")
    assert_has(log, "interrupted (INT); rolling back", "says it rolls back")
    assert_has(log, "byte for byte as before", "says the rollback was verified")
    assert_unchanged(
        before,
        fx.state(e2e.copy),
        "every file of Generated/ and Spec/ as before (bytes, list and modification times; no staging folder)",
    )


# --- breaking: a spec change that breaks a hand-written file is rolled back and explained -----------------------------

PROBE = "Sources/OpenAI/Helpers/UpdateSpecProbe.swift"
PROBE_SOURCE = """\
// Written by Scripts/spec/tests/test_update_spec.py: hand-written code using a member that the test's new spec removes.
func updateSpecProbe(_ batch: Batch) {
    _ = batch.completedAt
}
// And an error that has nothing to do with the spec: the locked spec's build has it too.
func updateSpecProbeBrokenBefore() -> Int { "not a number" }
"""
PROBE_LINE = 3
BROKEN_LINE = 6


@dataclass
class BreakingRun:
    status: int
    log: Path
    before: dict
    after: dict
    lock_before: Path
    summary: Path
    report: Path


@pytest.fixture(scope="module")
def breaking_run(e2e, specs) -> BreakingRun:
    e2e.reset_copy()
    (e2e.copy / PROBE).write_text(PROBE_SOURCE, encoding="utf-8")
    before = fx.state(e2e.copy)
    lock_before = e2e.tmp / "lock-before.json"
    shutil.copy(e2e.lock, lock_before)
    summary, report = e2e.tmp / "breaking.md", e2e.tmp / "breaking.json"
    pinned = pin(specs.breaking_commit, "2026-09-01")
    run = e2e.update("breaking", *pinned, specs.breaking, merged=True, SUMMARY_FILE=summary, SUMMARY_JSON=report)
    return BreakingRun(run.status, run.log, before, fx.state(e2e.copy), lock_before, summary, report)


def error_marks(log: Path, location: str) -> str | None:
    """The line after the last error at location (`  FILE:LINE: ... : error: ...`) in the explanation, or None."""
    lines = fx.read_text(log).splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith("  " + location) and ": error: " in line]
    return lines[at[-1] + 1] if at and at[-1] + 1 < len(lines) else None


def test_breaking_rolled_back(e2e, breaking_run):
    assert_status(breaking_run.status, 1, "update-spec.sh to breaking.yaml")
    assert_unchanged(
        breaking_run.before,
        breaking_run.after,
        "every file of Generated/ and Spec/ byte-identical to before, same file list, same modification times",
    )
    assert_same_bytes(breaking_run.lock_before, e2e.lock, "Spec/lock.json unchanged")


def test_breaking_explained(e2e, breaking_run):
    log = breaking_run.log
    assert_has(log, f"{PROBE}:{PROBE_LINE}:", f"names the probe's file and line ({PROBE}:{PROBE_LINE})")
    assert_has(log, "has no member 'completedAt'", "quotes the compiler's error")
    cause = "caused by the spec change property-removed `Batch.completedAt`"
    assert_has(log, cause, "names the spec change that caused it")
    assert_has(log, "rolled back", "says it rolled back")
    assert_lacks(log, "Generated/: the generated code itself does not compile", "blames no generated file")
    assert_has(log, "==> locked-build", "repeats the build on the locked spec after the rollback")
    marks = error_marks(log, f"{PROBE}:{BROKEN_LINE}:")
    assert marks is not None and "ALSO on the locked spec" in marks, (
        f"marks the error the locked spec has too ({PROBE}:{BROKEN_LINE}); the line after it: {marks!r}"
    )
    marks = error_marks(log, f"{PROBE}:{PROBE_LINE}:")
    assert marks is not None and "ALSO" not in marks, (
        f"and not the one the new spec causes ({PROBE}:{PROBE_LINE}); the line after it: {marks!r}"
    )
    assert_has(log, "1 of the errors above are there already, 1 come with the new spec", "counts both kinds")
    assert_has(log, "What to do:", "and says what to do")
    lines = fx.read_text(log).splitlines()
    summary_line = next((i + 1 for i, line in enumerate(lines) if line.startswith("## OpenAPI spec changes")), None)
    generate_line = next((i + 1 for i, line in enumerate(lines) if line.startswith("==> 6/9")), None)
    assert summary_line is not None and generate_line is not None and summary_line < generate_line, (
        f"the summary came first (summary at line {summary_line}, regeneration at line {generate_line})"
    )


def test_breaking_summary(e2e, specs, breaking_run):
    summary = breaking_run.summary
    assert_has(summary, upstream(specs.breaking_commit), "SUMMARY_FILE names the new spec by its upstream URL")
    assert_has(summary, fx.read_json(breaking_run.lock_before)["url"], "and the old one by the lock's URL")
    assert_lacks(summary, str(e2e.tmp), "and never by a temporary path")
    assert breaking_run.report.is_file() and has_change(breaking_run.report, "property-removed", "Batch.completedAt"), (
        f"SUMMARY_JSON lists property-removed Batch.completedAt ({breaking_run.report})"
    )
    cached = e2e.cache / f"{fx.sha256_of(specs.breaking)}.yaml"
    assert not cached.exists(), f"the failed spec is not cached ({cached})"


def test_breaking_kept_with_keep_on_failure(e2e, specs, breaking_run):
    try:
        pinned = pin(specs.breaking_commit, "2026-09-01")
        run = e2e.update("breaking-keep", "--keep-on-failure", *pinned, specs.breaking)
        assert_status(run.status, 1, "again with --keep-on-failure")
        assert_has(run.err, "--keep-on-failure: the new state is kept", "says the new state is kept")
        not_compared = "Not compared with the locked spec: --keep-on-failure keeps the new state."
        assert_has(run.err, not_compared, "and that it did not build the locked spec")
        expected = lock_of(specs.breaking, upstream(specs.breaking_commit), specs.breaking_commit, "2026-09-01")
        assert_lock(e2e.lock, expected, "the lock is the new spec's")
        check = e2e.generator_check("breaking-keep-check")
        assert_status(check.status, 0, "Generated/ is the new spec's (openai-generator check passes on it)")
    finally:
        (e2e.copy / PROBE).unlink(missing_ok=True)


# --- fetch: fetch-spec.sh finds the locked spec by sha256 without network ---------------------------------------------


def test_fetch_finds_a_history_file(e2e, fresh):
    history = e2e.history / FETCH_HISTORY
    fx.make_lock(e2e.lock, fresh.lock, fx.sha256_of(history), os.path.getsize(history), NOWHERE)
    fresh.start()
    run = e2e.fetch("fetch-history", fresh.dir, fresh.curl_dir)
    assert_status(run.status, 0, f"a lock naming history/{FETCH_HISTORY}'s sha256 (url unreachable)")
    found = f"found the locked spec at ../shared/spec/history/{FETCH_HISTORY}"
    assert_has(run.log, found, "found it in ../shared/spec/history")
    assert_same_bytes(history, fresh.spec, "Spec/openapi.yaml is that file")
    assert not fresh.called.exists(), f"no download was tried ({fx.read_text(fresh.called)!r})"


def test_fetch_finds_the_spec_the_clean_update_cached(e2e, specs, fresh, clean_run):
    assert_status(clean_run.status, 0, "the clean scenario's update (whose lock and cached spec this reads)")
    shutil.copy(clean_run.lock, fresh.lock)
    fresh.start()
    run = e2e.fetch("fetch-cache", fresh.dir, fresh.curl_dir)
    assert_status(run.status, 0, "the lock the clean scenario wrote, in a fresh checkout")
    found = f"found the locked spec at {e2e.cache}/{clean_run.sha}.yaml"
    assert_has(run.log, found, "found it in the cache update-spec.sh filled")
    assert_same_bytes(specs.clean, fresh.spec, "Spec/openapi.yaml is the clean spec")
    assert not fresh.called.exists(), f"no download was tried ({fx.read_text(fresh.called)!r})"


def test_fetch_through_the_workflows_locked_spec_script(e2e, specs, fresh, clean_run):
    """The workflows' way: .github/scripts/locked-spec.sh LOCK DEST, i.e. fetch-spec.sh with LOCK_FILE and SPEC_DEST."""
    assert_status(clean_run.status, 0, "the clean scenario's update (whose lock and cached spec this reads)")
    copy_spec_sha = fx.sha256_of(e2e.spec)
    dest = e2e.tmp / "locked" / "openapi.yaml"
    fresh.called.unlink(missing_ok=True)
    env = e2e.environment(PATH=e2e.path_with(fresh.curl_dir))
    run = e2e.run("fetch-locked-spec", [e2e.locked_spec, clean_run.lock, dest], e2e.copy, env, merged=True)
    assert_status(run.status, 0, ".github/scripts/locked-spec.sh with that lock and another destination")
    assert_same_bytes(specs.clean, dest, "the destination is the clean spec")
    assert fx.sha256_of(e2e.spec) == copy_spec_sha, "the repository's Spec/openapi.yaml is untouched"
    assert not fresh.called.exists(), f"no download was tried ({fx.read_text(fresh.called)!r})"


def test_fetch_refuses_a_file_of_the_right_size_with_another_sha256(e2e, specs, fresh, clean_run):
    """A candidate of the right size whose sha256 differs (one byte changed), where fetch-spec.sh looks: the cache."""
    assert_status(clean_run.status, 0, "the clean scenario's update (whose lock this reads)")
    cached = e2e.cache / f"{clean_run.sha}.yaml"
    fx.flip_byte(specs.clean, cached)
    shutil.copy(clean_run.lock, fresh.lock)
    fresh.start()
    run = e2e.fetch("fetch-wrong-sha", fresh.dir, fresh.curl_dir)
    assert_status(run.status, 1, "the cache file has the lock's size but not its sha256 (one byte changed)")
    assert os.path.getsize(cached) == os.path.getsize(specs.clean), "(it has the lock's size)"
    assert fx.sha256_of(cached) != clean_run.sha, "(and another sha256)"
    assert_lacks(run.log, "found the locked spec", "it is not taken")
    assert_tried_download(fresh.called, "the lock's url was tried after it")
    assert not fresh.spec.exists(), "no Spec/openapi.yaml was left"


def test_fetch_fails_when_found_nowhere(e2e, specs, fresh):
    fx.make_lock(e2e.lock, fresh.lock, fx.sha256_of(specs.breaking), os.path.getsize(specs.breaking), NOWHERE)
    fresh.start()
    run = e2e.fetch("fetch-miss", fresh.dir, fresh.curl_dir)
    assert_status(run.status, 1, "a sha256 found nowhere")
    assert_tried_download(fresh.called, "the lock's url was tried after the local places")
    assert not fresh.spec.exists(), "no Spec/openapi.yaml was left"
