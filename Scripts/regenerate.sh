#!/usr/bin/env bash
# The main job: fetch the locked spec, build the generator, regenerate Sources/OpenAI/Generated/ (with
# Sources/OpenAIAdmin/Generated/ and Sources/OpenAICatalogue/Generated/), build the SDK.
#
# Usage: Scripts/regenerate.sh [GENERATE_OPTIONS...]
#   Extra arguments go to `openai-generator generate` (e.g. `--access package`).
#   SCRATCH_PATH=DIR   use DIR as the SwiftPM build folder instead of .build (passed as --scratch-path).
#
# Exit status: non-zero as soon as a step fails (the failing step's own status).
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
set_swift_flags

step() { printf '\n==> %s\n' "$*"; }

step "1/4 Fetch the locked spec (Scripts/spec/fetch-spec.sh)"
"$ROOT/Scripts/spec/fetch-spec.sh"

step "2/4 Build the generator (swift build -c release --product openai-generator)"
build_generator release

step "3/4 Generate Sources/OpenAI/Generated/, Sources/OpenAIAdmin/Generated/, Sources/OpenAICatalogue/Generated/ from Spec/openapi.yaml (openai-generator generate $*)"
"$GENERATOR" generate --spec Spec/openapi.yaml --output Sources/OpenAI/Generated "$@"

step "4/4 Build the OpenAI and OpenAIAdmin modules (swift build --target OpenAIAdmin, which depends on OpenAI)"
swift build --target OpenAIAdmin ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}

printf '\nregenerate: done. Review the changes with: git status Sources; git diff --stat\n'
