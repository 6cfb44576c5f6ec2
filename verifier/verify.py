"""Verifying one replay: the :class:`Verifier` visitor and the :class:`Report` it builds.

The verifier reads the header (refusing a ruleset the spec does not know), loads the
card database, checks deck construction, then hands each event to the game's ``apply``.
By default it stops judging at the first ``illegal`` finding and says so; with
``keep_going`` it goes on, marking later findings as made after the divergence. After
each event the game reports the conflicts between effects in force that it met and how
its precedence policy settled them: ``info`` findings, listed in the report's
``conflicts`` (they never change a verdict); a clash no rule settles is an
``unverifiable`` finding.
Findings come out in contract 3's shape; the same input always gives the same report.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from spec import GAMES, load_game
from spec.core.cards import CardDatabase, CardFileError, cards_from_pool, shipped_database
from spec.core.findings import Finding, Verdict, verdict_of
from spec.core.game import Game, Ruling, Setup
from verifier.replay import Header, ReplayError, Visitor, read

if TYPE_CHECKING:
    from verifier.timeline import Timeline


class Report(msgspec.Struct, omit_defaults=True):
    """The verdict on one replay, with its findings (contract 3)."""

    replay: str
    game: str | None
    verdict: Verdict
    events: int
    findings: list[Finding]
    stopped_at: int | None = None
    """The seq after which judging stopped (first illegal move), if it did."""
    final_state: dict[str, Any] | None = None
    conflicts: list[Finding] = []
    """Each conflict between effects the game met and how its precedence policy settled it
    (``info`` findings, kept apart from ``findings``: they never change the verdict)."""


SPEC_FAULT = "the spec failed"
"""How the message of a finding for a fault of the spec (an error it raised) starts."""


def is_spec_fault(finding: Finding) -> bool:
    """Whether a finding reports a fault of the spec (:meth:`Verifier._fault`), not a ruling."""
    return finding.severity == "unverifiable" and finding.rule is None and finding.message.startswith(SPEC_FAULT)


def _no_game(*_args: Any) -> list[Ruling]:
    """Stands for the game's hooks until the header has named the game."""
    raise AssertionError("an event was visited before the header named a game")


def _unstamped(_state: Any) -> object:
    """The stamp of a game that names none: new each time, so the game is asked after every event."""
    return object()


def stamp_reader(game: Game[Any, Any]) -> Callable[[Any], Any]:
    """What reads ``game``'s ``conflicts_stamp`` off a state: ``Game.conflicts_met`` is asked
    after an event only when the stamp it gives has moved (every time for a game naming none)."""
    return attrgetter(game.conflicts_stamp) if game.conflicts_stamp else _unstamped


class Verifier(Visitor[Report]):
    """Checks a replay event by event against its game's spec."""

    def __init__(self, keep_going: bool = False, cards_override: Path | None = None, with_state: bool = True,
                 timeline: Timeline | None = None) -> None:
        self.keep_going = keep_going
        self.timeline = timeline
        """When given, every event is recorded in it with a state summary (for the HTML report)."""
        self.cards_override = cards_override
        self.with_state = with_state
        self.path = ""
        self.game: Game[Any, Any] | None = None
        self.state: Any = None
        self.findings: list[Finding] = []
        self.checks: list[tuple[int | None, str]] = []
        """(seq, check name) of every finding a precondition made, for tests and tools."""
        self.events = 0
        self.stopped_at: int | None = None
        self.diverged = False
        self.malformed = False
        self.conflicts_memo: dict[str, Any] = {}
        """What the game has reported of the conflicts in force (see ``Game.conflicts_met``)."""
        self.conflicts: list[Finding] = []
        """Settled conflicts met (``info``), for the report's ``conflicts``."""
        self._apply: Callable[[Any, Any], list[Ruling]] = _no_game
        self._conflicts_met: Callable[[Any, dict[str, Any]], list[Ruling]] = _no_game
        """The game's ``apply`` and ``conflicts_met``, bound once the header names the game."""
        self._stamp: Callable[[Any], Any] = _unstamped
        """Reads the game's ``conflicts_stamp`` off the state (see :func:`_unstamped` for a game that names none)."""
        self._stamp_seen: Any = None
        """The stamp after the last event ``conflicts_met`` was asked about."""
        self.faulted = False
        """The spec raised on an event (:meth:`_fault`): nothing after it is judged."""

    # ---------------------------------------------------------------- header

    def begin(self, header: Header, path: str) -> bool:
        self.path = path
        if header.game not in GAMES:
            return self._refuse(f"game {header.game!r} is not supported; supported: {', '.join(sorted(GAMES))}")
        game = load_game(header.game)
        if header.ruleset not in game.rulesets:
            return self._refuse(f"ruleset {header.ruleset!r} is not one this spec knows ({', '.join(game.rulesets)}); "
                                "it is not verified under other rules")
        try:
            cards = self._cards(header, game)
        except CardFileError as error:
            return self._refuse(str(error))
        for player in header.decks:
            if player not in header.players:
                return self._refuse(f"decks names {player!r}, who is not a player")
        passes = header.options.get("passes", "implicit")
        if passes not in ("implicit", "explicit"):
            return self._refuse(f"options.passes must be 'implicit' or 'explicit', not {passes!r}")
        unknown_options = set(header.options) - {"passes"}
        if unknown_options:
            return self._refuse(f"unknown option(s): {', '.join(sorted(unknown_options))}")
        self.game = game
        self._apply = game.apply
        self._conflicts_met = game.conflicts_met
        self._stamp = stamp_reader(game)
        setup = Setup((header.players[0], header.players[1]), dict(header.decks), dict(header.options), cards)
        try:
            self.state = game.setup(setup)
        except Exception as error:  # noqa: BLE001 - reported as any fault of the spec is
            return self._fault(None, 1, error, "setting up the game")
        if self.timeline is not None:
            self.timeline.start(game, self.state)
        for ruling in setup.rulings:
            self._record(None, 1, ruling)
        return not self._should_stop()

    def _cards(self, header: Header, game: Game[Any, Any]) -> CardDatabase:
        return card_database(header, game, self.path, self.cards_override)

    def _refuse(self, reason: str) -> bool:
        self.findings.append(Finding(None, 1, "malformed", None, reason))
        self.malformed = True
        return False

    # ---------------------------------------------------------------- events

    def visit(self, event: Any, line: int) -> bool:
        """Judge one event: the game applies it; then, if its effects in force may have
        changed, the game reports the conflicts among them that it meets.

        The common case (no finding, judging on, no timeline) takes the fewest steps here;
        everything else goes through :meth:`_visit_rest`.
        """
        self.events += 1
        state = self.state
        try:
            rulings = self._apply(state, event)
            if rulings or self.diverged or self.timeline is not None:
                return self._visit_rest(state, event, line, rulings)
            now = self._stamp(state)
            if now != self._stamp_seen:  # a game's stamp that has not moved: its effects in force are as they were
                self._stamp_seen = now
                met = self._conflicts_met(state, self.conflicts_memo)
                if met:
                    for ruling in met:
                        self._record(event.seq, line, ruling)
                    return not self._should_stop()
        except Exception as error:  # noqa: BLE001 - a fault of the spec must not cost the findings already made
            return self._fault(event.seq, line, error)
        return True

    def _fault(self, seq: int | None, line: int | None, error: Exception, where: str = "on this event") -> bool:
        """The spec failed on an event (an exception, not a ruling): a fault of the spec,
        not of the log. It is an ``unverifiable`` finding at that event, naming the error
        (its message starts with :data:`SPEC_FAULT`); the findings made before it stand, and
        judging stops there (the state the spec left half changed is not judged further)."""
        self.findings.append(Finding(seq, line, "unverifiable", None,
                                     f"{SPEC_FAULT} {where} ({type(error).__name__}: {error}); this is a fault of the "
                                     "spec, not of the log: what came before it was judged, what comes after it is not"))
        self.faulted = True
        return False

    def _visit_rest(self, state: Any, event: Any, line: int, rulings: list[Ruling]) -> bool:
        """The rest of :meth:`visit` once the game has applied ``event``: its findings, the
        conflicts met (while judging goes on), the timeline, whether to stop."""
        for ruling in rulings:
            self._record(event.seq, line, ruling)
        if not self.diverged and not self.malformed:
            now = self._stamp(state)
            met = self._conflicts_met(state, self.conflicts_memo) if now != self._stamp_seen else None
            self._stamp_seen = now
            for ruling in met or ():
                self._record(event.seq, line, ruling)
        if self.timeline is not None and self.game is not None:
            self.timeline.record(self.game, state, event, line)
        return not self._should_stop()

    def _should_stop(self) -> bool:
        if self.malformed:
            return True
        if self.stopped_at is None and self.diverged and not self.keep_going:  # an illegal finding was recorded
            self.stopped_at = next(f.seq for f in self.findings if f.severity == "illegal")
            return True
        return False

    def _record(self, seq: int | None, line: int, ruling: Ruling) -> None:
        v = ruling.violation
        if ruling.check is not None:
            self.checks.append((seq, ruling.check))
        state = self._view() if v.severity != "info" else None
        if ruling.check == "conflicts" and v.severity == "info":
            self.conflicts.append(Finding(seq, line, v.severity, ruling.rule, v.message, v.expected, v.actual))
            return
        self.findings.append(Finding(seq, line, v.severity, ruling.rule, v.message, v.expected, v.actual, state, v.diff,
                                     self.diverged))
        if v.severity == "illegal":
            self.diverged = True
        if v.severity == "malformed":
            self.malformed = True

    def error(self, error: ReplayError) -> None:
        self.findings.append(Finding(None, error.line, "malformed", None, error.reason))
        self.malformed = True

    def end(self) -> None:
        if self.game is not None and not self.malformed and not self.faulted and self.stopped_at is None:
            try:
                for ruling in self.game.finish(self.state):
                    self._record(None, None, ruling)  # type: ignore[arg-type]
            except Exception as error:  # noqa: BLE001 - as in visit: the findings made stand
                self._fault(None, None, error, "at the end of the log")

    def _view(self) -> dict[str, Any] | None:
        """The game's view of the state now, for a finding or the report; ``None`` without a
        state. A view the spec fails to build is replaced by the reason: a report is never
        lost for want of the state it shows (the findings do not depend on it)."""
        if self.game is None or self.state is None or not self.with_state:
            return None
        try:
            return self.game.view(self.state)
        except Exception as error:  # noqa: BLE001 - the state is shown, never judged
            return {"unshown": f"the spec failed to show the state ({type(error).__name__}: {error})"}

    def result(self) -> Report:
        findings = list(self.findings)
        if self.stopped_at is not None:
            findings.append(Finding(self.stopped_at, None, "info", None,
                                    "judging stopped at the first illegal move: the rules do not define the game after it "
                                    "(use --keep-going to go on)"))
        final = self._view()
        return Report(self.path, self.game.id if self.game else None, verdict_of(findings), self.events, findings,
                      self.stopped_at, final, list(self.conflicts))


def _decoder_for(header: Header) -> Any:
    return load_game(header.game).decoder() if header.game in GAMES else msgspec.json.Decoder(dict[str, Any])


def card_database(header: Header, game: Game[Any, Any], replay: str, override: Path | None = None) -> CardDatabase:
    """The card database a replay is judged with: ``override`` (``--cards``), else the
    header's ``cards`` (a shipped ``<game>/<set>``, a path relative to the replay, or
    inline records), else the game's default. Raises :class:`CardFileError`.
    """
    if override is not None:
        return CardDatabase.cached(override, game.id)
    source = header.cards if header.cards is not None else game.default_cards
    if isinstance(source, list):
        return CardDatabase("inline", game.id, 1, cards_from_pool([(1, c) for c in source], replay, game.id))
    prefix = f"{game.id}/"
    if source.startswith(prefix) and "/" not in source[len(prefix):]:
        path = shipped_database(game.id, source[len(prefix):])
        if not path.exists():
            raise CardFileError(replay, f"card database {source!r} is not shipped with the spec", 1)
        return CardDatabase.cached(path, game.id)
    path = Path(source)
    if not path.is_absolute():
        path = Path(replay).parent / path
    return CardDatabase.cached(path, game.id)


def verify_file(path: Path | str, keep_going: bool = False, cards: Path | None = None, timeline: Timeline | None = None) -> Report:
    """Verify one replay file and return its report (never raises for bad input).

    With ``timeline``, every event is also recorded there (see :mod:`verifier.timeline`).
    """
    path = Path(path)
    verifier = Verifier(keep_going=keep_going, cards_override=cards, timeline=timeline)
    try:
        report: Report = read(path, verifier, _decoder_for)
    except ReplayError as error:  # pragma: no cover - read() routes errors to the visitor
        return Report(str(path), None, "malformed", 0, [Finding(None, error.line, "malformed", None, error.reason)])
    if not report.replay:  # the header could not be read: name the file all the same
        report = msgspec.structs.replace(report, replay=str(path))
    return report


def expectation_matches(report: Report, expect: Any) -> tuple[bool, str]:
    """Whether a report meets a header's ``expect``: verdict, and the first finding's seq and rule."""
    if expect is None:
        return False, "no expect in the header"
    if report.verdict != expect.verdict:
        return False, f"verdict {report.verdict}, expected {expect.verdict}"
    if expect.verdict == "legal":
        return True, "ok"
    first = next((f for f in report.findings if f.severity == expect.verdict), None)
    if first is None:
        return False, f"no {expect.verdict} finding"
    if expect.seq is not None and first.seq != expect.seq:
        return False, f"first finding at seq {first.seq}, expected {expect.seq}"
    if expect.rule is not None and first.rule != expect.rule:
        return False, f"first finding cites {first.rule}, expected {expect.rule}"
    return True, "ok"
