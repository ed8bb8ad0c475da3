#!/usr/bin/env bash
# Rewrites the generator's snapshot fixtures (Tests/OpenAIGeneratorTests/Snapshots/*/expected and
# diagnostics.txt) from the current generator, then type-checks the new expected output.
# Read the whole `git diff Tests/OpenAIGeneratorTests/Snapshots` before committing (STYLE.md habit 14).
#
# Usage: Scripts/update-snapshots.sh [extra swift test arguments, e.g. --scratch-path .build-snap]
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
UPDATE_SNAPSHOTS=1 swift test "$@" --filter 'SnapshotTests/testEveryFixtureGeneratesExactlyItsExpectedSwiftAndDiagnostics'
swift test "$@" --skip-build --filter 'Snapshot'
git status --short Tests/OpenAIGeneratorTests/Snapshots 2>/dev/null || true
