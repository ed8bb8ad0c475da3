"""Scripts/lib/history_package.py: check-history's temporary manifests and warning count."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import history_package  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def test_the_manifests_of_the_real_package_hold_the_sdks_layers():
    text = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    plain, admin = history_package.manifests(text)
    assert plain.startswith(text.splitlines()[0] + "\nimport PackageDescription\n")
    for name in ("OpenAIRuntimeLibcurl", "OpenAIRuntime", "OpenAI"):
        assert f'name: "{name}"' in plain and f'name: "{name}"' in admin
    assert 'name: "OpenAIAdmin"' not in plain
    assert 'name: "OpenAIAdmin"' in admin and '.library(name: "OpenAIAdmin"' in admin
    # Only the SDK's layers: not the tool, the generator or the tests.
    assert "OpenAICLI" not in admin and "openai-generator" not in admin and "testTarget" not in admin
    assert "platforms: [.macOS(.v13)" in plain
    assert plain.rstrip().endswith("swiftLanguageModes: [.v6]\n)")


MANIFEST = """// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "x",
    targets: [
        .target(name: "OpenAIRuntimeLibcurl", path: "Sources/CLibcurl"),
        .target(
            name: "OpenAIRuntime",
            dependencies: [.target(name: "OpenAIRuntimeLibcurl", condition: .when(platforms: [.linux]))]
        ),
        .target(name: "OpenAI", dependencies: ["OpenAIRuntime"]),
        .target(name: "OpenAIAdmin", dependencies: ["OpenAI"]),
    ]
)
"""


def test_a_target_is_copied_as_written_and_a_dependency_is_not_a_declaration():
    plain, _ = history_package.manifests(MANIFEST)
    assert '.target(name: "OpenAIRuntimeLibcurl", path: "Sources/CLibcurl")' in plain
    # The nested `.target(name:condition:)` is part of OpenAIRuntime's declaration, copied whole.
    assert "condition: .when(platforms: [.linux])" in plain
    assert plain.count('.target(name: "OpenAIRuntimeLibcurl"') == 2
    assert "platforms:" not in plain.split("targets:")[0]


@pytest.mark.parametrize(
    "text, message",
    [
        (MANIFEST.replace('"OpenAIAdmin"', '"Admin"'), "declares no target OpenAIAdmin"),
        (
            MANIFEST.replace(
                '.target(name: "OpenAI", dependencies: ["OpenAIRuntime"])',
                '.target(name: "OpenAI", swiftSettings: [.define("X")])',
            ),
            "the OpenAI target has swiftSettings",
        ),
        (MANIFEST.split("\n", 1)[1], "swift-tools-version"),
        (
            MANIFEST.replace('.target(name: "OpenAI", dependencies: ["OpenAIRuntime"])', '.target(name: "OpenAI", ('),
            "unbalanced brackets",
        ),
    ],
)
def test_a_manifest_the_package_cannot_be_made_from_is_refused(text, message):
    with pytest.raises(history_package.ManifestError, match=message):
        history_package.manifests(text)


@pytest.mark.parametrize(
    "text, count",
    [
        ("operations: 3\nwarnings: 36; notes: 110\n", "36"),
        ("done with 2 warnings\n", "2"),
        ("spec.yaml:1:2: warning: a\nspec.yaml:3:4: warning: b\nnote: c\n", "2"),
        ("no findings\n", "?"),
    ],
)
def test_the_generators_warning_count(text, count):
    assert history_package.generator_warnings(text) == count


def test_main_writes_both_manifests_and_refuses_with_status_1(tmp_path, capsys):
    root = tmp_path / "Package.swift"
    root.write_text(MANIFEST)
    out = tmp_path / "out" / "Package.swift"
    out.parent.mkdir()
    assert history_package.main(["manifests", str(root), str(out)]) == 0
    assert 'name: "OpenAIAdmin"' in (tmp_path / "out" / "Package.swift.admin").read_text()
    assert 'name: "OpenAIAdmin"' not in out.read_text()
    root.write_text(MANIFEST.replace('"OpenAI",', '"Other",'))
    assert history_package.main(["manifests", str(root), str(out)]) == 1
    assert "check-history: the root Package.swift declares no target OpenAI" in capsys.readouterr().err
    assert history_package.main(["nonsense"]) == 2
