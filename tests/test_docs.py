"""The documentation builds without warnings and stays in step with the spec.

The build runs Sphinx exactly as the docs are meant to be built (warnings are errors),
into a temporary folder so the source tree is left untouched. The other tests check
the hand-written pages against the code: every Neopets event is documented with its
kind and fields, every JSON example line is a valid event, and every rule ID the
decisions page cites is in the rule index.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from spec import load_game
from spec.neopets import events as E

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

EVENT_HEADING = re.compile(r"^``(?P<do>[a-z]+)`` \((?P<kind>move|chance|claim)\)$", re.MULTILINE)
RULE_ID = re.compile(r"\b\d+(?:\.\d+)*[a-z]?(?:\.p\d+)?\b")


def test_docs_build_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "html"
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    assert result.returncode == 0, f"sphinx-build failed:\n{result.stdout}\n{result.stderr}"
    for page in ("index", "getting-started", "replay-format", "findings", "cards",
                 "neopets-decisions", "cli", "api"):
        assert (out / f"{page}.html").is_file(), f"{page}.html was not built"
    decisions = (out / "neopets-decisions.html").read_text(encoding="utf-8")
    assert "8.20.15a" in decisions and "5.5.7b.p3" in decisions
    replay_format = (out / "replay-format.html").read_text(encoding="utf-8")
    assert "Implicit passes" in replay_format and "Explicit passes" in replay_format


def _event_sections() -> dict[str, tuple[str, str]]:
    """``do`` -> (kind, text of its entry) from the vocabulary on the replay-format page."""
    text = (DOCS / "replay-format.rst").read_text(encoding="utf-8")
    heads = list(EVENT_HEADING.finditer(text))
    sections = {}
    for head, following in zip(heads, heads[1:] + [None], strict=True):
        end = following.start() if following is not None else text.find(".. _passes:")
        sections[head["do"]] = (head["kind"], text[head.end():end])
    return sections


def test_every_event_is_documented_with_its_kind_and_fields() -> None:
    sections = _event_sections()
    assert set(sections) == set(E.KINDS), "the documented events differ from spec.neopets.events.KINDS"
    for cls in E.EVENTS:
        do = str(cls.__struct_config__.tag)
        kind, body = sections[do]
        assert kind == E.KINDS[do], f"{do}: documented as {kind}, the spec says {E.KINDS[do]}"
        for name in cls.__struct_fields__:
            if name not in ("seq", "by"):
                assert f"``{name}``" in body, f"{do}: field {name!r} is not documented"


@pytest.mark.parametrize("page", ["replay-format.rst", "findings.rst"])
def test_event_examples_are_valid_events(page: str) -> None:
    decoder = load_game("neopets").decoder()
    lines = [line.strip() for line in (DOCS / page).read_text(encoding="utf-8").splitlines()
             if line.strip().startswith('{"seq"') and '"do":' in line]
    assert lines
    for line in lines:
        try:
            decoder.decode(line)
        except msgspec.MsgspecError as error:  # pragma: no cover - the message is the point
            pytest.fail(f"{page}: not a valid event: {line}\n{error}")
    if page == "replay-format.rst":
        shown = {msgspec.json.decode(line)["do"] for line in lines}
        assert shown >= set(E.KINDS), f"events without an example: {sorted(set(E.KINDS) - shown)}"


def test_decisions_cite_rules_of_the_index() -> None:
    text = (DOCS / "neopets-decisions.rst").read_text(encoding="utf-8")
    index = load_game("neopets").book.index
    cited = [rule for line in re.findall(r"^\*\*Rules:\*\*(.*(?:\n(?!\n).*)*)", text, re.MULTILINE)
             for rule in RULE_ID.findall(line)]
    assert len(re.findall(r"^\d+\. ", text, re.MULTILINE)) == 23
    assert cited
    for rule in cited:
        known = rule in index or any(entry.id.startswith(rule + ".") for entry in index)
        assert known, f"neopets-decisions.rst cites {rule}, which is not in the rule index"


def test_findings_example_gives_the_documented_report(tmp_path: Path) -> None:
    from verifier.verify import verify_file

    lines = [line.strip() for line in (DOCS / "findings.rst").read_text(encoding="utf-8").splitlines()
             if line.strip().startswith(('{"replay": 1', '{"seq"')) and ('"do":' in line or '"replay": 1' in line)]
    assert lines[0].startswith('{"replay": 1')
    replay = tmp_path / "example.jsonl"
    replay.write_text("\n".join(lines) + "\n", encoding="utf-8")

    report = verify_file(replay)
    assert (report.verdict, report.stopped_at, report.events) == ("illegal", 19, 19)
    assert report.findings[0].rule == "neopets:7.11.4.p2"

    report = verify_file(replay, keep_going=True)
    assert report.events == 20
    late = [f for f in report.findings if f.after_divergence]
    assert [(f.seq, f.rule) for f in late] == [(20, "neopets:5.5.7c.p1")]
    assert late[0].diff == {"damage": {"computed": 0, "claimed": 2}, "total_damage": 0}
