#!/usr/bin/env bash
# Moves the SDK to a new OpenAI spec in one step: diff against the locked spec, put the new spec in place,
# regenerate Sources/OpenAI/Generated/, rewrite Spec/lock.json, check, and print a markdown change summary
# ready for a pull request and a changelog.
#
# Usage: Scripts/update-spec.sh [--dry-run] NEW_SPEC_PATH_OR_URL
#   --dry-run   only print the markdown summary; change no file.
# Environment:
#   SPEC_URL, SPEC_COMMIT, SPEC_DATE   what to write in the lock's url / commit / date. Defaults: the URL given
#       (or the path), the 40-hex commit in the URL (or the hex in a history file name such as
#       2026-08-13-855e5d4.yaml), and the date in that file name or today (UTC).
#   SCRATCH_PATH=DIR   SwiftPM build folder (passed as --scratch-path).
#   SKIP_SDK_BUILD=1   do not build the OpenAI module after regenerating.
#   SUMMARY_FILE=PATH  also write the markdown summary there.
#
# Exit status: 0 updated (or nothing to do); 1 a step failed (the new spec is unreadable, download failed,
# generation or check failed); 2 usage error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

DRY_RUN=0
if [[ "${1:-}" == "--dry-run" ]]; then
    DRY_RUN=1
    shift
fi
if [[ $# -ne 1 ]]; then
    echo "usage: Scripts/update-spec.sh [--dry-run] NEW_SPEC_PATH_OR_URL" >&2
    exit 2
fi
SOURCE="$1"
LOCK="$ROOT/Spec/lock.json"
DEST="$ROOT/Spec/openapi.yaml"

SWIFT_FLAGS=()
if [[ -n "${SCRATCH_PATH:-}" ]]; then
    SWIFT_FLAGS+=(--scratch-path "$SCRATCH_PATH")
fi

step() { printf '\n==> %s\n' "$*" >&2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/update-spec.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
NEW="$WORK/openapi.yaml"

step "1/7 Get the new spec ($SOURCE)"
case "$SOURCE" in
    http://* | https://*)
        if ! curl --fail --silent --show-error --location --retry 3 --output "$NEW" "$SOURCE"; then
            echo "update-spec: download failed: $SOURCE (nothing changed)" >&2
            exit 1
        fi
        ;;
    *)
        if [[ ! -f "$SOURCE" ]]; then
            echo "update-spec: $SOURCE is not a file (nothing changed)" >&2
            exit 1
        fi
        cat "$SOURCE" >"$NEW"
        ;;
esac

sha256_of() {
    python3 -c '
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
print(h.hexdigest())' "$1"
}
NEW_SHA="$(sha256_of "$NEW")"
LOCKED_SHA="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["sha256"])' "$LOCK")"
if [[ "$NEW_SHA" == "$LOCKED_SHA" ]]; then
    echo "update-spec: $SOURCE is already the locked spec (sha256 $NEW_SHA); nothing to update." >&2
    exit 0
fi

step "2/7 Locked spec (Scripts/fetch-spec.sh)"
"$ROOT/Scripts/fetch-spec.sh" >&2

step "3/7 Build the generator (swift build -c release --product openai-generator)"
swift build -c release --product openai-generator ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} >&2
GENERATOR="$(swift build -c release --show-bin-path ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"})/openai-generator"

step "4/7 Diff the locked spec against the new one"
set +e
"$GENERATOR" diff "$DEST" "$NEW" --format markdown --fail-on none >"$WORK/summary.md"
status=$?
set -e
if [[ $status -ne 0 ]]; then
    echo "update-spec: diff failed (exit status $status); nothing changed." >&2
    exit 1
fi
# Name the files for people, not the temporary paths.
python3 - "$WORK/summary.md" "$DEST" "$NEW" "$SOURCE" <<'PY'
import sys
path, dest, new, source = sys.argv[1:]
text = open(path).read().replace(dest, "Spec/openapi.yaml (locked)").replace(new, source)
open(path, "w").write(text)
PY
if ! grep -q '^| \*\*Total\*\*' "$WORK/summary.md" && grep -q '^No changes\.' "$WORK/summary.md"; then
    echo "update-spec: the new spec differs in bytes but not in anything the SDK uses; updating the lock anyway." >&2
fi
if [[ $DRY_RUN -eq 1 ]]; then
    step "--dry-run: no file changed"
    cat "$WORK/summary.md"
    exit 0
fi

step "5/7 Put the new spec at Spec/openapi.yaml and regenerate Sources/OpenAI/Generated/"
cp "$DEST" "$WORK/previous.yaml"
chmod 644 "$NEW"
cp "$NEW" "$DEST.tmp" && mv -f "$DEST.tmp" "$DEST"
if ! "$GENERATOR" generate --spec Spec/openapi.yaml --output Sources/OpenAI/Generated >&2; then
    cp "$WORK/previous.yaml" "$DEST"
    echo "update-spec: generation failed; Spec/openapi.yaml restored, the lock is unchanged." >&2
    exit 1
fi

step "6/7 Update Spec/lock.json"
python3 - "$LOCK" "$DEST" "$SOURCE" "$NEW_SHA" <<'PY'
import datetime, json, os, re, sys
lock_path, spec, source, sha = sys.argv[1:]
lock = json.load(open(lock_path))
name = os.path.basename(source)
url = os.environ.get("SPEC_URL") or source
commit = os.environ.get("SPEC_COMMIT")
if not commit:
    match = re.search(r"/([0-9a-f]{40})/", source) or re.match(r"\d{4}-\d{2}-\d{2}-([0-9a-f]{7,40})\.ya?ml$", name)
    commit = match.group(1) if match else ""
date = os.environ.get("SPEC_DATE")
if not date:
    match = re.match(r"(\d{4}-\d{2}-\d{2})-", name)
    date = match.group(1) if match else datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
version = ""
with open(spec, encoding="utf-8") as f:
    for line in f:
        match = re.match(r"""openapi:\s*['"]?([0-9.]+)""", line)
        if match:
            version = match.group(1)
            break
lock.update({"url": url, "commit": commit, "sha256": sha, "date": date, "openapi": version,
             "size": os.path.getsize(spec)})
with open(lock_path + ".tmp", "w") as f:
    json.dump(lock, f, indent=2)
    f.write("\n")
os.replace(lock_path + ".tmp", lock_path)
print(f"update-spec: lock now sha256 {sha}, commit {commit or '(unknown)'}, date {date}", file=sys.stderr)
PY

step "7/7 Check (openai-generator check) and build the OpenAI module"
"$GENERATOR" check >&2
if [[ "${SKIP_SDK_BUILD:-0}" != "1" ]]; then
    swift build --target OpenAI ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} >&2
fi

if [[ -n "${SUMMARY_FILE:-}" ]]; then
    cp "$WORK/summary.md" "$SUMMARY_FILE"
fi
printf '\n' >&2
cat "$WORK/summary.md"
