"""Hidden information checked by exact counting against a registered decklist.

Cards move between a region the log does not show (the deck, cards drawn face down)
and places where their names are known. For each name we count the copies whose
whereabouts the log has shown outside the hidden region; that count can never exceed
the copies registered (or, with no decklist, the copies the construction rules allow).
Any arrangement of the deck is possible while every count is within bounds, so this
check is exact for draws, reveals, plays and cards shuffled back.

Counting is not enough once the log shows a hidden card only as a *kind* ("a Faerie")
without its name: which card it was becomes a choice that later events constrain.
Every change of knowledge is therefore also written to a journal of
:class:`~spec.core.hidden_z3.Observation` (cheap to copy: a shared linked list); when
the journal holds such a mark, :meth:`DeckKnowledge.contradiction` hands it to z3
(:mod:`spec.core.hidden_z3`). Without marks counting stays the whole check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from spec.core.hidden_z3 import DeckModel, HiddenOutcome, Observation
from spec.core.state import Zone


class DeckKnowledge:
    """What the log has shown of one player's deck."""

    __slots__ = ("checked", "done", "journal", "length", "limit", "located", "marked", "marks", "now", "player", "registered")

    def __init__(self, registered: Counter[str] | None, limit: Callable[[str], int | None], player: str = "") -> None:
        self.registered = registered
        """Copies per name in the registered decklist, or ``None`` when not registered."""
        self.limit = limit
        """Construction limit per name, used when no decklist is registered."""
        self.located: Counter[str] = Counter()
        self.player = player
        self.now: int | None = None
        """The seq of the event being applied (the game sets it), for the journal."""
        self.journal: tuple[Any, Observation] | None = None
        """The observations so far, newest first, as a linked list ``(earlier, observation)``."""
        self.length = 0
        self.marks = 0
        """How many observations show a card only as a kind (each needs the solver)."""
        self.marked: frozenset[str] = frozenset()
        """Every name a card shown only as a kind may have."""
        self.checked = 0
        """The journal length at the last solver check that found no contradiction."""
        self.done = False
        """Set once a contradiction (or an undecided check) was reported: later checks add nothing."""

    def bound(self, name: str) -> int | None:
        """How many copies of ``name`` the deck can hold (``None``: any number)."""
        if self.registered is not None:
            return self.registered.get(name, 0)
        return self.limit(name)

    def can_reveal(self, name: str) -> bool:
        """Whether one more copy of ``name`` can come out of the hidden region."""
        registered = self.registered  # bound(), spelt out: every card shown asks this
        bound = registered.get(name, 0) if registered is not None else self.limit(name)
        return bound is None or self.located.get(name, 0) < bound

    def names_in(self, zone: Zone, cards: Iterable[Any], fits: Callable[[Any], bool] | None = None) -> list[str]:
        """The names a card of ``zone`` (a hand, say) can have, sorted: the known ones and,
        while the zone holds a card the log kept hidden (a draw it did not show), each card of
        ``cards`` (definitions) that ``fits`` accepts and one more copy of which can come out."""
        names = set(zone.names())
        if zone.unknown() is not None:
            names |= {d.name for d in cards if (fits is None or fits(d)) and self.can_reveal(d.name)}
        return sorted(names)

    def dated(self, seq: int | None) -> DeckKnowledge:
        """This knowledge, its next notes dated with ``seq`` (the event being applied); ``None``
        (no event applied yet) leaves the date as it is.

        Games date the journal here just before they note something, rather than on every
        event: most events note nothing.
        """
        if seq is not None:
            self.now = seq
        return self

    def _note(self, observation: Observation) -> None:
        self.journal = (self.journal, observation)
        self.length += 1

    def reveal(self, name: str, words: str = "", source: str = "deck") -> None:
        """A copy of ``name`` left the hidden region (drawn face up, played, revealed).

        ``source`` is ``deck`` when it came out of the deck itself, ``hidden`` when it
        was a hidden card out of the deck (in hand) now shown by name.
        """
        located = self.located
        located[name] = located.get(name, 0) + 1
        self.journal = (self.journal, Observation(self.now, "out", name, words=words or f"showed {name}", source=source))  # type: ignore[arg-type]
        self.length += 1

    def show(self, name: str, seq: int | None, words: str, source: str = "deck") -> bool:
        """A copy of ``name`` shown by the event ``seq``: whether the deck could still hold it
        (:meth:`can_reveal`, asked before it is counted); it is then noted as :meth:`dated` and
        :meth:`reveal` note it. One call for what every card drawn face up asks."""
        fits = self.can_reveal(name)
        if seq is not None:
            self.now = seq
        self.reveal(name, words, source)
        return fits

    def conceal(self, name: str, words: str = "") -> None:
        """A known copy of ``name`` went back into the hidden region (shuffled in)."""
        if self.located[name] > 0:
            self.located[name] -= 1
            self._note(Observation(self.now, "back", name, words=words or f"shuffled {name} back"))

    def mark(self, names: Iterable[str], words: str) -> None:
        """A hidden card was shown to be one of ``names``, without its own name."""
        shown = frozenset(names)
        self.marks += 1
        self.marked = self.marked | shown
        self._note(Observation(self.now, "mark", names=shown, words=words))

    def observations(self) -> list[Observation]:
        """The journal, oldest first."""
        out: list[Observation] = []
        node = self.journal
        while node is not None:
            node, observation = node
            out.append(observation)
        out.reverse()
        return out

    def contradiction(self, deck_size: int | None = None) -> HiddenOutcome | None:
        """What z3 finds wrong with the journal, when counting is not enough (``None``: nothing).

        Only a journal with marks goes to the solver, and only when it grew since the last
        check that found it consistent; and of it, only what :meth:`entangled` keeps.
        """
        if self.marks == 0 or self.length == self.checked or self.done:
            return None
        from spec.core.hidden_z3 import check

        observations = self.observations()
        if self.registered is not None or deck_size is None:  # no bound on the deck's size ties every name together
            observations = self.entangled(observations)
        outcome = check(DeckModel(self.player, self.registered, self.limit, deck_size), observations)
        self.checked = self.length
        if outcome.status == "consistent":
            return None
        self.done = True
        return outcome

    def entangled(self, observations: list[Observation]) -> list[Observation]:
        """The part of the journal the solver has to weigh: the marks, and the copies shown or
        put back of a name some mark may be.

        Each other name is bounded alone (by the decklist, or the construction limits when
        the deck's size is not bounded as well), so its copies are settled by counting: the
        copies out at once never pass the bound. While that holds for every such name, the
        journal has an arrangement exactly when this part has one, and the solver's problem
        shrinks to it; when it fails for some name, the whole journal is kept, so the
        solver's explanation names that name too.
        """
        marked = self.marked
        kept: list[Observation] = []
        out: dict[str, int] = {}
        for observation in observations:
            name = observation.name
            if observation.kind == "mark" or name is None or name in marked:
                kept.append(observation)
            elif observation.kind == "back":
                out[name] = out.get(name, 0) - 1
            else:
                out[name] = copies = out.get(name, 0) + 1
                bound = self.bound(name)
                if bound is not None and copies > bound:
                    return observations
        return kept

    def copy(self) -> DeckKnowledge:
        # Made through __init__, then overwritten: this module is compiled (spec.compiled),
        # and a compiled class's __new__ runs its __init__, so __new__ alone cannot skip it.
        other = DeckKnowledge(self.registered, self.limit, self.player)
        other.located = self.located.copy()
        other.now, other.journal, other.length = self.now, self.journal, self.length
        other.marks, other.marked, other.checked, other.done = self.marks, self.marked, self.checked, self.done
        return other
