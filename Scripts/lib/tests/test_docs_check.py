"""Scripts/lib/docs_check.py: build-docs' symbol-graph check and diagnostics report."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import docs_check  # noqa: E402


def symbol(title, path=None):
    return {"names": {"title": title}, "pathComponents": path or [title]}


def write_graph(folder, module, titles):
    graph = {
        "symbols": [symbol(t) for t in titles] + [symbol("member", ["OpenAIClient", "member"])],
        "relationships": [{}],
    }
    (folder / f"{module}.symbols.json").write_text(json.dumps(graph))


def test_a_graph_with_the_reexported_symbols_passes(tmp_path):
    write_graph(tmp_path, "OpenAI", ["OpenAIClient", "OpenAIError", "OpenAIStream", "FileUpload", "Model"])
    (tmp_path / "OpenAI@Swift.symbols.json").write_text("{}")
    line, error = docs_check.check_graph(str(tmp_path), "OpenAI", "OpenAIRuntime")
    assert line == "OpenAI: 6 symbols, 1 relationships; files: OpenAI.symbols.json, OpenAI@Swift.symbols.json"
    assert error is None


def test_a_graph_without_them_names_the_missing_ones(tmp_path, capsys):
    # `member` is below OpenAIClient: a nested symbol does not count as the type.
    write_graph(tmp_path, "OpenAIRealtime", ["WebSocket"])
    _, error = docs_check.check_graph(str(tmp_path), "OpenAIRealtime", "OpenAIWebSocket")
    assert error == (
        "build-docs: the OpenAIRealtime symbol graph lacks the re-exported OpenAIWebSocket symbols"
        " ['WebSocketError', 'WebSocketConfiguration']"
    )
    assert docs_check.main(["graph", str(tmp_path), "OpenAIRealtime", "OpenAIWebSocket"]) == 1
    assert "lacks" in capsys.readouterr().err


def test_kinds_blank_quoted_names_and_numbers():
    assert docs_check.kind("'Foo' doesn't exist at '/OpenAI/Bar'") == "'…' doesn't exist at '…'"
    assert docs_check.kind("Topic ``OpenAIClient`` listed 2 times") == "Topic '…' listed N times"
    assert docs_check.kind(None) == ""


def diagnostic(line, summary, severity="error"):
    return {
        "source": "file:///repo/Sources/OpenAI/OpenAI.docc/OpenAI.md",
        "range": {"start": {"line": line, "column": 3}},
        "severity": severity,
        "summary": summary,
    }


def test_the_report_lists_locations_and_counts_by_kind():
    diagnostics = [diagnostic(4, "'A' doesn't exist"), diagnostic(9, "'B' doesn't exist"), diagnostic(1, "x", "note")]
    lines, problems = docs_check.report(diagnostics, "OpenAI", "/repo", "/repo/out/d.json")
    assert lines[0] == "  Sources/OpenAI/OpenAI.docc/OpenAI.md:4:3: error: 'A' doesn't exist"
    assert "OpenAI: diagnostics: 2 error, 1 note" in lines
    assert "       2  error    '…' doesn't exist" in lines
    assert problems == 2


def test_more_than_fifty_are_summed_up(tmp_path):
    lines, problems = docs_check.report([diagnostic(n, "s") for n in range(60)], "OpenAI", "/repo", "/repo/d.json")
    assert "  ... and 10 more (all in d.json)" in lines
    assert problems == 60


def test_main_fails_on_a_problem_or_a_failed_convert_and_shows_the_log(tmp_path, capsys):
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps({"diagnostics": []}))
    log = tmp_path / "docc.log"
    log.write_text("docc: something broke\n")
    assert docs_check.main(["diagnostics", str(clean), str(log), "OpenAI", "0"]) == 0
    assert "OpenAI: diagnostics: none" in capsys.readouterr().out
    assert docs_check.main(["diagnostics", str(tmp_path / "absent.json"), str(log), "OpenAI", "1"]) == 1
    assert "docc: something broke" in capsys.readouterr().out
    warned = tmp_path / "warned.json"
    warned.write_text(json.dumps({"diagnostics": [diagnostic(1, "w", "warning")]}))
    assert docs_check.main(["diagnostics", str(warned), str(log), "OpenAI", "0"]) == 1
