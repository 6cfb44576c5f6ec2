"""Mutation testing of the verifier: small changes to legal replays must be caught.

Each mutant is a legal replay with one change: an event dropped, duplicated or swapped
with the next; a card, a number, a player or a target changed; a phase or step changed
where the event names one. The mutant is verified:

``flagged``
    the verifier finds a problem citing a rule (the goal for every illegal mutant);
``flagged_without_rule``
    the verdict is not legal but no finding cites a rule (malformed input, say);
``unmodelled``
    the first finding that is not ``info`` is ``unverifiable``: the change led the game
    into a part of a card the spec gives no meaning to (a card of a public pool, say).
    The verifier says it cannot judge from there, so what it finds after (the game it
    follows is no longer the one played) says nothing of the change either; neither a
    miss nor a finding of the rule broken;
``spec_fault``
    the spec raised an error (a bug of the spec, not a ruling) while the mutant was
    verified or replayed through ``legal_moves``: written out with ``--keep`` like a
    miss, to be mended; out of the share;
``still_legal``
    the verifier finds nothing and the spec's own :meth:`legal_moves` agrees: replaying
    the mutant from the changed event on, every event is one it offers (so the change
    made another legal game, e.g. a die showing another face); not a miss;
``missed``
    the verifier finds nothing but ``legal_moves`` does not offer some event of the
    mutant: the checker let an illegal game through.

A replay whose passes are implicit leaves out the passes that close windows; replaying
it through ``legal_moves``, each recorded move that is not offered yet is preceded by
the passes ``legal_moves`` offers (at most :data:`spec.core.game.MAX_INFERRED_PASSES`),
as the verifier infers them, until it is offered or no pass is. Those passes are played
on a copy: the replay itself goes on as the verifier reads the move (the passes left
unsaid are part of it, so a claim after it may name what they brought about), and the
two must come to the same game (:meth:`~spec.core.game.Game.view`), or the verifier
read the move where the offered passes do not lead.

The share the verifier flags is ``flagged / (flagged + flagged_without_rule + missed)``;
``unmodelled`` and ``spec_fault`` mutants are counted apart, since whether they are legal is not known.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from spec import load_game
from spec.core.cards import CardDatabase
from spec.core.game import MAX_INFERRED_PASSES, Setup
from verifier.replay import Header
from verifier.verify import SPEC_FAULT, card_database, is_spec_fault, verify_file

PLAYER_FIELDS = ("by", "player", "to", "winner", "owner")
CARD_FIELDS = ("card", "neopet", "replace")
PHASE_FIELDS = ("phase", "step")
OPERATORS = ("drop", "duplicate", "swap", "card", "number", "player", "target", "phase")


@dataclass
class Mutant:
    """One changed replay and what became of it."""

    source: str
    operator: str
    index: int
    """Position (0-based, among the events) of the changed event."""
    description: str
    lines: list[str]
    outcome: str = ""
    rule: str | None = None
    why: str = ""


@dataclass
class MutationReport:
    """Outcomes over a set of mutants."""

    mutants: list[Mutant] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """Replays given that are not legal, and why (their verdict and first finding): a
    mutant of one could not be told apart from it, so none is made."""

    @property
    def counts(self) -> Counter[str]:
        return Counter(m.outcome for m in self.mutants)

    @property
    def share_flagged(self) -> float:
        c = self.counts
        illegal = c["flagged"] + c["flagged_without_rule"] + c["missed"]
        return c["flagged"] / illegal if illegal else 1.0

    def to_json(self) -> dict[str, Any]:
        return {"counts": dict(self.counts), "share_flagged": self.share_flagged,
                "missed": [{"source": m.source, "operator": m.operator, "index": m.index, "change": m.description, "why": m.why}
                           for m in self.mutants if m.outcome == "missed"],
                "faults": [{"source": m.source, "operator": m.operator, "index": m.index, "change": m.description, "why": m.why}
                           for m in self.mutants if m.outcome == "spec_fault"],
                "by_operator": {op: dict(Counter(m.outcome for m in self.mutants if m.operator == op)) for op in OPERATORS},
                "skipped": [{"source": source, "why": why} for source, why in self.skipped]}


# ------------------------------------------------------------------ making mutants


def _other(value: Any, choices: list[Any], rng: random.Random) -> Any:
    options = [c for c in choices if c != value]
    return rng.choice(options) if options else value


def _renumber(events: list[dict[str, Any]]) -> None:
    for i, event in enumerate(events, 1):
        event["seq"] = i


def mutate_once(header: dict[str, Any], events: list[dict[str, Any]], operator: str, rng: random.Random,
                card_names: list[str]) -> tuple[int, str, list[dict[str, Any]]] | None:
    """Apply one operator at a random place; None when the operator finds nothing to change."""
    events = [json.loads(json.dumps(e)) for e in events]
    players = list(header.get("players", []))
    if not events:
        return None
    i = rng.randrange(len(events))
    if operator == "drop":
        gone = events.pop(i)
        _renumber(events)
        return i, f"dropped {gone.get('do')} (seq {gone.get('seq')})", events
    if operator == "duplicate":
        events.insert(i, json.loads(json.dumps(events[i])))
        _renumber(events)
        return i, f"duplicated {events[i].get('do')} (seq {events[i].get('seq')})", events
    if operator == "swap":
        if i + 1 >= len(events) or events[i] == {**events[i + 1], "seq": events[i]["seq"]}:
            return None
        events[i], events[i + 1] = events[i + 1], events[i]
        _renumber(events)
        return i, f"swapped seq {i + 1} and {i + 2}", events
    candidates = list(range(i, len(events))) + list(range(i))
    for j in candidates:
        event = events[j]
        change = _change_field(event, operator, rng, players, card_names)
        if change is not None:
            return j, change, events
    return None


def _change_field(event: dict[str, Any], operator: str, rng: random.Random, players: list[str],
                  card_names: list[str]) -> str | None:
    kind = event.get("do")
    if operator == "card":
        for key in CARD_FIELDS:
            if isinstance(event.get(key), str):
                old, event[key] = event[key], _other(event[key], card_names, rng)
                return f"{kind}.{key}: {old} -> {event[key]}"
    elif operator == "player":
        for key in PLAYER_FIELDS:
            if event.get(key) in players:
                old, event[key] = event[key], _other(event[key], players, rng)
                return f"{kind}.{key}: {old} -> {event[key]}"
    elif operator == "number":
        for key, value in event.items():
            if key == "seq":
                continue
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                event[key] = max(0, value + rng.choice((-1, 1, 2)))
                return f"{kind}.{key}: {value} -> {event[key]}"
            if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
                k = rng.randrange(len(value))
                new = list(value)
                new[k] = _other(value[k], list(range(1, 7)), rng)
                event[key] = new
                return f"{kind}.{key}[{k}]: {value[k]} -> {new[k]}"
    elif operator == "target":
        targets = event.get("targets")
        if isinstance(targets, list) and targets:
            k = rng.randrange(len(targets))
            target = targets[k]
            if isinstance(target, dict):
                if target.get("owner") in players and rng.random() < 0.5:
                    old = target["owner"]
                    target["owner"] = _other(old, players, rng)
                    return f"{kind}.targets[{k}].owner: {old} -> {target['owner']}"
                old = target.get("card")
                target["card"] = _other(old, card_names + ["Neopet"], rng)
                return f"{kind}.targets[{k}].card: {old} -> {target['card']}"
        if isinstance(targets, list) and not targets and kind in ("play", "activate"):
            event["targets"] = [{"card": "Neopet", "owner": rng.choice(players)}] if players else []
            return f"{kind}.targets: [] -> one target"
    elif operator == "phase":
        for key in PHASE_FIELDS:
            if isinstance(event.get(key), str):
                old = event[key]
                event[key] = old + "-elsewhere"
                return f"{kind}.{key}: {old} -> {event[key]}"
    return None


# ------------------------------------------------------------------ judging mutants


WINDOW = 60
"""How many events from the change on are checked against ``legal_moves`` (the rest is replayed)."""


def _anchored(header: dict[str, Any], path: Path) -> dict[str, Any]:
    """The header with a card file named relative to the replay made absolute.

    Mutants are verified from a temporary folder; they must find the same cards.
    """
    cards = header.get("cards")
    if not isinstance(cards, str) or Path(cards).is_absolute():
        return header
    game, _, set_name = cards.partition("/")
    if game == header.get("game") and set_name and "/" not in set_name:
        return header  # a shipped database, "<game>/<set>"
    return {**header, "cards": str((path.parent / cards).resolve())}


def _cards(header: dict[str, Any], game: Any, source: str) -> CardDatabase:
    """The card database the replay ``source`` is verified with (as the verifier finds it)."""
    return card_database(msgspec.convert(header, Header), game, source)


def _offered_from(game_id: str, header: dict[str, Any], events: list[dict[str, Any]], start: int,
                  window: int = WINDOW, source: str = "") -> tuple[bool, str]:
    """Whether ``legal_moves`` offers every event from ``start`` for ``window`` events.

    The prefix before the change is the original legal game and is applied as it is;
    after the window the events are only applied (the verifier accepted them already).
    With implicit passes, the passes a move needs first are put in (see the module
    docstring).
    """
    game = load_game(game_id)
    cards = _cards(header, game, source)
    options = dict(header.get("options", {}))
    setup = Setup(tuple(header["players"]), dict(header.get("decks", {})), options, cards)
    state = game.setup(setup)
    decoder = game.decoder()
    implicit = options.get("passes") != "explicit"
    for i, raw in enumerate(events):
        event = decoder.decode(msgspec.json.encode(raw))
        ahead = None  # with implicit passes: a copy of the game, passed on until the move is offered
        if start <= i < start + window and game.event_kinds.get(str(raw.get("do")), "move") != "claim":
            if implicit:
                ahead = game.copy(state)
                _pass_until_offered(game, ahead, event)
            if not game.offers(state if ahead is None else ahead, event):
                return False, f"legal_moves does not offer seq {raw.get('seq')} ({raw.get('do')})"
        rulings = game.apply(state, event)
        if any(r.violation.severity in ("illegal", "inconsistent", "malformed") for r in rulings):
            return False, f"seq {raw.get('seq')} is refused when replayed"
        if ahead is not None:
            game.apply(ahead, event)
            if game.view(ahead) != game.view(state):
                return False, f"seq {raw.get('seq')} is read where the passes legal_moves offers do not lead"
    return True, ""


def _pass_until_offered(game: Any, state: Any, event: Any) -> None:
    """Apply the passes ``legal_moves`` offers until it offers ``event`` (bounded)."""
    for _ in range(MAX_INFERRED_PASSES):
        if game.offers(state, event):
            return
        passes = [move for move in game.legal_moves(state) if move.__struct_config__.tag == "pass"]
        if not passes:
            return
        game.apply(state, passes[0])


def judge(mutant: Mutant, game_id: str, header: dict[str, Any], folder: Path) -> None:
    """Verify a mutant and classify it (see the module docstring)."""
    path = folder / "mutant.jsonl"
    path.write_text("\n".join(mutant.lines) + "\n", encoding="utf-8")
    report = verify_file(path)
    first = next((f for f in report.findings if f.severity in ("illegal", "inconsistent", "malformed", "unverifiable")), None)
    if first is not None and first.severity == "unverifiable":
        mutant.outcome = "spec_fault" if is_spec_fault(first) else "unmodelled"
        mutant.why = first.message
        return
    if report.verdict != "legal":
        mutant.outcome = "flagged" if first is not None and first.rule else "flagged_without_rule"
        mutant.rule = first.rule if first is not None else None
        mutant.why = first.message if first is not None else report.verdict
        return
    events = [json.loads(line) for line in mutant.lines[1:]]
    try:
        offered, why = _offered_from(game_id, header, events, mutant.index, source=mutant.source)
    except Exception as error:  # noqa: BLE001 - a bug of the spec is an outcome to mend, never a crash of the run
        mutant.outcome, mutant.why = "spec_fault", f"{SPEC_FAULT} replaying it through legal_moves ({type(error).__name__}: {error})"
        return
    mutant.outcome = "still_legal" if offered else "missed"
    mutant.why = why


KEPT_OUTCOMES = ("missed", "flagged_without_rule", "spec_fault")
"""The outcomes whose mutants :func:`keep` writes out: the verifier's gaps, and the spec's faults."""


def keep(report: MutationReport, folder: Path) -> list[Path]:
    """Write each mutant of :data:`KEPT_OUTCOMES` (missed, flagged without a rule, met by a
    spec fault) to ``folder`` as a replay file (``<replay>-mutant-<n>.jsonl``, numbered in the order met), so that it can
    be verified again (``arbiter verify``) while the gap is mended. Returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for number, mutant in enumerate((m for m in report.mutants if m.outcome in KEPT_OUTCOMES), 1):
        path = folder / f"{Path(mutant.source).stem}-mutant-{number}.jsonl"
        path.write_text("\n".join(mutant.lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


def run(paths: list[Path], count: int, seed: int = 0, operators: tuple[str, ...] = OPERATORS) -> MutationReport:
    """``count`` mutants per replay of ``paths``, each verified and classified.

    Each replay is verified first: one that is not legal is skipped (listed in
    :attr:`MutationReport.skipped`), since whatever its mutants' verdicts, the change
    would not be what made them.
    """
    rng = random.Random(seed)
    report = MutationReport()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for path in paths:
            original = verify_file(path)
            if original.verdict != "legal":
                first = next((f for f in original.findings if f.severity != "info"), None)
                where = f" at seq {first.seq}" if first is not None and first.seq is not None else ""
                report.skipped.append((str(path), original.verdict + (f"{where}: {first.message}" if first is not None else "")))
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            header = json.loads(lines[0])
            events = [json.loads(line) for line in lines[1:] if line.strip()]
            game_id = header.get("game", "")
            card_names = sorted(c.name for c in _cards(header, load_game(game_id), str(path)))
            first_line = json.dumps(_anchored(header, path), separators=(",", ":"))
            made = 0
            attempts = 0
            while made < count and attempts < count * 10:
                attempts += 1
                operator = operators[attempts % len(operators)]
                changed = mutate_once(header, events, operator, rng, card_names)
                if changed is None:
                    continue
                index, description, mutated = changed
                mutant = Mutant(str(path), operator, index, description,
                                [first_line] + [json.dumps(e, separators=(",", ":")) for e in mutated])
                judge(mutant, game_id, header, folder)
                report.mutants.append(mutant)
                made += 1
    return report
