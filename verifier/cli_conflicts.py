"""``arbiter conflicts``: which cards' abilities can clash, and how the rules settle it (to be written)."""

from __future__ import annotations

from verifier.cli import app  # noqa: F401 - commands below register on it
