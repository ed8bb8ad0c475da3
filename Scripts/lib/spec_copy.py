"""The Python part of Scripts/spec/fetch-spec.sh: finding a local copy of the locked spec.

Usage: python3 Scripts/lib/spec_copy.py DEST SHA256 SIZE CANDIDATE...

Copies the first candidate whose size is SIZE (any size when SIZE is not a number) and whose
sha256 is SHA256 to DEST, hashing while copying (each file is read once; one whose size differs is
not read at all), and prints its path. Exit status 0 when one matched, 1 when none did (DEST then
holds the last one read, or nothing).
"""

import hashlib
import os
import sys

CHUNK = 1 << 20


def copy_matching(dest, sha, size, candidates, warn=lambda text: print(text, file=sys.stderr)):
    """The first of `candidates` with `size` bytes (None: any) and sha256 `sha`, copied to `dest`; None if none."""
    for path in candidates:
        try:
            if not os.path.isfile(path) or (size is not None and os.path.getsize(path) != size):
                continue
            digest = hashlib.sha256()
            with open(path, "rb") as source, open(dest, "wb") as out:
                for chunk in iter(lambda: source.read(CHUNK), b""):
                    digest.update(chunk)
                    out.write(chunk)
        except OSError as error:
            warn(f"fetch-spec: cannot read {path}: {error}")
            continue
        if digest.hexdigest() == sha:
            return path
    return None


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    dest, sha, size = argv[0], argv[1], argv[2]
    found = copy_matching(dest, sha, int(size) if size.isdigit() else None, argv[3:])
    if found is None:
        return 1
    print(found)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
