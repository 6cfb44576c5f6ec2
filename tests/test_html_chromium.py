"""The HTML report of the shipped corpus, opened as a reader opens it: in headless Chromium.

The page must load without a console error, and its script must run: it marks
``<body data-js="ready">``, counts the replays its filters show, and, opened on the
anchor of a finding's event, highlights that row (``target``). Debian's chromium is
installed by the set-up (``make test`` runs ``make chromium``, which needs root); a
developer without it deselects this test with ``pytest -m "not browser"``.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from verifier import report_html
from verifier.verify import verify_file

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CORPUS = Path(__file__).resolve().parent.parent / "replays"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0")


def test_the_corpus_report_opens_in_headless_chromium_without_console_errors(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run the set-up (`make chromium` as root installs Debian's chromium; "
                    "`make test` does it), or deselect this test with: pytest -m 'not browser'")
    files = sorted(CORPUS.rglob("*.jsonl"))
    assert files, f"no replays under {CORPUS}"
    page = tmp_path / "report.html"
    page.write_bytes(report_html.render([verify_file(f) for f in files], files))
    hit = re.search(r'<tr id="(r\d+-e\d+)" class="[^"]*\bhit\b', page.read_text(encoding="utf-8"))
    assert hit is not None, "the corpus has illegal replays: some event must be highlighted"
    anchor = hit.group(1)
    command = [str(CHROMIUM), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"{page.as_uri()}#{anchor}"]
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=90, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    errors = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not errors, "\n".join(errors)
    dom = done.stdout
    assert re.search(r'<body[^>]*\bdata-js="ready"', dom), "the page's script did not run to its end"
    assert f"{len(files)} of {len(files)} shown" in dom
    assert re.search(rf'<tr id="{anchor}" class="[^"]*\btarget\b', dom), "the anchored event is not highlighted"
