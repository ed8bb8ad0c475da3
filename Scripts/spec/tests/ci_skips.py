"""With CI=true a skipped test has not passed: what cannot run skips outside CI and fails in CI. `skip_or_fail` for a
fixture that finds something missing, and two hooks (conftest.py imports them) that turn any other skip of this suite,
of a test or of a whole module, into a failure when CI=true."""

from __future__ import annotations

import os

import pytest

RULE = "CI=true makes a skip a failure: a skipped test has not passed"


def ci() -> bool:
    return os.environ.get("CI") == "true"


def skip_or_fail(reason: str) -> None:
    """Skips the test for reason, or fails it when CI=true."""
    if ci():
        pytest.fail(f"{reason} ({RULE})", pytrace=False)
    pytest.skip(f"{reason} (a skipped test has not passed; with CI=true this fails)")


def _skip_to_failure(report):
    if ci() and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped: {reason}\n{RULE}"
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    return _skip_to_failure((yield))


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    return _skip_to_failure((yield))
