"""``arbiter verify --format html``: one self-contained page that a judge reads.

The page needs no network: its CSS and script are inline, its charts are SVG drawn
here, and it loads no font, image or script from anywhere. The only links that leave
the page go to the rules reference (``--docs-url``, by default the relative
``docs/_build/html/``), where rule ``<game>:<id>`` is the anchor
``rules-<game>.html#<game>-<id with dots replaced by dashes>``.

What it shows:

* a table of the replays of the batch (file, game, verdict, events, first finding's
  rule), with filters by verdict and by game and a text search;
* per replay: its findings (severity, the rule linked to the reference, where, what the
  rules expected and what the log did, the difference of a rejected claim, and the game
  state there from the game's ``view()``), a chart of each player's resources over the
  game (from the game's ``resources()`` hook; a note when the game has none), and the
  timeline of events (seq, kind, who, the event's fields, what changed in the state),
  the event of each finding highlighted and anchored (``#r<n>-e<seq>``).

To keep a batch of a hundred replays readable and small, the timeline of a legal
replay is collapsed, and that of a replay with findings shows only the events near
its findings until "show all events" is pressed (the page shows every event when
scripts are off). Opening the page on an anchor, or on a single replay, scrolls to the
event and highlights it. Every string from a replay (card names, players, messages,
file names) is escaped; control characters are shown as ``\\xNN``.

The timelines are recorded by verifying each file again with a
:class:`verifier.timeline.Timeline` attached (the given reports stay authoritative).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spec.core.findings import VERDICT_ORDER, Finding
from verifier.replay import Header, HeaderReader, ReplayError, read
from verifier.report import compact, per_player, printable
from verifier.timeline import Entry, Timeline, record
from verifier.verify import Report, expectation_matches

DEFAULT_DOCS_URL = "docs/_build/html/"
"""Where the rules reference lives, relative to the page (``--docs-url``)."""

NEAR = 3
"""Events shown on each side of a finding while a timeline is collapsed."""

DETAIL_LIMIT = 200
"""In a larger batch, legal replays get no timeline or chart (the page stays a few megabytes)."""

JUDGED = ("illegal", "inconsistent", "unverifiable", "malformed")
"""Severities that make a finding worth highlighting (``info`` notes are not)."""

PLAYER_COLOURS = ("#2563eb", "#d97706", "#059669", "#7c3aed", "#db2777", "#0891b2")


def esc(value: object) -> str:
    """Text or attribute content from any source: printable, then HTML-escaped (quotes too)."""
    return html.escape(printable(value), quote=True)


def rule_href(rule: str, docs_url: str = DEFAULT_DOCS_URL) -> str | None:
    """The rules-reference URL of a citation ``<game>:<id>``, or ``None`` if it is not one.

    The anchor is the docs' own (:func:`spec.core.rulebook_lint.rule_url`); ``docs_url``
    gets a trailing slash if it has none.
    """
    from spec.core.rulebook_lint import rule_url

    base = docs_url if docs_url.endswith("/") or not docs_url else docs_url + "/"
    return rule_url(rule, base)


def render(reports: Sequence[Report], paths: Sequence[Path], docs_url: str = DEFAULT_DOCS_URL,
           keep_going: bool = False, cards: Path | None = None) -> bytes:
    """The page for a batch of reports, in the order of ``paths`` (the files given).

    A report is matched to its file by its ``replay`` name, so reports may come in any
    order (parallel runs); reports of files not in ``paths`` follow, by name.
    ``docs_url`` is the base of the rules reference; ``keep_going`` and ``cards`` must be
    the options the reports were made with, so the recorded timelines match them.
    """
    order = {str(path): number for number, path in enumerate(paths)}
    ranked = sorted(reports, key=lambda r: (order.get(r.replay, len(order)), r.replay))
    large = len(ranked) > DETAIL_LIMIT
    items = []
    for index, report in enumerate(ranked, 1):
        if large and report.verdict == "legal":
            parts: tuple[Timeline | None, Header | None, str | None] = (
                None, None, f"In a batch of more than {DETAIL_LIMIT} replays, legal ones are shown without their timeline.")
        else:
            parts = _timeline(Path(report.replay), report, keep_going, cards)
        items.append(_Replay(index, report, *parts))
    return _Page(docs_url).document(items).encode("utf-8")


# ---------------------------------------------------------------------- gathering


class _Replay:
    """One report with what the page shows about it."""

    def __init__(self, index: int, report: Report, timeline: Timeline | None, header: Header | None, problem: str | None) -> None:
        self.index = index
        self.report = report
        self.timeline = timeline
        self.header = header
        self.problem = problem
        self.anchor = f"r{index}"
        self.judged = [f for f in report.findings if f.severity in JUDGED]
        self.first = self.judged[0] if self.judged else None


def _timeline(path: Path, report: Report, keep_going: bool, cards: Path | None) -> tuple[Timeline | None, Header | None, str | None]:
    """Verify ``path`` again, recording its timeline; also its header, for the facts line."""
    header = read(path, _QuietHeader())
    if report.game is None or (report.events == 0 and report.verdict == "malformed"):
        return None, header, None
    hits = {f.seq for f in report.findings if f.seq is not None and f.severity in JUDGED}
    focus = {s + d for s in hits for d in range(-NEAR, NEAR + 1)}
    try:
        again, timeline = record(path, keep_going=keep_going, cards=cards, focus=focus)
    except Exception as error:  # noqa: BLE001 - a report page never fails for one replay
        return None, header, f"the timeline could not be recorded: {error}"
    if again.verdict != report.verdict or again.events != report.events:
        return None, header, "the file changed since it was verified: no timeline"
    return timeline, header, None


class _QuietHeader(HeaderReader):
    """Reads the header; an unreadable file gives ``None`` (its report already says why)."""

    def error(self, error: ReplayError) -> None:
        self.header = None


# ---------------------------------------------------------------------- the page


class _Page:
    """Writes the page's parts; every string from a replay goes through :func:`esc`."""

    def __init__(self, docs_url: str) -> None:
        self.docs_url = docs_url

    # ------------------------------------------------------------ pieces

    def rule(self, rule: str | None) -> str:
        """A citation, linked to its rule in the rules reference."""
        if not rule:
            return '<span class="norule">no rule</span>'
        href = rule_href(rule, self.docs_url)
        if href is None:
            return f'<span class="rule">{esc(rule)}</span>'
        return f'<a class="rule" href="{esc(href)}" title="the rule in the rules reference">{esc(rule)}</a>'

    @staticmethod
    def verdict(verdict: str) -> str:
        """A verdict badge."""
        return f'<span class="v v-{esc(verdict)}">{esc(verdict)}</span>'

    # ------------------------------------------------------------ document

    def document(self, items: list[_Replay]) -> str:
        """The whole page: summary, the batch table, one section per replay, the script."""
        counts = {v: sum(1 for i in items if i.report.verdict == v) for v in VERDICT_ORDER}
        title = f"tcg-arbiter: {len(items)} replay{'s' if len(items) != 1 else ''}"
        summary = ", ".join(f"{n} {self.verdict(v)}" for v, n in counts.items() if n) or "no replays"
        parts = [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(title)}</title><style>{_CSS}</style></head>",
            f'<body data-replays="{len(items)}">',
            f'<header><h1>{esc(title)}</h1><p class="sum">{summary}</p></header>',
            self.batch(items),
            *(self.replay(item) for item in items),
            f"<script>{_JS}</script>",
            "</body></html>",
        ]
        return "\n".join(parts) + "\n"

    def batch(self, items: list[_Replay]) -> str:
        """The table of replays with its filters (by verdict, by game, text search)."""
        verdicts = [v for v in VERDICT_ORDER if any(i.report.verdict == v for i in items)]
        games = sorted({i.report.game or "?" for i in items})
        options_v = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in verdicts)
        options_g = "".join(f'<option value="{esc(g)}">{esc(g)}</option>' for g in games)
        rows = []
        for item in items:
            r = item.report
            first = item.first
            if first is not None:
                where = self.finding_anchor(item, first)
                seq = f' at <a href="#{where}">{_where(first)}</a>'
                cell = f"{self.rule(first.rule)}{seq}"
                text = esc(f"{first.rule or ''} {first.message}".lower())
            else:
                cell, text = "", ""
            rows.append(
                f'<tr data-verdict="{esc(r.verdict)}" data-game="{esc(r.game or "?")}" data-target="{item.anchor}" data-text="{text}">'
                f'<td class="file"><a href="#{item.anchor}">{esc(r.replay)}</a></td><td>{esc(r.game or "?")}</td>'
                f"<td>{self.verdict(r.verdict)}</td><td class=\"n\">{r.events}</td><td title=\"{esc(first.message) if first else ''}\">{cell}</td></tr>")
        return (
            '<section id="batch"><h2>Replays</h2>'
            '<form class="filters" onsubmit="return false">'
            f'<label>verdict <select id="f-verdict"><option value="">all</option>{options_v}</select></label> '
            f'<label>game <select id="f-game"><option value="">all</option>{options_g}</select></label> '
            '<label>search <input id="f-text" type="search" placeholder="file, rule, message"></label> '
            f'<span id="f-count">{len(items)} shown</span></form>'
            '<table id="replays"><thead><tr><th>file</th><th>game</th><th>verdict</th><th>events</th>'
            "<th>first finding</th></tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table></section>")

    # ------------------------------------------------------------ one replay

    def replay(self, item: _Replay) -> str:
        """One replay's section: facts, findings, resource chart, timeline."""
        r = item.report
        head = (f'<section class="replay" id="{item.anchor}" data-verdict="{esc(r.verdict)}" data-game="{esc(r.game or "?")}">'
                f'<h2><a href="#{item.anchor}">{esc(r.replay)}</a> {self.verdict(r.verdict)}</h2>')
        facts = [f"game {esc(r.game or '?')}", f"{r.events} event{'s' if r.events != 1 else ''} judged"]
        if r.stopped_at is not None:
            facts.append(f"judging stopped at seq {r.stopped_at}")
        header = item.header
        if header is not None:
            facts.append("players " + ", ".join(esc(p) for p in header.players))
            if header.meta:
                facts.append(esc(compact(header.meta)))
            if header.expect is not None:
                ok, why = expectation_matches(r, header.expect)
                expected = header.expect.verdict + (f" at seq {header.expect.seq}" if header.expect.seq is not None else "")
                facts.append(f'expected {esc(expected)}: <span class="{"ok" if ok else "bad"}">'
                             f'{"as expected" if ok else esc(why)}</span>')
        body = [head, f'<p class="facts">{" · ".join(facts)}</p>']
        body.append(self.findings(item))
        body.append(self.chart(item))
        body.append(self.timeline(item))
        body.append("</section>")
        return "\n".join(body)

    def finding_anchor(self, item: _Replay, f: Finding) -> str:
        """The id of the timeline row of a finding (its event, set-up, or end of log)."""
        if f.seq is not None and item.timeline is not None:
            return f"{item.anchor}-e{f.seq}"
        if item.timeline is not None and f.line == 1:
            return f"{item.anchor}-e0"
        if item.timeline is not None:
            return f"{item.anchor}-end"
        return f"{item.anchor}-f{item.report.findings.index(f) + 1}"

    def findings(self, item: _Replay) -> str:
        """The findings list: rule, where, message, expected and actual, difference, state."""
        r = item.report
        if not r.findings:
            return '<p class="clean">No findings: every event follows the rules.</p>'
        out = ['<h3>Findings</h3><ol class="findings">']
        opened = False
        for number, f in enumerate(r.findings, 1):
            late = ' <span class="late">after the first divergence</span>' if f.after_divergence else ""
            where = _where(f)
            target = self.finding_anchor(item, f)
            link = f'<a href="#{target}">{where}</a>' if not target.endswith(f"-f{number}") else where
            parts = [(f'<li id="{item.anchor}-f{number}" class="f s-{esc(f.severity)}">'
                     f'<span class="sev">{esc(f.severity)}</span> {self.rule(f.rule) if f.severity != "info" else ""} '
                     f'at {link}{late}: <span class="msg">{esc(f.message)}</span>')]
            if f.expected is not None or f.actual is not None:
                parts.append('<table class="ea">'
                             f"<tr><th>expected</th><td>{esc(compact(f.expected))}</td></tr>"
                             f"<tr><th>actual</th><td>{esc(compact(f.actual))}</td></tr></table>")
            if f.diff:
                parts.append(f'<div class="diff"><b>difference</b> {_state(f.diff)}</div>')
            if f.state and f.severity != "info":
                attr = "" if opened else " open"
                opened = True
                parts.append(f"<details class=\"state\"{attr}><summary>state at this point</summary>{_state(f.state)}</details>")
            parts.append("</li>")
            out.append("".join(parts))
        out.append("</ol>")
        return "\n".join(out)

    # ------------------------------------------------------------ chart

    def chart(self, item: _Replay) -> str:
        """One SVG panel per resource, a line per player; a note when the game charts nothing."""
        t = item.timeline
        if t is None:
            return ""
        if not any(t.series.values()):
            return ('<p class="note">No resource chart: this game\'s spec names no resources to chart '
                    "(its <code>resources()</code> hook is empty).</p>")
        players = list(t.series)
        names: list[str] = []
        for lines in t.series.values():
            names.extend(n for n in lines if n not in names)
        end = max(t.charted_until, 1)
        marks = sorted({f.seq for f in item.judged if f.seq is not None and f.seq <= end})
        legend = " ".join(f'<span class="key" style="--c:{PLAYER_COLOURS[i % len(PLAYER_COLOURS)]}">{esc(p)}</span>'
                          for i, p in enumerate(players))
        panels = [_panel(name, [(PLAYER_COLOURS[i % len(PLAYER_COLOURS)], p, t.series[p].get(name, [])) for i, p in enumerate(players)],
                         end, marks) for name in names]
        note = f" (the first {t.charted_until} events)" if t.truncated else ""
        return (f'<h3>Resources over the game{note}</h3><p class="legend">{legend}'
                + (' <span class="key mark">finding</span>' if marks else "") + "</p>"
                f'<div class="charts">{"".join(panels)}</div>')

    # ------------------------------------------------------------ timeline

    def timeline(self, item: _Replay) -> str:
        """The events table; with findings, only the events near them show until expanded."""
        t = item.timeline
        if t is None:
            why = item.problem or "no events were judged, so there is no timeline"
            return f'<p class="note">{esc(why)}.</p>' if not why.endswith(".") else f'<p class="note">{esc(why)}</p>'
        entries = t.all_entries()
        by_seq: dict[int, list[Finding]] = {}
        setup: list[Finding] = []
        at_end: list[Finding] = []
        for f in item.report.findings:
            if f.seq is not None:
                by_seq.setdefault(f.seq, []).append(f)
            elif f.line == 1:
                setup.append(f)
            else:
                at_end.append(f)
        hits = {s for s, fs in by_seq.items() if any(f.severity in JUDGED for f in fs)}
        collapsible = bool(item.judged)
        near = {s + d for s in hits for d in range(-NEAR, NEAR + 1)}
        tid = f"{item.anchor}-t"
        rows = [self.marker_row(item, "e0", "set-up", setup, _where_text(t.initial))]
        first_late = t.late[0] if t.late else None
        hidden = 0
        for entry in entries:
            if entry is first_late:
                rows.append(f'<tr class="cut"><td colspan="6">events {t.charted_until + 1} to {entry.seq - 1} '
                            "are left out of this page (a very long replay)</td></tr>")
            far = collapsible and entry.seq not in near
            if not far and hidden:
                rows.append(_gap(hidden))
                hidden = 0
            hidden += far
            rows.append(self.event_row(item, entry, by_seq.get(entry.seq, []), far))
        if hidden:
            rows.append(_gap(hidden))
        rows.append(self.marker_row(item, "end", "end of log", at_end, ""))
        count = len(entries)
        button = (f'<button type="button" class="all" data-for="{tid}" data-events="{count}">show all {count} events</button>'
                  if collapsible else "")
        summary = f"Timeline: {count} event{'s' if count != 1 else ''}" + (", the events near findings shown" if collapsible else "")
        return (f'<details class="tl"{" open" if collapsible else ""}><summary>{summary}</summary>{button}'
                f'<table class="events" id="{tid}"><thead><tr><th>seq</th><th>kind</th><th>who</th><th>event</th>'
                "<th>details</th><th>state</th></tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table></details>")

    def event_row(self, item: _Replay, entry: Entry, findings: list[Finding], far: bool) -> str:
        """One event; end tags of cells and rows are left out (HTML allows it) to keep a batch small."""
        judged = [f for f in findings if f.severity in JUDGED]
        classes = [_KIND_CLASS.get(entry.kind, "")]
        if judged:
            classes += ["hit", f"s-{esc(judged[0].severity)}"]
        if far:
            classes.append("far")
        cls = " ".join(c for c in classes if c)
        where = _where_text(entry.where)
        return (f'<tr id="{item.anchor}-e{entry.seq}"' + (f' class="{cls}"' if cls else "") + f"><td>{entry.seq}"
                f"<td>{esc(entry.kind)}<td>{esc(entry.by or '')}<td>{esc(entry.do)}<td>{_fields(entry.fields)}{self.why(findings)}"
                + f"<td>{where}")

    def marker_row(self, item: _Replay, suffix: str, label: str, findings: list[Finding], where: str) -> str:
        """The set-up and end-of-log rows, where findings without a seq are shown."""
        judged = [f for f in findings if f.severity in JUDGED]
        classes = ["mark"] + (["hit", f"s-{esc(judged[0].severity)}"] if judged else [])
        return f'<tr id="{item.anchor}-{suffix}" class="{" ".join(classes)}"><td><td><td><td>{label}<td>{self.why(findings)}<td>{where}'

    def why(self, findings: list[Finding]) -> str:
        """The findings of one timeline row, under its event."""
        return "".join(f'<div class="why"><span class="sev">{esc(f.severity)}</span> {self.rule(f.rule) if f.severity != "info" else ""} '
                       f"{esc(f.message)}</div>" for f in findings)


_KIND_CLASS = {"move": "", "chance": "ch", "claim": "cl"}


# ---------------------------------------------------------------------- helpers


def _where(f: Finding) -> str:
    """Where a finding is: ``seq 14 (line 15)``, ``line 1 (header)`` or ``end of log``."""
    if f.seq is not None:
        return f"seq {f.seq}" + (f" (line {f.line})" if f.line is not None else "")
    if f.line is not None:
        return f"line {f.line}" + (" (header)" if f.line == 1 else "")
    return "end of log"


def _where_text(where: dict[str, Any] | None) -> str:
    """A timeline row's state summary: ``phase=train window=open``."""
    if not where:
        return ""
    return esc(" ".join(f"{k}={compact(v)}" for k, v in where.items()))


def _fields(fields: dict[str, Any]) -> str:
    """An event's own fields: ``card Driftglass Codestone; targets [...]``."""
    return "; ".join(f"<i>{esc(k)}</i> {esc(compact(v))}" for k, v in fields.items())


def _gap(n: int) -> str:
    """The row standing for ``n`` collapsed events (a click shows them)."""
    return f'<tr class="gap"><td colspan="6">… {n} event{"s" if n != 1 else ""} …</td></tr>'


def _state(view: dict[str, Any]) -> str:
    """Any game's ``view()``: its plain entries inline, each per-player table as a table."""
    flat = [f"<span><i>{esc(k)}</i> {esc(compact(v))}</span>" for k, v in view.items() if not per_player(v)]
    out = [f'<p class="kv">{" ".join(flat)}</p>'] if flat else []
    for key, table in view.items():
        if not per_player(table):
            continue
        columns = list(table)
        rows: list[str] = []
        for column in columns:
            rows.extend(k for k in table[column] if k not in rows)
        head = "".join(f"<th>{esc(c)}</th>" for c in columns)
        body = "".join(f"<tr><th>{esc(k)}</th>" + "".join(f"<td>{esc(compact(table[c].get(k)))}</td>" for c in columns) + "</tr>"
                       for k in rows)
        out.append(f'<table class="st"><caption>{esc(key)}</caption><tr><th></th>{head}</tr>{body}</table>')
    return "".join(out)


_W, _H, _ML, _MR, _MT, _MB = 300, 96, 30, 8, 18, 16


def _panel(name: str, lines: list[tuple[str, str, list[tuple[int, int]]]], end: int, marks: list[int]) -> str:
    """One resource as an SVG step chart, a line per player, findings as dashed red rules."""
    values = [v for _, _, points in lines for _, v in points] or [0]
    low, high = min(0, *values), max(1, *values)
    width, height = _W - _ML - _MR, _H - _MT - _MB

    def x(seq: int) -> float:
        return round(_ML + width * min(seq, end) / end, 1)

    def y(value: int) -> float:
        return round(_MT + height * (high - value) / (high - low), 1)

    svg = [f'<svg class="chart" viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}" role="img" aria-label="{esc(name)} per player">',
           f'<text x="{_ML}" y="12" class="t">{esc(name)}</text>',
           f'<line x1="{_ML}" y1="{_MT + height}" x2="{_ML + width}" y2="{_MT + height}" class="axis"/>',
           f'<line x1="{_ML}" y1="{_MT}" x2="{_ML}" y2="{_MT + height}" class="axis"/>',
           f'<text x="{_ML - 4}" y="{_MT + 4}" class="y">{high}</text>',
           f'<text x="{_ML - 4}" y="{_MT + height}" class="y">{low}</text>',
           f'<text x="{_ML + width}" y="{_H - 3}" class="x">seq {end}</text>']
    for seq in marks:
        svg.append(f'<line x1="{x(seq)}" y1="{_MT}" x2="{x(seq)}" y2="{_MT + height}" class="hit"><title>finding at seq {seq}</title></line>')
    for colour, player, points in lines:
        if not points:
            continue
        d = [f"M{x(points[0][0])},{y(points[0][1])}"]
        for seq, value in points[1:]:
            d.append(f"H{x(seq)}V{y(value)}")
        d.append(f"H{x(end)}")
        svg.append(f'<path d="{"".join(d)}" stroke="{colour}" class="line"><title>{esc(player)}: {esc(name)} '
                   f"{points[-1][1]} at the end</title></path>")
    svg.append("</svg>")
    return "".join(svg)


_CSS = """
:root{--fg:#1f2937;--mute:#6b7280;--line:#e5e7eb;--bg:#fff;--hit:#fee2e2;--target:#fef9c3}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1200px;padding:0 1rem 4rem}
h1{font-size:1.4rem;margin:1rem 0 .3rem}h2{font-size:1.1rem;margin:0 0 .3rem;word-break:break-all}h3{font-size:1rem;margin:1rem 0 .3rem}
a{color:#1d4ed8}code{font-family:ui-monospace,monospace}
[hidden]{display:none!important}
table{border-collapse:collapse}th,td{text-align:left;vertical-align:top;padding:2px 6px;border-bottom:1px solid var(--line)}
th{font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.v{display:inline-block;padding:0 .45em;border-radius:.6em;font-size:.85em;font-weight:600;color:#fff;background:#6b7280}
.v-legal{background:#15803d}.v-illegal{background:#b91c1c}.v-inconsistent{background:#7c3aed}.v-unverifiable{background:#b45309}.v-malformed{background:#374151}
.filters{margin:.5rem 0;display:flex;gap:1rem;flex-wrap:wrap;align-items:center}#f-count{color:var(--mute)}
#replays{width:100%}#replays td.file{word-break:break-all}
section.replay{border-top:2px solid var(--line);margin-top:1.5rem;padding-top:.8rem}
.facts,.note,.clean{color:var(--mute);margin:.2rem 0}.ok{color:#15803d}.bad{color:#b91c1c;font-weight:600}
ol.findings{padding-left:1.5rem}li.f{margin:.4rem 0}.sev{font-weight:700;text-transform:uppercase;font-size:.8em}
.s-illegal .sev{color:#b91c1c}.s-inconsistent .sev{color:#7c3aed}.s-unverifiable .sev{color:#b45309}.s-malformed .sev{color:#374151}.s-info .sev{color:var(--mute)}
.rule{font-family:ui-monospace,monospace;font-size:.92em}.norule{color:var(--mute)}.late{color:#b45309;font-style:italic}
table.ea{margin:.2rem 0}table.ea th{color:var(--mute);font-weight:500}
details.state{margin:.2rem 0}details.state summary,details.tl summary{cursor:pointer;color:#1d4ed8}
.kv span{margin-right:.9em;white-space:nowrap}.kv i,.where i,td i{color:var(--mute);font-style:normal}
table.st{margin:.2rem 0;font-size:.92em}table.st caption{text-align:left;color:var(--mute)}
.diff{margin:.2rem 0}
.legend .key{margin-right:1em}.legend .key::before{content:"";display:inline-block;width:1.2em;height:3px;background:var(--c);vertical-align:middle;margin-right:.3em}
.legend .key.mark::before{background:none;border-top:2px dashed #dc2626}
.charts{display:flex;flex-wrap:wrap;gap:.4rem}
svg.chart{border:1px solid var(--line);background:#fff}svg .t{font-size:11px;font-weight:600;fill:var(--fg)}
svg .x,svg .y{font-size:9px;fill:var(--mute)}svg .y{text-anchor:end}svg .x{text-anchor:end}
svg .axis{stroke:#9ca3af;stroke-width:1}svg .line{fill:none;stroke-width:1.6}svg .hit{stroke:#dc2626;stroke-dasharray:3 2;stroke-width:1}
table.events{width:100%;font-size:.92em;margin-top:.3rem}
table.events td:first-child{text-align:right;font-variant-numeric:tabular-nums;cursor:pointer}
table.events td:nth-child(4){font-weight:600}table.events td:nth-child(6){color:var(--mute);font-size:.9em}
tr.cl td:nth-child(4){color:#0f766e}tr.ch td:nth-child(4){color:#6d28d9}
tr.mark td{color:var(--mute)}
tr.hit{background:var(--hit)}tr.hit td:first-child{box-shadow:inset 4px 0 #dc2626}
tr.hit.s-unverifiable{background:#ffedd5}tr.hit.s-inconsistent{background:#ede9fe}
.why{margin-top:.15rem;font-style:normal;color:var(--fg)}
tr.target,tr.target.hit,li.target{background:var(--target);outline:2px solid #eab308}
tr.gap,tr.cut{display:none}table.events tr.gap td,table.events tr.cut td{text-align:center;color:var(--mute);cursor:pointer}
body.js tr.far{display:none}body.js table.all tr.far{display:table-row}
body.js table.events:not(.all) tr.gap{display:table-row}tr.cut{display:table-row}
button.all{margin:.3rem 0;font:inherit;font-size:.9em;cursor:pointer}
@media print{body.js tr.far{display:table-row}tr.gap,button,.filters{display:none!important}}
""".strip()

_JS = """
(function () {
  "use strict";
  var body = document.body;
  function all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  var verdict = document.getElementById("f-verdict"), game = document.getElementById("f-game");
  var text = document.getElementById("f-text"), count = document.getElementById("f-count");
  var rows = all("#replays tbody tr");
  function filter() {
    var v = verdict.value, g = game.value, q = text.value.trim().toLowerCase(), shown = 0;
    rows.forEach(function (row) {
      var ok = (!v || row.getAttribute("data-verdict") === v) && (!g || row.getAttribute("data-game") === g) &&
        (!q || row.textContent.toLowerCase().indexOf(q) >= 0 || (row.getAttribute("data-text") || "").indexOf(q) >= 0);
      row.hidden = !ok;
      var section = document.getElementById(row.getAttribute("data-target"));
      if (section) { section.hidden = !ok; }
      if (ok) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " shown";
  }
  verdict.addEventListener("change", filter);
  game.addEventListener("change", filter);
  text.addEventListener("input", filter);
  function expand(table, on) {
    table.classList.toggle("all", on);
    var button = document.querySelector('button.all[data-for="' + table.id + '"]');
    if (button) {
      button.textContent = on ? "show only the events near findings" : "show all " + button.getAttribute("data-events") + " events";
    }
  }
  all("button.all").forEach(function (button) {
    button.addEventListener("click", function () {
      var table = document.getElementById(button.getAttribute("data-for"));
      expand(table, !table.classList.contains("all"));
    });
  });
  all("table.events").forEach(function (table) {
    table.addEventListener("click", function (event) {
      var cell = event.target.closest("td");
      if (cell && cell.cellIndex === 0 && cell.parentElement.id) { location.hash = cell.parentElement.id; }
    });
  });
  all("tr.gap").forEach(function (gap) {
    gap.addEventListener("click", function () { expand(gap.closest("table"), true); });
  });
  function reveal(element) {
    if (!element) { return; }
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
      if (node.hidden) { node.hidden = false; }
      if (node.tagName === "TABLE" && element.classList.contains("far")) { expand(node, true); }
    }
    all(".target").forEach(function (old) { old.classList.remove("target"); });
    element.classList.add("target");
    element.scrollIntoView({block: "center"});
  }
  function fromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (id) { reveal(document.getElementById(id)); }
  }
  window.addEventListener("hashchange", fromHash);
  body.classList.add("js");
  if (location.hash) {
    fromHash();
  } else if (rows.length === 1) {
    reveal(document.querySelector("tr.hit"));
  }
  filter();
  body.setAttribute("data-js", "ready");
}());
""".strip()
