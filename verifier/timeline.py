"""A replay's timeline for readable reports: each event with a short state summary.

A :class:`Timeline` is handed to :class:`verifier.verify.Verifier` (``timeline=``); the
verifier calls :meth:`Timeline.start` once the game is set up and :meth:`Timeline.record`
after each event is applied. For every event it keeps the ``do``, its kind (move, chance,
claim), who acted, the event's other fields, and the numbers of the game's
``resources()`` hook as step series (a point only where a value changes), which the HTML
report charts. For the events in :attr:`Timeline.focus` (those near findings; every
event when it is ``None``) it also keeps the top-level scalars of the game's ``view()``
(stage, turn, phase...): all of them on the first event of a run, then those that
changed. A ``view()`` can cost a millisecond, which is why it is taken only there.

The verifier records only when given a timeline (the HTML report). A very long replay
keeps its first :attr:`Timeline.limit` events and a rolling window of the last
:attr:`Timeline.tail` (where judging stopped), and says it was truncated.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from spec.core.game import Game
    from verifier.verify import Report

Scalar = str | int | float | bool | None


@dataclass
class Entry:
    """One event of the timeline."""

    seq: int
    line: int
    do: str
    kind: str
    """``move``, ``chance`` or ``claim`` (the game's ``event_kinds``), ``?`` if unknown."""
    by: str | None
    fields: dict[str, Any]
    """The event's fields other than ``seq``, ``by`` and ``do`` (defaults left out)."""
    where: dict[str, Scalar] | None = None
    """The view's top-level scalars after this event: all of them on the first event of a
    focused run, then those that changed (``None``: not recorded)."""


@dataclass
class Timeline:
    """Events and resource series of one replay, recorded while it is verified."""

    focus: set[int] | None = None
    """The seqs whose state summary is recorded (``None``: every event)."""
    limit: int = 20_000
    """Events kept from the start of the replay."""
    tail: int = 200
    """Events kept, beyond :attr:`limit`, from the end of what was read."""
    entries: list[Entry] = field(default_factory=list)
    """The first :attr:`limit` events."""
    late: deque[Entry] = field(default_factory=deque)
    """The last :attr:`tail` events beyond :attr:`limit` (no state summary)."""
    series: dict[str, dict[str, list[tuple[int, int]]]] = field(default_factory=dict)
    """player -> resource -> [(seq, value)], a point where the value changes (seq 0: set-up)."""
    initial: dict[str, Scalar] = field(default_factory=dict)
    """The view's top-level scalars right after set-up."""
    last_seq: int = 0
    truncated: bool = False
    _last_where: dict[str, Scalar] = field(default_factory=dict)
    _last_resources: dict[str, dict[str, int]] = field(default_factory=dict)

    # ------------------------------------------------------------------ recording

    def start(self, game: Game[Any, Any], state: Any) -> None:
        """Record the state after set-up (before the first event)."""
        self._last_where = self.initial = _scalars(game.view(state))
        self._resources(game, state, 0)

    def record(self, game: Game[Any, Any], state: Any, event: Any, line: int) -> None:
        """Record one event, after the game applied it to ``state``."""
        raw = msgspec.to_builtins(event)
        if not isinstance(raw, dict):  # pragma: no cover - events are structs or dicts
            raw = {"value": raw}
        seq = int(raw.pop("seq", self.last_seq + 1))
        by = raw.pop("by", None)
        do = str(raw.pop("do", "?"))
        self.last_seq = seq
        entry = Entry(seq, line, do, game.event_kinds.get(do, "?"), None if by is None else str(by), raw)
        if len(self.entries) < self.limit:
            if self.focus is None or seq in self.focus:
                where = _scalars(game.view(state))
                run = self.focus is None or seq - 1 in self.focus
                entry.where = {k: v for k, v in where.items() if not run or self._last_where.get(k, _MISSING) != v}
                self._last_where = where
            self._resources(game, state, seq)
            self.entries.append(entry)
            return
        self.truncated = True
        self.late.append(entry)
        if len(self.late) > self.tail:
            self.late.popleft()

    def _resources(self, game: Game[Any, Any], state: Any, seq: int) -> None:
        now = game.resources(state)
        for player, numbers in now.items():
            before = self._last_resources.get(player, {})
            lines = self.series.setdefault(str(player), {})
            for name, value in numbers.items():
                if before.get(name) != value:
                    lines.setdefault(str(name), []).append((seq, int(value)))
        self._last_resources = now

    # ------------------------------------------------------------------ reading

    def all_entries(self) -> list[Entry]:
        """Every kept event in order (the first part, then the rolling tail)."""
        return self.entries + list(self.late)

    @property
    def charted_until(self) -> int:
        """The last seq the resource series cover."""
        return self.entries[-1].seq if self.entries else 0


_MISSING = object()


def _scalars(view: dict[str, Any]) -> dict[str, Scalar]:
    """The top-level entries of a view that are plain scalars (stage, turn, phase...)."""
    return {k: v for k, v in view.items() if v is None or isinstance(v, str | int | float | bool)}


def record(path: Path | str, keep_going: bool = False, cards: Path | None = None,
           focus: set[int] | None = None) -> tuple[Report, Timeline]:
    """Verify one replay while recording its timeline; the report equals :func:`verify_file`'s.

    ``focus``: the seqs whose state summary is kept (``None``: every event, slower).
    """
    from verifier.verify import verify_file

    timeline = Timeline(focus=focus)
    report = verify_file(path, keep_going=keep_going, cards=cards, timeline=timeline)
    return report, timeline
