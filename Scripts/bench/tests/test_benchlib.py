"""Scripts/bench/benchlib.py: the benchmark scripts' Python parts."""

import json
import os
import re
import sys
import threading
import urllib.request

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import benchlib  # noqa: E402


def fake_generator(tmp_path, body):
    """An executable Python script standing in for openai-generator."""
    path = tmp_path / "fake-generator"
    path.write_text(f"#!{sys.executable}\nimport os, sys\n{body}\n")
    path.chmod(0o755)
    return str(path)


def test_generate_runs_writes_the_median_and_reports_the_first_run(tmp_path, capsys):
    generator = fake_generator(
        tmp_path,
        "out = sys.argv[sys.argv.index('--output') + 1]\n"
        "os.makedirs(out)\n"
        "open(os.path.join(out, 'A.swift'), 'w').write('x' * 10)\n"
        "print('generated 1 file, options ' + ' '.join(sys.argv[6:]))",
    )
    median = benchlib.generate_runs(generator, "spec.yaml", str(tmp_path), 3, ["--overrides", "none"])
    output = capsys.readouterr().out
    assert "generated 1 file, options --overrides none" in output
    assert "(1 files, 10 bytes written)" in output
    assert [line.split(":")[0] for line in output.splitlines() if line.startswith("run ")] == [
        "run 1/3",
        "run 2/3",
        "run 3/3",
    ]
    assert (tmp_path / "generate_seconds").read_text() == f"{median:.2f}\n"
    assert sorted(p.name for p in tmp_path.glob("generated-*")) == ["generated-0", "generated-1", "generated-2"]


def test_a_failing_generate_run_exits_naming_the_run(tmp_path, capsys):
    generator = fake_generator(tmp_path, "print('spec.yaml:1:1: broken'); sys.exit(3)")
    with pytest.raises(SystemExit) as exit_info:
        benchlib.generate_runs(generator, "spec.yaml", str(tmp_path), 2, [])
    assert exit_info.value.code == "bench-generate: run 1 failed with exit status 3"
    assert "spec.yaml:1:1: broken" in capsys.readouterr().out


def test_timed_build_counts_only_object_files(tmp_path, capsys):
    scratch = tmp_path / "scratch"
    (scratch / "sub").mkdir(parents=True)
    (scratch / "sub" / "a.o").write_bytes(b"\0" * (2 * 2**20))
    (scratch / "a.swiftmodule").write_bytes(b"\0" * 2**20)
    result = tmp_path / "seconds"
    benchlib.timed_build(str(result), str(scratch), [sys.executable, "-c", "print('Compiling'); print('Build done')"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Build done"
    assert lines[1].endswith("object files 2.0 MiB")
    assert float(result.read_text()) >= 0


def test_diff_runs_prints_the_summary_and_accepts_checks_statuses(tmp_path, capsys):
    summary = {"summary": {"breaking": 2, "warning": 1, "info": 7}}
    generator = fake_generator(
        tmp_path,
        f"if sys.argv[1] == 'diff': print({json.dumps(json.dumps(summary))})\n"
        "else: print('check: 3 files differ'); sys.exit(1)",
    )
    benchlib.diff_runs([generator, "old.yaml", "new.yaml", "2", "0,1", "--overrides", "none", "--check", "--x"])
    output = capsys.readouterr().out
    assert "summary: 2 breaking, 1 warning, 7 info" in output
    assert "check: 3 files differ" in output
    assert f"==> diff: {generator} diff old.yaml new.yaml --format json --overrides none (2 runs)" in output
    assert f"==> check: {generator} check --x (2 runs)" in output
    results = [line for line in output.splitlines() if re.fullmatch(r"\w+_seconds: \d+\.\d{3}", line)]
    assert [line.split(":")[0] for line in results] == ["diff_seconds", "check_seconds"]


def test_diff_runs_fails_on_a_check_status_it_does_not_accept(tmp_path):
    generator = fake_generator(
        tmp_path,
        'print(\'{"summary": {"breaking": 0, "warning": 0, "info": 0}}\') if sys.argv[1] == "diff" else sys.exit(1)',
    )
    with pytest.raises(SystemExit) as exit_info:
        benchlib.diff_runs([generator, "old.yaml", "new.yaml", "1", "0", "--check"])
    assert exit_info.value.code == "bench-diff: check run 1 failed with exit status 1"


def write_rows(work, name, rows):
    with open(work / f"{name}.jsonl", "w") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")


def row(rtt, appends_per_s, cpu):
    return {
        "rtt_median_ms": rtt,
        "rtt_p99_ms": rtt * 2,
        "append_messages_per_s": appends_per_s,
        "append_mb_per_s": appends_per_s / 1000,
        "append_cpu_us_per_message": cpu,
    }


def test_realtime_report_takes_medians_and_divides_python_by_swift(tmp_path):
    # Three runs each; the medians are the middle values whatever the order.
    write_rows(tmp_path, "swift-session", [row(0.2, 100_000, 7.0), row(0.1, 120_000, 6.0), row(0.3, 80_000, 8.0)])
    write_rows(tmp_path, "python-session", [row(0.4, 30_000, 35.0)] * 3)
    write_rows(tmp_path, "swift-transport", [row(0.1, 110_000, 3.0)] * 3)
    write_rows(tmp_path, "python-transport", [row(0.3, 110_000, 9.0)] * 3)
    lines = benchlib.realtime_report(str(tmp_path), "200", "3000", "3")
    assert lines[0].startswith("round trips: 200, appends: 3000 x 100 ms")
    values = dict(line.split(": ", 1) for line in lines[6:])
    assert values == {
        "session_rtt_median_ratio_vs_python": "2.000",
        "transport_rtt_median_ratio_vs_python": "3.000",
        "transport_append_throughput_ratio_vs_python": "1.000",
        "session_append_cpu_efficiency_ratio_vs_python": "5.000",
        "transport_append_cpu_efficiency_ratio_vs_python": "3.000",
        "rtt_median_ms": "0.2000",
        "rtt_p99_ms": "0.4000",
        "append_throughput_ratio_vs_python": "3.333",
    }
    assert lines[2].split()[:3] == ["swift", "session", "layer"]


def test_the_sse_server_sends_the_asked_mebibytes_then_done(tmp_path):
    server = benchlib.http.server.ThreadingHTTPServer(("127.0.0.1", 0), benchlib.SSEHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1/chat?mib=1"
        with urllib.request.urlopen(urllib.request.Request(url, data=b"{}", method="POST"), timeout=10) as reply:
            assert reply.headers["content-type"] == "text/event-stream"
            body = reply.read()
    finally:
        server.shutdown()
        server.server_close()
    events = body.split(b"\n\n")
    assert events[-2:] == [b"data: [DONE]", b""]
    assert len(events) - 2 == 2**20 // len(benchlib.SSE_EVENT)
    assert json.loads(events[0][len(b"data: ") :])["text"] == "x" * (64 * 1024 - 20)
