"""Scripts/lib/test-lanes.sh: the test executable run as two XCTest processes at once, split by test target or class.

The executable here is a stand-in that behaves as XCTest's does on Linux: `--list-tests` prints a heading, then
`Target.Class/test` lines, and a comma-separated list of `Target.Class` runs those classes, printing
`Test Case '...' passed (...)` per test. What each class does is set in its environment: fail, stop the process early,
or wait for the other lane."""

import os
import stat
import subprocess
import textwrap
from pathlib import Path

import pytest

LANES = Path(__file__).resolve().parents[1] / "test-lanes.sh"

TESTS = [
    "OpenAIGeneratorTests.SnapshotTests/testA",
    "OpenAIGeneratorTests.SnapshotTests/testB",
    "OpenAIRuntimeTests.SSEParserTests/testC",
    "OpenAIWebSocketTests.FrameTests/testD",
    "OpenAISDKTests.StreamTests/testE",
    "OpenAINewTests.NewTests/testF",
]

FAKE = textwrap.dedent(
    """\
    #!/usr/bin/env python3
    import os, sys, time
    from pathlib import Path
    tests = os.environ["FAKE_TESTS"].split()
    if sys.argv[1:] == ["--list-tests"]:
        if os.environ.get("FAKE_LIST_STATUS"):
            print("fatal error: the listing crashed")
            sys.exit(int(os.environ["FAKE_LIST_STATUS"]))
        print(f"Listing {len(tests)} tests in tests.xctest:\\n")
        print("\\n".join(tests))
        sys.exit(0)
    classes = sys.argv[1].split(",")
    with open(os.environ["FAKE_RUNS"], "a") as runs:
        runs.write(sys.argv[1] + "\\n")
    status = 0
    for name in classes:
        meeting = os.environ.get("FAKE_RENDEZVOUS", "").split(",")
        if name in meeting:
            # Proves the lanes run at once: each of these classes marks its start, then waits (at most 20 s) for
            # the others' marks.
            folder = Path(os.environ["FAKE_DIR"])
            (folder / f"{name}.started").touch()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not all((folder / f"{m}.started").exists() for m in meeting):
                time.sleep(0.01)
            if not all((folder / f"{m}.started").exists() for m in meeting):
                print(f"rendezvous: {name} waited alone")
                sys.exit(3)
        if name == os.environ.get("FAKE_STOP"):
            sys.exit(0)
        for test in tests:
            if test.split("/")[0] == name:
                result = "failed" if name == os.environ.get("FAKE_FAIL") else "passed"
                status = 1 if result == "failed" else status
                print(f"Test Case '{test.split('.', 1)[1].replace('/', '.')}' {result} (0.001 seconds)")
    sys.exit(status)
    """
)


def run_lanes(tmp_path, **fake):
    executable = tmp_path / "tests.xctest"
    executable.write_text(FAKE)
    executable.chmod(executable.stat().st_mode | stat.S_IXUSR)
    runs = tmp_path / "runs"
    runs.touch()
    log = tmp_path / "log"
    # The script's own settings come from each test alone, not from the shell that runs pytest.
    inherited = {key: value for key, value in os.environ.items() if key not in ("TEST_LANES_FILTER", "TEST_LANE_1")}
    env = {**inherited, "FAKE_TESTS": " ".join(TESTS), "FAKE_RUNS": str(runs), "FAKE_DIR": str(tmp_path)}
    env.update(fake)
    result = subprocess.run(
        ["bash", str(LANES), str(executable), str(log)], capture_output=True, text=True, env=env, timeout=60
    )
    return result, sorted(runs.read_text().splitlines()), log.read_text() if log.exists() else ""


def test_the_generator_and_transport_targets_run_in_lane_1_and_every_other_target_in_lane_2(tmp_path):
    result, runs, log = run_lanes(tmp_path)
    assert result.returncode == 0, result.stderr
    assert runs == [
        "OpenAIGeneratorTests.SnapshotTests,OpenAIWebSocketTests.FrameTests",
        "OpenAIRuntimeTests.SSEParserTests,OpenAISDKTests.StreamTests,OpenAINewTests.NewTests",
    ]
    assert result.stdout.splitlines()[0].startswith("lane 1: OpenAIGeneratorTests OpenAIWebSocketTests: 2 classes,")
    assert result.stdout.splitlines()[1].startswith(
        "lane 2: OpenAIRuntimeTests OpenAISDKTests OpenAINewTests: 3 classes,"
    )
    assert log.count("' passed (") == len(TESTS)
    assert (
        log.index("==> lane 1:") < log.index("SnapshotTests.testA") < log.index("==> lane 2:") < log.index("NewTests")
    )


def test_the_lanes_run_at_the_same_time(tmp_path):
    result, _, log = run_lanes(
        tmp_path, FAKE_RENDEZVOUS="OpenAIGeneratorTests.SnapshotTests,OpenAISDKTests.StreamTests"
    )
    assert result.returncode == 0, result.stdout + log
    assert "waited alone" not in log


def test_a_failing_lane_fails_the_run_and_both_logs_are_kept(tmp_path):
    result, _, log = run_lanes(tmp_path, FAKE_FAIL="OpenAISDKTests.StreamTests")
    assert result.returncode == 1
    assert "lane 2: OpenAIRuntimeTests OpenAISDKTests OpenAINewTests: 3 classes," in result.stdout
    assert "exit status 1" in result.stdout.splitlines()[1]
    assert "StreamTests.testE' failed (" in log
    assert "SnapshotTests.testB' passed (" in log


def test_a_lane_that_stops_early_without_a_failure_is_a_failure(tmp_path):
    result, _, log = run_lanes(tmp_path, FAKE_STOP="OpenAIWebSocketTests.FrameTests")
    assert result.returncode == 1
    assert "the lanes reported 5 test cases of the 6 the executable lists" in result.stderr
    assert "FrameTests.testD" not in log


def test_a_missing_executable_is_a_usage_error(tmp_path):
    result = subprocess.run(
        ["bash", str(LANES), str(tmp_path / "absent.xctest"), str(tmp_path / "log")], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "is not an executable file" in result.stderr


@pytest.mark.parametrize(
    ("fake", "message"),
    [
        ({"FAKE_TESTS": ""}, "lists no test"),
        ({"TEST_LANES_FILTER": "NoSuchTests"}, "lists no test of the classes TEST_LANES_FILTER selects"),
    ],
    ids=["an executable that lists no test", "a filter that matches no class"],
)
def test_nothing_to_run_fails_saying_so(tmp_path, fake, message):
    result, runs, _ = run_lanes(tmp_path, **fake)
    assert result.returncode == 1
    assert message in result.stderr
    assert runs == []


def test_an_executable_that_cannot_list_its_tests_fails_saying_so(tmp_path):
    result, runs, _ = run_lanes(tmp_path, FAKE_LIST_STATUS="7")
    assert result.returncode == 1
    assert "--list-tests failed (exit status 7)" in result.stderr
    assert "the listing crashed" in result.stderr
    assert runs == []


def test_a_filter_runs_only_the_classes_it_matches_and_a_lane_can_name_classes(tmp_path):
    # As sanitize.sh runs them: a filter with escaped dots, and lane 1 given one class of a target. The escaped dot is
    # a dot: `Other.OpenAISDKTestsXStreamTests` would match it read as any character.
    result, runs, log = run_lanes(
        tmp_path,
        FAKE_TESTS=" ".join([*TESTS, "Other.OpenAISDKTestsXStreamTests/testZ"]),
        TEST_LANES_FILTER=r"OpenAISDKTests\.StreamTests|OpenAIRuntimeTests\.(SSEParserTests)|FrameTests",
        TEST_LANE_1=r"OpenAISDKTests\.StreamTests",
    )
    assert result.returncode == 0, result.stderr
    assert runs == [
        "OpenAIRuntimeTests.SSEParserTests,OpenAIWebSocketTests.FrameTests",
        "OpenAISDKTests.StreamTests",
    ]
    assert log.count("' passed (") == 3
    assert "SnapshotTests" not in log


def test_a_lane_1_name_that_matches_only_part_of_a_class_name_does_not_take_it(tmp_path):
    result, runs, _ = run_lanes(tmp_path, TEST_LANE_1=r"OpenAISDKTests\.Stream")
    assert result.returncode == 0, result.stderr
    assert runs == [
        "OpenAIGeneratorTests.SnapshotTests,OpenAIRuntimeTests.SSEParserTests,OpenAIWebSocketTests.FrameTests,"
        "OpenAISDKTests.StreamTests,OpenAINewTests.NewTests"
    ]
    assert "lane 1: : 0 classes" in result.stdout
