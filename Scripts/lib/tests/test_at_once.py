"""Scripts/lib.sh: at_once (steps that run beside another one) and children_cpu_seconds (a step's CPU time).

Each test writes a small bash script that sources lib.sh, defines stand-in steps and runs them as Scripts/test.sh does:
`set -euo pipefail`, end_background_jobs in the EXIT trap."""

import os
import re
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[2] / "lib.sh"

PROLOGUE = f"""\
set -euo pipefail
source {LIB}
trap end_background_jobs EXIT
"""


def run_script(tmp_path: Path, body: str, timeout: float = 30) -> subprocess.CompletedProcess:
    script = tmp_path / "steps.sh"
    script.write_text(PROLOGUE + textwrap.dedent(body))
    return subprocess.run(
        ["bash", str(script)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )


def test_both_sides_run_at_once_and_the_background_output_comes_after(tmp_path):
    # Each side waits for the other's mark: they can only both finish if they run at the same time.
    result = run_script(
        tmp_path,
        f"""\
        # meet ME OTHER: marks ME, then waits (at most 5 s) for OTHER's mark; fails when it never comes.
        meet() {{
            touch "{tmp_path}/$1"
            for _ in $(seq 100); do [[ -e "{tmp_path}/$2" ]] && break; sleep 0.05; done
            [[ -e "{tmp_path}/$2" ]]
        }}
        first() {{ meet first second; echo "first saw second"; }}
        second() {{ meet second first; echo "second saw first"; }}
        third() {{ echo "third ran"; }}
        at_once first second third
        echo "after: status $?"
        """,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert out.index("first saw second") < out.index("==> second third, run beside first: their output")
    assert out.index("second saw first") < out.index("third ran") < out.index("at once: first exit status 0")
    assert re.search(r"at once: first exit status 0 after [0-9.]+s; second third exit status 0 after [0-9.]+s", out)
    assert "after: status 0" in out
    assert not list(tmp_path.glob("openai-test-at-once.*")), "the log folder is removed"


def test_a_failing_background_step_stops_its_side_and_fails_the_whole(tmp_path):
    result = run_script(
        tmp_path,
        """\
        first() { echo "first ran"; }
        second() { echo "second starts"; false; echo "second went on"; }
        third() { echo "third ran"; }
        at_once first second third
        echo "not reached"
        """,
    )
    assert result.returncode == 1
    out = result.stdout
    assert "first ran" in out and "second starts" in out
    assert "second went on" not in out, "set -e holds inside a background step"
    assert "third ran" not in out, "the steps after a failure do not run"
    assert "at once: first exit status 0" in out and "second third exit status 1" in out
    assert "not reached" not in out


def test_a_failing_first_step_stops_at_its_failure_and_waits_for_the_others(tmp_path):
    result = run_script(
        tmp_path,
        """\
        first() { false; echo "first went on"; }
        second() { sleep 0.5; echo "second ended"; }
        at_once first second
        """,
    )
    assert result.returncode == 1
    assert "first went on" not in result.stdout, "set -e holds inside the first step"
    assert "second ended" in result.stdout, "the background side ran to its end"
    seconds = re.search(
        r"at once: first exit status 1 after [0-9.]+s; second exit status 0 after ([0-9.]+)s", result.stdout
    )
    assert seconds and float(seconds.group(1)) >= 0.5, "the background side's own time, its sleep included"


# A first step that dies of the interrupt, and one that catches it and exits with status 2, as pytest does.
INTERRUPTED_FIRST_STEPS = {
    "dies": "sleep 60",
    "catches": "python3 -c 'import time\ntry: time.sleep(60)\nexcept KeyboardInterrupt: raise SystemExit(2)'",
}


@pytest.mark.parametrize("first_step", sorted(INTERRUPTED_FIRST_STEPS))
def test_an_interrupt_ends_the_script_and_the_background_side_with_its_children(tmp_path, first_step):
    marker = tmp_path / "background.pid"
    script = tmp_path / "steps.sh"
    script.write_text(
        PROLOGUE
        + textwrap.dedent(
            f"""\
            first() {{ {INTERRUPTED_FIRST_STEPS[first_step]}; }}
            second() {{ sleep 61 & echo $! >{marker}; wait; }}
            at_once first second
            echo "went on after the interrupt"
            """
        )
    )
    process = subprocess.Popen(
        ["bash", str(script)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    deadline = time.monotonic() + 10
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    sleeper = int(marker.read_text())
    time.sleep(0.3)  # the first step is running
    # Ctrl-C: SIGINT to the script's process group, which the background side is not in.
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=10)
    assert process.returncode != 0, (out, err)
    assert "went on after the interrupt" not in out
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and Path(f"/proc/{sleeper}").exists():
        time.sleep(0.05)
    assert not Path(f"/proc/{sleeper}").exists(), "the background step's child ended with the script"


def test_children_cpu_seconds_counts_the_cpu_a_child_used(tmp_path):
    result = run_script(
        tmp_path,
        """\
        before="$(children_cpu_seconds)"
        python3 -c 'import time; end = time.process_time() + 0.5
        while time.process_time() < end: pass'
        after="$(children_cpu_seconds)"
        echo "$before $after"
        """,
    )
    assert result.returncode == 0, result.stderr
    before, after = (float(value) for value in result.stdout.split())
    assert 0.4 <= after - before <= 2.0, (before, after)
