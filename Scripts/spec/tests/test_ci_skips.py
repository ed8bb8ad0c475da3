"""The suite's CI rule (ci_skips.py, which conftest.py uses): outside CI a skip is a skip; with CI=true it is a failure,
for a skipped test, a skipped module and a fixture that finds something missing."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ci_skips import skip_or_fail

HERE = Path(__file__).resolve().parent

SKIPS = """
import pytest

def test_skips():
    pytest.skip("no tool here")

@pytest.mark.skip(reason="marked")
def test_marked():
    pass

@pytest.mark.xfail(reason="known")
def test_expected_failure():
    assert False

def test_passes():
    pass
"""


def run_suite(tmp_path: Path, ci: bool, tests: str) -> subprocess.CompletedProcess:
    """pytest on a suite of tests whose conftest.py uses the rule, with CI=true or without CI."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(
        "from ci_skips import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401\n"
    )
    (tmp_path / "test_suite.py").write_text(tests)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONPATH")}
    env["PYTHONPATH"] = str(HERE)
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )


def test_outside_ci_a_skip_is_a_skip(tmp_path):
    result = run_suite(tmp_path, ci=False, tests=SKIPS)
    assert result.returncode == 0, result.stdout
    assert "1 passed, 2 skipped, 1 xfailed" in result.stdout, result.stdout


def test_with_ci_true_a_skip_is_a_failure(tmp_path):
    result = run_suite(tmp_path, ci=True, tests=SKIPS)
    assert result.returncode == 1, result.stdout
    # The skip inside the test fails it; the marked one fails at its setup (an error).
    assert "1 failed, 1 passed, 1 xfailed, 1 error" in result.stdout, result.stdout
    assert "no tool here" in result.stdout and "CI=true makes a skip a failure" in result.stdout, result.stdout


def test_with_ci_true_a_skipped_module_is_a_failure(tmp_path):
    tests = "import pytest\n\npytest.skip('no module here', allow_module_level=True)\n\ndef test_never():\n    pass\n"
    result = run_suite(tmp_path, ci=False, tests=tests)
    assert "1 skipped" in result.stdout and "error" not in result.stdout, result.stdout
    result = run_suite(tmp_path, ci=True, tests=tests)
    assert result.returncode not in (0, 5) and "1 error" in result.stdout, result.stdout
    assert "no module here" in result.stdout, result.stdout


def test_skip_or_fail_skips_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no ../shared"):
        skip_or_fail("no ../shared")


def test_skip_or_fail_fails_with_ci_true(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no ../shared"):
        skip_or_fail("no ../shared")
