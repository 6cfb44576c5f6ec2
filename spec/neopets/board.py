"""Read-only questions about a Neopets state, shared by the rule checks and the effects.

Stats follow rule 6.2: the printed value of the Neopet and its attached Codestones
(6.2.2), plus every modifier (6.2.3), with Attack, Defence and Agility capped at 10
(6.2.4). Card text comes from the grammar; a card whose text does not parse raises
:class:`Unmodelled`, which the verifier reports as unverifiable.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, TypeVar

from grammar import ast as A
from grammar.lint import name_exists
from spec.core.cards import CardDef, UnknownWording
from spec.core.interpreter import ONE_PLAYER, sole_player
from spec.core.state import CardObj
from spec.neopets.state import STAT_KEYS, ActiveNeopet, NeopetsState

T = TypeVar("T")

STAT_CAP: Final = 10
CAPPED: Final[tuple[str, ...]] = ("Attack", "Defence", "Agility")

#: Card types that are played during the Preparation Phase (5.4.2b) and the rule for each.
PREPARATION_TYPES: Final[dict[str, str]] = {
    "Faerie": "7.3.3", "Hero": "7.3.3", "Villain": "7.3.3", "Paint Brush": "7.4.3",
    "Legend": "7.5.3", "Equipment": "7.6.3", "Potion": "7.7.3", "Location": "7.9.3",
}
FAERIE_TYPES: Final = ("Faerie", "Hero", "Villain")


class Unmodelled(Exception):
    """The spec cannot give meaning to something the log uses (a card, a step)."""


def text_of(state: NeopetsState, name: str) -> A.CardText:
    """The parsed text of a card; raises :class:`Unmodelled` if it does not parse."""
    try:
        return state.cards.complete_tree(name)
    except UnknownWording as error:
        raise Unmodelled(str(error)) from None
    except Exception as error:  # noqa: BLE001 - any parse failure makes the card unverifiable
        raise Unmodelled(f"the text of {name!r} does not parse: {error}") from None


def abilities(state: NeopetsState, name: str, kind: type) -> tuple:
    """The abilities of one kind on a card, in printed order; :class:`Unmodelled` if unreadable."""
    try:
        return state.cards.abilities(name, kind)
    except Exception as error:  # noqa: BLE001 - any parse failure makes the card unverifiable
        text_of(state, name)  # raises Unmodelled with the reason
        raise Unmodelled(str(error)) from None


def keyword(state: NeopetsState, defn: CardDef, name: str) -> A.Keyword | None:
    for ability in abilities(state, defn.name, A.Keyword):
        if ability.name == name:
            return ability
    return None


def one_player(state: NeopetsState, controller: str, relative: str | None) -> str:
    """The one player a step is for (:func:`~spec.core.interpreter.sole_player`)."""
    return sole_player(who(state, controller, relative), relative, Unmodelled)


def who(state: NeopetsState, controller: str, relative: str | None) -> list[str]:
    """Players meant by ``you``/``opponent``/``each`` from the controller's side."""
    if relative in (None, "you", "controller", "owner"):
        return [controller]
    if relative == "opponent":
        return [state.other(controller)]
    if relative == "active":
        return [state.active]
    if relative == "nonactive":
        return [state.nonactive]
    return [state.active, state.nonactive]


def in_play(state: NeopetsState) -> list[tuple[str, CardObj]]:
    """Every card whose abilities work now: Battledome, active Neopets, Locations (8.18.1, 7.9.5.p2).

    Active player's first; for each player the Neopet, the Faerie, Equipment, Location.
    """
    return list(_board(state).cards)


class _Board:
    """What is in play, worked out once per arrangement of the play zones (a cache).

    ``cards`` in the order of :func:`in_play`; ``negated`` the Neopets whose abilities
    a negation removes, or ``None`` when a negation has a condition (then worked out at
    each call); ``passive``/``triggered`` the abilities of the cards not negated, with
    their controller and source, conditions not yet read; ``triggers`` the same
    triggered abilities grouped by the event that triggers them (kept only alongside
    ``triggered``); ``steps`` per kind of step (``Modify``...) the passive abilities
    that hold such steps or have a condition, with those steps (kept only alongside
    ``passive``); ``derived`` what other modules work out from the cards in play alone
    (see :func:`derived`); ``unnegated`` is set once no card in play negates a Neopet;
    ``previous`` is the board it replaced, kept for when the turn comes back with the same
    cards in play (see :func:`_board`); ``modifiers`` what the passive stat changes add,
    per player and stat (see :func:`_modified`). ``active`` and ``version`` are what it
    was worked out for (its :attr:`key`, made of them on demand), kept apart so that the
    test "is this still the board?" made on every look-up (:func:`stands`, spelt out where
    it is hot) builds no tuple.
    """

    __slots__ = ("active", "cards", "derived", "modifiers", "negated", "passive", "previous", "steps", "triggered",
                 "triggers", "unnegated", "version")

    def __init__(self, key: tuple[str, int], cards: list[tuple[str, CardObj]]) -> None:
        self.active, self.version = key
        self.cards = cards
        self.negated: set[int] | None = None
        self.passive: list[tuple[str, CardObj, A.Passive]] | None = None
        self.triggered: list[tuple[str, CardObj, A.Triggered]] | None = None
        self.triggers: dict[str, list[tuple[str, CardObj, A.Triggered]]] | None = None
        self.steps: dict[type, list[tuple[str, A.Passive, tuple]] | tuple] = {}
        self.derived: dict[str, object] = {}
        self.unnegated = False
        self.previous: _Board | None = None
        self.modifiers: dict[tuple[str, str], int] | None = None

    @property
    def key(self) -> tuple[str, int]:
        """``(active player, play version)``: the :func:`play_key` it was worked out for."""
        return self.active, self.version

    def turned(self, key: tuple[str, int]) -> _Board:
        """The same cards once the turn has changed hands (``key`` names the new active
        player): each player's cards keep their order, the active player's come first.

        Without a negating card nothing else depends on who is active, so the abilities
        and steps found are kept too, in the new order; the rest (``derived``: the
        effects' ages and players depend on who is active) is worked out again when asked.
        """
        active = key[0]
        board = _Board(key, _active_first(self.cards, active))
        if self.unnegated:
            board.negated, board.unnegated = set(), True
            if self.triggered is not None:
                board.triggered = _active_first(self.triggered, active)
                if self.triggers is not None:  # grouped by event as before, each group in the new order
                    board.triggers = {event: _active_first(found, active) for event, found in self.triggers.items()}
            if self.passive is not None:
                board.passive = _active_first(self.passive, active)
                board.steps = {kind: tuple(_active_first(list(listed), active)) if isinstance(listed, tuple) else _active_first(listed, active)
                               for kind, listed in self.steps.items()}
        return board


def _active_first(entries: list[T], active: str) -> list[T]:
    """Entries ``(player, ...)`` with the active player's first, each player's in their order."""
    return [e for e in entries if e[0] == active] + [e for e in entries if e[0] != active]  # type: ignore[index]


def play_key(state: NeopetsState) -> tuple[str, int]:
    """A cheap key that changes whenever what is in play may have changed.

    Every card entering or leaving a play zone moves ``state.play_version`` (see
    :meth:`NeopetsState.play_changed`); the order of the cards depends on who is active.
    Draws and dice, which change neither, keep the key.
    """
    return state.active, state.play_version


def stands(board: _Board | None, state: NeopetsState) -> bool:
    """Whether ``board`` is still the board of ``state``: its key is :func:`play_key`'s
    (the same play version, the same player active), compared part by part."""
    return board is not None and board.version == state.play_version and board.active == state.active


def arrangement(state: NeopetsState) -> list[tuple[str, CardObj]]:
    """The cards in play, worked out from the zones (see :func:`in_play` for the order)."""
    order = (state.active, state.nonactive) if state.active else state.players
    cards: list[tuple[str, CardObj]] = []
    for player in order:
        side = state.sides[player]
        if side.neopet is not None:
            cards.append((player, side.neopet.card))
        cards.extend((player, c) for c in side.faerie)
        cards.extend((player, c) for c in side.equipment)
        cards.extend((player, c) for c in side.play_area.cards if c.defn is not None and c.defn.type == "Location")
    return cards


def _board(state: NeopetsState) -> _Board:
    """The board of the state as it stands (see :class:`_Board`).

    Besides the current board the one before it is kept: when the turn changes hands
    and comes back with no card having entered or left play in between (the same play
    version), that board is the board again, with all that was worked out for it.
    Putting a state back as it was (a snapshot) leaves no board: play versions can then
    be used again, for other cards.
    """
    cached: _Board | None = state.board_cache  # type: ignore[assignment]
    if cached is not None and cached.version == state.play_version and cached.active == state.active:  # stands, spelt out: every look-up runs it
        return cached
    key = play_key(state)
    if cached is None:
        board = _Board(key, arrangement(state))
    else:
        previous = cached.previous
        cached.previous = None
        if previous is not None and previous.key == key:
            board = previous  # the turn came back to the same cards in play
        elif cached.key[1] == key[1] and cached.key[0] in state.players and key[0] in state.players:
            board = cached.turned(key)  # the same cards: only the turn changed hands
        else:
            board = _Board(key, arrangement(state))
        board.previous = cached
    state.board_cache = board
    return board


def derived(state: NeopetsState) -> dict[str, object]:
    """Where a module keeps what it works out from the cards in play alone (which cards,
    their controllers, when they entered play, who is active): forgotten, with the board,
    as soon as a card enters or leaves play or the turn changes hands."""
    return _board(state).derived


NEOPET_TYPES: Final = ("Neopet", "Rainbow Pool Neopet")
_NEGATING: Final[set[int]] = set()
"""States whose negations are being worked out (their conditions are read without them)."""


def negated_neopets(state: NeopetsState) -> set[int]:
    """The active Neopets (by uid) whose abilities a static negation removes (8.20.6b).

    A negating source applies unless a negation that applies names it: a source no
    applying negation names applies, and the Neopets it names lose their abilities,
    negations included (8.20.6b). Where negations name each other in a circle, none of
    them settled by the rest, they contradict each other and the one whose source has
    been in play longer applies (8.18.5); sources that entered together are taken active
    player's first (as simultaneous events are, 9.7.1). Conditions on a negating passive
    are read without negations (no circularity).
    """
    board = _board(state)
    if board.negated is not None:
        return board.negated
    sources = [(player, card) for player, card in board.cards if card.name is not None and _negates(state, card.name)]
    if not sources:
        board.negated, board.unnegated = set(), True
        return board.negated
    if id(state) in _NEGATING:
        return set()
    conditional = any(ability.condition is not None for _player, card in sources
                      for ability in abilities(state, card.name or "", A.Passive))
    sources.sort(key=lambda pc: (state.entered.get(pc[1].uid, pc[1].uid), pc[0] != state.active))
    targets: dict[int, set[int]] = {}
    _NEGATING.add(id(state))
    try:
        for player, card in sources:
            named: set[int] = set()
            for ability in abilities(state, card.name or "", A.Passive):
                if ability.condition is not None and not condition_holds(state, player, ability.condition, {}):
                    continue
                for step in ability.effect:
                    if isinstance(step, A.Negate) and step.target.type == "Neopet":
                        for owner in neopet_owner(state, player, step.target):
                            neopet = state.sides[owner].neopet
                            if neopet is not None:
                                named.add(neopet.card.uid)
            targets[card.uid] = named
    finally:
        _NEGATING.discard(id(state))
    applies: dict[int, bool] = {}
    order = [card.uid for _player, card in sources]
    while len(applies) < len(order):
        changed = True
        while changed:
            changed = False
            for uid in order:
                if uid in applies:
                    continue
                attackers = [a for a in order if uid in targets[a] and a != uid]
                if any(applies.get(a) for a in attackers):
                    applies[uid], changed = False, True
                elif all(applies.get(a) is False for a in attackers):
                    applies[uid], changed = True, True
        oldest = next((uid for uid in order if uid not in applies), None)
        if oldest is not None:
            applies[oldest] = True  # 8.18.5: in a circle of negations, the longest in play applies
    negated = {t for uid in order if applies[uid] for t in targets[uid] if t != uid}
    if not conditional:
        board.negated = negated
    return negated


def _negates(state: NeopetsState, name: str) -> bool:
    """Whether a card has a passive that negates a Neopet's abilities (remembered per card database)."""
    known: dict[str, bool] | None = getattr(state.cards, "_negators", None)
    if known is None:
        known = {}
        state.cards._negators = known  # type: ignore[attr-defined]
    found = known.get(name)
    if found is None:
        found = any(isinstance(step, A.Negate) and step.target.type == "Neopet"
                    for ability in abilities(state, name, A.Passive) for step in ability.effect)
        known[name] = found
    return found


def working(state: NeopetsState) -> list[tuple[str, CardObj]]:
    """The cards in play whose abilities are not negated (8.20.6b)."""
    negated = negated_neopets(state)
    return [(player, card) for player, card in _board(state).cards if card.uid not in negated]


def triggered(state: NeopetsState) -> list[tuple[str, CardObj, A.Triggered]]:
    """Triggered abilities of the cards in play that are not negated, in :func:`in_play` order."""
    board = _board(state)
    if board.triggered is not None and board.negated is not None:
        return board.triggered
    found = [(player, card, ability) for player, card in working(state) if card.name is not None
             for ability in abilities(state, card.name, A.Triggered)]
    if board.negated is not None:
        board.triggered = found
    return found


def triggered_on(state: NeopetsState, event: str) -> list[tuple[str, CardObj, A.Triggered]] | tuple[()]:
    """The abilities of :func:`triggered` whose trigger is ``event`` (``turn_begins``...), in
    the same order: usually none, found with one look-up while the board stands."""
    board: _Board | None = state.board_cache  # type: ignore[assignment]
    if board is None or board.version != state.play_version or board.active != state.active:  # not stands(...), spelt out
        board = _board(state)
    if board.triggers is not None:
        return board.triggers.get(event, ())
    found = triggered(state)
    if board.triggered is not found:  # not kept for this board (a negation has a condition)
        return [entry for entry in found if entry[2].trigger.event == event]
    index: dict[str, list[tuple[str, CardObj, A.Triggered]]] = {}
    for entry in found:
        index.setdefault(entry[2].trigger.event, []).append(entry)
    board.triggers = index
    return index.get(event, ())


def passives(state: NeopetsState) -> Iterator[tuple[str, CardObj, A.Passive]]:
    """Passive abilities in force (8.18), with their controller and source."""
    for player, card, ability in _passive_abilities(state, _board(state)):
        if ability.condition is None or condition_holds(state, player, ability.condition, {}):
            yield player, card, ability


def _passive_abilities(state: NeopetsState, board: _Board) -> list[tuple[str, CardObj, A.Passive]]:
    """The passive abilities of the cards in play that are not negated, conditions not yet
    read: kept on the board (``board.passive``) once the negations are known for it."""
    listed = board.passive if board.negated is not None else None
    if listed is None:
        listed = [(player, card, ability) for player, card in working(state) if card.name is not None
                  for ability in abilities(state, card.name, A.Passive)]
        if board.negated is not None:
            board.passive = listed
    return listed


def passive_steps(state: NeopetsState, kind: type[T]) -> Iterable[tuple[str, T]]:
    """Steps of one kind in the passive abilities in force, with their controller.

    While the board keeps its passive abilities, the abilities that matter for ``kind``
    are listed once per board (:func:`_abilities_with`); when none of them has a
    condition, the steps themselves are; otherwise the conditions are read at every
    call, in the same order as :func:`passives` reads them.
    """
    board = _board(state)
    if board.passive is None or board.negated is None:
        listed_abilities = _passive_abilities(state, board)  # the first look-up on this board lists them
        if board.passive is None or board.negated is None:  # not kept: a negation has a condition
            return _steps_in_force(state, listed_abilities, kind)
    listed = board.steps.get(kind)
    if listed is None:
        listed = board.steps[kind] = _abilities_with(board.passive, kind)
    if isinstance(listed, tuple):
        return listed
    return _steps_if(state, listed)


def _steps_in_force(state: NeopetsState, listed: list[tuple[str, CardObj, A.Passive]], kind: type[T]) -> Iterator[tuple[str, T]]:
    """:func:`passive_steps` worked out as :func:`passives` reads the abilities (``listed``)."""
    for controller, _card, ability in listed:
        if ability.condition is None or condition_holds(state, controller, ability.condition, {}):
            for step in ability.effect:
                if isinstance(step, kind):
                    yield controller, step


def _steps_if(state: NeopetsState, listed: list[tuple[str, A.Passive, tuple]]) -> Iterator[tuple[str, T]]:
    """The steps of the listed abilities whose conditions hold, read in order."""
    for controller, ability, steps in listed:
        if ability.condition is None or condition_holds(state, controller, ability.condition, {}):
            for step in steps:
                yield controller, step


def _abilities_with(listed: list[tuple[str, CardObj, A.Passive]], kind: type) -> list[tuple[str, A.Passive, tuple]] | tuple:
    """The passive abilities whose steps include ``kind``, or whose condition must be read
    anyway (reading it may find the card unmodelled), each with its steps of that kind;
    when none has a condition, just the steps with their controllers."""
    out = []
    for controller, _card, ability in listed:
        steps = tuple(step for step in ability.effect if isinstance(step, kind))
        if steps or ability.condition is not None:
            out.append((controller, ability, steps))
    if all(ability.condition is None for _controller, ability, _steps in out):
        return tuple((controller, step) for controller, _ability, steps in out for step in steps)
    return out


def neopet_owner(state: NeopetsState, controller: str, sel: A.Selector) -> list[str]:
    """Whose active Neopet a Neopet selector picks."""
    return who(state, controller, sel.owner or "you")


def stat(state: NeopetsState, player: str, name: str) -> int:
    """The total value of a stat of a player's active Neopet (6.2.2-6.2.4)."""
    neopet = state.sides[player].neopet
    if neopet is None or neopet.card.defn is None:
        return 0
    key = STAT_KEYS[name]
    card, stones = neopet.card, neopet.codestones
    kept = neopet.printed.get(key)
    if kept is not None and kept[0] is card and kept[1] == stones:  # the same card, the same Codestones
        total = kept[2]
    else:
        total = printed(neopet, key)
        neopet.printed[key] = (card, list(stones), total)
    total += _modified(state, player, name)
    for lasting in state.lasting:
        if lasting.kind == "modify" and lasting.what == name and lasting.affects == player:
            total += lasting.amount
    if total < 0:
        return 0
    return STAT_CAP if total > STAT_CAP and name in CAPPED else total


def printed(neopet: ActiveNeopet, key: str) -> int:
    """The printed value of a stat (``key`` as in :data:`STAT_KEYS`) of an Active Neopet and
    its attached Codestones (6.2.2)."""
    defn = neopet.card.defn
    total = defn.stat(key) if defn is not None else 0
    for stone in neopet.codestones:
        if stone.defn is not None:
            total += stone.defn.stat(key)
    return total


def _modified(state: NeopetsState, player: str, name: str) -> int:
    """What the passive stat changes in force add to a stat of a player's Neopet (6.2.3).

    When none of them has a condition, the sums per player and stat are worked out once
    per board (``_Board.modifiers``); otherwise the conditions are read at every call.
    """
    board: _Board | None = state.board_cache  # type: ignore[assignment]
    if board is None or board.version != state.play_version or board.active != state.active:  # not stands(...), spelt out
        board = _board(state)
    table = board.modifiers
    if table is None:
        steps = passive_steps(state, A.Modify)
        if not isinstance(steps, tuple):  # a condition decides: read it now
            return sum(step.delta if isinstance(step.delta, int) else 0 for controller, step in steps
                       if step.stat == name and player in neopet_owner(state, controller, step.target))
        table = {}
        for controller, step in steps:
            for owner in set(neopet_owner(state, controller, step.target)):
                table[owner, step.stat] = table.get((owner, step.stat), 0) + (step.delta if isinstance(step.delta, int) else 0)
        board.modifiers = table
    return table.get((player, name), 0)


def level(state: NeopetsState, player: str) -> int:
    """A player's level: Codestones attached to their Neopet (our reading of 6.4, 7.3.6.p2)."""
    side = state.sides[player]
    return 0 if side.neopet is None else len(side.neopet.codestones)


def prohibited(state: NeopetsState, player: str, action: str) -> bool:
    """Whether a can't in force stops ``player`` (or their Neopet) from ``action``."""
    for lasting in state.lasting:
        if lasting.kind == "prohibit" and lasting.affects == player and lasting.what == action:
            return True
    return any(step.action == action and player in who(state, controller, step.subject.owner)
               for controller, step in passive_steps(state, A.Prohibit))


def permitted(state: NeopetsState, player: str, action: str) -> int:
    """How many grants of ``action`` are in force for ``player``."""
    count = sum(1 for x in state.lasting if x.kind == "permit" and x.affects == player and x.what == action)
    return count + sum(1 for controller, step in passive_steps(state, A.Permit)
                       if step.action == action and player in who(state, controller, step.subject.owner))


def immune(state: NeopetsState, player: str, status: str) -> bool:
    """Whether a player's Neopet is immune to ``status`` (8.20.5a)."""
    for lasting in state.lasting:
        if lasting.kind == "immune" and lasting.affects == player and lasting.what == status:
            return True
    return any(step.to == status and player in neopet_owner(state, controller, step.target)
               for controller, step in passive_steps(state, A.Immune))


def amount(value: A.Amount, variables: dict[str, object]) -> int:
    """A number of card text, reading variables such as the roll result."""
    if isinstance(value, int):
        return value
    found = variables.get(value.name)
    if isinstance(found, int):
        return found
    raise Unmodelled(f"the spec cannot evaluate {value.name!r} here")


MEASURED: Final = ("result", "damage", "cards", "map_pieces", "controls", *STAT_KEYS)
"""The subjects :func:`condition_holds` measures."""

COMPARISONS: Final = (">=", "<=", "==")
"""The comparisons it makes (``controls`` tests a kind of card, not a number)."""


def condition_gap(cond: A.Condition, after_roll: bool) -> str | None:
    """Why :func:`condition_holds` cannot test ``cond`` whatever the state, or ``None``.

    ``after_roll``: the condition is one an effect that rolls tests as it resolves, which may
    read what its roll showed; any other (of a passive ability, of when a card may be queued,
    of an effect without a roll) has no roll to read.
    """
    subject, value = cond.subject, cond.value
    if subject not in MEASURED:
        return f"the spec has no meaning for the condition {subject!r}"
    if subject != "result" and cond.of is not None and cond.of.owner not in ONE_PLAYER:
        return f"the condition on {subject!r} of {cond.of.owner!r} players is not modelled"
    if subject == "controls":
        return None
    if not isinstance(value, int | A.Var):
        return f"the spec cannot compare {subject!r} with {value!r}"
    if cond.op not in COMPARISONS:
        return f"the spec has no meaning for the comparison {cond.op!r}"
    if not after_roll and (subject == "result" or isinstance(value, A.Var)):
        return f"the condition on {subject!r} is not tested after a roll of its effect, so no roll can give its number"
    return None


def condition_holds(state: NeopetsState, controller: str, cond: A.Condition, variables: dict[str, object]) -> bool:
    """Whether a condition of card text holds now."""
    subject = cond.subject
    if subject == "result":
        measured = amount(A.Var("result"), variables)
    elif subject == "damage":
        owner = one_player(state, controller, (cond.of.owner if cond.of else None) or "you")  # neopet_owner, for one
        neopet = state.sides[owner].neopet
        measured = 0 if neopet is None else neopet.damage
    elif subject in STAT_KEYS:
        owner = one_player(state, controller, (cond.of.owner if cond.of else None) or "you")  # neopet_owner, for one
        measured = stat(state, owner, subject)
    elif subject == "cards":
        owner = one_player(state, controller, cond.of.owner if cond.of else "you")
        measured = len(state.sides[owner].inventory)
    elif subject == "map_pieces":
        owner = one_player(state, controller, cond.of.owner if cond.of else "you")
        measured = sum(1 for c in state.sides[owner].play_area if c.defn is not None and c.defn.type == "Map Piece")
    elif subject == "controls":
        owner = one_player(state, controller, cond.of.owner if cond.of else "you")
        side = state.sides[owner]
        kinds = [c.defn.type for c in side.faerie + side.equipment + side.play_area.cards if c.defn is not None]
        return (cond.value in kinds) != (cond.op == "not")
    else:
        raise Unmodelled(f"the spec has no meaning for the condition {subject!r}")
    target = cond.value if isinstance(cond.value, int) else amount(cond.value, variables) if isinstance(cond.value, A.Var) else None
    if target is None:
        raise Unmodelled(f"the spec cannot compare {subject!r} with {cond.value!r}")
    if cond.op == ">=":
        return measured >= target
    if cond.op == "<=":
        return measured <= target
    if cond.op == "==":
        return measured == target
    raise Unmodelled(f"the spec has no meaning for the comparison {cond.op!r}")


def name_matches(card_name: str, words: str) -> bool:
    """A name reference (9.9.1.p1): the name contains the words, ignoring punctuation and plurals."""
    return name_exists(words, True, (card_name,))


def selector_accepts(defn: CardDef | None, sel: A.Selector) -> bool:
    """Whether a card of that definition is of the kind a selector names."""
    if defn is None:
        return False
    if sel.type not in ("card", "Neopet") and defn.type != sel.type:
        return False
    if sel.type == "card" and defn.type in ("Neopet", "Rainbow Pool Neopet"):
        return False  # Neopets are not cards for effects (8.13.2.p1)
    if sel.name_contains is not None and not name_matches(defn.name, sel.name_contains):
        return False
    return sel.team is None or defn.team == sel.team
