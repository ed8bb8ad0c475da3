"""Checks one app probe's run against the local test server: its output and every request it made.

Usage: check_probe_run.py SERVER_ROOT SCENARIO OUTPUT_FILE
  SERVER_ROOT  the test server's root URL (http://127.0.0.1:PORT).
  SCENARIO     the `x-testserver-scenario` the probe sent (its records are read from /__testserver/requests).
  OUTPUT_FILE  what the probe printed.

The code of README.md and BEHAVIOUR.md makes these requests, in this order: the quick start (a chat completion, a
streamed one), the five tasks (a chat completion with a tool call and the one with its result, a streamed response,
a vector store, a file upload, the vector-store file, its poll, an embedding, a transcription) and the structured
outputs (a parsed chat completion, one with a function tool), the binary reply (a file's content, downloaded) and the
webhook (checked locally, no request). Each must match the spec (the server validates it), and the probe must
have printed to the end (`probe: done`). Prints the output's digest, so that the probes' outputs can be compared.
Exit status 0 when all holds, 1 otherwise.
"""

import hashlib
import json
import sys
import urllib.parse
import urllib.request

EXPECTED = [
    "createChatCompletion",
    "createChatCompletion",
    "createChatCompletion",
    "createChatCompletion",
    "createResponse",
    "createVectorStore",
    "createFile",
    "createVectorStoreFile",
    "getVectorStoreFile",
    "createEmbedding",
    "createTranscription",
    "createChatCompletion",
    "createChatCompletion",
    "downloadFile",
]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, scenario, output_path = sys.argv[1:]
    query = urllib.parse.urlencode({"scenario": scenario})
    with urllib.request.urlopen(f"{root}/__testserver/requests?{query}", timeout=30) as reply:
        records = json.load(reply)["requests"]
    problems = []
    operations = [record.get("operation_id") for record in records]
    if operations != EXPECTED:
        problems.append(f"requests {operations}, expected {EXPECTED}")
    for number, record in enumerate(records, 1):
        validation = record.get("validation") or {}
        if validation.get("result") != "ok":
            problems.append(
                f"request {number} ({record.get('method')} {record.get('path')}): {validation.get('errors')}"
            )
    output = open(output_path, "rb").read()
    if not output.rstrip().endswith(b"probe: done"):
        problems.append("the output does not end with `probe: done`")
    for problem in problems:
        print(f"  {scenario}: {problem}")
    print(f"{scenario}: {len(records)} requests, output sha256 {hashlib.sha256(output).hexdigest()[:16]}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
