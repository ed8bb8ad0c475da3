#!/usr/bin/env python3
"""Checks the documentation site as users browse it: the merged DocC archive Scripts/docs/build-docs.sh writes.

Usage: Scripts/docs/check-docs-site.py [--site DIR] [--chromium PATH] [--self-test]

  --site DIR       the archive to check (default: <scratch>/docs/swift-openai.doccarchive, SCRATCH_PATH or .build)
  --chromium PATH  the browser (default: chromium, chromium-browser or google-chrome on PATH)
  --self-test      first prove that the link check fails on a small site with one broken link and passes once it
                   is mended

Two checks:
  1. Links, every page: each reference to a page of the site (`references[*].url` in every render JSON under
     data/, and every node of the navigator index) names a page that exists. A broken one is printed with the page
     that links to it.
  2. A browser: the site served on 127.0.0.1 and opened in headless Chromium (`--dump-dom` after its scripts ran),
     page by page from PAGES below: each renders its title and what it must show (the landing page's curation, an
     area's types, an operation's summary, an OpenAIRealtime declaration linking an OpenAI type), and every internal
     link of the rendered page leads to a page of the site.
It also prints what a first visit downloads (navigator index and landing page, as is and gzip-compressed).

Without a browser, the second check is skipped with a message, and fails when CI=true.
Exit status: 0 every check passed; 1 a check failed; 2 usage error or no site.
"""

import argparse
import functools
import gzip
import html.parser
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Page path, the title it must render, and texts and link targets its rendered DOM must contain.
PAGES = [
    ("/documentation/openai", "OpenAI", ["API reference", "Types by area"], ["/documentation/openai/api-types"]),
    (
        "/documentation/openai/api-resources",
        "Resources",
        ["Vector stores"],
        ["/documentation/openai/chatcompletionsapi"],
    ),
    ("/documentation/openai/api-types", "Types by area", ["Areas"], ["/documentation/openai/types-responses"]),
    (
        "/documentation/openai/types-responses",
        "Responses types",
        ["Requests and replies", "Events"],
        ["/documentation/openai/response", "/documentation/openai/createresponse"],
    ),
    (
        "/documentation/openai/chatcompletionsapi/create(_:options:)",
        "create(_:options:)",
        ["Creates a model response for the given chat conversation."],
        ["/documentation/openai/createchatcompletionrequest"],
    ),
    ("/documentation/openai/response", "Response", ["Instance Properties"], ["/documentation/openai/response/output"]),
    (
        "/documentation/openairealtime/realtimesession",
        "RealtimeSession",
        ["A typed Realtime API session over WebSocket"],
        ["/documentation/openai/realtimeserverevent", "/documentation/openai/realtimeclientevent"],
    ),
]


def page_file(site, url):
    """The render JSON of the page at `url` (a site path, maybe with a fragment or query), or None."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path).rstrip("/")
    return os.path.join(site, "data" + path + ".json") if path else None


def check_links(site):
    """Every page reference in every render JSON and in the navigator index names an existing page."""
    data = os.path.join(site, "data")
    pages = links = 0
    broken = {}
    exists = functools.lru_cache(maxsize=None)(os.path.isfile)
    for folder, _, files in os.walk(data):
        for name in files:
            if not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                node = json.load(handle)
            pages += 1
            for reference in (node.get("references") or {}).values():
                url = reference.get("url") or ""
                if reference.get("type") != "topic" or not url.startswith("/documentation/"):
                    continue
                links += 1
                if not exists(page_file(site, url)):
                    broken.setdefault(url, os.path.relpath(path, site))
    navigator = 0
    with open(os.path.join(site, "index", "index.json"), "rb") as handle:
        index = json.load(handle)

    def walk(node):
        nonlocal navigator
        url = node.get("path")
        if url:
            navigator += 1
            if not exists(page_file(site, url)):
                broken.setdefault(url, "index/index.json")
        for child in node.get("children") or []:
            walk(child)

    for roots in index.get("interfaceLanguages", {}).values():
        for root in roots:
            walk(root)
    print(f"links: {links} page references in {pages} pages and {navigator} navigator entries")
    for url, source in sorted(broken.items())[:20]:
        print(f"  broken: {url} (linked from {source})")
    if len(broken) > 20:
        print(f"  ... and {len(broken) - 20} more")
    return not broken


def self_test():
    """The link check on a made-up site of two pages: fails with a broken reference, passes without it."""
    with tempfile.TemporaryDirectory(prefix="check-docs-site-self-test-") as site:
        pages = {
            "data/documentation/m.json": {"references": {"a": {"type": "topic", "url": "/documentation/m/t"}}},
            "data/documentation/m/t.json": {
                "references": {"b": {"type": "topic", "url": "/documentation/m/gone#section"}}
            },
            "index/index.json": {
                "interfaceLanguages": {
                    "swift": [{"path": "/documentation/m", "children": [{"path": "/documentation/m/t"}]}]
                }
            },
        }
        for relative, node in pages.items():
            os.makedirs(os.path.dirname(os.path.join(site, relative)), exist_ok=True)
            with open(os.path.join(site, relative), "w") as handle:
                json.dump(node, handle)
        print("self-test: a site with one broken link:")
        found = not check_links(site)
        os.makedirs(os.path.join(site, "data/documentation/m"), exist_ok=True)
        with open(os.path.join(site, "data/documentation/m/gone.json"), "w") as handle:
            json.dump({}, handle)
        print("self-test: the same site mended:")
        mended = check_links(site)
    print(f"self-test: {'passed' if found and mended else 'FAILED'}")
    return found and mended


def download_sizes(site):
    """What a first visit downloads besides the scripts: the navigator index and the landing page's JSON."""
    for relative in ["index/index.json", "data/documentation/openai.json"]:
        path = os.path.join(site, relative)
        with open(path, "rb") as handle:
            raw = handle.read()
        print(f"first visit: {relative}: {len(raw):,} bytes, {len(gzip.compress(raw, 6)):,} gzip-compressed")


class RenderedPage(html.parser.HTMLParser):
    """The parts of a rendered page the checks read: the title (`h1.title`), the text and the internal links."""

    def __init__(self):
        super().__init__()
        self.title = ""
        self.text = []
        self.links = set()
        self._in_title = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "h1" and "title" in (attributes.get("class") or "").split():
            self._in_title = 1
        elif self._in_title:
            self._in_title += 1
        href = attributes.get("href") or ""
        if tag == "a" and href.startswith("/documentation/"):
            self.links.add(urllib.parse.urlsplit(href).path.rstrip("/"))

    def handle_endtag(self, tag):
        if self._in_title:
            self._in_title -= 1

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        self.text.append(data)


def serve(site):
    """A static server of `site` on 127.0.0.1 (the archive is transformed for static hosting), and its base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def render(chromium, url, profile):
    """The page's DOM after its scripts ran, from headless Chromium."""
    command = [
        chromium,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=20000",
        "--dump-dom",
        url,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"chromium exited with {result.returncode}: {result.stderr[-2000:]}")
    return result.stdout


def check_browser(site, chromium):
    server, base = serve(site)
    profile = tempfile.mkdtemp(prefix="check-docs-site-")
    failures = 0
    try:
        for path, title, texts, targets in PAGES:
            start = time.monotonic()
            page = RenderedPage()
            page.feed(render(chromium, base + path, profile))
            text = " ".join(" ".join(page.text).split())
            problems = []
            if " ".join(page.title.split()) != title:
                problems.append(f"title {page.title.strip()!r}, expected {title!r}")
            problems += [f"no text {wanted!r}" for wanted in texts if wanted not in text]
            problems += [f"no link to {target}" for target in targets if target not in page.links]
            dead = sorted(link for link in page.links if not os.path.isfile(page_file(site, link)))
            problems += [f"broken link {link}" for link in dead[:5]]
            seconds = time.monotonic() - start
            verdict = "ok" if not problems else "FAIL: " + "; ".join(problems)
            print(f"browser: {path}: {len(page.links)} internal links, {seconds:.1f} s: {verdict}")
            failures += bool(problems)
    finally:
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    return failures == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    scratch = os.environ.get("SCRATCH_PATH") or os.path.join(ROOT, ".build")
    parser.add_argument("--site", default=os.path.join(scratch, "docs", "swift-openai.doccarchive"))
    parser.add_argument("--chromium")
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    if arguments.self_test and not self_test():
        return 1
    site = arguments.site
    if not os.path.isfile(os.path.join(site, "index", "index.json")):
        print(f"check-docs-site: no site at {site} (run Scripts/docs/build-docs.sh first)", file=sys.stderr)
        return 2
    start = time.monotonic()
    passed = check_links(site)
    download_sizes(site)
    chromium = arguments.chromium or next(
        (found for name in ["chromium", "chromium-browser", "google-chrome"] if (found := shutil.which(name))), None
    )
    if chromium is None:
        if os.environ.get("CI") == "true":
            print("check-docs-site: FAIL: no Chromium (Debian: apt-get install chromium); CI=true", file=sys.stderr)
            return 1
        print("check-docs-site: SKIPPED the browser check: no Chromium (Debian: apt-get install chromium)")
    else:
        passed = check_browser(site, chromium) and passed
    print(f"check-docs-site: {'passed' if passed else 'FAILED'} ({time.monotonic() - start:.1f} s)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
