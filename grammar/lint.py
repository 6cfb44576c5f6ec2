"""Wording lint for card designers, and batch parsing of card pools.

:func:`lint_card` checks one card's text and returns :class:`LintFinding` records:

``parse``
    the text does not follow the game's templates (line, column, what was expected);
``wording``
    the text parses but is not written the canonical way; ``fix`` holds the canonical
    text (from the game's renderer), so a designer can paste it. The canonical form is
    how the spec reads the text, so the message lists the words of the text it lacks
    (:func:`left_out`), for the designer to check that none of them carried meaning;
``reference``
    a name the text refers to (a card named in quotes, a Location of a Map Piece, a
    Paint Brush...) matches no card of the database;
``term``
    a word that is a term of another game but not of this one (a Battle Monsters
    "graveyard" on a Neopets card), found where the parse failed or anywhere in the text;
``referent``
    "it", "that card" or "them" with more than one object earlier in the same ability
    that it could mean.

One more kind is found outside this module, by ``arbiter lint`` asking the game's rules
specification (``Game.unsupported``), since the grammar does not know what the spec runs:

``meaning``
    (a ``note``) the text parses, but the spec gives one of its abilities no meaning yet:
    a replay that plays the card is reported ``unverifiable`` there.

:func:`batch_result` gives the one-line JSON result of ``arbiter card --batch``.
The module names no game: the games' vocabularies come from their grammars.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any, Literal

import msgspec

from grammar.ast import CardText, Selector, unknown_parts
from grammar.parser import GAMES, CardTextError, get_parser, grammar_of, parse, parse_lenient

Severity = Literal["error", "warning", "note"]
"""``error`` and ``warning`` findings fail a lint; a ``note`` says what a designer should know
(an ability the rules specification does not run yet) without failing it."""


class LintFinding(msgspec.Struct, frozen=True, omit_defaults=True):
    """One problem with a card's text."""

    card: str
    kind: Literal["parse", "wording", "reference", "term", "referent", "meaning"]
    severity: Severity
    message: str
    line: int | None = None
    column: int | None = None
    fix: str | None = None
    expected: list[str] = []


# ------------------------------------------------------------------ vocabularies

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


@cache
def vocabulary(game: str) -> frozenset[str]:
    """Every word the game's grammar spells out (lower case): its terms and template words."""
    words: set[str] = set()
    for terminal in get_parser(game).terminals:
        pattern = terminal.pattern
        value = getattr(pattern, "value", "")
        if pattern.type == "str":
            words.update(w.lower() for w in _WORD.findall(value))
        else:  # a regex of alternatives such as "Draw|draw"
            for option in re.split(r"[|()?:]", value):
                if re.fullmatch(r"[A-Za-z' -]+", option):
                    words.update(w.lower() for w in _WORD.findall(option))
    return frozenset(words)


@cache
def foreign_terms(game: str) -> dict[str, tuple[str, ...]]:
    """Words other games' grammars use that this game's does not, with those games."""
    own = vocabulary(game)
    found: dict[str, list[str]] = {}
    for other in GAMES:
        if other == game:
            continue
        for word in vocabulary(other) - own:
            if len(word) > 3:
                found.setdefault(word, []).append(other)
    return {w: tuple(g) for w, g in found.items()}


# ------------------------------------------------------------------ tree walks

_NAME_FIELDS = ("name_contains", "card_name", "named", "into")


def _walk(node: object, path: tuple[Any, ...] = ()) -> Iterator[tuple[object, tuple[Any, ...]]]:
    yield node, path
    if isinstance(node, msgspec.Struct):
        for field in node.__struct_fields__:
            yield from _walk(getattr(node, field), (*path, node))
    elif isinstance(node, tuple):
        for item in node:
            yield from _walk(item, path)


def referenced_names(tree: CardText) -> list[tuple[str, bool]]:
    """Names the text refers to, with whether a partial match is enough (a name reference)."""
    out: list[tuple[str, bool]] = []
    for node, _path in _walk(tree):
        if not isinstance(node, msgspec.Struct):
            continue
        tag = node.__struct_config__.tag
        for field in _NAME_FIELDS:
            value = getattr(node, field, None)
            if isinstance(value, str) and value:
                out.append((value, field == "name_contains"))
        if tag == "keyword" and getattr(node, "name", None) == "map_piece" and getattr(node, "argument", None):
            out.append((node.argument, False))  # type: ignore[attr-defined]
    return out


def _words(text: str) -> list[str]:
    cleaned = "".join(ch.lower() if ch.isalnum() or ch.isspace() else " " for ch in text)
    return [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in cleaned.split()]


def name_exists(reference: str, partial: bool, names: Iterable[str]) -> bool:
    """Whether a card of ``names`` is the one referred to (partial: its name contains the words).

    A partial reference matches whole words, ignoring case, punctuation and a plural
    ``s`` (Neopets 9.9.1); the Neopets spec reads name references with this too.
    """
    if not partial:
        return reference in set(names)
    wanted = _words(reference)
    n = len(wanted)
    if not n:
        return False
    for name in names:
        words = _words(name)
        if any(words[i:i + n] == wanted for i in range(len(words) - n + 1)):
            return True
    return False


def ambiguous_referents(tree: CardText) -> list[int]:
    """Abilities (0-based) where "it"/"that" could mean more than one earlier object."""
    flagged: list[int] = []
    for index, ability in enumerate(tree.abilities):
        seen: list[Selector] = []
        for node, _path in _walk(ability):
            if not isinstance(node, Selector):
                continue
            if node.quantifier in ("it", "that"):
                candidates = {s for s in seen if s.type == node.type or node.type == "card"}
                if len(candidates) > 1:
                    flagged.append(index)
                    break
            elif node.quantifier not in ("this", "the") and node.type != "player":
                seen.append(node)
    return flagged


# ------------------------------------------------------------------ lint


def _canonical(tree: CardText, game: str) -> str | None:
    from grammar.render import render

    try:
        return render(tree, game)
    except ValueError:
        return None


_FUNCTION_WORDS = frozenset({
    "a", "an", "the", "and", "or", "but", "to", "of", "in", "into", "on", "onto", "for", "from", "with", "by", "at", "as",
    "then", "that", "this", "these", "those", "it", "its", "is", "are", "be", "been", "was", "were",
})
"""Words whose absence from a canonical form says nothing about meaning (the templates
place, drop or change them freely)."""

_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?")


def left_out(text: str, canonical: str) -> list[str]:
    """The words of ``text`` (but for :data:`_FUNCTION_WORDS`) that ``canonical`` lacks, each
    once, in the order they first appear: what the grammar read past. Most are synonyms the
    templates spell another way ("gets" for "has"); one that carries meaning ("owner's",
    "order") shows the canonical form, which is what the spec reads, says less than the text."""
    kept: dict[str, int] = {}
    for word in _WORDS.findall(canonical.lower()):
        kept[word] = kept.get(word, 0) + 1
    out: list[str] = []
    for word in _WORDS.findall(text.lower()):
        if kept.get(word, 0) > 0:
            kept[word] -= 1
        elif word not in _FUNCTION_WORDS and word not in out:
            out.append(word)
    return out


def _norm(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())


def lint_card(name: str, text: str, game: str, card_type: str | None = None,
              known: Callable[[str, bool], bool] | None = None) -> list[LintFinding]:
    """Every lint finding for one card (see the module docstring for the kinds)."""
    findings: list[LintFinding] = []
    foreign = foreign_terms(game)
    try:
        tree = parse(text, game, card_type=card_type)
    except CardTextError as error:
        findings.append(LintFinding(name, "parse", "error", error.reason, error.line, error.column,
                                    expected=error.expected))
        word = _WORD.match(error.text[error.column - 1:]) if error.column >= 1 else None
        if word is not None and word.group(0).lower() in foreign:
            games = ", ".join(foreign[word.group(0).lower()])
            findings.append(LintFinding(name, "term", "error",
                                        f"'{word.group(0)}' is not a term of {game} (it is one of {games})",
                                        error.line, error.column))
        return findings
    except ValueError as error:  # an unknown card type
        return [LintFinding(name, "parse", "error", str(error))]
    except Exception as error:  # noqa: BLE001 - a fault of ours must not stop the lint
        return [LintFinding(name, "parse", "error", f"internal error of the {game} grammar: {error}")]
    canonical = _canonical(tree, game)
    if canonical is not None and _norm(canonical) != _norm(text):
        missing = left_out(text, canonical)
        message = "not the canonical wording" + (
            f"; the canonical form leaves out {', '.join(map(repr, missing))}: check that it still says what you mean "
            "(it is how the spec reads the text)" if missing else "")
        findings.append(LintFinding(name, "wording", "warning", message, fix=canonical))
    if known is not None:
        for reference, partial in referenced_names(tree):
            if not known(reference, partial):
                findings.append(LintFinding(name, "reference", "error",
                                            f"refers to {reference!r}, which no card of the database "
                                            + ("has in its name" if partial else "is called")))
    for index in ambiguous_referents(tree):
        findings.append(LintFinding(name, "referent", "warning",
                                    "'it'/'that' could mean more than one object named before it", index + 1))
    return findings


# ------------------------------------------------------------------ batch


class BatchResult(msgspec.Struct, omit_defaults=False):
    """One line of ``arbiter card --batch`` output."""

    name: str | None
    parsed: bool
    unknown: int
    error: str | None = None
    line: int | None = None
    """The line of the input file the record came from."""


def batch_result(record: Any, game: str, line: int) -> BatchResult:
    """Parse one card-pool record (an object with a ``text``) strictly and leniently."""
    if not isinstance(record, dict) or not isinstance(record.get("text", ""), str):
        return BatchResult(None, False, 0, "not an object with a 'text' string", line)
    name = record.get("name") if isinstance(record.get("name"), str) else None
    text = grammar_of(game).pool_text(record)
    card_type = record.get("type") if isinstance(record.get("type"), str) else None
    if grammar_of(game).card_types is not None and card_type not in grammar_of(game).card_types:  # type: ignore[operator]
        card_type = None
    try:
        parse(text, game, card_type=card_type)
    except CardTextError as error:
        try:
            unknown = len(unknown_parts(parse_lenient(text, game, card_type=card_type)))
        except CardTextError:
            unknown = 1
        except Exception as fault:  # noqa: BLE001 - a fault of ours must not stop a batch
            return BatchResult(name, False, 1, f"internal error of the {game} grammar: {fault}", line)
        return BatchResult(name, False, unknown, str(error), line)
    except Exception as fault:  # noqa: BLE001 - a fault of ours must not stop a batch
        return BatchResult(name, False, 1, f"internal error of the {game} grammar: {fault}", line)
    return BatchResult(name, True, 0, None, line)
