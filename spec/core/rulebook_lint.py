"""Rulebook lint: defects of a game's rulebook itself, found from its text and its rule index.

The spec encodes a book; writing it down formally shows where the book is loose. This
module reports those places so rules editors can fix the book:

``dangling-reference``
    the book cites a rule number that neither the rule index nor the book's own
    numbering has (Neopets cites 2.7 and 2.7.1, which it never defines).
``off-topic-reference``
    the cited rule exists but seems to be about something else. Heuristic, kept
    conservative: the topic of the cited rule (its heading's words in the book and the
    own-words summaries of the index rows under it) is compared with the citing
    sentence and the citing row's summary; only when they share *no* content word at all
    (after removing common words and plural/verb endings), and the cited rule has at
    least two topic words to judge by, is it reported.
``repeated-number`` / ``non-monotonic-number``
    a printed rule number that appears twice, or a number smaller than the one before it
    (Bakugan restarts its numbering inside section 1). From the book's numbered lines;
    without a book, from the rule IDs that carry printed numbers.
``undefined-term``
    a capitalised game term used at least three times in mid-sentence that no
    definition-kind rule of the index and no section heading covers.
``spelling-variant``
    one term written two ways: British and American spellings (Defence/Defense),
    hyphen, space and joined forms (Knock Down/knockdown), a capitalised term also
    written in lower case (Hit Points/hit points), an abbreviation beside its full form
    (HP/Hit Points).
``contradiction``
    rules the spec found contradictory, registered with
    :meth:`spec.core.rules.RuleBook.contradiction`.

Every finding names a rule ID of the index (the rule at the line where the defect is)
and says what is wrong in our words. A message quotes at most a rule number and a
term, never a sentence of the book.

The book is found beside the checkout (``../shared/seeds``, through the table of its
README and the ``seed_file`` column of ``../shared/rules/<game>.tsv``); without it only
the checks that need no book text run (numbering from the IDs, contradictions) and the
report says which were skipped.

This module also fixes the anchor scheme of the generated rules reference
(:func:`rule_anchor`, :func:`rule_url`), so that reports and docs link to rules alike.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec

from spec import compiled

ROOT = compiled.SOURCE.parent
"""The checkout (the folder holding ``spec/``): read off the sources' place, since with the
compiled build active this module is imported from its copy under ``.build/compiled``."""

Severity = Literal["error", "warning", "note"]

CHECKS: dict[str, str] = {
    "dangling-reference": "cross-references to rule numbers the book does not have",
    "off-topic-reference": "cross-references to a rule about something else (heuristic)",
    "repeated-number": "rule numbers printed more than once",
    "non-monotonic-number": "rule numbers smaller than the one before them",
    "undefined-term": "capitalised game terms no definition covers",
    "spelling-variant": "one term spelt in more than one way",
    "contradiction": "rules the spec found contradictory",
}
"""Every kind of finding, with what it is about (in check order)."""

NEEDS_BOOK = ("dangling-reference", "off-topic-reference", "undefined-term", "spelling-variant")
"""Checks that read the book's text; skipped when the book is not available."""

SEVERITY: dict[str, Severity] = {
    "dangling-reference": "error",
    "off-topic-reference": "warning",
    "repeated-number": "warning",
    "non-monotonic-number": "warning",
    "undefined-term": "note",
    "spelling-variant": "note",
    "contradiction": "error",
}


# --------------------------------------------------------------------------- anchors


def rule_anchor(game: str, rule_id: str) -> str:
    """The HTML id of a rule in the generated rules reference: ``<game>-<id, dots as dashes>``.

    ``rule_anchor("neopets", "7.11.4.p2") == "neopets-7-11-4-p2"``. Nothing else of the ID
    changes (Bakugan's ``1.1/2.1.p1`` is ``bakugan-1-1/2-1-p1``; in a URL, quote it).
    """
    return f"{game}-{rule_id.replace('.', '-')}"


def rules_page(game: str) -> str:
    """The generated rules reference page of a game, relative to the docs' root."""
    return f"rules-{game}.html"


def rule_url(citation: str, base: str = "") -> str | None:
    """The URL of a citation ``<game>:<id>`` in the rules reference under ``base``."""
    from urllib.parse import quote

    game, sep, rule_id = citation.partition(":")
    if not sep or not game or not rule_id:
        return None
    return f"{base}{rules_page(quote(game, safe=''))}#{quote(rule_anchor(game, rule_id), safe='')}"


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class BookRule:
    """One row of a game's rule index, as the lint sees it."""

    id: str
    kind: str
    summary: str = ""
    line: int | None = None
    """1-based line of the book where the rule's text starts (``None`` if unknown)."""


class LintFinding(msgspec.Struct, frozen=True):
    """One defect of the book."""

    rule: str
    """The citation ``<game>:<id>`` of the rule where the defect is."""
    kind: str
    severity: str
    message: str
    line: int | None = None
    """The book's line, when the finding comes from the book's text."""
    refers: tuple[str, ...] = ()
    """Rule numbers or terms the finding is about."""


class LintReport(msgspec.Struct):
    """The lint of one game's book."""

    game: str
    book: str | None
    """The book file read, or ``None`` (index-only checks)."""
    index: str
    """Where the rule index came from."""
    findings: list[LintFinding] = []
    skipped: list[str] = []
    """Checks that did not run, each with the reason."""

    def counts(self) -> dict[str, int]:
        """Findings per kind, in check order (kinds with none left out)."""
        counter = Counter(f.kind for f in self.findings)
        return {kind: counter[kind] for kind in CHECKS if counter[kind]}


# --------------------------------------------------------------------------- locating


def shared_dir(root: Path = ROOT) -> Path | None:
    """``../shared`` beside the checkout, if it is there."""
    shared = root.parent / "shared"
    return shared if (shared / "rules").is_dir() or (shared / "seeds").is_dir() else None


def shared_games(shared: Path | None) -> list[str]:
    """Games that have a rule index in ``shared/rules``."""
    if shared is None:
        return []
    return sorted(p.stem for p in (shared / "rules").glob("*.tsv"))


def shared_index(game: str, shared: Path | None) -> list[dict[str, str]]:
    """The rows of ``shared/rules/<game>.tsv`` (empty when it is not there)."""
    if shared is None:
        return []
    path = shared / "rules" / f"{game}.tsv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


_TABLE_ROW = re.compile(r"^\|\s*`?([^|`]+?)`?\s*\|.*?\|\s*`([a-z_]+)`\s*\|")


def book_path(game: str, shared: Path | None) -> Path | None:
    """The book of ``game`` beside the checkout: the seeds README's table, else the index's ``seed_file``."""
    if shared is None:
        return None
    seeds = shared / "seeds"
    readme = seeds / "README.md"
    if readme.is_file():
        for line in readme.read_text(encoding="utf-8").splitlines():
            match = _TABLE_ROW.match(line)
            if match and match[2] == game and (seeds / match[1].strip()).is_file():
                return seeds / match[1].strip()
    for row in shared_index(game, shared):
        name = row.get("seed_file") or ""
        if name and (seeds / name).is_file():
            return seeds / name
    return None


def index_lines(game: str, shared: Path | None) -> dict[str, int]:
    """Rule id -> line of the book, from the shared index."""
    lines: dict[str, int] = {}
    for row in shared_index(game, shared):
        try:
            lines[row["id"]] = int(row.get("line") or "")
        except ValueError:
            continue
    return lines


def book_rules(game: str, shared: Path | None = None) -> tuple[list[BookRule], str]:
    """The rule index of ``game`` with book lines, and where it came from.

    The spec's own index when the game is registered (its summaries are the project's),
    with the lines of the shared index; otherwise the shared index alone. Raises
    :class:`KeyError` when neither knows the game.
    """
    from spec import GAMES, load_game

    lines = index_lines(game, shared)
    if game in GAMES:
        index = load_game(game).book.index
        rules = [BookRule(e.id, e.kind, e.summary, lines.get(e.id)) for e in index]
        return rules, f"spec/{game}/rules.tsv"
    rows = shared_index(game, shared)
    if not rows:
        known = sorted(set(GAMES) | set(shared_games(shared)))
        raise KeyError(f"unknown game {game!r}; known games: {', '.join(known)}")
    rules = [BookRule(r["id"], r.get("kind") or "", r.get("summary") or "", lines.get(r["id"])) for r in rows]
    return rules, f"../shared/rules/{game}.tsv"


def contradictions(game: str) -> list[tuple[tuple[str, ...], str]] | None:
    """What the registered spec of ``game`` found contradictory, or ``None`` if it is not registered."""
    from spec import GAMES, load_game

    if game not in GAMES:
        return None
    found = getattr(load_game(game).book, "contradictions", [])
    return [(tuple(ids), why) for ids, why in found]


# --------------------------------------------------------------------------- text helpers

_NUMBERED = re.compile(r"^[ \t]*(?P<bullet>[-•*][ \t]*)?(?P<num>\d+(?:\.\d+)*)(?P<letter>[a-z])?(?P<dot>\.)?(?P<sep> |$)")
"""A printed rule number at the start of a line. A number followed by a tab is a table of
contents entry and is not matched; a single number with a bullet is a list item."""

_DOTTED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+[a-z]?)(?![\w])")
_CUED = re.compile(r"\b(?:see|rules?|sections?|chapters?)\s+(\d+(?:\s*(?:,|and|or)\s*\d+)*)(?![\d.]*\d)(?!\.\d)", re.IGNORECASE)
_VERSION = re.compile(r"(?:version|ver\.|\bv)[\s:\-–]*$", re.IGNORECASE)
_SUFFIX = re.compile(r"(?:\.p\d+|\.ex)$")
_PRINTED_ID = re.compile(r"^\d+(?:\.\d+)*[a-z]?$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")

STOPWORDS = frozenset([
    "a", "about", "above", "after", "again", "against", "all", "also", "an", "and", "any", "are", "as", "at",
    "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "cannot",
    "could", "did", "do", "does", "doing", "down", "during", "each", "either", "else", "even", "every",
    "few", "for", "from", "further", "had", "has", "have", "having", "here", "how", "if", "in", "into", "is",
    "it", "its", "itself", "just", "may", "might", "more", "most", "must", "no", "nor", "not", "now", "of",
    "off", "on", "once", "one", "only", "or", "other", "others", "otherwise", "our", "out", "over", "own",
    "same", "see", "shall", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "through", "to", "too", "two", "under", "until", "up", "upon",
    "very", "was", "way", "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "why",
    "will", "with", "within", "without", "would", "you", "your", "yours", "rule", "rules", "section", "step",
    "steps", "player", "players", "card", "cards", "game", "games", "time", "times", "number", "numbers",
    "following", "follow", "follows", "procedure", "procedures", "detail", "details", "described",
    "describe", "another", "able", "again", "back", "first", "second", "third", "last", "next", "new", "use",
    "used", "using", "make", "made", "part"
])


@dataclass(frozen=True)
class Printed:
    """A rule number printed at the start of a line of the book."""

    line: int
    number: str
    """As printed, without a trailing dot (``5.5.7e``)."""
    key: tuple[int, ...]
    title: str
    """The words after the number when the line is a heading, else empty."""


def printed_key(number: str) -> tuple[int, ...]:
    """A printed number as a sortable tuple (a letter suffix counts as one more level)."""
    match = re.fullmatch(r"(\d+(?:\.\d+)*)([a-z])?", number)
    if match is None:
        return ()
    key = tuple(int(part) for part in match[1].split("."))
    return key + ((ord(match[2]) - ord("a") + 1,) if match[2] else ())


def printed_numbers(lines: Sequence[str], rule_lines: set[int] | None = None) -> list[Printed]:
    """Every rule number printed at the start of a line of the book, in order.

    ``rule_lines`` (the lines where the index's rules start) tells headings apart: a
    numbered line no rule starts on is a heading, and its words are the heading's title.
    Without it, a numbered line of at most eight words not ending in a period is taken
    for a heading.
    """
    found: list[Printed] = []
    for number, text in enumerate(lines, 1):
        match = _NUMBERED.match(text)
        if match is None:
            continue
        num = match["num"]
        if "." not in num and (match["bullet"] or not match["dot"]):
            continue
        printed = num + (match["letter"] or "")
        rest = text[match.end():].strip()
        if rule_lines is not None:
            heading = number not in rule_lines
        else:
            heading = len(rest.split()) <= 8 and not rest.endswith(".")
        found.append(Printed(number, printed, printed_key(printed), rest if heading else ""))
    return found


def reference_mentions(text: str) -> list[str]:
    """Rule numbers a line of the book mentions, after its own leading number, in order.

    Dotted numbers anywhere (``2.7.1``, ``605.1a``), and whole numbers after a cue word
    (``section 8``, ``rules 3 and 4``). Version numbers are left out.
    """
    match = _NUMBERED.match(text)
    body = text[match.end():] if match else text
    found: list[tuple[int, str]] = []
    for m in _DOTTED.finditer(body):
        if not _VERSION.search(body[: m.start()]):
            found.append((m.start(), m[1]))
    for m in _CUED.finditer(body):
        for part in re.finditer(r"\d+", m[1]):
            found.append((m.start(1) + part.start(), part[0]))
    seen: list[str] = []
    for _, number in sorted(found):
        if number not in seen:
            seen.append(number)
    return seen


def printed_of(rule_id: str) -> str | None:
    """The printed number a rule ID carries (``5.5.7b.p3`` -> ``5.5.7b``), if any."""
    bare = _SUFFIX.sub("", rule_id.split("/", 1)[1] if "/" in rule_id else rule_id)
    return bare if _PRINTED_ID.match(bare) else None


def resolve(number: str, ids: Sequence[str]) -> str | None:
    """The rule ID a printed number refers to: the ID itself, else the first ID under it.

    ``5.5.4`` (a heading) resolves to ``5.5.4a``; ``2.7`` resolves to nothing when no ID
    starts with it. Bakugan's section-relative IDs (``1.4/4.4.p1``) are not what a bare
    number means, so they are never matched.
    """
    if number in ids:
        return number
    for rule_id in ids:
        if rule_id.startswith(number) and "/" not in rule_id:
            rest = rule_id[len(number):]
            if rest[:1] == "." or (rest[:1].isalpha() and not number[-1:].isalpha()):
                return rule_id
    return None


def _stem(word: str) -> str:
    word = word.lower().replace("’", "'").removesuffix("'s")
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: len(word) - len(suffix)] + keep
            break
    return word.removesuffix("e")


def content_words(text: str) -> set[str]:
    """The stems of a text's content words (common words and short words left out)."""
    return {_stem(w) for w in _WORD.findall(text) if len(w) >= 4 and w.lower() not in STOPWORDS}


def _sentence_around(text: str, position: int) -> str:
    start = max(text.rfind(". ", 0, position), text.rfind("; ", 0, position))
    end = text.find(". ", position)
    return text[start + 1 if start >= 0 else 0: end if end >= 0 else len(text)]


# --------------------------------------------------------------------------- the lint


@dataclass
class _Book:
    """The book's lines with the index mapped onto them."""

    game: str
    rules: list[BookRule]
    lines: list[str]
    by_line: list[BookRule] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_line = sorted((r for r in self.rules if r.line is not None), key=lambda r: r.line or 0)
        self._starts = [r.line or 0 for r in self.by_line]
        self.ids = [r.id for r in self.rules]
        self.printed = printed_numbers(self.lines, set(self._starts) if self.by_line else None)
        self._printed_at = {p.line: p for p in self.printed}

    def rule_at(self, line: int) -> BookRule | None:
        """The rule whose text the line belongs to (or, for a heading, the first rule under it)."""
        import bisect

        heading = self._printed_at.get(line)
        if heading is not None and heading.title:
            after = bisect.bisect_left(self._starts, line)
            if after < len(self.by_line):
                return self.by_line[after]
        if self.by_line:
            i = bisect.bisect_right(self._starts, line) - 1
            return self.by_line[max(i, 0)]
        # No lines in the index: the latest printed number at or above the line.
        for p in reversed(self.printed):
            if p.line <= line:
                target = resolve(p.number, self.ids)
                if target is not None:
                    return next(r for r in self.rules if r.id == target)
        return self.rules[0] if self.rules else None

    def cite(self, line: int) -> str:
        rule = self.rule_at(line)
        return f"{self.game}:{rule.id}" if rule else f"{self.game}:?"


def lint(game: str, rules: Sequence[BookRule], book: str | None,
         found_contradictory: Iterable[tuple[Sequence[str], str]] | None = (),
         book_name: str | None = None, index_name: str = "") -> LintReport:
    """Lint a book given as text (``None``: index-only checks) against its rule index.

    ``found_contradictory`` is what the spec registered (``None`` when the game has no
    spec yet, which the report then says).
    """
    report = LintReport(game=game, book=book_name if book is not None else None, index=index_name)
    findings: list[LintFinding] = []
    if book is None:
        for kind in NEEDS_BOOK:
            report.skipped.append(f"{kind}: needs the book's text, which was not found (give --book)")
        findings += _numbering_from_ids(game, rules)
    else:
        b = _Book(game, list(rules), book.splitlines())
        findings += _references(b)
        findings += _numbering(b)
        findings += _terms(b)
        findings += _spellings(b)
    if found_contradictory is None:
        report.skipped.append(f"contradiction: the spec of {game} is not registered yet")
    else:
        ids = {r.id for r in rules}
        for rule_ids, why in found_contradictory:
            first = next((i for i in rule_ids if i in ids), rule_ids[0] if rule_ids else "?")
            others = [i for i in rule_ids if i != first]
            findings.append(LintFinding(f"{game}:{first}", "contradiction", SEVERITY["contradiction"],
                                        f"cannot hold together with {', '.join(others)}: {why}" if others else why,
                                        refers=tuple(rule_ids)))
    order = {kind: i for i, kind in enumerate(CHECKS)}
    report.findings = sorted(findings, key=lambda f: (f.line if f.line is not None else 10**9, order[f.kind], f.message))
    return report


def lint_game(game: str, book: Path | None = None, use_default_book: bool = True,
              shared: Path | None = None) -> LintReport:
    """Lint the book of ``game``: ``book`` if given, else the one beside the checkout.

    Raises :class:`KeyError` for an unknown game and :class:`OSError` for an unreadable book.
    """
    shared = shared if shared is not None else shared_dir()
    rules, index_name = book_rules(game, shared)
    path = book if book is not None else (book_path(game, shared) if use_default_book else None)
    text = path.read_text(encoding="utf-8", errors="replace") if path is not None else None
    report = lint(game, rules, text, contradictions(game), book_name=_display(path) if path else None, index_name=index_name)
    if path is None and book is None:
        where = "../shared/seeds is not beside the checkout" if shared is None else "no book for this game in ../shared/seeds"
        report.skipped = [s.replace("which was not found", f"which was not found: {where}") for s in report.skipped]
    return report


def _display(path: Path) -> str:
    """A book's path as the report shows it: relative to the checkout when it is beside it."""
    import os

    resolved = path.resolve()
    if resolved.is_relative_to(ROOT.parent):
        return os.path.relpath(resolved, ROOT)
    return str(path)


# --------------------------------------------------------------------------- checks


def _references(b: _Book) -> list[LintFinding]:
    """Dangling and off-topic cross-references."""
    printed = {p.number for p in b.printed}
    titles = {p.number: p.title for p in b.printed if p.title}
    summaries: dict[str, list[str]] = defaultdict(list)
    for rule in b.rules:
        printed_number = printed_of(rule.id)
        if printed_number is not None and "/" not in rule.id:
            summaries[printed_number].append(rule.summary)
    found: list[LintFinding] = []
    for number, text in enumerate(b.lines, 1):
        mentions = reference_mentions(text)
        if not mentions:
            continue
        own = b.rule_at(number)
        own_number = printed_of(own.id) if own else None
        for ref in mentions:
            if ref == own_number:
                continue
            target = resolve(ref, b.ids)
            citation = b.cite(number)
            if target is None and ref not in printed:
                found.append(LintFinding(citation, "dangling-reference", SEVERITY["dangling-reference"],
                                         f"cites rule {ref}, which the book does not have", number, (ref,)))
                continue
            topic_text = " ".join([titles.get(ref, "")]
                                  + [s for n, ss in summaries.items() if n == ref or n.startswith(ref + ".") for s in ss])
            topic = content_words(topic_text)
            if len(topic) < 2:
                continue
            position = text.find(ref)
            context = content_words(_sentence_around(text, position)) | content_words(own.summary if own else "")
            if not topic & context:
                heading = f" (heading: {titles[ref]})" if ref in titles and len(titles[ref].split()) <= 6 else ""
                found.append(LintFinding(citation, "off-topic-reference", SEVERITY["off-topic-reference"],
                                         f"cites rule {ref}{heading}, but the citing sentence shares no topic word with it",
                                         number, (ref,)))
    return found


def _numbering_findings(game: str, seq: Sequence[tuple[str, tuple[int, ...], int | None, str]]) -> list[LintFinding]:
    """Repeats and steps back in a sequence of (number, key, line, citation)."""
    found: list[LintFinding] = []
    first_seen: dict[str, int | None] = {}
    previous: tuple[str, tuple[int, ...]] | None = None
    for number, key, line, citation in seq:
        where = f" (first at line {first_seen[number]})" if first_seen.get(number) else ""
        if number in first_seen:
            found.append(LintFinding(citation, "repeated-number", SEVERITY["repeated-number"],
                                     f"rule number {number} is printed again{where}", line, (number,)))
        elif previous is not None and key < previous[1]:
            found.append(LintFinding(citation, "non-monotonic-number", SEVERITY["non-monotonic-number"],
                                     f"numbering goes back from {previous[0]} to {number}", line, (previous[0], number)))
        first_seen.setdefault(number, line)
        previous = (number, key)
    return found


def _numbering(b: _Book) -> list[LintFinding]:
    return _numbering_findings(b.game, [(p.number, p.key, p.line, b.cite(p.line)) for p in b.printed])


def _numbering_from_ids(game: str, rules: Sequence[BookRule]) -> list[LintFinding]:
    """The numbering checks from the IDs alone: consecutive rows of one printed number count once."""
    seq: list[tuple[str, tuple[int, ...], int | None, str]] = []
    last: str | None = None
    for rule in rules:
        number = printed_of(rule.id)
        if number is None:
            last = None
            continue
        if number != last:
            seq.append((number, printed_key(number), rule.line, f"{game}:{rule.id}"))
        last = number
    return _numbering_findings(game, seq)


# -- terms

_TERM = re.compile(r"(?<![\w’'])([A-Z][a-z]+(?:[ -][A-Z][a-z]+)*)(?![\w])")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;•\-–—(\"“]\s*|^\s*\d+(?:\.\d+)*[a-z]?\.?\s+)$")
COMMON_CAPITALISED = frozenset([
    "I", "A", "An", "The", "This", "That", "These", "Those", "If", "When", "While", "Whenever", "After",
    "Before", "During", "Each", "Every", "Any", "All", "Some", "No", "Not", "Once", "Then", "Otherwise",
    "For", "In", "On", "At", "To", "Of", "Or", "And", "But", "As", "By", "With", "From", "Up", "Down",
    "Example", "Examples", "Note", "Both", "Either", "Neither", "It", "Its", "They", "Their", "You", "Your",
    "We", "Our", "He", "She", "His", "Her", "Players", "Player", "Card", "Cards", "Game", "Games", "Step",
    "Steps", "Rule", "Rules", "Section", "Sections", "Chapter", "Contents", "Page", "Yes", "Also", "Only",
    "Other", "Another", "Such", "Until", "Unless", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
    "Saturday", "Sunday"
])


def _terms_in(text: str) -> list[tuple[int, str]]:
    """Capitalised terms not at a sentence start: (position, term)."""
    out: list[tuple[int, str]] = []
    for m in _TERM.finditer(text):
        words = m[1].split()
        while words and words[0] in COMMON_CAPITALISED:
            words = words[1:]
        if not words:
            continue
        term = " ".join(words)
        start = m.start() + m[1].find(words[0])
        if start == m.start() and _SENTENCE_START.search(text[:start]):
            continue
        out.append((start, term))
    return out


def _term_key(term: str) -> str:
    return " ".join(_stem(w) for w in re.split(r"[ -]", term.lower()))


def _terms(b: _Book) -> list[LintFinding]:
    """Capitalised terms used at least three times that no definition or heading covers."""
    uses: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for number, text in enumerate(b.lines, 1):
        owner = b.rule_at(number)
        if owner is not None and owner.kind == "informative":
            continue
        for _, term in _terms_in(text):
            uses[_term_key(term)].append((number, term))
    covered_text: list[str] = [p.title for p in b.printed if p.title]
    for rule in b.rules:
        if rule.kind != "definition":
            continue
        covered_text.append(rule.summary)
        if rule.line is not None and 0 < rule.line <= len(b.lines):
            words = b.lines[rule.line - 1].split()
            covered_text.append(" ".join(words[:12]))
    covered = " | ".join(_term_key(t) for t in covered_text)
    found: list[LintFinding] = []
    for key, occurrences in uses.items():
        if len(occurrences) < 3 or len(key) < 3:
            continue
        if re.search(rf"(?<![a-z]){re.escape(key)}(?![a-z])", covered):
            continue
        # A longer term that is covered (e.g. "Main Deck") does not cover "Deck" alone,
        # but a one-word term used only inside covered longer terms is not reported.
        line, term = occurrences[0]
        names = Counter(t for _, t in occurrences).most_common(1)[0][0]
        found.append(LintFinding(b.cite(line), "undefined-term", SEVERITY["undefined-term"],
                                 f"the term '{names}' is used {len(occurrences)} times but never defined", line, (names,)))
    return found


# -- spellings

_UK_US = ((re.compile(r"ence$"), "ense"), (re.compile(r"ences$"), "enses"), (re.compile(r"our(s|ed|ing)?$"), r"or\1"),
          (re.compile(r"is(e|es|ed|ing|ation)$"), r"iz\1"), (re.compile(r"ys(e|es|ed|ing)$"), r"yz\1"),
          (re.compile(r"tre(s)?$"), r"ter\1"), (re.compile(r"ll(ed|ing|er)$"), r"l\1"), (re.compile(r"ogue$"), "og"))


def _us_form(word: str) -> str:
    for pattern, repl in _UK_US:
        new = pattern.sub(repl, word)
        if new != word:
            return new
    return word


def _spellings(b: _Book) -> list[LintFinding]:
    """British/American, hyphen/space/joined, case and abbreviation variants of one term."""
    found: list[LintFinding] = []
    first_line: dict[str, int] = {}

    def seen(form: str, line: int) -> None:
        first_line.setdefault(form, line)

    # 1. British and American spellings of one word (case folded).
    words: dict[str, Counter[str]] = defaultdict(Counter)
    for number, text in enumerate(b.lines, 1):
        for w in _WORD.findall(text):
            lower = w.lower()
            if len(lower) >= 5 and "-" not in lower:
                words[_us_form(lower)][lower] += 1
                seen(lower, number)
    for forms in words.values():
        if len(forms) > 1:
            found.append(_variant(b, forms, first_line, "spells one word two ways"))

    # 2. Hyphenated, spaced and joined forms of one term (case folded).
    joined: dict[str, Counter[str]] = defaultdict(Counter)
    tokens: list[tuple[int, str]] = []
    for number, text in enumerate(b.lines, 1):
        tokens.extend((number, w.lower()) for w in _WORD.findall(text))
    vocabulary = {w for _, w in tokens}
    for i, (number, w) in enumerate(tokens):
        if "-" in w:
            if any(len(part) < 3 or part in STOPWORDS for part in w.split("-")):
                continue
            joined[w.replace("-", "")][w] += 1
            seen(w, number)
        elif i + 1 < len(tokens) and tokens[i + 1][0] == number:
            nxt = tokens[i + 1][1]
            if min(len(w), len(nxt)) < 3 or w in STOPWORDS or nxt in STOPWORDS or "-" in nxt:
                continue
            pair = f"{w} {nxt}"
            key = w + nxt
            if key in vocabulary or any(key == h.replace("-", "") for h in vocabulary if "-" in h):
                joined[key][pair] += 1
                seen(pair, number)
    for key, forms in joined.items():
        if key in vocabulary and "-" not in key:
            forms[key] += sum(1 for _, w in tokens if w == key)
            first_line.setdefault(key, next(n for n, w in tokens if w == key))
        if len(forms) > 1:
            found.append(_variant(b, forms, first_line, "writes one term with and without a hyphen or space"))

    # 3. A capitalised two- or three-word term also written in lower case mid-sentence.
    # Headings are title-cased by style and the informative parts are not rules: both
    # are left out of this check and the next.
    headings = {p.line for p in b.printed if p.title}
    body = [(number, text) for number, text in enumerate(b.lines, 1)
            if number not in headings and getattr(b.rule_at(number), "kind", "") != "informative"]
    titled: dict[str, Counter[str]] = defaultdict(Counter)
    for number, text in body:
        for _, term in _terms_in(text):
            if " " in term:
                titled[term.lower()][term] += 1
                seen(term, number)
    for lower, forms in titled.items():
        if lower.split()[0] in STOPWORDS:
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(lower)}(?![\w-])")
        count = 0
        for number, text in body:
            for m in pattern.finditer(text):
                if not _SENTENCE_START.search(text[: m.start()]):
                    count += 1
                    seen(lower, number)
        if count and count + sum(forms.values()) >= 3:
            forms[lower] += count
            found.append(_variant(b, forms, first_line, "writes one term both capitalised and in lower case"))

    # 4. An abbreviation beside the full form it stands for.
    acronyms: Counter[str] = Counter()
    for number, text in body:
        for m in re.finditer(r"(?<![\w])([A-Z]{2,5})(?:s)?(?![\w])", text):
            acronyms[m[1]] += 1
            seen(m[1], number)
    full_forms: dict[str, Counter[str]] = defaultdict(Counter)
    for forms in titled.values():
        for term, n in forms.items():
            parts = term.split()
            if 2 <= len(parts) <= 5 and term[0].isupper():
                full_forms["".join(p[0] for p in parts).upper()][term] += n
    for acronym, n in acronyms.items():
        full = full_forms.get(acronym)
        if full:
            forms = Counter({acronym: n, full.most_common(1)[0][0]: full.most_common(1)[0][1]})
            found.append(_variant(b, forms, first_line, "uses an abbreviation beside the full term"))
    return found


def _variant(b: _Book, forms: Counter[str], first_line: dict[str, int], what: str) -> LintFinding:
    ranked = sorted(forms.items(), key=lambda kv: (-kv[1], kv[0]))
    rare = ranked[-1][0]
    line = first_line.get(rare, 1)
    listed = " and ".join(f"'{form}' ({n}×)" for form, n in ranked)
    return LintFinding(b.cite(line), "spelling-variant", SEVERITY["spelling-variant"],
                       f"the book {what}: {listed}; the less used form first appears here", line,
                       tuple(form for form, _ in ranked))


def to_text(report: LintReport) -> str:
    """The report as lines a person reads."""
    head = f"{report.game}: {len(report.findings)} finding(s) in " + (report.book or "no book (index-only checks)")
    out = [head, f"  index: {report.index}"]
    for f in report.findings:
        where = f" (line {f.line})" if f.line is not None else ""
        out.append(f"{f.severity:7} {f.kind:20} {f.rule}{where}: {f.message}")
    for skipped in report.skipped:
        out.append(f"skipped {skipped}")
    counts = report.counts()
    if counts:
        out.append("  " + ", ".join(f"{n} {kind}" for kind, n in counts.items()))
    return "\n".join(out)
