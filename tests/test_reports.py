"""Reports people read: the HTML page, JUnit XML, and the generic text state lines.

The HTML report must be one self-contained page (nothing fetched from anywhere), list
every replay of a batch, highlight the event of each finding with a link to the rule in
the rules reference, chart the players' resources, and escape whatever a replay file
holds. The JUnit XML must parse and count what CI systems count.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spec.core.findings import Finding
from verifier import report_html, report_junit
from verifier.cli import app
from verifier.replay import HeaderReader, read
from verifier.report import compact, printable, to_text
from verifier.timeline import Timeline, record
from verifier.verify import Report, verify_file

CORPUS = Path(__file__).resolve().parent.parent / "replays"
EVIL = "<script>alert('x')</script>\"&amp;"
"""A card name no page may print as markup."""


# ---------------------------------------------------------------------- helpers


def _expect(path: Path) -> Any:
    header = read(path, HeaderReader())
    return header.expect if header is not None else None


def _illegal_replay(min_seq: int = 12) -> tuple[Path, int, str]:
    """A shipped illegal replay whose first finding is well into the game: (path, seq, rule)."""
    for path in sorted((CORPUS / "neopets" / "illegal").glob("*.jsonl")):
        expect = _expect(path)
        if expect is not None and expect.verdict == "illegal" and expect.seq and expect.seq >= min_seq and expect.rule:
            return path, expect.seq, expect.rule
    pytest.skip("no shipped illegal replay far enough into a game")


def _legal_replay() -> Path:
    for path in sorted((CORPUS / "neopets" / "legal").glob("*.jsonl")):
        if _expect(path) is not None and _expect(path).verdict == "legal":
            return path
    pytest.skip("no shipped legal replay")


def _malicious(tmp_path: Path) -> tuple[Path, int]:
    """A legal game cut at its first attach, which attaches a card named like markup (unverifiable)."""
    lines = _legal_replay().read_bytes().splitlines()
    header = json.loads(lines[0])
    header.pop("expect", None)
    header["meta"] = {"event": EVIL}
    events = [json.loads(line) for line in lines[1:]]
    cut = next(i for i, e in enumerate(events) if e["do"] == "attach")
    events = events[:cut + 1]
    events[cut]["card"] = EVIL
    path = tmp_path / "evil<b>&name.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n", encoding="utf-8")
    return path, events[cut]["seq"]


def _malformed(tmp_path: Path) -> Path:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"replay": 1, "game": "neopets", "ruleset": "neopets/1", "players": ["a", "b"]}\n{not json\n')
    return path


def _render(paths: list[Path], **options: Any) -> tuple[list[Report], str]:
    reports = [verify_file(p) for p in paths]
    return reports, report_html.render(reports, paths, **options).decode("utf-8")


class _Links(HTMLParser):
    """Every tag with its attributes, and the text of style and script elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in = tag if tag in ("style", "script") else None

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in:
            self.inline.append(data)


def _parse(page: str) -> _Links:
    parser = _Links()
    parser.feed(page)
    parser.close()
    return parser


def _row(page: str, anchor: str) -> str:
    """The markup of one timeline row (up to the next row)."""
    start = page.index(f'<tr id="{anchor}"')
    end = page.find("<tr", start + 1)
    return page[start:end if end >= 0 else None]


# ---------------------------------------------------------------------- HTML


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], list[Report], str]:
    """A batch: one illegal, one inconsistent-or-other illegal, one legal, one markup-named, one broken file."""
    tmp = tmp_path_factory.mktemp("batch")
    illegal, _, _ = _illegal_replay()
    others = [p for p in sorted((CORPUS / "neopets" / "illegal").glob("*.jsonl")) if p != illegal][:2]
    paths = [illegal, *others, _legal_replay(), _malicious(tmp)[0], _malformed(tmp)]
    reports, page = _render(paths, docs_url="https://rules.example/tcg/")
    return paths, reports, page


def test_html_is_one_self_contained_page(batch: tuple[list[Path], list[Report], str]) -> None:
    _, _, page = batch
    parsed = _parse(page)
    docs = "https://rules.example/tcg/rules-"
    for tag, attrs in parsed.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed", "base"), tag
        assert not (tag == "script" and "src" in attrs), attrs
        for name in ("src", "href", "xlink:href", "action", "srcset", "poster", "data"):
            value = (attrs.get(name) or "").strip().lower()
            if value.startswith(("http:", "https:", "//", "ftp:")):
                assert name == "href" and value.startswith(docs), (tag, name, value)
    inline = "\n".join(parsed.inline)
    assert "url(" not in inline and "@import" not in inline and "fetch(" not in inline and "XMLHttpRequest" not in inline
    assert any(tag == "style" for tag, _ in parsed.tags) and any(tag == "script" for tag, _ in parsed.tags)
    assert page.startswith("<!doctype html>") and '<meta charset="utf-8">' in page


def test_html_lists_every_replay_of_the_batch(batch: tuple[list[Path], list[Report], str]) -> None:
    paths, reports, page = batch
    table = page[page.index('<table id="replays"'):page.index("</table>", page.index('<table id="replays"'))]
    rows = re.findall(r"<tr data-verdict=\"([a-z]+)\" data-game=\"([^\"]*)\" data-target=\"(r\d+)\"", table)
    assert len(rows) == len(paths)
    assert sorted(v for v, _, _ in rows) == sorted(r.verdict for r in reports)
    for report in reports:
        assert report_html.esc(report.replay) in table
    for _, _, anchor in rows:
        assert f'<section class="replay" id="{anchor}"' in page
    # the filters offer each verdict and game present
    for verdict in {r.verdict for r in reports}:
        assert f'<option value="{verdict}">' in page
    assert '<option value="neopets">' in page and 'id="f-text"' in page


def test_html_highlights_the_illegal_event_with_its_rule_link() -> None:
    path, seq, rule = _illegal_replay()
    reports, page = _render([path])
    assert reports[0].verdict == "illegal"
    game, _, rule_id = rule.partition(":")
    href = f"docs/_build/html/rules-{game}.html#{game}-{rule_id.replace('.', '-')}"
    row = _row(page, f"r1-e{seq}")
    assert 'class="hit s-illegal' in row
    assert f'href="{href}"' in row and rule in row
    # the batch table links the first finding to that row, and the findings list to the rule
    assert f'href="#r1-e{seq}"' in page
    assert page.count(f'href="{href}"') >= 3
    # the state there is shown (a per-player table from the game's view)
    assert "state at this point" in page and '<table class="st">' in page
    # events far from the finding are collapsed behind a gap; those near it are not
    assert "far" not in row
    assert " far" in _row(page, "r1-e1") or seq <= report_html.NEAR + 1
    assert 'class="gap"' in page and "show all" in page


def test_html_default_docs_url_and_a_trailing_slash() -> None:
    assert report_html.rule_href("neopets:7.11.4.p2") == "docs/_build/html/rules-neopets.html#neopets-7-11-4-p2"
    assert report_html.rule_href("bakugan:3.2", "https://x.example/docs") == "https://x.example/docs/rules-bakugan.html#bakugan-3-2"
    assert report_html.rule_href("no-colon") is None


def test_html_escapes_card_names_messages_and_file_names(tmp_path: Path) -> None:
    path, seq = _malicious(tmp_path)
    reports, page = _render([path])
    assert reports[0].verdict == "unverifiable"
    assert "<script>alert" not in page
    assert EVIL not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&quot;&amp;amp;" in page
    assert "evil&lt;b&gt;&amp;name.jsonl" in page and "evil<b>" not in page
    assert 'class="hit s-unverifiable"' in _row(page, f"r1-e{seq}")
    # exactly one script element: the page's own
    assert len(re.findall(r"<script\b", page)) == 1


def test_html_escapes_control_characters() -> None:
    assert report_html.esc("a\x1b[31m<b>\n") == "a\\x1b[31m&lt;b&gt;\\x0a"
    assert printable("ok\ud800") == "ok\\xd800"


def test_html_charts_neopets_resources() -> None:
    path, seq, _ = _illegal_replay()
    _, page = _render([path])
    section = page[page.index('<section class="replay"'):]
    assert "Resources over the game" in section
    charts = re.findall(r'<svg class="chart".*?</svg>', section, re.DOTALL)
    assert {"damage", "inventory", "deck"} <= {re.search(r'class="t">([^<]+)<', c).group(1) for c in charts}  # type: ignore[union-attr]
    assert all('<path d="M' in c for c in charts)
    assert any(f"finding at seq {seq}" in c for c in charts)
    assert "alice" in section and "bob" in section  # the legend names the players


def test_html_notes_a_game_without_resources(monkeypatch: pytest.MonkeyPatch) -> None:
    from spec.core.game import Game
    from spec.neopets.game import Neopets

    monkeypatch.setattr(Neopets, "resources", Game.resources)
    _, page = _render([_legal_replay()])
    assert "No resource chart" in page and '<svg class="chart"' not in page


def test_html_of_a_legal_replay_collapses_its_timeline() -> None:
    _, page = _render([_legal_replay()])
    assert '<details class="tl">' in page  # closed
    assert "No findings" in page and " far" not in page


def test_html_of_a_malformed_file_has_no_timeline(tmp_path: Path) -> None:
    reports, page = _render([_malformed(tmp_path)])
    assert reports[0].verdict == "malformed"
    assert "no timeline" in page and "line 2" in page


def test_html_is_deterministic(batch: tuple[list[Path], list[Report], str]) -> None:
    paths, reports, page = batch
    assert report_html.render(reports, paths, docs_url="https://rules.example/tcg/").decode() == page


def test_html_orders_reports_by_the_files_given() -> None:
    path, _, _ = _illegal_replay()
    legal = _legal_replay()
    reports = [verify_file(legal), verify_file(path)]
    page = report_html.render(reports, [path, legal]).decode()
    assert page.index(report_html.esc(str(path))) < page.index(report_html.esc(str(legal)))


def test_timeline_matches_the_plain_report_and_records_every_event() -> None:
    path, seq, _ = _illegal_replay()
    report, timeline = record(path)
    assert report == verify_file(path)
    assert [e.seq for e in timeline.all_entries()] == list(range(1, report.events + 1))
    assert all(e.kind in ("move", "chance", "claim") for e in timeline.entries)
    assert all(points[0][0] == 0 for lines in timeline.series.values() for points in lines.values())
    assert timeline.entries[-1].seq == seq
    assert any(e.where for e in timeline.entries)  # what changed: phase, turn...
    _, focused = record(path, focus={seq - 1, seq})
    summaries = [(e.seq, e.where) for e in focused.entries if e.where is not None]
    assert [s for s, _ in summaries] == [seq - 1, seq]
    assert set(summaries[0][1]) == set(focused.initial)  # the first event of a focused run shows the whole summary


def test_timeline_of_a_long_replay_is_cut(tmp_path: Path) -> None:
    path, _, _ = _illegal_replay()
    timeline = Timeline(limit=5, tail=3)
    report = verify_file(path, timeline=timeline)
    assert timeline.truncated and len(timeline.entries) == 5 and len(timeline.late) == 3
    assert timeline.late[-1].seq == report.events
    page = report_html._Page("docs/").timeline(report_html._Replay(1, report, timeline, None, None))
    assert 'class="cut"' in page and "left out" in page


# ---------------------------------------------------------------------- CLI


def test_cli_writes_html_and_junit(tmp_path: Path) -> None:
    path, _, rule = _illegal_replay()
    runner = CliRunner()
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["verify", str(path), str(_legal_replay()), "--format", "html", "-o", str(out),
                                 "--docs-url", "../rules"])
    assert result.exit_code == 1, result.output
    page = out.read_text(encoding="utf-8")
    game, _, rule_id = rule.partition(":")
    assert f'href="../rules/rules-{game}.html#{game}-{rule_id.replace(".", "-")}"' in page
    xml = tmp_path / "report.xml"
    result = runner.invoke(app, ["verify", str(path), "--format", "junit", "-o", str(xml)])
    assert result.exit_code == 1
    assert ET.parse(xml).getroot().get("failures") == "1"


# ---------------------------------------------------------------------- JUnit


def test_junit_parses_and_counts(batch: tuple[list[Path], list[Report], str]) -> None:
    _, reports, _ = batch
    root = ET.fromstring(report_junit.render(reports))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert sorted(s.get("name", "") for s in suites) == sorted({r.game or "unknown" for r in reports})
    cases = root.findall("testsuite/testcase")
    assert len(cases) == len(reports) == int(root.get("tests", "0"))
    by_name = {c.get("name"): c for c in cases}
    failing = [r for r in reports if r.verdict in ("illegal", "inconsistent", "malformed")]
    assert int(root.get("failures", "0")) == len(failing) == len(root.findall(".//failure"))
    assert int(root.get("errors", "0")) == sum(r.verdict == "unverifiable" for r in reports) == len(root.findall(".//error"))
    for suite in suites:
        assert int(suite.get("tests", "0")) == len(suite.findall("testcase"))
    for report in reports:
        case = by_name[printable(report.replay)]
        if report.verdict == "legal":
            assert list(case) == []
            continue
        (detail,) = list(case)
        assert detail.tag == ("error" if report.verdict == "unverifiable" else "failure")
        assert detail.get("type") == report.verdict
        first = report_junit.first_finding(report)
        assert first is not None
        if first.rule:
            assert f"[{first.rule}]" in (detail.get("message") or "")
        assert printable(first.message) in (detail.text or "")


def test_junit_survives_control_characters() -> None:
    report = Report("odd\x01name.jsonl", "neopets", "illegal", 3,
                    [Finding(3, 4, "illegal", "neopets:2.p4", "bad \x00 card ]]> <x>", "a", "b")])
    root = ET.fromstring(report_junit.render([report]))
    failure = root.find(".//failure")
    assert failure is not None and "]]> <x>" in (failure.get("message") or "")
    assert root.find(".//testcase").get("name") == "odd\\x01name.jsonl"  # type: ignore[union-attr]


def test_junit_is_deterministic(batch: tuple[list[Path], list[Report], str]) -> None:
    _, reports, _ = batch
    assert report_junit.render(reports) == report_junit.render(list(reversed(reports)))


# ---------------------------------------------------------------------- text


def test_to_text_prints_any_games_state_generically() -> None:
    view = {"phase": "main", "turn": 4, "chain": ["Spark", "Counter"],
            "players": {"ann": {"life": 18, "hand": 5, "zones": {"field": ["Golem"]}},
                        "ben": {"life": 20, "hand": 6, "zones": {"field": []}}}}
    report = Report("x.jsonl", "othergame", "illegal", 4,
                    [Finding(4, 5, "illegal", "othergame:1.2", "a move out of turn", "ann", "ben", view)])
    text = to_text(report)
    assert "state: phase=main, turn=4, chain=[Spark, Counter]" in text
    assert "ann: life=18, hand=5, zones={field=[Golem]}" in text
    assert "ben: life=20, hand=6, zones={field=[]}" in text
    assert "neopet" not in text and "codestones" not in text
    assert to_text(report, show_state=False).count("state:") == 0


def test_to_text_neutralises_terminal_escapes() -> None:
    report = Report("x.jsonl", "neopets", "illegal", 1,
                    [Finding(1, 2, "illegal", None, "card \x1b[2J\nforged line", None, None, {"players": {"a\x1b": {"n": None}}})])
    text = to_text(report)
    assert "\x1b" not in text and "forged line" in text.splitlines()[1]
    assert "a\\x1b: n=-" in text


def test_compact_values() -> None:
    assert compact(None) == "-" and compact(True) == "yes" and compact([1, [2]]) == "[1, [2]]"
    assert compact({"a": {"b": None}}) == "{a={b=-}}"


def test_html_of_a_large_batch_leaves_out_legal_timelines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_html, "DETAIL_LIMIT", 1)
    path, seq, _ = _illegal_replay()
    _, page = _render([path, _legal_replay()])
    assert "legal ones are shown without their timeline" in page
    assert page.count('<table class="events"') == 1 and f'id="r1-e{seq}"' in page


@pytest.mark.parametrize("game", ["bakugan", "ttcg", "epic_battles"])
def test_every_game_with_replays_charts_its_players_resources(game: str) -> None:
    from verifier.timeline import Timeline
    from verifier.verify import verify_file

    path = min((Path(__file__).resolve().parents[1] / "replays" / game / "legal").glob("*.jsonl"))
    timeline = Timeline()
    assert verify_file(path, timeline=timeline).verdict == "legal"
    assert set(timeline.series) == set(json.loads(path.read_text(encoding="utf-8").splitlines()[0])["players"])
    assert all(series for series in timeline.series.values())
