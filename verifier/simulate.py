"""Random legal games, played through the spec's ``legal_moves``, written as replays.

The simulator builds a random deck from the game's card database within its
construction rules (:meth:`deck`), then plays moves picked at random among those the
spec allows until the game ends. The same seed gives the same game, byte for byte.

A move the spec allows can still bring two card effects into a clash that no rule of the
game settles, or meet a case of a card's text the spec does not model; the verifier
reports such a game ``unverifiable`` (``Game.conflicts_met``, or the move's own ruling).
The simulator draws again instead, so that every game it writes is one the verifier can
call legal. Cards whose text the spec does not read are left out of the decks
(:func:`unread`). When every move left would bring such a clash (or end the game by a
player's choice), it goes back a decision and takes another move there, up to
:data:`BACKTRACK_DEPTH` decisions back and :data:`MAX_BACKTRACKS` times a game; only
then does the game stop where it is.

To try a card out, the simulator can be asked to hold it in the decks and to play it
whenever it may (``hold`` and ``prefer``; ``arbiter simulate --prefer CARD``); a card held
so is put away (discarded, and so on: ``Game.parting_moves``) only when nothing else but
passing is left. The game's own deck builder is kept: decks are drawn until one holds the
cards (:func:`deck_holding`), so every deck still keeps the construction rules.
"""

from __future__ import annotations

import difflib
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from spec import load_game
from spec.core.cards import CardDatabase, CardFileError, shipped_database
from spec.core.game import DeckError, Game, Setup
from verifier.verify import stamp_reader

_encoder = msgspec.json.Encoder(order="deterministic")

BACKTRACK_DEPTH = 8
"""How many decisions back the simulator keeps, to take another move from a dead end."""

MAX_BACKTRACKS = 200
"""How many times a game may go back before it is left to stop at a dead end."""

DECK_TRIES = 1000
"""How many random decks are drawn for a player before giving up on holding every card asked for."""

MAX_PASS_REPAIRS = 200
"""How many times an implicit log is replayed to find the passes the verifier cannot infer
(:func:`_without_passes`); past it every pass is kept."""


class SimulationError(ValueError):
    """The games cannot be played as asked (for example, no legal deck holds a card asked for)."""


class SimulationFault(RuntimeError):
    """The spec failed (raised an error, a bug of the spec) while some games were played:
    those games were not written; the others were (:func:`write_games`)."""

    def __init__(self, written: list[Path], faults: list[tuple[int, str]]) -> None:
        self.written = written
        """The games written."""
        self.faults = faults
        """``(seed, the error)`` of each game the spec failed on."""
        super().__init__("; ".join(f"seed {seed}: {error}" for seed, error in faults))


def simulate(game_id: str, seed: int, max_events: int = 3000, passes: str = "explicit",
             players: tuple[str, str] = ("alice", "bob"), pass_weight: float = 0.35, claims: bool = False,
             prefer: tuple[str, ...] = (), ending_weight: float = 0.001, hold: tuple[str, ...] = (),
             card_file: Path | None = None, card_ref: str | None = None, keep: tuple[str, ...] | None = None) -> list[bytes]:
    """One random legal game as replay lines (header first).

    ``claims`` adds the derived facts (damage dealt, knock-outs, round and game winners)
    as claim events; ``prefer`` names cards the simulator plays whenever it may;
    ``hold`` names cards the decks are drawn to hold (:func:`deck_holding`; raises
    :class:`SimulationError` when no deck can) and puts away only when nothing else but passing
    is left, unless ``keep`` names other cards for that (``()``: none); ``card_file`` is a card database to build the
    decks from instead of the game's shipped one, named in the header as ``card_ref`` (by
    default its absolute path); ``ending_weight`` is the chance, at each move, that the moves ending the game by the
    players' choice (``Game.ending_moves``) are among those drawn from.
    """
    rng = random.Random(seed)
    game: Game[Any, Any] = load_game(game_id)
    if card_file is None:
        cards = CardDatabase.cached(shipped_database(game_id, game.default_cards.split("/", 1)[1]), game_id)
    else:
        cards = CardDatabase.cached(card_file, game_id)  # raises CardFileError
        if cards.game != game_id:
            raise SimulationError(f"{card_file}: a card file of {cards.game}, not of {game_id}")
    not_read = [name for name in prefer if name in cards and not _reads(cards, name)]
    if not_read:
        raise SimulationError(f"the spec does not read the text of {', '.join(map(repr, not_read))}, so no move can play it "
                              "(`arbiter lint` shows where the text leaves the templates)")
    left_out = unread(cards)  # a card whose text the spec does not read could not be judged in play
    omitted = set(left_out)
    pool = cards if not omitted else CardDatabase(cards.name, cards.game, cards.version,
                                                  [c for c in cards if c.name not in omitted])
    decks: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()  # every name the decks drawn listed
    source = "the shipped cards" if card_file is None else str(card_file)
    if left_out:
        source += f" ({len(left_out)} card(s) whose text the spec does not read left out)"
    for p in players:
        try:
            decks[p] = deck_holding(game, pool, rng, hold, frozenset().union(*map(deck_names, decks.values())), seen)
        except DeckError as error:  # too few cards of a kind (those the spec does not read left out)
            raise SimulationError(f"{source}: no {game_id} deck can be drawn: {error}") from None
    missing = [name for name in hold if not any(name in deck_names(deck) for deck in decks.values())]
    if missing:
        raise SimulationError(_not_held(game_id, missing, cards, seen))
    setup = Setup(players, decks, {"passes": "explicit"}, cards)
    state = game.setup(setup)
    broken = [r for r in setup.rulings if r.violation.severity != "info"]
    if broken:  # the pool ran short of what a legal deck needs: the game would be illegal from the start
        why = broken[0].violation
        raise SimulationError(f"{source}: the cards cannot make a legal {game_id} deck: the one drawn breaks "
                              f"{broken[0].rule}: {why.message} (expected {why.expected}, drawn {why.actual})")
    meta: dict[str, Any] = {"generator": "arbiter simulate", "seed": seed}
    if prefer:
        meta["prefer"] = list(prefer)
    if keep is not None:
        meta["keep"] = list(keep)
    header = {"replay": 1, "game": game_id, "ruleset": game.rulesets[-1], "players": list(players), "decks": decks,
              "cards": game.default_cards if card_file is None else card_ref or str(card_file.resolve()),
              "options": {"passes": passes}, "meta": meta}
    events: list[dict[str, Any]] = []
    memo: dict[str, Any] = {}  # what conflicts_met has reported, as the verifier keeps it
    chooser = _Chooser(game, rng, seed, prefer, pass_weight, ending_weight, keep=hold if keep is None else keep)
    stamp_seen: Any = None  # and it is asked, as the verifier asks it, once the stamp moved
    history: list[_Decision] = []  # the last decisions taken, to go back to from a dead end
    backtracks = 0
    moves = game.legal_moves(state, rng)
    while len(events) < max_events:
        before = game.facts(state)
        found = chooser.first_judgeable(state, memo, stamp_seen, moves, len(events) + 1,
                                        can_go_back=bool(history) and backtracks < MAX_BACKTRACKS)
        if found is None:  # a dead end: every move left brings a clash no rule settles (or ends the game)
            if not history or backtracks >= MAX_BACKTRACKS:
                break  # the game stops here
            backtracks += 1
            decision = history.pop()  # go back and take another of the moves that decision had
            state, memo, stamp_seen, moves = decision.state, decision.memo, decision.stamp_seen, decision.untried
            del events[decision.events:]
            continue
        move, trial, trial_memo, now = found
        history.append(_Decision(state, memo, stamp_seen, moves, len(events)))
        del history[:-BACKTRACK_DEPTH]
        state, memo, stamp_seen = trial, trial_memo, now
        events.append(msgspec.to_builtins(move))
        if claims:
            for i, claim in enumerate(game.claims_since(state, before), len(events) + 1):
                events.append({**claim, "seq": i})
        if getattr(state, "stage", None) == "over":
            break
        moves = game.legal_moves(state, rng)
    if passes == "implicit":
        events = _without_passes(game, lambda: Setup(players, decks, {"passes": "implicit"}, cards), events)
    return [_encoder.encode(header)] + [_encoder.encode(e) for e in events]


def _without_passes(game: Game[Any, Any], setup: Callable[[], Setup], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's events with the passes left out that the verifier infers back.

    The verifier plays an event of an implicit log at the first point the players' passes
    reach where it is legal. A move the players made later (an ability used in the next
    turn, when it could also be used at the end of this one) is read there instead, and the
    game it reads goes another way. So the log is replayed as the verifier reads it, and
    where an event is refused, the passes before it and before the events just ahead of it
    (one, then two, four... events back) are kept, until it is read as it was played. With
    every pass kept the log is the game as played, so this ends. The passes kept that the
    log can do without are then dropped again (:func:`_fewer_passes`).
    """
    moves = [i for i, e in enumerate(events) if e["do"] != "pass"]
    kept: set[int] = set()
    reach: dict[int, int] = {}  # for an event refused: how many events back passes are kept
    for _ in range(MAX_PASS_REPAIRS):
        chosen = sorted(set(moves) | kept)
        refused = _reading(game, setup(), [events[i] for i in chosen])[0]
        if refused is None:
            break
        at = chosen[refused]
        back = reach[at] = reach.get(at, 0) * 2 or 1
        before = [i for i in moves if i < at]
        start = before[-back] if back <= len(before) else -1
        kept.update(i for i in range(start + 1, at) if events[i]["do"] == "pass")
    else:  # (a bound never met: each repair keeps more passes)
        kept = set(range(len(events)))
    kept = _fewer_passes(game, setup, events, set(moves), kept)
    out = [dict(events[i]) for i in sorted(set(moves) | kept)]
    for seq, event in enumerate(out, 1):
        event["seq"] = seq
    return out


def _fewer_passes(game: Game[Any, Any], setup: Callable[[], Setup], events: list[dict[str, Any]], moves: set[int],
                  kept: set[int]) -> set[int]:
    """``kept`` without the passes the log is still read as played without.

    :func:`_without_passes` keeps every pass of a window that doubles, so it keeps more than
    it needs. Each run of kept passes between two moves, from the last, and then each pass
    left, is dropped where the log without it is refused nowhere and ends in the same game
    (:meth:`~spec.core.game.Game.view`) as the game played, up to its last move.
    """
    if not kept or not moves:
        return kept
    played = _reading(game, setup(), events[:max(moves) + 1])[1]  # (the passes after the last move are left out)
    runs: list[list[int]] = []
    for i in sorted(kept):
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    for candidates in (runs[::-1], [[i] for i in sorted(kept, reverse=True)]):
        for run in candidates:
            if not kept.issuperset(run):
                continue
            fewer = kept.difference(run)
            refused, view = _reading(game, setup(), [events[i] for i in sorted(moves | fewer)])
            if refused is None and view == played:
                kept = fewer
    return kept


def _reading(game: Game[Any, Any], setup: Setup, events: list[dict[str, Any]]) -> tuple[int | None, Any]:
    """The index of the first of ``events`` the game refuses (``None``: none), and the game
    they end in (:meth:`~spec.core.game.Game.view`; ``None`` when one was refused)."""
    state = game.setup(setup)
    decoder = game.decoder()
    for index, raw in enumerate(events):
        event = decoder.decode(_encoder.encode({**raw, "seq": index + 1}))
        if any(r.violation.severity != "info" for r in game.apply(state, event)):
            return index, None
    return None, game.view(state)


class Naming(NamedTuple):
    """How the moves of some replays named one card (:func:`moves_naming`)."""

    moves: int
    """The moves that name it as their card."""
    games: int
    """The replays with at least one of them."""
    kinds: dict[str, int]
    """Those moves by kind (``play``, ``discard``, ``attack``...), in the order first met."""


def moves_naming(game_id: str, replays: list[Path], names: tuple[str, ...]) -> dict[str, Naming]:
    """For each of ``names``: how many moves (a player's choices, not draws or claims) of
    the ``replays`` name it as their card, of which kinds, and in how many replays: how
    often a card tried out with ``prefer`` was played (or discarded, set, blocked with...)."""
    event_kinds = load_game(game_id).event_kinds
    kinds: dict[str, dict[str, int]] = {name: {} for name in names}
    games = dict.fromkeys(names, 0)
    for path in replays:
        seen: set[str] = set()
        for line in path.read_bytes().splitlines()[1:]:
            event = msgspec.json.decode(line)
            card, do = event.get("card"), event.get("do")
            if card in kinds and event_kinds.get(do) == "move":
                kinds[card][do] = kinds[card].get(do, 0) + 1
                seen.add(card)
        for card in seen:
            games[card] += 1
    return {name: Naming(sum(kinds[name].values()), games[name], kinds[name]) for name in names}


def deck_names(deck: Any) -> set[str]:
    """Every card name a registered decklist mentions, whatever its shape: the names counted
    in its card counts, the items of its lists (a team, the Neopets), its single names (a
    character)."""
    if isinstance(deck, str):
        return {deck}
    names: set[str] = set()
    if isinstance(deck, dict):
        for key, value in deck.items():
            names |= {key} if isinstance(value, int) else deck_names(value)
    elif isinstance(deck, list):
        for item in deck:
            names |= deck_names(item)
    return names


def deck_holding(game: Game[Any, Any], cards: CardDatabase, rng: random.Random, hold: tuple[str, ...],
                 held: frozenset[str] = frozenset(), seen: set[str] | None = None) -> dict[str, Any]:
    """A random deck from the game's own builder; with ``hold``, the first of up to
    :data:`DECK_TRIES` drawn that holds all those cards, else the best one drawn: the one
    holding the most of them that ``held`` (the other players' decks) lacks, then the most.
    Each is drawn by ``Game.deck_around``, which builds it around those cards as far as the
    game's builder knows how.

    Cards that no single deck can hold together (two heroes of Epic Battles, say) are thus
    shared out between the players. The names of every deck drawn are added to ``seen``.
    """
    wanted = set(hold)

    def score(deck: dict[str, Any]) -> tuple[int, int]:
        listed = deck_names(deck)
        if seen is not None:
            seen.update(listed)
        names = wanted & listed
        return len(names - held), len(names)

    lacking = tuple(sorted(hold, key=lambda name: name in held))  # those the other decks lack first
    best: dict[str, Any] = game.deck_around(cards, rng, lacking)
    best_score, tries = score(best), 1
    while best_score[1] < len(wanted) and tries < DECK_TRIES:
        deck = game.deck_around(cards, rng, lacking)
        tries += 1
        if (now := score(deck)) > best_score:
            best, best_score = deck, now
    return best


def unread(cards: CardDatabase) -> list[str]:
    """The cards of ``cards`` whose text the spec does not read, in the database's order: no
    move could play one and be judged, so the simulator leaves them out of its decks
    (``arbiter lint`` shows where each text leaves the templates)."""
    return [card.name for card in cards if not _reads(cards, card.name)]


def kept_out(game_id: str, cards: CardDatabase) -> list[str]:
    """The cards of ``cards`` no random deck of the simulator holds, in the database's order:
    those whose text the spec does not read (:func:`unread`), and those with an ability the
    game's spec gives no meaning to (``Game.supported``)."""
    game: Game[Any, Any] = load_game(game_id)
    return [card.name for card in cards if not _reads(cards, card.name) or not game.supported(cards, card.name)]


def _reads(cards: CardDatabase, name: str) -> bool:
    """Whether the spec reads the whole text of a card (else no move plays it)."""
    try:
        cards.complete_tree(name)
    except Exception:  # noqa: BLE001 - the parse error or UnknownWording: either way, unread
        return False
    return True


def _not_held(game_id: str, missing: list[str], cards: CardDatabase, seen: set[str]) -> str:
    """Why the decks could not hold ``missing``, card by card (``seen``: the names the decks drawn listed)."""
    known = sorted(c.name for c in cards)
    reasons = []
    for name in missing:
        longer = sorted(n for n in seen if n != name and f" {name} " in f" {n} ")
        if longer:  # a part of the names decks list (a Battle Monsters prefix or suffix, say)
            reasons.append(f"{name!r} is listed in decks only within longer names, such as {longer[0]!r}: prefer one of those")
            continue
        if name in known:
            why = load_game(game_id).unsupported(cards, name)
            reasons.append(f"{name!r} is in the database, but the spec does not run it yet ({why}), so random decks leave it out"
                           if why is not None else f"{name!r} is in the database and the spec runs it, but no deck drawn held it "
                                                   "(the game's deck builder, within the construction rules, leaves it out or draws it "
                                                   "too rarely)")
            continue
        close = difflib.get_close_matches(name, known, n=3)
        reasons.append(f"{name!r} is no card of the database" + (f" (did you mean {', '.join(map(repr, close))}?)" if close else ""))
    return f"no random {game_id} deck ({DECK_TRIES} drawn a player) holds every card asked for: " + "; ".join(reasons)


class _Decision(NamedTuple):
    """A move taken, and what to go back to instead: the state and memo before it, the
    moves not yet tried there, how many events the game had."""

    state: Any
    memo: dict[str, Any]
    stamp_seen: Any
    untried: list[Any]
    events: int


class _Chooser:
    """How one simulated game draws its moves: what stays the same for the whole game (the
    game, its random generator, the cards preferred, the weights) kept together, so that
    each draw names only what changes from move to move."""

    def __init__(self, game: Game[Any, Any], rng: random.Random, seed: int, prefer: tuple[str, ...],
                 pass_weight: float, ending_weight: float, keep: tuple[str, ...] = ()) -> None:
        self.game = game
        self.rng = rng
        self.seed = seed
        self.prefer = prefer
        self.keep = keep
        """Cards tried out (``hold``): a move putting one away (``Game.parting_moves``) is drawn only
        when no other move but passing is left."""
        self.pass_weight = pass_weight
        self.ending_weight = ending_weight
        self.stamp: Callable[[Any], Any] = stamp_reader(game)

    def first_judgeable(self, state: Any, memo: dict[str, Any], stamp_seen: Any, moves: list[Any], seq: int,
                        can_go_back: bool) -> tuple[Any, Any, dict[str, Any], Any] | None:
        """The first move drawn from ``moves`` (which loses it) that the verifier could judge,
        tried on a copy of the state: ``(move, state after it, memo, stamp)``.

        ``None`` at a dead end: no move left, or, once a move was drawn again (for a clash no
        rule settles, or as one the spec cannot judge), only moves ending the game by choice
        while there is a decision to go back to (the game is then played on another way
        rather than given up).
        """
        game = self.game
        redrawn = False
        while moves:
            if redrawn and can_go_back and all(m.__struct_config__.tag in game.ending_moves for m in moves):
                return None
            pick = self.pick(moves)
            moves.remove(pick)
            move = msgspec.structs.replace(pick, seq=seq)
            trial, trial_memo = state.copy(), _memo_copy(memo)
            rulings = game.apply(trial, move)
            bad = [r for r in rulings if r.violation.severity not in ("info", "unverifiable")]
            if bad:  # legal_moves and apply disagree: a bug in the spec
                raise AssertionError(f"seed {self.seed}: the spec refused its own legal move {move}: "
                                     f"{bad[0].rule} {bad[0].violation}")
            if rulings and any(r.violation.severity == "unverifiable" for r in rulings):
                redrawn = True  # the spec cannot judge the move (a text it does not model): no legal game through it
                continue
            now = self.stamp(trial)
            if now != stamp_seen and any(r.violation.severity != "info" for r in game.conflicts_met(trial, trial_memo)):
                redrawn = True  # a clash no rule settles: the verifier could not call the game legal
                continue
            return move, trial, trial_memo, now
        return None

    def pick(self, moves: list[Any]) -> Any:
        """One of ``moves``, drawn as :func:`simulate` says: a preferred card whenever one can be
        played, a card tried out put away only when nothing else but passing is left, a pass
        with chance ``pass_weight``, a move ending the game only now and then."""
        rng = self.rng
        passes_only = [m for m in moves if m.__struct_config__.tag == "pass"]
        others = [m for m in moves if m.__struct_config__.tag != "pass"]
        playing_on = [m for m in others if m.__struct_config__.tag not in self.game.ending_moves]
        if playing_on and len(playing_on) < len(others) and rng.random() >= self.ending_weight:
            others = playing_on  # the players end a game by choice only now and then (Game.ending_moves)
        if self.keep:  # a card tried out is put away only when nothing else may be done
            parting = self.game.parting_moves
            keeping = [m for m in others if not (m.__struct_config__.tag in parting and getattr(m, "card", None) in self.keep)]
            others = keeping or others
        favoured = [m for m in others if getattr(m, "card", None) in self.prefer]
        if favoured:
            return rng.choice(favoured)
        if passes_only and (not others or rng.random() < self.pass_weight):
            return rng.choice(passes_only)
        return rng.choice(others)


def _memo_copy(memo: dict[str, Any]) -> dict[str, Any]:
    """A copy of a ``Game.conflicts_met`` memo to try a move with: its sets, lists and dicts
    copied, everything else shared (the games replace those values, never change them)."""
    return {key: value.copy() if type(value) in (set, dict, list) else value for key, value in memo.items()}


def write_games(game_id: str, count: int, seed: int, out: Path, passes: str = "explicit", claims: bool = False,
                prefer: tuple[str, ...] = (), card_file: Path | None = None, keep: bool = True) -> list[Path]:
    """Simulate ``count`` games from ``seed`` and write them to ``out``; the cards of
    ``prefer`` are held in the decks and played whenever they may be, and (``keep``) put away
    only when nothing else but passing is left. A ``card_file`` is
    named in the headers by its path from ``out``, so that the folder and the file can be
    moved together.

    A game the spec fails on (an error raised, a bug of the spec rather than a ruling) is
    not written and the others are; :class:`SimulationFault` then names each such seed
    and error once all were played. :class:`SimulationError` (the games cannot be played
    as asked) and ``CardFileError`` (the card file cannot be read) are raised at once.
    """
    card_ref = None if card_file is None else os.path.relpath(card_file.resolve(), out.resolve())
    written: list[Path] = []
    faults: list[tuple[int, str]] = []
    for i in range(count):
        path = out / f"{game_id}-{seed + i:06d}.jsonl"
        try:
            lines = simulate(game_id, seed + i, passes=passes, claims=claims, prefer=prefer, hold=prefer, keep=None if keep else (),
                             card_file=card_file, card_ref=card_ref)
        except (SimulationError, CardFileError):  # the games cannot be played as asked: the same for every seed
            raise
        except Exception as error:  # noqa: BLE001 - one game the spec fails on must not cost the others
            faults.append((seed + i, f"{type(error).__name__}: {error}"))
            continue
        out.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\n".join(lines) + b"\n")
        written.append(path)
    if faults:
        raise SimulationFault(written, faults)
    return written


__all__ = ["DECK_TRIES", "Naming", "SimulationError", "SimulationFault", "deck_holding", "deck_names", "kept_out", "moves_naming", "simulate", "unread",
           "write_games"]
