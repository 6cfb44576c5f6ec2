"""Read-only questions about a Bakugan state, shared by the rule checks and the effects.

A Bakugan's numbers follow the rules on stats: the top card of its pile counts (3.3.3),
then the BakuCores it holds (6.5.2, 6.5.2.1), static abilities in play (6.5.3.p2) and the
turn's changes (3.5.3.p1); BPower and Damage Rating below zero count as zero (2.9.2,
2.10.2, 1.8.1.1.1). Card text comes from the grammar; a card whose text does not parse
raises :class:`Unmodelled`, which the verifier reports as unverifiable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Final, cast

from grammar import ast as A
from grammar import bakugan_nodes as K
from spec.bakugan.state import Bakugan, BakuganState
from spec.core.cards import CardDef
from spec.core.interpreter import by_trigger_event
from spec.core.state import CardObj

FACTIONS: Final = K.FACTIONS

CORE_BONUS: Final[dict[str, tuple[int, int]]] = {
    "FT": (200, 0),
    "FF": (100, 1),
    "SD": (100, 0),
    "MS": (0, 1),
    "HE": (300, 0),
}
"""What the underside of each BakuCore gives the Bakugan holding it: (BPower, Damage Rating).

The book leaves the printed bonuses to the physical BakuCores (1.12.1); the spec fixes
one value per icon (``docs/bakugan-decisions.rst``)."""

STATS: Final = ("BPower", "Damage Rating", "FrostStrike", "DoubleStrike", "ShadowStrike")
BASE_KEY: Final = {"BPower": "bpower", "Damage Rating": "damage"}


PRINTING_NOTE: Final = re.compile(r"(.*?) \((.+)\)")
"""A name followed by a note in parentheses: the mark of one printing among several cards of
that name ("Pegatrix (Aquos, BB)"), or a Hero's Hero ID (see ``game.card_identity``)."""


def plain_name(name: str) -> str:
    """A card's name without the note of its printing: ``"Pegatrix (Aquos, BB)"`` is ``"Pegatrix"``."""
    found = PRINTING_NOTE.fullmatch(name)
    return found.group(1) if found else name


def evolves(evo: CardDef, character: str, cards: Any = None) -> bool:
    """Whether an Evo's Evo ID names the Character ``character`` (2.16.2.p2, decision 4).

    The Evo ID is a Character's name as printed, so it names every printing of that name:
    ``"Serpenteze"`` names ``"Serpenteze (Darkus, BB)"`` as well. An Evo ID that puts a
    Faction before the name (``"Aquos Gorthion"``) names only a Character of that Faction
    (3.3.1), as its printed icons in ``cards`` show; without them it names none.
    """
    wanted = evo.stats.get("evolves_from")
    if not isinstance(wanted, str):
        return False
    names = (character, plain_name(character))
    if wanted in names:
        return True
    faction, _, name = wanted.partition(" ")
    if faction not in FACTIONS or name not in names:
        return False
    defn = cards.get(character) if cards is not None else None
    return defn is not None and faction in defn.traits


def not_held(cards: Any, name: str) -> str:
    """Why ``name`` is no card of the database (:func:`printings_of` added)."""
    return f"{name!r} is not in the card database {cards.name}{printings_of(cards, name)}"


def printings_of(cards: Any, name: str) -> str:
    """The printings of ``name`` the database holds, where a pool prints several cards under
    it and a log gives the plain name ("; it holds ..."), or ``""``."""
    printings = [c.name for c in cards if c.name != name and plain_name(c.name) == name]
    return f"; it holds {', '.join(map(repr, printings))}, each a card of its own: name the one meant" if printings else ""


class Unmodelled(Exception):
    """The spec cannot give meaning to something the log uses (a card, a step)."""


def text_of(state: BakuganState, name: str) -> A.CardText:
    """The parsed text of a card; raises :class:`Unmodelled` if it does not parse."""
    cache: dict[str, A.CardText | str] | None = state.cards.__dict__.get("_bakugan_texts")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_texts"] = {}
    found = cache.get(name)
    if found is None:
        if name not in state.cards:
            found = not_held(state.cards, name)
        else:
            tree = state.cards.tree(name)
            if isinstance(tree, Exception):
                found = f"the text of {name!r} does not parse: {tree}"
            elif A.unknown_parts(tree):
                found = f"the text of {name!r} has parts the grammar does not cover"
            else:
                found = as_read(tree, state.cards[name].type)
        cache[name] = found
    if isinstance(found, str):
        raise Unmodelled(found)
    return found


def as_read(tree: A.CardText, card_type: str) -> A.CardText:
    """A card's text as the spec carries it out: on a card that stays in play (a Hero, Character
    or Evo), a rider that waits for a moment ("Fury - At the end of the turn, if ..., ...") is a
    triggered ability of that moment whose effect opens with the rider's condition (decision 46).
    Its keyword only names it: no rule gives the word a meaning of its own. A Victor rider, and
    any rider of an Action or Flip card, stays as printed."""
    if card_type in ("Action", "Flip") or not any(timed_rider(a) for a in tree.abilities):
        return tree
    read = tuple(A.Triggered(a.trigger, a.effect if a.condition is None else (A.If(a.condition, a.effect),))
                 if timed_rider(a) else a for a in tree.abilities)
    return A.CardText(read)


def timed_rider(ability: Any) -> bool:
    """A rider that waits for a moment, but a Victor rider (which happens as its Bakugan is declared the Victor)."""
    return isinstance(ability, K.Rider) and ability.trigger is not None and ability.keyword != "Victor"


def abilities(state: BakuganState, name: str | None, kind: type | tuple[type, ...]) -> tuple[Any, ...]:
    """The abilities of one kind on a card, in printed order (read once per card and kind)."""
    if name is None:
        return ()
    cache: dict[tuple[str, Any], tuple[Any, ...]] | None = state.cards.__dict__.get("_bakugan_abilities")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_abilities"] = {}
    found = cache.get((name, kind))
    if found is None:
        found = cache[(name, kind)] = tuple(a for a in text_of(state, name).abilities if isinstance(a, kind))
    return found


def triggers(state: BakuganState, name: str | None, event: str) -> tuple[A.Triggered, ...]:
    """The triggered abilities of a card that watch ``event``, in printed order (read once per card and event)."""
    if name is None:
        return ()
    cache: dict[tuple[str, str], tuple[A.Triggered, ...]] | None = state.cards.__dict__.get("_bakugan_triggers")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_triggers"] = {}
    found = cache.get((name, event))
    if found is None:
        found = cache[(name, event)] = tuple(a for a in abilities(state, name, A.Triggered) if a.trigger.event == event)
    return found


def triggers_by_event(state: BakuganState, name: str | None) -> dict[str, tuple[A.Triggered, ...]]:
    """The triggered abilities of a card by the event each watches, in printed order (read once per card);
    the events in the order their first ability is printed."""
    if name is None:
        return {}
    cache: dict[str, dict[str, tuple[A.Triggered, ...]]] | None = state.cards.__dict__.get("_bakugan_triggers_by_event")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_triggers_by_event"] = {}
    found = cache.get(name)
    if found is None:
        found = cache[name] = by_trigger_event(abilities(state, name, A.Triggered))
    return found


def keyword(state: BakuganState, name: str | None, word: str) -> A.Keyword | None:
    for ability in abilities(state, name, A.Keyword):
        if ability.name == word:
            return ability
    return None


def type_of(state: BakuganState, name: str) -> str:
    defn = state.cards.get(name)
    return "" if defn is None else defn.type


# ====================================================================== factions (2.5)

def card_factions(state: BakuganState, defn: CardDef | None) -> frozenset[str]:
    """A card's Factions: its icons (2.5.1, 2.5.1.2), all six with "counts as all Factions" (2.5.1.3).

    Read once per card of the database (kept with the very card definition it was read from).
    """
    if defn is None:
        return frozenset()
    cache: dict[str, tuple[CardDef, frozenset[str]]] | None = state.cards.__dict__.get("_bakugan_factions")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_factions"] = {}
    kept = cache.get(defn.name)
    if kept is not None and kept[0] is defn:
        return kept[1]
    found = frozenset(defn.traits)
    try:
        if keyword(state, defn.name, "all_factions") is not None:
            found = frozenset(FACTIONS)
    except Unmodelled:
        pass  # an unreadable text gives no extra Factions; the card is reported where it is used
    cache[defn.name] = (defn, found)
    return found


def factions(state: BakuganState, bak: Bakugan) -> frozenset[str]:
    """A Bakugan's Factions: those of the top card of its pile (3.3.3)."""
    return card_factions(state, bak.top.defn)


# ====================================================================== who and which

def owner_of(state: BakuganState, controller: str, relative: str | None) -> list[str]:
    """Players meant by ``you``/``opponent`` from the controller's side (all when unsaid)."""
    if relative in ("you", "controller", "owner"):
        return [controller]
    if relative == "opponent":
        return [state.other(controller)]
    return list(state.players)


def team_matches(facs: frozenset[str], team: str | None) -> bool:
    """Whether Factions ``facs`` meet a selector's ``team`` (``Aquos``, ``non-Aquos``)."""
    if team is None:
        return True
    if team.startswith("non-"):
        return team[4:] not in facs
    return team in facs


def bakugan_matches(state: BakuganState, controller: str, sel: A.Selector, player: str, bak: Bakugan) -> bool:
    """Whether ``player``'s ``bak`` is one of the Bakugan ``sel`` describes, seen by ``controller``."""
    if sel.type not in ("Bakugan", "card", "Character"):
        return False
    if sel.owner is not None and player not in owner_of(state, controller, sel.owner):
        return False
    if sel.zone == "open" and not bak.open:
        return False
    return team_matches(factions(state, bak), sel.team)


def all_bakugan(state: BakuganState) -> Iterator[tuple[str, Bakugan]]:
    """Every Bakugan the log has named, starting player's first."""
    order = state.turn_order
    for player in order:
        for bak in state.sides[player].team.values():
            yield player, bak


def face_up(state: BakuganState) -> list[tuple[str, Bakugan]]:
    """The face-up Bakugan: those a card may affect without a selection (1.13.1.2)."""
    found: list[tuple[str, Bakugan]] = []
    for player in state.turn_order:  # the order of all_bakugan
        found += [(player, b) for b in state.sides[player].team.values() if b.face_up]
    return found


# ====================================================================== stats

_Modifiers = tuple[tuple[tuple[A.Modify, A.Condition | None, frozenset[str] | None], ...], tuple[tuple[A.Modify, A.Condition | None], ...]]


def _modifiers(state: BakuganState, name: str | None, stat: str) -> _Modifiers:
    """The static changes of ``stat`` a card prints, in printed order (see :func:`_statics_of`).

    First as the top of a pile, each (change, condition, the BakuCore icons a BakuCore static
    asks for, else ``None``); then as a Hero, each (change, condition). A text that does not
    read raises :class:`Unmodelled`.
    """
    if name is None:
        return (), ()
    return _statics_of(state, name).get(stat, ((), ()))


def _statics_of(state: BakuganState, name: str) -> dict[str, _Modifiers]:
    """Stat -> the static changes of it a card prints, for the stats it changes only; read once per card.

    As the top of a pile (BakuCore statics with no condition, statics, riders without a moment
    but Victor: a rider on a Character or Evo is a conditional static), each (change, condition,
    the BakuCore icons a BakuCore static asks for, else ``None``); as a Hero (its statics), each
    (change, condition). A stat the card does not change has no entry, so a stat nothing in play
    changes costs one look-up. A text that does not read raises :class:`Unmodelled`.
    """
    cache: dict[str, dict[str, _Modifiers]] | None = state.cards.__dict__.get("_bakugan_statics")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_statics"] = {}
    found = cache.get(name)
    if found is None:
        pile: list[tuple[A.Modify, A.Condition | None, frozenset[str] | None]] = []
        for ability in abilities(state, name, (A.Passive, K.CoreStatic, K.Rider)):
            if isinstance(ability, K.CoreStatic):
                pile.extend((step, None, frozenset(ability.cores)) for step in ability.effect if isinstance(step, A.Modify))
            elif isinstance(ability, A.Passive) or ability.keyword != "Victor" and ability.trigger is None:
                pile.extend((step, ability.condition, None) for step in ability.effect if isinstance(step, A.Modify))
        hero = [(step, ability.condition) for ability in abilities(state, name, A.Passive) for step in ability.effect
                if isinstance(step, A.Modify)]
        found = cache[name] = {stat: (tuple(m for m in pile if m[0].stat == stat), tuple(m for m in hero if m[0].stat == stat))
                               for stat in dict.fromkeys([m[0].stat for m in pile] + [m[0].stat for m in hero])}
    return found


def _own(sel: A.Selector) -> bool:
    """A selector meaning the Bakugan the card itself belongs to."""
    return sel.quantifier in ("the", "this") and sel.owner is None and sel.team is None


_HeroStatics = dict[str, tuple[tuple[str, A.Modify, A.Condition | None], ...]]


def _hero_statics(state: BakuganState) -> _HeroStatics | None:
    """Stat -> the statics of the Heroes in play that change it for every Bakugan they describe
    (6.5.3.p2), each (controller, change, condition), seated player's first, each player's Heroes
    in order: the order :func:`raw_stat` adds them in. ``None`` when a Hero's text does not read
    (then each reading goes Hero by Hero, raising where the plain reading raises).

    Read once, and again only after the Heroes change: :attr:`BakuganState.statics` is dropped
    with the index of triggered abilities (:meth:`BakuganState.in_play_changed`).
    """
    index = state.statics
    if index is None:
        built: dict[str, list[tuple[str, A.Modify, A.Condition | None]]] = {}
        try:
            for controller in state.players:
                for hero in state.sides[controller].heroes:
                    if hero.name is None:
                        continue
                    for stat, (_pile, changes) in _statics_of(state, hero.name).items():
                        for step, condition in changes:
                            if step.target.quantifier == "all":
                                built.setdefault(stat, []).append((controller, step, condition))
        except Unmodelled:
            return None
        index = state.statics = {stat: tuple(found) for stat, found in built.items()}
    return index


def raw_stat(state: BakuganState, player: str, bak: Bakugan, stat: str) -> int:
    """A Bakugan's stat before values under zero are read as zero."""
    top = bak.evos[-1] if bak.evos else bak.character  # bak.top
    defn = top.defn
    base = BASE_KEY.get(stat)
    value = defn.stat(base) if defn is not None and base is not None else 0
    added = 0  # the turn's changes that add to it (3.5.3.p1), read with the set values in one pass
    if state.lasting:
        name, uid = bak.name, bak.character.uid
        for change in state.lasting:
            if change.stat == stat and change.bakugan == name and change.player == player and change.uid == uid:
                if change.base:
                    value = change.amount  # 2.9.3, 2.10.3: a set value replaces the base
                else:
                    added += change.amount
    if base is not None and bak.holding:
        index = 0 if stat == "BPower" else 1
        for slot in bak.holding:
            icon = state.field_cores.get(slot, ("", ""))[0]
            value += CORE_BONUS.get(icon, (0, 0))[index]  # 6.5.2: the held BakuCore's bonus
    printed = _statics_of(state, top.name).get(stat) if top.name is not None else None
    if printed is not None and printed[0]:  # statics printed on the Bakugan itself
        held: set[str] | None = None
        for step, condition, cores in printed[0]:
            if cores is not None:  # 6.5.2.1: while it holds such a BakuCore
                if held is None:
                    held = {state.field_cores[s][0] for s in bak.holding if s in state.field_cores}
                if not held & cores:
                    continue
            if _own(step.target) and (condition is None or condition_holds(state, player, condition, {"self": (player, bak.name)})):
                value += amount(step.delta, {})
    heroes = state.statics if state.statics is not None else _hero_statics(state)
    if heroes is None:  # a Hero's text does not read: Hero by Hero, as far as it goes
        for controller in state.players:  # 6.5.3.p2: the Heroes' statics
            for hero in state.sides[controller].heroes:
                for step, condition in _modifiers(state, hero.name, stat)[1]:
                    if step.target.quantifier == "all" and bakugan_matches(state, controller, step.target, player, bak) and (
                            condition is None or condition_holds(state, controller, condition, {"self": (player, bak.name)})):
                        value += amount(step.delta, {})
    else:
        for controller, step, condition in heroes.get(stat, ()):  # 6.5.3.p2: the Heroes' statics
            if bakugan_matches(state, controller, step.target, player, bak) and (
                    condition is None or condition_holds(state, controller, condition, {"self": (player, bak.name)})):
                value += amount(step.delta, {})
    return value + added


def stat(state: BakuganState, player: str, bak: Bakugan, stat_name: str) -> int:
    """A Bakugan's stat as the rules read it: never under zero (2.9.2, 2.10.2, 1.8.1.1.1)."""
    return max(0, raw_stat(state, player, bak, stat_name))


def stats(state: BakuganState, player: str, bak: Bakugan, names: tuple[str, ...]) -> list[int]:
    """Several stats of one Bakugan, each as :func:`stat` reads it (never under zero), in the order named.

    A stat with no printed value (the strikes) that nothing can change, no static of its top card
    or of a Hero in play and no change made this turn, is zero without reading it stat by stat.
    """
    top = bak.evos[-1] if bak.evos else bak.character  # bak.top
    printed = _statics_of(state, top.name) if top.name is not None else {}
    heroes = state.statics if state.statics is not None else _hero_statics(state)
    changed = {change.stat for change in state.lasting} if state.lasting else ()
    found: list[int] = []
    for name in names:
        if name not in BASE_KEY and name not in printed and heroes is not None and name not in heroes and name not in changed:
            found.append(0)  # what raw_stat gives: no base, nothing adds to it
        else:
            found.append(max(0, raw_stat(state, player, bak, name)))
    return found


# ====================================================================== costs (1.15, 2.3)

def printed_cost(defn: CardDef | None, x: int | None = None) -> int:
    """A card's Energy cost as printed; X is zero outside the batch, the paid X inside (1.8.1.2)."""
    if defn is None or defn.cost is None:
        return 0
    if defn.cost == "X":
        return x or 0
    return int(defn.cost) if isinstance(defn.cost, int) else 0


def cost_changes(state: BakuganState, player: str, defn: CardDef) -> tuple[int, bool]:
    """Cost changes in force for ``player`` playing ``defn``: (sum of deltas, made free)."""
    delta, free = 0, False
    for ability in abilities(state, defn.name, K.Rider):  # 6.5.3.p1: "this costs..." works from the hand
        for step in ability.effect:
            if isinstance(step, K.CostChange) and step.what.quantifier == "this" and (
                    ability.condition is None or condition_holds(state, player, ability.condition, {})):
                delta += amount(step.delta, {})
                free = free or step.free
    for hero in state.sides[player].heroes:
        for ability in abilities(state, hero.name, A.Passive):
            for step in ability.effect:
                if isinstance(step, K.CostChange) and step.what.type in (defn.type, "card") and (
                        ability.condition is None or condition_holds(state, player, ability.condition, {})):
                    delta += amount(step.delta, {})
                    free = free or step.free
    return delta, free


def cost_to_pay(state: BakuganState, player: str, defn: CardDef, x: int | None, free: bool = False) -> int:
    """The Energy a play costs: printed (or zero when free, 2.3.3) plus changes, never under zero (1.15.2)."""
    delta, made_free = cost_changes(state, player, defn)
    base = 0 if free or made_free else printed_cost(defn, x)
    return max(0, base + delta)


# ====================================================================== conditions and amounts

def amount(value: A.Amount | Any, vars: dict[str, Any]) -> int:
    """A number of the effect tree: a literal, or a variable the resolution knows."""
    if isinstance(value, int):
        return value
    if isinstance(value, A.Var):
        found = vars.get("x" if value.name == "X" else value.name)  # 1.8.1.2.2: X is the Energy paid
        if isinstance(found, int):
            return found
        raise Unmodelled(f"the amount {value.name!r} is not modelled")
    raise Unmodelled(f"the amount {value!r} is not modelled")


def cores_held(state: BakuganState, player: str) -> int:
    return sum(len(b.holding) for b in state.sides[player].team.values())


ConditionReader = Callable[[BakuganState, str, A.Condition, dict[str, Any]], bool]
"""Reads one shape of condition now: ``(state, controller, condition, context)``. The context
names the Bakugan the effect is about (``implied``), the one whose ability it is (``self``),
the coin's side (``coin``), whether the card counted among the plays is this one
(``played_self``), how the effect's own Reroll ended (``rerolled``: open, missed or none),
whether its own Retract closed a Bakugan (``done``)."""


def _hand_count(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """"If you (your opponent) have no cards in hand": the hand of the player the text names."""
    whose = state.other(controller) if cond.of is not None and cond.of.owner == "opponent" else controller
    return len(state.sides[whose].hand) == cond.value


def _most_cores(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    return cores_held(state, controller) > cores_held(state, state.other(controller))


def _most_energy(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    return len(state.sides[controller].energy) > len(state.sides[state.other(controller)].energy)


def _cores_held(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    me = ctx.get("self")
    bak = state.bakugan(*me) if me else None
    return bak is not None and len(bak.holding) >= cast(int, cond.value)


def _plays(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    plays = state.flags.plays.get(controller, 0)
    if cond.of is not None and cond.of.other and ctx.get("played_self"):
        plays -= 1
    return plays >= cast(int, cond.value)


def _faction(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    target = ctx.get("implied")
    bak = state.bakugan(*target) if target else None
    return bak is not None and str(cond.value) in factions(state, bak)


def _outcome(ctx: dict[str, Any], key: str) -> Any:
    """What an earlier step of the effect left in its context (the coin's side, how its Reroll
    ended); see :data:`AFTER` for why it is always there when the text reads it."""
    found = ctx.get(key)
    if found is None:
        raise Unmodelled(f"the condition on the {key} is read only after the effect's own step")
    return found


def _coin(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    return bool(_outcome(ctx, "coin") == cond.value)


def _damage_dealt(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """"If you deal N or more damage in an attack": the damage the attack that set the ability
    off dealt (decision 45); anywhere else there is no such attack to read."""
    dealt = ctx.get("damage")
    if not isinstance(dealt, int):
        raise Unmodelled("the condition on the damage dealt is read only in an ability an attack's damage sets off")
    return dealt >= cast(int, cond.value)


def _done(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """"If you do": the effect's own Retract before it closed a Bakugan (decision 33)."""
    return bool(_outcome(ctx, "done"))


def _named(state: BakuganState, cond: A.Condition, ctx: dict[str, Any], own: tuple[str, ...]) -> tuple[str, Bakugan]:
    """The Bakugan a condition speaks of, and its player (:func:`named_bakugan`)."""
    return named_bakugan(state, cond.of, ctx, own, f"the condition on {cond.subject}")


def named_bakugan(state: BakuganState, sel: A.Selector | None, ctx: dict[str, Any], own: tuple[str, ...],
                  asking: str) -> tuple[str, Bakugan]:
    """The Bakugan a text speaks of, and its player: its own Bakugan (``self``) when ``sel``
    names it with one of ``own`` ("it", "this"), else the one the effect is about
    (``implied``, "that Bakugan", "your Bakugan"). Never guessed: :class:`Unmodelled` naming
    what was ``asking`` when none is known."""
    named: tuple[str, str] | None = ctx.get("self") if sel is not None and sel.quantifier in own else ctx.get("implied")
    bak = state.bakugan(*named) if named else None
    if named is None or bak is None:
        raise Unmodelled(f"the Bakugan {asking} reads is not known here")
    return named[0], bak


def _discards_of(kind: str) -> Callable[[BakuganState, str], int]:
    """A count of the player's discards of one card type. The discard pile is face up for
    anyone to see (4.5.2), so every card in it is known; one that is not (a log that never
    named it) makes the count unmodelled, never guessed."""
    def count(state: BakuganState, player: str) -> int:
        pile = state.sides[player].discard
        if pile.hidden or any(card.defn is None for card in pile.cards):
            raise Unmodelled(f"the discard pile holds cards the log never named, so its {kind} cards cannot be counted")
        return sum(1 for card in pile.cards if card.defn is not None and card.defn.type == kind)
    return count


COUNTED: Final[dict[tuple[str, str], Callable[[BakuganState, str], int]]] = {
    ("play", "Hero"): lambda state, player: len(state.sides[player].heroes),  # 4.6.1
    ("play", "Energy"): lambda state, player: len(state.sides[player].energy),  # 3.7.2, 4.6.1: energized cards
    ("discard pile", "card"): lambda state, player: len(state.sides[player].discard),
    ("open", "Bakugan"): lambda state, player: sum(1 for bak in state.sides[player].team.values() if bak.open),
    **{("discard pile", kind): _discards_of(kind) for kind in ("Character", "Evo", "Hero", "Action", "Flip")},
}
"""What a "you have N (or more) ... in <zone>" condition counts, by zone and type: a
player's Heroes or Energy cards in the play area, cards in the discard pile (all, or those
of one card type), open Bakugan."""


def _count_of_yours(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    assert cond.of is not None and isinstance(cond.value, int)
    counted = COUNTED[cond.of.zone or "", cond.of.type](state, controller)
    return counted >= cond.value if cond.op == ">=" else counted == cond.value


def _rerolled(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """"If you open on the Reroll": the Reroll this effect made opened its Bakugan (as the spec
    read the roll); no Reroll made (a can't, nothing to reroll) opened nothing."""
    return bool(_outcome(ctx, "rerolled") == "open")


def _stat_reached(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """"If the Bakugan's [Damage Rating] becomes 10 or greater": the stat as the rules read it
    (2.9.2, 2.10.2) of the Bakugan the effect is about, tested as the effect completes
    (6.3.5), so after the changes its earlier steps made."""
    player, bak = _named(state, cond, ctx, ("it", "this"))
    value = stat(state, player, bak, cond.subject)
    target = cast(int, cond.value)
    return value >= target if cond.op == ">=" else value <= target if cond.op == "<=" else value == target


def _controls(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """4.6.1: a card "you control" is one of yours in the play area: a Hero, a team Bakugan's
    Character card or an Evo on it."""
    side = state.sides[controller]
    names = {hero.name for hero in side.heroes}
    for bak in side.team.values():
        names.add(bak.character.name)
        names.update(evo.name for evo in bak.evos)
    return cond.value in names


def _holding_core(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """6.5.2: a Bakugan holds the BakuCores it opened on; "that Bakugan" is the one the effect is
    about, "it" (a Bakugan's own text) the Bakugan itself."""
    _player, bak = _named(state, cond, ctx, ("it",))
    return any(state.field_cores[slot][0] == cond.value for slot in bak.holding if slot in state.field_cores)


CONDITIONS: Final[tuple[tuple[Callable[[A.Condition], bool], ConditionReader], ...]] = (
    (lambda c: c.subject == "count" and c.of is not None and c.of.zone == "hand" and c.op == "==", _hand_count),
    (lambda c: c.subject == "most" and c.op == "has" and c.value == "BakuCore", _most_cores),
    (lambda c: c.subject == "most" and c.op == "has" and c.value == "Energy", _most_energy),
    (lambda c: c.subject == "cores" and c.op == ">=" and isinstance(c.value, int), _cores_held),
    (lambda c: c.subject == "played" and c.op == ">=" and isinstance(c.value, int), _plays),
    (lambda c: c.subject == "faction" and c.op == "is", _faction),
    (lambda c: c.subject == "coin" and c.op == "is", _coin),
    (lambda c: c.subject == "count" and c.op in (">=", "==") and isinstance(c.value, int) and c.of is not None
     and c.of.owner == "you" and (c.of.zone or "", c.of.type) in COUNTED, _count_of_yours),
    (lambda c: c.subject == "reroll" and c.op == "is" and c.value == "open", _rerolled),
    (lambda c: c.subject in STATS and c.op in (">=", "<=", "==") and isinstance(c.value, int) and c.of is not None
     and c.of.type == "Bakugan" and c.of.quantifier in ("the", "that", "it", "this"), _stat_reached),
    (lambda c: c.subject == "controls" and c.op == "has" and isinstance(c.value, str) and c.of is not None
     and c.of.owner == "you", _controls),
    (lambda c: c.subject == "holding" and c.op == "has" and c.of is not None and c.of.quantifier in ("that", "the", "it"),
     _holding_core),
    (lambda c: c.subject == "done" and c.op == "is" and c.value == "yes", _done),
    (lambda c: c.subject == "damage" and c.op == ">=" and isinstance(c.value, int) and c.of is None, _damage_dealt),
)
"""The shapes of condition the spec reads (a test of the shape, its reader): one list for
:func:`condition_holds` and for :func:`condition_gap`, so that lint knows before any replay
what the spec cannot test."""


AFTER: Final[dict[str, type]] = {"coin": K.FlipCoin, "reroll": A.Reroll, "done": K.Retract}
"""Conditions on what an earlier step of the same effect did, and that step: the coin it
flipped, the Reroll it made, the Retract it made ("if you do"), each of which leaves its
outcome in the effect's context. Anywhere else (a static, an effect without that step)
there is nothing for the condition to read."""


def condition_gap(cond: A.Condition, earlier: tuple[type, ...] = ()) -> str | None:
    """Why the spec cannot test ``cond`` whatever the state, or ``None``: no reader of its
    shape, or (:data:`AFTER`) none of ``earlier``, the kinds of step before it in its effect,
    is the step whose outcome it reads."""
    if not any(shape(cond) for shape, _reader in CONDITIONS):
        return f"the condition {cond.subject} {cond.op} {cond.value} is not modelled"
    needed = AFTER.get(cond.subject)
    if needed is not None and needed not in earlier:
        return f"the condition on the {cond.subject} is read only after the effect's own step ({needed.__name__})"
    return None


def condition_holds(state: BakuganState, controller: str, cond: A.Condition, ctx: dict[str, Any]) -> bool:
    """Whether a condition of card text holds now (6.3.5, 6.4.4, 6.7.1.1: tested when it matters)."""
    for shape, reader in CONDITIONS:
        if shape(cond):
            return reader(state, controller, cond, ctx)
    raise Unmodelled(str(condition_gap(cond)))


def in_discard_pile(state: BakuganState, player: str, card: CardObj) -> CardObj | None:
    """``card`` as it lies in ``player``'s discard pile now (found by its uid, which a copied state
    keeps), or ``None`` once it has left."""
    return next((c for c in state.sides[player].discard.cards if c.uid == card.uid), None)


# ====================================================================== play area

def hero_in_play(state: BakuganState, player: str, name: str) -> CardObj | None:
    for hero in state.sides[player].heroes:
        if hero.name == name:
            return hero
    return None


def reads_every(sel: A.Selector) -> bool:
    """Whether :func:`in_play_of` finds every card in play ``sel`` describes: Heroes, Evos, or
    Energy cards of no Faction named (face down, 3.7.3: no Factions to tell)."""
    return sel.type in ("Hero", "Evo") or sel.type == "Energy" and sel.team is None


def in_play_of(state: BakuganState, controller: str, sel: A.Selector, source: Any = None) -> list[CardObj]:
    """Every card in play a selector of all cards describes ("all enemy Heroes", "all other
    Evos"): the players' Heroes, Evos (each of a Bakugan's, 3.3.2) or Energy cards, of the
    Factions it names, other than ``source`` when it says "other" (:func:`reads_every`)."""
    if not reads_every(sel):
        raise Unmodelled(f"every {sel.describe()} in play is not modelled")
    out: list[CardObj] = []
    for player in owner_of(state, controller, sel.owner):
        side = state.sides[player]
        if sel.type == "Hero":
            pool = list(side.heroes)
        elif sel.type == "Evo":
            pool = [evo for bak in side.team.values() for evo in bak.evos]
        else:
            pool = [energy.card for energy in side.energy]
        for card in pool:
            if sel.other and card is source:
                continue
            if sel.team is not None and (card.defn is None or not team_matches(card_factions(state, card.defn), sel.team)):
                continue
            out.append(card)
    return out


def working_sources(state: BakuganState) -> Iterator[tuple[str, CardObj, Bakugan | None]]:
    """Cards whose triggered abilities work now: top cards of the teams, then Heroes (6.5.3.p2).

    Starting player's first, so simultaneous triggers enter the batch in that order (6.3.3).
    """
    order = state.turn_order
    for player in order:
        side = state.sides[player]
        for bak in side.team.values():
            yield player, bak.top, bak
        for hero in side.heroes:
            yield player, hero, None
