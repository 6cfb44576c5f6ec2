"""``arbiter docs`` and ``arbiter rulebook-lint``: the commands of rules editors."""

from __future__ import annotations

from verifier.cli import app  # noqa: F401 - commands below register on it
