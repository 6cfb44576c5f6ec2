"""The rule registry: every check and derived outcome names the rule it implements.

A game keeps its rule index as data (``spec/<game>/rules.tsv``: id, kind, an own-words
summary, and for rules a log cannot show, the reason). A :class:`RuleBook` binds that
index to the code: actions declare their preconditions with :meth:`Action.precondition`,
outcome code declares what it encodes with :meth:`RuleBook.encodes`, and every cited ID
is checked against the index when the game is imported, so a typo cannot hide.

A precondition reads like the rulebook::

    @ATTACH.precondition("7.11.4.p2", "only one Codestone is attached by the normal action each Train Phase")
    def one_codestone_per_train_phase(state, move):
        if state.turn_flags.codestones_attached >= 1:
            return Violation("a second Codestone attached this Train Phase",
                             expected="at most one", actual="a second attach")
        return None
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from spec.core.findings import Violation

S = TypeVar("S")
M = TypeVar("M")

RuleKind = Literal["normative", "definition", "physical", "informative"]
Status = Literal["encoded", "not checkable", "missing", "definition", "physical", "informative"]


@dataclass(frozen=True)
class RuleEntry:
    """One statement of a rulebook, as the game's index lists it."""

    id: str
    kind: RuleKind
    summary: str
    not_checkable: str = ""
    """Why a log cannot show this rule being kept or broken (empty if it can)."""


class RuleIndex:
    """The ordered rule index of one game."""

    def __init__(self, game: str, entries: list[RuleEntry]) -> None:
        self.game = game
        self.entries: dict[str, RuleEntry] = {e.id: e for e in entries}

    @classmethod
    def load(cls, game: str, path: Path) -> RuleIndex:
        """Read ``rules.tsv`` (columns: id, kind, summary, not_checkable)."""
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
        entries = [
            RuleEntry(r["id"], r["kind"], r.get("summary") or "", r.get("not_checkable") or "")  # type: ignore[arg-type]
            for r in rows
        ]
        return cls(game, entries)

    def __contains__(self, rule_id: str) -> bool:
        return rule_id in self.entries

    def __iter__(self) -> Iterator[RuleEntry]:
        return iter(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)


Predicate = Callable[[S, M], Violation | None]


@dataclass(frozen=True)
class Check(Generic[S, M]):
    """A precondition of an action: the rule, what it requires, and the test itself."""

    rule: str
    """The full citation, ``<game>:<id>``."""
    requires: str
    """One line, in our words, of what the rule requires of the move."""
    test: Predicate[S, M]

    @property
    def name(self) -> str:
        """The check's own name (its function's), unique within a game."""
        return getattr(self.test, "__name__", repr(self.test))

    def __call__(self, state: S, move: M) -> Violation | None:
        return self.test(state, move)


# ---------------------------------------------------------------- where a check can fail

FAILS_ONLY: dict[Callable[..., Any], dict[str, tuple[str, ...]]] = {}
"""The checks declared (:func:`fails_only`) to fail only in some situations, with where."""

F = TypeVar("F", bound=Callable[..., Any])


def fails_only(**where: tuple[str, ...]) -> Callable[[F], F]:
    """Declare that the decorated check can fail only where each keyword allows.

    A keyword names an aspect of the situation a move is judged in (the stage, the phase,
    the kind of card played...: the game chooses the names and passes the same ones to
    :meth:`Action.checks_where`) and gives the values in which the check can find
    something; anywhere else its own first condition returns ``None`` at once, so it need
    not be run there. Placed under the ``precondition`` that registers the check. A wrong
    declaration would hide a violation: a game that declares any holds each declaration
    to its check's code with a test running every left-out check at every event of its
    shipped replays.
    """
    def declare(test: F) -> F:
        FAILS_ONLY[test] = dict(where)
        return test
    return declare


def can_fail_in(test: Callable[..., Any], situation: dict[str, str | frozenset[str] | None]) -> bool:
    """Whether a check's declaration (:func:`fails_only`) lets it fail in ``situation``.

    The situation gives aspects of where a move is judged, as :func:`fails_only` names
    them: one value each, or a set of values of which any may hold (the sorts of effect
    that may be in force...), or ``None`` when not known. An undeclared check can fail
    anywhere; an aspect the situation leaves out or gives as ``None`` rules nothing out;
    one given as a set rules the check out only when none of its values is one the check
    can fail in."""
    where = FAILS_ONLY.get(test)
    if where is None:
        return True
    for aspect, values in where.items():
        value = situation.get(aspect)
        if value is None:
            continue
        if isinstance(value, frozenset):
            if value.isdisjoint(values):
                return False
        elif value not in values:
            return False
    return True


@dataclass
class Action(Generic[S, M]):
    """A kind of event (``attach``, ``play``...) with its preconditions, in check order.

    The verifier runs :meth:`first_violation` on the recorded move; ``legal_moves``
    keeps the candidate moves for which it returns ``None``. One source of truth.
    """

    name: str
    book: RuleBook
    checks: list[Check[S, M]] = field(default_factory=list)
    _tests: tuple[Predicate[S, M], ...] | None = field(default=None, init=False, repr=False, compare=False)
    """The checks' test functions in order, when each appears once (then a test names its
    check); rebuilt by :meth:`precondition`, which is how checks are added."""

    def __post_init__(self) -> None:
        self._index_tests()

    def _index_tests(self) -> None:
        tests = tuple(check.test for check in self.checks)
        self._tests = tests if len({id(test) for test in tests}) == len(tests) else None

    def precondition(self, rule_id: str, requires: str) -> Callable[[Predicate[S, M]], Predicate[S, M]]:
        """Register the decorated function as a precondition citing ``rule_id``."""
        citation = self.book.cite(rule_id)

        def register(test: Predicate[S, M]) -> Predicate[S, M]:
            self.checks.append(Check(citation, requires, test))
            self._index_tests()
            return test

        return register

    def first_violation(self, state: S, move: M) -> tuple[Check[S, M], Violation] | None:
        """The first precondition the move breaks, with what it found; ``None`` if legal.

        Every event of every game comes through here: the loop calls the test functions
        themselves, and finds the check of the one that failed only then.
        """
        tests = self._tests
        if tests is not None:
            for test in tests:
                violation = test(state, move)
                if violation is not None:
                    return self.checks[tests.index(test)], violation
            return None
        for check in self.checks:  # a test registered twice: go check by check
            violation = check.test(state, move)
            if violation is not None:
                return check, violation
        return None

    def checks_where(self, **situation: str | frozenset[str] | None) -> tuple[tuple[Predicate[S, M], Check[S, M]], ...]:
        """The checks that can fail in ``situation`` (see :func:`fails_only`), as (test, check)
        pairs in registration order; with no situation, every check.

        Only checks declared to fail elsewhere are left out, so the first of these a move
        breaks is the first of all the action's checks it breaks: a game may run the tuple
        of where it stands (worked out once per situation) instead of :meth:`first_violation`.
        """
        return tuple((check.test, check) for check in self.checks if can_fail_in(check.test, situation))

    def declares(self, aspect: str) -> bool:
        """Whether any check of the action is declared (:func:`fails_only`) for ``aspect``."""
        return any(aspect in FAILS_ONLY.get(check.test, {}) for check in self.checks)

    def allows(self, state: S, move: M) -> bool:
        """Whether every precondition holds."""
        return self.first_violation(state, move) is None


class RuleBook:
    """The rules of one game bound to its code: actions, checks and encoded outcomes."""

    def __init__(self, index: RuleIndex) -> None:
        self.index = index
        self.game = index.game
        self.actions: dict[str, Action[Any, Any]] = {}
        self.encoded: dict[str, list[str]] = {}
        """Rule id -> where it is encoded (check names and outcome descriptions)."""
        self.contradictions: list[tuple[tuple[str, ...], str]] = []
        """Rules of the book that cannot all hold as written, with why (see :meth:`contradiction`)."""
        self._cited: dict[str, str] = {}
        """Citations made so far, by rule id (the spec cites on every event)."""

    def cite(self, rule_id: str) -> str:
        """The citation ``<game>:<id>``; raises if the id is not in the index."""
        cited = self._cited.get(rule_id)
        if cited is None:
            if rule_id not in self.index:
                raise KeyError(f"{self.game}: rule {rule_id!r} is not in the rule index")
            cited = self._cited[rule_id] = f"{self.game}:{rule_id}"
        return cited

    def action(self, name: str) -> Action[Any, Any]:
        """The action of that name, created on first use."""
        if name not in self.actions:
            self.actions[name] = Action(name, self)
        return self.actions[name]

    def encodes(self, *rule_ids: str, what: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Mark the decorated function as the encoding of ``rule_ids`` (derived outcomes)."""
        for rule_id in rule_ids:
            self.cite(rule_id)

        def mark(func: Callable[..., Any]) -> Callable[..., Any]:
            for rule_id in rule_ids:
                self.encoded.setdefault(rule_id, []).append(what or func.__qualname__)
            return func

        return mark

    def note(self, *rule_ids: str, what: str) -> None:
        """Record that ``rule_ids`` are encoded by something that is not a function."""
        for rule_id in rule_ids:
            self.cite(rule_id)
            self.encoded.setdefault(rule_id, []).append(what)

    def contradiction(self, *rule_ids: str, why: str) -> None:
        """Record that the book's ``rule_ids`` contradict each other, and why, in our words.

        The rulebook lint (``arbiter rulebook-lint``) reports each registration; the
        spec's decision on how to read the rules belongs in the game's decisions page.
        """
        for rule_id in rule_ids:
            self.cite(rule_id)
        self.contradictions.append((tuple(rule_ids), why))

    def encoded_ids(self) -> dict[str, list[str]]:
        """Every rule id the code encodes, with where: checks and outcomes."""
        result: dict[str, list[str]] = {k: list(v) for k, v in self.encoded.items()}
        for action in self.actions.values():
            for check in action.checks:
                rule_id = check.rule.split(":", 1)[1]
                result.setdefault(rule_id, []).append(f"{action.name}: {check.requires}")
        return result

    def status(self, rule_id: str) -> Status:
        """How the spec handles a rule: encoded, not checkable, missing, or not normative."""
        entry = self.index.entries[rule_id]
        if rule_id in self.encoded_ids():
            return "encoded"
        if entry.kind != "normative":
            return entry.kind
        if entry.not_checkable:
            return "not checkable"
        return "missing"

    def coverage(self) -> dict[str, int]:
        """Counts of normative rules: encoded, not checkable, missing."""
        counts = {"encoded": 0, "not checkable": 0, "missing": 0}
        encoded = self.encoded_ids()
        for entry in self.index:
            if entry.kind != "normative":
                continue
            if entry.id in encoded:
                counts["encoded"] += 1
            elif entry.not_checkable:
                counts["not checkable"] += 1
            else:
                counts["missing"] += 1
        return counts
