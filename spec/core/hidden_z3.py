"""Hidden information as constraints: can some arrangement of the deck produce the log?

A player's deck is hidden; the log shows pieces of it. Each piece is an
:class:`Observation`, in log order:

* ``out``: a card of a known name left the hidden region, either from the deck (drawn,
  searched for, scrapped, flipped) or as a hidden card in hand now shown by name
  (played, attached, revealed);
* ``back``: a card of a known name went back into the deck (shuffled in, a mulligan);
* ``mark``: a hidden card was shown to be *one of* some names (a reveal or a search
  that names only a kind of card, "a Faerie", "a card with Omelette in its name"),
  without its own name.

Counting copies per name (:class:`spec.core.hidden.DeckKnowledge`) decides exactly
whether a log of ``out`` and ``back`` alone is possible. A ``mark`` makes it a real
constraint problem: which card was shown is a choice, the same card may be shown twice,
and a card shown by name later may be the marked one. :func:`check` encodes the whole
journal for z3: copies per name (the registered decklist, or with none only the
construction limits), for each observation a tracking literal, and for every moment
and name the copies out of the deck so far bounded by the copies the deck holds. When
no arrangement exists, the unsat core names the decklist entries and the events that
cannot all be true, in plain words (:attr:`HiddenOutcome.explanation`).

Every call has a deterministic resource limit and a wall-clock time limit; running out
gives ``unknown``, which a verifier reports as ``unverifiable``, never as consistent.

The outcomes decided are kept (:data:`KEPT`), keyed by the deck model and the journal: the
simulator and the mutation tester try many moves from one state, and replay one log's
prefix once per mutant, so the same journal comes back many times.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

DEFAULT_TIMEOUT_MS = 10_000
"""Wall-clock limit of one call: a safety net (the resource limit normally stops first)."""
DEFAULT_RLIMIT = 20_000_000
"""Deterministic resource limit of one call: the same journal stops at the same point on every machine."""
KEPT = 4096
"""How many decided outcomes :func:`check` keeps; when full it forgets them all and starts again."""
_decided: dict[tuple[Any, ...], HiddenOutcome] = {}


class Observation(msgspec.Struct, frozen=True):
    """One thing the log shows about a hidden deck (see the module docstring).

    A frozen msgspec struct rather than a dataclass: games note one at every card shown,
    and a struct is several times cheaper to build.
    """

    seq: int | None
    kind: Literal["out", "back", "mark"]
    name: str | None = None
    names: frozenset[str] = frozenset()
    """For ``mark``: every name the shown card may have."""
    words: str = ""
    """What happened, in words (``drew Lumen Faerie``)."""
    source: Literal["deck", "hidden"] = "deck"
    """For ``out``: from the deck itself, or a hidden card already out of it (in hand)."""

    def describe(self, player: str) -> str:
        at = f"at seq {self.seq}, " if self.seq is not None else ""
        return f"{at}{player} {self.words or self.kind}"


@dataclass
class HiddenOutcome:
    """Whether some arrangement of the deck produces the log, and if not, why."""

    status: Literal["consistent", "inconsistent", "unknown"]
    explanation: str = ""
    reasons: list[str] = field(default_factory=list)
    """The unsat core, one plain sentence per decklist entry or event."""
    seqs: list[int] = field(default_factory=list)
    """The events the explanation names."""


@dataclass
class DeckModel:
    """What the rules say of one player's deck before the log starts."""

    player: str
    registered: Mapping[str, int] | None
    """Copies per name of the registered decklist, or ``None`` when none is registered."""
    limit: Callable[[str], int | None]
    """Construction limit per name (``None``: any number), used without a decklist."""
    deck_size: int | None = None


def needs_solver(observations: Iterable[Observation]) -> bool:
    """Whether counting copies is not enough (some card was shown only as a kind)."""
    return any(o.kind == "mark" for o in observations)


def check(model: DeckModel, observations: Sequence[Observation], timeout_ms: int | None = None,
          rlimit: int | None = None) -> HiddenOutcome:
    """Decide whether some arrangement of the deck produces every observation.

    The limits default to the module's :data:`DEFAULT_TIMEOUT_MS` and :data:`DEFAULT_RLIMIT`
    (read at each call). An outcome decided before for the same model and journal is given
    again (the same object: read it, do not change it); ``unknown`` is never kept.
    """
    timeout_ms = DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms
    rlimit = DEFAULT_RLIMIT if rlimit is None else rlimit
    obs = list(observations)
    deck: Any = (tuple(sorted(model.registered.items())) if model.registered is not None
                 else (model.limit, model.deck_size))  # (what bounds the copies)
    key = (model.player, deck, tuple(obs), timeout_ms, rlimit)
    outcome = _decided.get(key)
    if outcome is None:
        outcome = _solve(model, obs, timeout_ms, rlimit)
        if outcome.status != "unknown":
            if len(_decided) >= KEPT:
                _decided.clear()
            _decided[key] = outcome
    return outcome


def _solve(model: DeckModel, obs: list[Observation], timeout_ms: int, rlimit: int) -> HiddenOutcome:
    """:func:`check`, worked out by z3."""
    import z3

    names = sorted({o.name for o in obs if o.name is not None} | {n for o in obs for n in o.names})
    index = {n: i for i, n in enumerate(names)}
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.set("rlimit", rlimit)
    solver.set("core.minimize", True)
    tracked: dict[str, tuple[str, int | None]] = {}

    def track(label: str, expr: Any, words: str, seq: int | None = None) -> None:
        lit = z3.Bool(label)
        tracked[label] = (words, seq)
        solver.add(z3.Implies(lit, expr))

    copies = {n: z3.Int(f"copies[{n}]") for n in names}
    for n, var in copies.items():
        solver.add(var >= 0)
        if model.registered is not None:
            held = model.registered.get(n, 0)
            track(f"deck:{n}", var == held, f"the registered deck of {model.player} holds {_copies(held, n)}")
        else:
            cap = model.limit(n)
            if cap is not None:
                track(f"limit:{n}", var <= cap, f"the construction rules allow at most {_copies(cap, n)}")
    if model.registered is None and model.deck_size is not None and names:
        track("size", z3.Sum(*copies.values()) <= model.deck_size, f"the deck holds {model.deck_size} cards")

    lits = {i: z3.Bool(f"obs:{i}") for i in range(len(obs))}
    for i, o in enumerate(obs):
        tracked[f"obs:{i}"] = (o.describe(model.player), o.seq)
    mark_name: dict[int, Any] = {}
    fresh: dict[int, Any] = {}
    consumed: dict[tuple[int, int], Any] = {}
    for i, o in enumerate(obs):
        if o.kind != "mark":
            continue
        y = z3.Int(f"shown[{i}]")
        mark_name[i] = y
        allowed = [index[n] for n in sorted(o.names)]
        solver.add(z3.Or(*[y == k for k in allowed]) if allowed else z3.BoolVal(False))
        f = z3.Bool(f"fresh[{i}]")
        fresh[i] = f
        earlier = [j for j in mark_name if j < i]
        solver.add(z3.Or(f, *[y == mark_name[j] for j in earlier]))
    for i, o in enumerate(obs):
        if o.kind == "out" and o.source == "hidden" and o.name is not None:
            options = []
            for j, y in mark_name.items():
                if j < i and o.name in obs[j].names:
                    b = z3.Bool(f"same[{i},{j}]")
                    consumed[(i, j)] = b
                    solver.add(z3.Implies(b, y == index[o.name]))
                    options.append(b)
            if len(options) > 1:
                solver.add(z3.AtMost(*options, 1))
    for j in mark_name:
        uses = [b for (i, jj), b in consumed.items() if jj == j]
        if len(uses) > 1:
            solver.add(z3.AtMost(*uses, 1))

    def contribution(i: int, o: Observation, n: str) -> Any:
        lit = lits[i]
        if o.kind == "out" and o.name == n:
            shared = [b for (k, _j), b in consumed.items() if k == i]
            if shared:
                return z3.If(z3.And(lit, z3.Not(z3.Or(*shared))), 1, 0)
            return z3.If(lit, 1, 0)
        if o.kind == "back" and o.name == n:
            return z3.If(lit, -1, 0)
        if o.kind == "mark" and n in o.names:
            return z3.If(z3.And(lit, fresh[i], mark_name[i] == index[n]), 1, 0)
        return None

    running: dict[str, list[Any]] = {n: [] for n in names}
    for i, o in enumerate(obs):
        touched = [o.name] if o.kind in ("out", "back") and o.name is not None else sorted(o.names)
        for n in names:
            term = contribution(i, o, n)
            if term is not None:
                running[n].append(term)
        if o.kind == "back":
            continue
        for n in touched:
            if n in copies and running[n]:
                solver.add(z3.Sum(*running[n]) <= copies[n])

    assumptions = [z3.Bool(label) for label in tracked]
    result = solver.check(*assumptions)
    if result == z3.sat:
        return HiddenOutcome("consistent")
    if result != z3.unsat:
        return HiddenOutcome("unknown", f"z3 could not decide within its limits ({solver.reason_unknown()}) whether "
                                        f"{model.player}'s deck can produce the cards the log shows")
    core = sorted(str(c) for c in solver.unsat_core())
    deck = [c.split(":", 1)[1] for c in core if c.startswith("deck:")]
    facts = []
    if deck:
        parts = [_copies((model.registered or {}).get(n, 0), n) for n in sorted(deck, key=lambda n: (-(model.registered or {}).get(n, 0), n))]
        facts.append(f"{model.player}'s registered deck holds " + _and(parts))
    facts += [tracked[c][0] for c in core if not c.startswith(("obs:", "deck:"))]
    observed = sorted((int(c.split(":")[1]) for c in core if c.startswith("obs:")), key=lambda i: (obs[i].seq is None, obs[i].seq or 0, i))
    events = [tracked[f"obs:{i}"] for i in observed]
    notes = [_only(obs[i], model) for i in observed if obs[i].kind == "mark"]
    reasons = facts + [words for words, _seq in events]
    explanation = (f"no arrangement of {model.player}'s deck gives this log: " + "; ".join(reasons)
                   + (" (" + "; ".join(notes) + ")" if notes else ""))
    return HiddenOutcome("inconsistent", explanation, reasons, [s for _w, s in events if s is not None])


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _copies(n: int, name: str) -> str:
    return f"no {name}" if n == 0 else f"{n} cop{'y' if n == 1 else 'ies'} of {name}"


def _only(o: Observation, model: DeckModel) -> str:
    """What a marked card can be, given the decklist."""
    possible = sorted(n for n in o.names if model.registered is None or model.registered.get(n, 0) > 0)
    if not possible:
        return f"the card shown at seq {o.seq} can be none of the registered cards"
    if len(possible) == 1:
        return f"the card shown at seq {o.seq} can only be {possible[0]}"
    return f"the card shown at seq {o.seq} is one of {', '.join(possible)}"
