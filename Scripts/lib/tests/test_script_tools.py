"""Scripts/lib/script_tools.py: the small tools of the shell library."""

import hashlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import script_tools  # noqa: E402

TOOL = os.path.join(os.path.dirname(__file__), "..", "script_tools.py")


def run(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


def test_sha256_reads_a_file_larger_than_its_chunk(tmp_path):
    data = bytes(range(256)) * 5000  # 1.22 MiB: two chunks
    path = tmp_path / "spec.yaml"
    path.write_bytes(data)
    result = run("sha256", str(path))
    assert result.returncode == 0
    assert result.stdout == hashlib.sha256(data).hexdigest() + "\n"


def test_json_field_is_empty_for_a_missing_or_null_field(tmp_path):
    path = tmp_path / "lock.json"
    path.write_text(json.dumps({"sha256": "ab", "commit": None, "size": 5}))
    assert run("json-field", str(path), "sha256").stdout == "ab\n"
    assert run("json-field", str(path), "commit").stdout == "\n"
    assert run("json-field", str(path), "missing").stdout == "\n"
    assert run("json-field", str(path), "size").stdout == "5\n"


def test_json_lines_prints_one_item_per_line_and_fails_on_a_missing_key(tmp_path):
    path = tmp_path / "swiftc-flags.json"
    path.write_text(json.dumps({"Probe": ["-swift-version", "6", "-default-isolation", "MainActor"]}))
    assert run("json-lines", str(path), "Probe").stdout.splitlines() == [
        "-swift-version",
        "6",
        "-default-isolation",
        "MainActor",
    ]
    missing = run("json-lines", str(path), "Other")
    assert missing.returncode == 1
    assert "json-lines" in missing.stderr


def test_swiftpm_objects_lists_the_maps_objects_and_the_module_object(tmp_path):
    folder = tmp_path / "OpenAI.build"
    folder.mkdir()
    output_map = folder / "output-file-map.json"
    output_map.write_text(
        json.dumps(
            {
                "": {"swift-dependencies": "x.swiftdeps"},
                "/src/B.swift": {"object": str(folder / "B.swift.o")},
                "/src/A.swift": {"object": str(folder / "A.swift.o"), "swiftmodule": "A.swiftmodule"},
                "/src/C.swift": {"dependencies": "C.d"},
            }
        )
    )
    # An object no source names any more (a removed file) is never listed.
    (folder / "Removed.swift.o").write_bytes(b"")
    assert script_tools.swiftpm_objects(str(output_map), "OpenAI") == [
        str(folder / "A.swift.o"),
        str(folder / "B.swift.o"),
    ]
    (folder / "OpenAI.swiftmodule.o").write_bytes(b"")
    assert script_tools.swiftpm_objects(str(output_map), "OpenAI")[-1] == str(folder / "OpenAI.swiftmodule.o")


def test_a_wrong_command_is_a_usage_error():
    result = run("sha256")
    assert result.returncode == 2
    assert "usage error" in result.stderr
