"""Fixtures of the spec scripts' end-to-end test (test_update_spec.py): ../shared (skipped without it outside CI,
failed with CI=true), the generator, `e2e` (the copy of the repository the scenarios run the scripts in, and the ways
to run them), the specs made from the locked one, and the stubs (a curl serving https from files, a fresh checkout
with a curl that has no network). With CI=true any skip of this suite is a failure (ci_skips.py).

Environment:
  OPENAI_GENERATOR=PATH    the generator binary (default: `swift build --show-bin-path`/openai-generator, built with
                           `swift build --product openai-generator` when missing).
  UPDATE_SPEC_E2E_DIR=DIR  persistent work folder (default ${SCRATCH_PATH:-.build}/update-spec-e2e): the copy
                           (work/repo), its SwiftPM scratch (scratch/), logs of the last run (logs/).
  SCRATCH_PATH=DIR         the checkout's SwiftPM folder (for the default generator and work folder).
  CI=true                  a missing ../shared/spec, or any other skip, fails the test instead of skipping it.
Relative paths are the repository's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

# The scripts under test, as paths inside the repository: the scenarios run them in the copy. Each is named here only,
# so moving one means editing its line.
UPDATE_SPEC = Path("Scripts/spec/update-spec.sh")
UPDATE_SPEC_HELPERS = Path("Scripts/spec/update-spec-helpers.py")
FETCH_SPEC = Path("Scripts/spec/fetch-spec.sh")
# What fetch-spec.sh needs beside it in a checkout that holds nothing else (the fetch scenario's fresh one).
FETCH_SPEC_SUPPORT = (
    Path("Scripts/lib.sh"),
    Path("Scripts/lib/spec.sh"),
    Path("Scripts/lib/spec_copy.py"),
    Path("Scripts/lib/script_tools.py"),
)
LOCKED_SPEC = Path(".github/scripts/locked-spec.sh")

# Variables of the scripts under test that would change what the scenarios check; each scenario sets its own.
UNSET = (
    "SPEC_SOURCE",
    "SPEC_URL",
    "SPEC_COMMIT",
    "SPEC_DATE",
    "SUMMARY_FILE",
    "SUMMARY_JSON",
    "SKIP_SDK_BUILD",
    "UPDATE_SPEC_TEST_FILTER",
    "HISTORY_DIR",
)

sys.path.insert(0, str(HERE))
import update_spec_fixtures as fx  # noqa: E402
from ci_skips import pytest_make_collect_report, pytest_runtest_makereport, skip_or_fail  # noqa: E402, F401


def from_root(value: str) -> Path:
    """A path from the environment: relative ones are the repository's."""
    path = Path(value)
    return path if path.is_absolute() else ROOT / path


def e2e_dir() -> Path:
    scratch = os.environ.get("SCRATCH_PATH") or ".build"
    return from_root(os.environ.get("UPDATE_SPEC_E2E_DIR") or str(from_root(scratch) / "update-spec-e2e"))


def pytest_report_header(config):
    work = e2e_dir()
    return [
        f"update-spec e2e: copy {work}/work/repo (beside {work}/work/shared -> ../shared), "
        f"SwiftPM scratch {work}/scratch, logs {work}/logs",
        f"update-spec e2e: generator {os.environ.get('OPENAI_GENERATOR') or '(swift build --show-bin-path)'}",
    ]


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repository, symbolic links resolved; the test skips without its spec/ (the locked spec
    and its history) outside CI and fails with CI=true."""
    spec = ROOT.parent / "shared" / "spec"
    if not (spec / "history").is_dir() or not (spec / "openapi.yaml").is_file():
        skip_or_fail(f"../shared/spec (the locked spec and its history) is missing beside {ROOT}; CI must have it")
    return (ROOT.parent / "shared").resolve()


@pytest.fixture(scope="session")
def generator() -> Path:
    """The generator binary: $OPENAI_GENERATOR, or this checkout's debug build (built when missing)."""
    if os.environ.get("OPENAI_GENERATOR"):
        path = from_root(os.environ["OPENAI_GENERATOR"])
    else:
        flags = ["--scratch-path", str(from_root(os.environ["SCRATCH_PATH"]))] if os.environ.get("SCRATCH_PATH") else []
        bin_path = subprocess.run(
            ["swift", "build", "-c", "debug", "--show-bin-path", *flags], cwd=ROOT, capture_output=True, text=True
        )
        assert bin_path.returncode == 0, f"swift build --show-bin-path failed: {bin_path.stderr}"
        path = Path(bin_path.stdout.strip()) / "openai-generator"
        if not os.access(path, os.X_OK):
            print("+ swift build --product openai-generator", flush=True)
            build = subprocess.run(["swift", "build", "-c", "debug", "--product", "openai-generator", *flags], cwd=ROOT)
            assert build.returncode == 0, f"swift build --product openai-generator: exit status {build.returncode}"
    assert os.access(path, os.X_OK), f"no generator executable at {path}"
    return path.parent.resolve() / path.name


@dataclass
class Run:
    """A finished command: its exit status and its logs (one file, `log`, when its output was merged)."""

    status: int
    out: Path
    err: Path

    @property
    def log(self) -> Path:
        return self.out


class E2E:
    """The test's folders and how it runs the scripts: in a copy of the repository (the working tree's tracked and
    untracked-but-not-ignored files, plus the current generated folders) beside a `shared` symbolic link to
    ../shared, so the checkout itself is never touched. The copy's SwiftPM scratch folder persists, so a second run
    builds incrementally. Specs the test makes live in a temporary folder (`tmp`) on purpose: update-spec.sh must
    never write such a path."""

    update_spec = UPDATE_SPEC
    update_spec_helpers = UPDATE_SPEC_HELPERS
    fetch_spec = FETCH_SPEC
    fetch_spec_support = FETCH_SPEC_SUPPORT
    locked_spec = LOCKED_SPEC

    def __init__(self, shared: Path, generator: Path) -> None:
        self.root = ROOT
        self.shared = shared
        self.generator = generator
        work = e2e_dir()
        (work / "work").mkdir(parents=True, exist_ok=True)
        (work / "scratch").mkdir(parents=True, exist_ok=True)
        self.dir = work.resolve()
        self.copy = self.dir / "work" / "repo"
        self.fresh = self.dir / "work" / "fresh"
        self.logs = self.dir / "logs"
        self.scratch = self.dir / "scratch"
        self.cache = self.dir / "cache" / "specs"
        self.lock = self.copy / "Spec" / "lock.json"
        self.spec = self.copy / "Spec" / "openapi.yaml"
        self.history = shared / "spec" / "history"
        for old in (self.logs, self.fresh, self.dir / "cache"):
            shutil.rmtree(old, ignore_errors=True)
        self.copy.mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(parents=True)
        link = self.dir / "work" / "shared"
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(shared)
        self.tmp = Path(tempfile.mkdtemp(prefix="test-update-spec."))
        self.env = {k: v for k, v in os.environ.items() if k not in UNSET}
        self.env.update({"OPENAI_GENERATOR": str(generator), "OPENAI_SPEC_CACHE": str(self.cache)})

    def environment(self, unset: tuple[str, ...] = (), **values: object) -> dict[str, str]:
        """The scripts' environment: the test's, without `unset`, with `values`."""
        env = {k: v for k, v in self.env.items() if k not in unset}
        env.update({k: str(v) for k, v in values.items()})
        return env

    def path_with(self, bin_dir: Path) -> str:
        """PATH with bin_dir (a stub's) first."""
        return f"{bin_dir}:{self.env.get('PATH', '')}"

    def run(self, name: str, command: list, cwd: Path, env: dict[str, str], merged: bool = False) -> Run:
        """Runs command, its stdout in logs/NAME.out and its stderr in logs/NAME.err (both in logs/NAME.log when
        merged)."""
        argv = [str(c) for c in command]
        if merged:
            log = self.logs / f"{name}.log"
            with open(log, "wb") as f:
                return Run(
                    subprocess.run(argv, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT).returncode, log, log
                )
        out, err = self.logs / f"{name}.out", self.logs / f"{name}.err"
        with open(out, "wb") as o, open(err, "wb") as e:
            return Run(subprocess.run(argv, cwd=cwd, env=env, stdout=o, stderr=e).returncode, out, err)

    def update(self, name: str, *args: object, scratch: bool = True, merged: bool = False, **values: object) -> Run:
        """Runs update-spec.sh ARGS in the copy, with the environment values given and the copy's SwiftPM scratch
        folder (unless scratch is False)."""
        if scratch:
            values = {"SCRATCH_PATH": self.scratch, **values}
        return self.run(name, [self.update_spec, *args], self.copy, self.environment(**values), merged)

    def update_command(self, *args: object) -> list[str]:
        return [str(self.update_spec), *(str(a) for a in args)]

    def helpers(self, name: str, *args: object) -> Run:
        """Runs the copy's update-spec-helpers.py ARGS."""
        return self.run(name, ["python3", self.copy / self.update_spec_helpers, *args], self.copy, self.environment())

    def fetch(self, name: str, checkout: Path, curl_dir: Path | None = None) -> Run:
        """Runs fetch-spec.sh in checkout (no SPEC_SOURCE; curl_dir first on PATH when given), output merged."""
        values = {"PATH": self.path_with(curl_dir)} if curl_dir else {}
        return self.run(name, [self.fetch_spec], checkout, self.environment(**values), merged=True)

    def generator_check(self, name: str) -> Run:
        """`openai-generator check` in the copy, output merged."""
        return self.run(name, [self.generator, "check"], self.copy, self.environment(), merged=True)

    def reset_copy(self) -> None:
        """Puts the copy back to the checkout's state, with the locked spec fetched (from ../shared, as a checkout
        does)."""
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=True,
        ).stdout
        print(fx.sync(ROOT, self.copy, os.fsdecode(listed).split("\0")))
        fetched = subprocess.run(
            [str(self.fetch_spec)], cwd=self.copy, env=self.environment(), stdout=subprocess.DEVNULL
        )
        assert fetched.returncode == 0, f"fetch-spec.sh in the copy: exit status {fetched.returncode}"

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def e2e(shared_dir, generator):
    """The copy, reset to the checkout, where `openai-generator check` passes (the baseline every scenario starts
    from); put back to the checkout's state at the end."""
    assert (
        subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-inside-work-tree"], capture_output=True).returncode
        == 0
    ), f"{ROOT} is not a git checkout (the copy is made from `git ls-files`)"
    e2e = E2E(shared_dir, generator)
    print(f"update-spec e2e: copy {e2e.copy} (beside {e2e.dir / 'work' / 'shared'} -> {shared_dir})")
    print(f"update-spec e2e: SwiftPM scratch {e2e.scratch}, generator {generator}, logs {e2e.logs}")
    try:
        e2e.reset_copy()
        check = e2e.generator_check("baseline-check")
        assert check.status == 0, (
            f"openai-generator check fails in the copy: the checkout's Generated/ and the generator disagree (see "
            f"{check.log}); fix that first"
        )
        yield e2e
        e2e.reset_copy()
    finally:
        e2e.close()


# --- the baseline's specs, and the stubs ------------------------------------------------------------------------------


@dataclass
class Specs:
    """The specs the scenarios move to, made from the locked one (in the temporary folder), and their commits."""

    breaking: Path  # Batch without completed_at
    clean: Path  # InviteRequest with an optional note
    widgets: Path  # POST /widgets, a new area
    locked_sha: str
    breaking_commit: str
    clean_commit: str
    widgets_commit: str
    url_commit: str


@pytest.fixture(scope="module")
def specs(e2e) -> Specs:
    locked = e2e.spec
    breaking, clean = fx.make_specs(locked, e2e.tmp)
    return Specs(
        breaking=breaking,
        clean=clean,
        widgets=fx.make_new_area(locked, e2e.tmp),
        locked_sha=fx.sha256_of(locked),
        breaking_commit=fx.fake_commit("update-spec e2e: breaking"),
        clean_commit=fx.fake_commit("update-spec e2e: clean"),
        widgets_commit=fx.fake_commit("update-spec e2e: widgets"),
        url_commit=fx.fake_commit("update-spec e2e: url"),
    )


@dataclass
class HttpsStub:
    """A curl on PATH that serves https://HOST/PATH from files (hosts/HOST/PATH) and records the URLs asked for."""

    path: str  # PATH with the stub first
    called: Path


@pytest.fixture(scope="module")
def https_curl(e2e, specs) -> HttpsStub:
    hosts = e2e.tmp / "hosts"
    for served in (
        f"raw.githubusercontent.com/openai/openai-openapi/{specs.url_commit}",
        f"github.com/openai/openai-openapi/raw/{specs.url_commit}",
        f"evil.example/{specs.url_commit}",
    ):
        (hosts / served).mkdir(parents=True, exist_ok=True)
        shutil.copy(specs.clean, hosts / served / "openapi.yaml")
    called = e2e.tmp / "https-curl-called"
    real_curl = shutil.which("curl", path=e2e.env.get("PATH")) or "/usr/bin/curl"
    fx.write_https_curl(e2e.tmp / "https-bin", hosts, called, real_curl)
    return HttpsStub(path=e2e.path_with(e2e.tmp / "https-bin"), called=called)


@dataclass
class Fresh:
    """A checkout holding only fetch-spec.sh and what it needs, and a curl that fails as without network."""

    dir: Path
    curl_dir: Path
    called: Path

    @property
    def spec(self) -> Path:
        return self.dir / "Spec" / "openapi.yaml"

    @property
    def lock(self) -> Path:
        return self.dir / "Spec" / "lock.json"

    def start(self) -> None:
        """No spec in the fresh checkout, no download tried yet."""
        self.spec.unlink(missing_ok=True)
        self.called.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def fresh(e2e) -> Fresh:
    for rel in (e2e.fetch_spec, *e2e.fetch_spec_support):
        (e2e.fresh / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(e2e.copy / rel, e2e.fresh / rel)
    (e2e.fresh / "Spec").mkdir(parents=True, exist_ok=True)
    fresh = Fresh(dir=e2e.fresh, curl_dir=e2e.tmp / "bin", called=e2e.tmp / "curl-called")
    fx.write_offline_curl(fresh.curl_dir, fresh.called)
    return fresh
