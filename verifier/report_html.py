"""``arbiter verify --format html``: one self-contained page for judges (to be written)."""

from __future__ import annotations

import html
from pathlib import Path

from verifier.verify import Report


def render(reports: list[Report], paths: list[Path]) -> bytes:
    """The page for a batch of reports."""
    rows = "".join(f"<tr><td>{html.escape(r.replay)}</td><td>{r.verdict}</td></tr>" for r in reports)
    return f"<!doctype html><html><body><table>{rows}</table></body></html>".encode()
