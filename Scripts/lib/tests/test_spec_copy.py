"""Scripts/lib/spec_copy.py: fetch-spec's search for a local copy of the locked spec."""

import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import spec_copy  # noqa: E402

SPEC = b"openapi: 3.1.0\n" * 1000
SHA = hashlib.sha256(SPEC).hexdigest()


def test_the_first_copy_with_the_locks_size_and_hash_is_copied(tmp_path):
    wrong = tmp_path / "wrong.yaml"
    wrong.write_bytes(SPEC[:-1] + b"!")
    right = tmp_path / "right.yaml"
    right.write_bytes(SPEC)
    later = tmp_path / "later.yaml"
    later.write_bytes(SPEC)
    dest = tmp_path / "dest"
    found = spec_copy.copy_matching(
        str(dest), SHA, len(SPEC), [str(tmp_path / "missing"), str(wrong), str(right), str(later)]
    )
    assert found == str(right)
    assert dest.read_bytes() == SPEC


def test_a_file_of_another_size_is_not_read(tmp_path, monkeypatch):
    other = tmp_path / "other.yaml"
    other.write_bytes(SPEC + b"\n")
    opened = []
    real_open = open

    def spying_open(path, *args, **kwargs):
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spying_open)
    assert spec_copy.copy_matching(str(tmp_path / "dest"), SHA, len(SPEC), [str(other)]) is None
    assert str(other) not in opened


def test_without_a_size_any_size_is_hashed_and_an_unreadable_file_is_said(tmp_path, monkeypatch):
    right = tmp_path / "right.yaml"
    right.write_bytes(SPEC)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    unreadable = tmp_path / "unreadable.yaml"
    unreadable.write_bytes(SPEC)
    real_open = open

    def failing_open(path, *args, **kwargs):
        if str(path) == str(unreadable):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing_open)
    said = []
    found = spec_copy.copy_matching(
        str(tmp_path / "dest"), SHA, None, [str(folder), str(unreadable), str(right)], warn=said.append
    )
    assert found == str(right)
    assert said == [f"fetch-spec: cannot read {unreadable}: [Errno 13] Permission denied"]


def test_main_prints_the_path_and_exits_1_when_none_matches(tmp_path, capsys):
    right = tmp_path / "right.yaml"
    right.write_bytes(SPEC)
    assert spec_copy.main([str(tmp_path / "dest"), SHA, str(len(SPEC)), str(right)]) == 0
    assert capsys.readouterr().out == f"{right}\n"
    assert spec_copy.main([str(tmp_path / "dest"), "0" * 64, "unknown", str(right)]) == 1
    assert spec_copy.main([]) == 2
