"""Runs a command with a time limit (macOS has no `timeout`).

Usage: run_with_timeout.py SECONDS COMMAND [ARGUMENT...]
Standard input, output and error are the command's. Exit status: the command's, 124 when it ran out of time (it is
killed), 127 when it cannot be started.
"""

import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    seconds, command = float(sys.argv[1]), sys.argv[2:]
    try:
        return subprocess.run(command, timeout=seconds).returncode
    except subprocess.TimeoutExpired:
        print(f"run_with_timeout: {command[0]} ran out of its {seconds:g} s and was killed", file=sys.stderr)
        return 124
    except OSError as error:
        print(f"run_with_timeout: cannot start {command[0]}: {error}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main())
