"""Read-only questions about an Epic Battles state, shared by the checks, the flow and the effects.

Card text comes from the grammar (:func:`text_of`); a card whose text does not parse,
or uses an ability the spec gives no meaning to, raises :class:`Unmodelled`, which the
verifier reports as unverifiable, naming the card. The numbers of an attack (its
damage, its cost, its traits and follow-ups) are its printed values changed by the
effects in force (:func:`damage`, :func:`cost`, :func:`traits`, :func:`follow_ups`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, Final, Literal

from grammar import ast as A
from grammar import epic_battles_nodes as N
from spec.core.cards import CardDef
from spec.core.interpreter import ONE_PLAYER, by_trigger_event, sole_player
from spec.core.state import CardObj
from spec.epic_battles.state import EpicBattlesState, Lasting, labels_of


class Unmodelled(Exception):
    """The spec cannot give meaning to something the log uses (a card, a step, an ability)."""


ZONES: Final = {"deck": "deck", "hand": "hand", "discard pile": "discard", "energy pile": "energy", "arena": "arena"}
"""Zone words of card text -> the :class:`~spec.epic_battles.state.Side` attribute."""

TRIGGER_EVENTS: Final = ("played", "blocked", "hit", "dealt_damage", "chipped", "knocked_down", "launched",
                  "recovered", "flipped", "combo_ends", "turn_begins", "turn_ends", "phase_begins", "phase_ends")
"""Moments the spec records (:class:`~spec.epic_battles.state.Occurrence`)."""

KEYWORDS: Final = ("knock_down", "launcher", "side_deck_only", "flip_any_time")
HEIGHTS: Final = ("High", "Low")


# ------------------------------------------------------------------ card text


_ROLES: Final[dict[str, str]] = {}
"""Card type -> its role (the type line alone decides it)."""


def role(defn: CardDef | None) -> str:
    """``character``, ``attack``, ``block``, ``event`` or ``""`` for a card type."""
    if defn is None:
        return ""
    found = _ROLES.get(defn.type)
    if found is None:
        low = defn.type.lower()
        found = next((word for word in ("character", "attack", "block", "event") if word in low), "")
        if len(_ROLES) < 10_000:
            _ROLES[defn.type] = found
    return found


def text_of(state: EpicBattlesState, name: str) -> A.CardText:
    """The parsed text of a card; raises :class:`Unmodelled` if it does not parse or is partial."""
    checked = state.cat.texts
    found = checked.get(name)
    if found is not None:
        return found
    tree = state.cards.tree(name)
    if isinstance(tree, Exception):
        raise Unmodelled(f"the text of {name!r} does not parse: {tree}")
    if A.unknown_parts(tree):
        raise Unmodelled(f"the text of {name!r} has parts the grammar does not cover")
    check_supported(state, name, tree)
    checked[name] = tree
    return tree


def check_supported(state: EpicBattlesState, name: str, tree: A.CardText) -> None:
    """Raise :class:`Unmodelled` for an ability the spec gives no meaning to on this kind of card."""
    kind = role(state.cards.get(name))
    for ability in tree.abilities:
        problem = _unsupported(kind, ability)
        if problem:
            raise Unmodelled(f"{name}: {problem}")


def _unsupported(kind: str, ability: object) -> str:
    if isinstance(ability, (A.Spell, A.Conditional, N.EpicBattlesRestriction, N.EpicBattlesLimit, N.EpicBattlesLinkBar)):
        if isinstance(ability, A.Spell) and kind == "character":
            return "a character has no text that is carried out when played"
        if isinstance(ability, A.Conditional) and ability.timing not in (None, "combo", "combo_start"):
            return f"the timing {ability.timing!r} is not modelled"
        if isinstance(ability, A.Conditional) and (kind == "character" or (ability.timing is not None and kind != "attack")):
            return "only attacks have a timing of their own, and characters no condition for being played"
        return ""
    if isinstance(ability, A.Keyword):
        return "" if ability.name in KEYWORDS else f"the keyword {ability.name!r} is not modelled"
    if isinstance(ability, A.Triggered):
        trigger = ability.trigger
        if trigger.event not in TRIGGER_EVENTS:
            return f"the trigger {trigger.event!r} is not modelled"
        if kind == "event":
            return "" if ability.effect == (N.EpicBattlesFlip(),) else "an event's only triggered line is when it may be flipped"
        if kind == "attack":
            this = trigger.subject is not None and trigger.subject.quantifier == "this"
            return "" if this and trigger.event in ("hit", "blocked") else "an attack's triggers are its HIT text and 'when this attack is blocked'"
        return "" if kind == "character" else f"triggered abilities of a {kind or 'card of unknown type'} are not modelled"
    if isinstance(ability, A.Activated):
        if ability.alternative:
            return "" if kind == "attack" else "only attacks have alternative costs here"
        return "" if kind == "character" else "only characters have activated abilities here"
    if isinstance(ability, A.Passive):
        if kind != "character":
            return "only characters have always-on abilities here"
        for step in ability.effect:
            if not isinstance(step, (A.Modify, A.Prohibit, A.Permit)):
                return f"an always-on {type(step).__name__} is not modelled"
        return ""
    if isinstance(ability, A.Replacement):
        if kind != "character" or ability.event.event != "chipped":
            return "only a character's replacement of chipping is modelled"
        return ""
    return f"the ability {type(ability).__name__} is not modelled"


def abilities(state: EpicBattlesState, name: str, kind: type) -> tuple:
    """The abilities of one kind on a card, in printed order (read once per card)."""
    table = state.cat.by_kind
    found = table.get((name, kind))
    if found is None:
        found = table[(name, kind)] = tuple(a for a in text_of(state, name).abilities if isinstance(a, kind))
    return found


def triggered_on(state: EpicBattlesState, name: str, event: str) -> tuple[A.Triggered, ...]:
    """The triggered abilities of a card that name the moment ``event``, in printed order."""
    table = state.cat.triggers
    by_event = table.get(name)
    if by_event is None:
        by_event = table[name] = by_trigger_event(abilities(state, name, A.Triggered))
    return by_event.get(event, ())


def watched(state: EpicBattlesState, event: str) -> bool:
    """Whether a character in play has a triggered ability on the moment ``event`` (kept in
    ``state.by_characters`` until a character is shown)."""
    try:
        found = any(side.character is not None and side.character.name is not None
                    and triggered_on(state, side.character.name, event) for side in state.sides.values())
    except Unmodelled:
        return True  # a character's text cannot be read: let the caller read it, and fail, as it does
    state.by_characters[event] = found
    return found


def keyword(state: EpicBattlesState, name: str, word: str) -> bool:
    table = state.cat.keywords
    found = table.get(name)
    if found is None:
        found = table[name] = frozenset(a.name for a in abilities(state, name, A.Keyword))
    return word in found


def hit_effects(state: EpicBattlesState, name: str) -> list[tuple[A.Step, ...]]:
    """The HIT text of an attack (EB.card.attack.unblocked)."""
    return [a.effect for a in abilities(state, name, A.Triggered) if a.trigger.event == "hit"]


def blocked_effects(state: EpicBattlesState, name: str) -> list[tuple[A.Step, ...]]:
    """What an attack does when it is blocked ("When this attack is blocked, ...")."""
    return [a.effect for a in abilities(state, name, A.Triggered) if a.trigger.event == "blocked"]


def spell(state: EpicBattlesState, name: str) -> tuple[tuple[A.Step, ...], tuple[A.Step, ...]]:
    """``(effect, additional cost)`` of the text a card carries out when played or flipped."""
    table = state.cat.spells
    found = table.get(name)
    if found is None:
        effect: tuple[A.Step, ...] = ()
        cost: tuple[A.Step, ...] = ()
        for ability in abilities(state, name, A.Spell):
            effect, cost = effect + ability.effect, cost + ability.cost
        found = table[name] = (effect, cost)
    return found


def alternative(state: EpicBattlesState, name: str) -> A.Activated | None:
    """The alternative cost line of an attack, if it has one."""
    return next((a for a in abilities(state, name, A.Activated) if a.alternative), None)


def flip_trigger(state: EpicBattlesState, name: str) -> A.Trigger | None:
    """When an event may be flipped (its ``Flip when ...`` line)."""
    return next((a.trigger for a in abilities(state, name, A.Triggered)), None)


# ------------------------------------------------------------------ players and selectors


def one_player(state: EpicBattlesState, controller: str, relative: str | None) -> str:
    """The one player a step is for (:func:`~spec.core.interpreter.sole_player`)."""
    return sole_player(who(state, controller, relative), relative, Unmodelled)


def who(state: EpicBattlesState, controller: str, relative: str | None) -> list[str]:
    """Players meant by ``you``/``opponent``/``each`` from the controller's side."""
    if relative in (None, "you", "controller", "owner"):
        return [controller]
    if relative == "opponent":
        return [state.other(controller)]
    if relative == "active":
        return [state.aggressor or controller]
    if relative == "nonactive":
        return [state.other(state.aggressor or controller)]
    return list(state.in_order())


def player_of(state: EpicBattlesState, controller: str, sel: A.Selector | None) -> str:
    """The one player a ``the player`` selector names (:func:`one_player`: one naming several
    players is not modelled, never read as the first of them)."""
    return one_player(state, controller, sel.owner if sel is not None else "you")


def kind_matches(defn: CardDef | None, kind: str) -> bool:
    """Whether a card is of the kind a selector names (``card`` for any)."""
    return kind == "card" or role(defn) == kind.lower()


def selects(state: EpicBattlesState, controller: str, sel: A.Selector, uid: int, defn: CardDef | None,
            owner: str, this: int | None, that: int | None, gained: bool = True) -> bool:
    """Whether a selector of an effect made by ``controller`` picks the card ``uid``.

    A label (``your Kick attacks``) matches the card's height, its printed traits and,
    with ``gained``, the traits effects gave it; the effects that give traits are
    themselves matched on printed labels only, so that no gain feeds on another.
    """
    if sel.quantifier == "this":
        return uid == this
    if sel.quantifier == "that":
        return uid == that
    if not kind_matches(defn, sel.type):
        return False
    if sel.owner is not None and owner not in who(state, controller, sel.owner):
        return False
    if sel.team is None or sel.team in labels_of(defn):
        return True
    return gained and sel.team in _gained(state, uid, defn, owner, "trait")


def accepts(defn: CardDef | None, sel: A.Selector) -> bool:
    """Whether a card could be what "a [label] kind" asks for."""
    return defn is not None and kind_matches(defn, sel.type) and (sel.team is None or sel.team in labels_of(defn))


# ------------------------------------------------------------------ effects in force


def passives(state: EpicBattlesState) -> Iterator[tuple[str, A.Passive]]:
    """Always-on abilities of the characters whose condition holds, aggressor's first."""
    for player in state.in_order():
        character = state.sides[player].character
        if character is None or character.name is None:
            continue
        for ability in abilities(state, character.name, A.Passive):
            if ability.condition is None or condition_holds(state, player, ability.condition, {}):
                yield player, ability


def in_force(state: EpicBattlesState, kind: type) -> Iterable[tuple[Lasting, object]]:
    """Lasting changes and always-on steps of one kind, as ``(lasting, step)``, read lazily.

    An always-on ability with no step of that kind is passed over without reading its
    condition, when reading it could not fail (:func:`_passives_for`). With no lasting
    change of that kind and no such ability on the characters in play (the usual case), nothing.
    """
    for lasting in state.lasting:
        if isinstance(lasting.step, kind):
            return _in_force(state, kind)
    quiet = state.by_characters.get(kind)
    if quiet is None:
        quiet = _characters_quiet(state, kind)
    return () if quiet else _in_force(state, kind)


def _characters_quiet(state: EpicBattlesState, kind: type) -> bool:
    """Whether no character in play has an always-on ability :func:`in_force` must read for
    ``kind`` (kept in ``state.by_characters`` until a character is shown)."""
    try:
        quiet = not any(side.character is not None and side.character.name is not None
                        and _passives_for(state, side.character.name, kind) for side in state.sides.values())
    except Unmodelled:
        return False  # a character's text cannot be read: let in_force read it, and fail, as and when it does
    state.by_characters[kind] = quiet
    return quiet


def _in_force(state: EpicBattlesState, kind: type) -> Iterator[tuple[Lasting, object]]:
    """:func:`in_force`, reading every lasting change and always-on ability in turn."""
    for lasting in state.lasting:
        if isinstance(lasting.step, kind):
            yield lasting, lasting.step
    steady = state.by_characters.get((STEADY, kind, state.aggressor))
    if steady is None:
        steady = _steady_steps(state, kind)
    if isinstance(steady, tuple):  # no condition to read: the always-on steps, as kept
        yield from steady
        return
    by_player = state.by_characters.get((BY_PLAYER, kind))
    if by_player is None:
        by_player = _passives_by_player(state, kind)
    for controller in state.in_order():
        if by_player is not None:
            passives = by_player.get(controller, ())
        else:  # a character's text cannot be read: read each in turn, and fail where the reading does
            character = state.sides[controller].character
            if character is None or character.name is None:
                continue
            passives = _passives_for(state, character.name, kind)
        for ability in passives:
            if ability.condition is None or condition_holds(state, controller, ability.condition, {}):
                for step in ability.effect:
                    if isinstance(step, kind):
                        yield Lasting(step, controller), step


STEADY: Final = "always-on steps without conditions"
"""With a step kind and the aggressor, the key of ``state.by_characters`` under which
:func:`_in_force` keeps what the characters' always-on abilities give for that kind when none
of those abilities has a condition (:func:`_steady_steps`)."""


def _steady_steps(state: EpicBattlesState, kind: type) -> tuple[tuple[Lasting, object], ...] | bool:
    """The ``(lasting, step)`` pairs of kind ``kind`` that the characters' always-on abilities
    give, aggressor's first, when none of the abilities :func:`_in_force` must read for
    ``kind`` has a condition: then they hold whatever happens, and stay the same until a
    character is shown (``state.by_characters`` is emptied) or the aggressor changes (part of
    the key). ``False`` (kept too) when one has a condition or a character cannot be read:
    each reading reads them in turn."""
    by_player = state.by_characters.get((BY_PLAYER, kind))
    if by_player is None:
        by_player = _passives_by_player(state, kind)
    steady: tuple[tuple[Lasting, object], ...] | bool = False
    if by_player is not None and all(a.condition is None for passives in by_player.values() for a in passives):
        steady = tuple((Lasting(step, controller), step) for controller in state.in_order()
                       for ability in by_player.get(controller, ()) for step in ability.effect if isinstance(step, kind))
    state.by_characters[(STEADY, kind, state.aggressor)] = steady
    return steady


BY_PLAYER: Final = "always-on abilities by player"
"""With a step kind, the key of ``state.by_characters`` under which :func:`_in_force` keeps, per
player, the always-on abilities of their character it must read (:func:`_passives_for`)."""


def _passives_by_player(state: EpicBattlesState, kind: type) -> dict[str, tuple[A.Passive, ...]] | None:
    """Per player whose character has any, the always-on abilities :func:`_in_force` must read for
    ``kind`` (kept in ``state.by_characters`` until a character is shown); ``None`` when a
    character's text cannot be read."""
    found: dict[str, tuple[A.Passive, ...]] = {}
    try:
        for player, side in state.sides.items():
            if side.character is not None and side.character.name is not None:
                passives = _passives_for(state, side.character.name, kind)
                if passives:
                    found[player] = passives
    except Unmodelled:
        return None
    state.by_characters[(BY_PLAYER, kind)] = found
    return found


def _passives_for(state: EpicBattlesState, name: str, kind: type) -> tuple[A.Passive, ...]:
    """The always-on abilities of a character that :func:`in_force` must read for steps of
    ``kind``: those holding such a step, and those whose condition could fail to be read
    (:class:`Unmodelled`), in printed order. Worked out once per character and kind."""
    table = state.cat.passives_for
    found = table.get((name, kind))
    if found is None:
        found = table[(name, kind)] = tuple(
            a for a in abilities(state, name, A.Passive)
            if any(isinstance(step, kind) for step in a.effect) or not _always_readable(a.condition))
    return found


def speaks_of_players(state: EpicBattlesState, name: str) -> bool:
    """Whether a character's always-on abilities may say what a player can or can't do (a
    can't or a can on players), or have a condition that could fail to be read."""
    table = state.cat.player_rules
    found = table.get(name)
    if found is None:
        found = table[name] = any(
            not _always_readable(a.condition) or any(isinstance(step, (A.Prohibit, A.Permit)) for step in a.effect)
            for a in abilities(state, name, A.Passive))
    return found


def condition_gap(cond: A.Condition) -> str | None:
    """Why :func:`condition_holds` cannot test ``cond`` whatever the state, or ``None``."""
    return None if _always_readable(cond) else f"the condition {cond.subject} {cond.op} {cond.value} is not modelled"


def _always_readable(cond: A.Condition | None) -> bool:
    """Whether :func:`condition_holds` gives an answer for this condition in every state (it
    only reads the state; what it may fail on is fixed by the condition's words)."""
    if cond is None:
        return True
    if cond.subject in ("state", "cards") and cond.of is not None and cond.of.owner not in ONE_PLAYER:
        return False  # a test of several players' states or cards (player_of names one)
    if cond.subject == "state":
        return str(cond.value) in ("knocked_down", "launched", "aggressor")
    if cond.subject == "cards":
        sel = cond.of or A.Selector("the", "card", owner="you", zone="hand")
        if ZONES.get(sel.zone or "hand") is None:
            return False
    elif cond.subject != "combo":
        return False
    return isinstance(cond.value, int) and cond.op in (">=", "<=", "==")


def _modifiers(state: EpicBattlesState, stat: str, uid: int, defn: CardDef | None, owner: str) -> int:
    """What the changes in force add to ``stat`` of a card. With no lasting change of this stat
    (the usual case), the characters' always-on changes of it are read from what is kept
    (:func:`_stat_steps`): none at all, most often."""
    for lasting in state.lasting:
        step = lasting.step
        if isinstance(step, A.Modify) and step.stat == stat:
            break
    else:
        steps: tuple[tuple[Lasting, A.Modify], ...] | Literal[False] | None = state.by_characters.get((STAT_STEPS, stat, state.aggressor))
        if steps is None:
            steps = _stat_steps(state, stat)
        if steps == ():
            return 0  # (no character changes this stat: the usual case)
        if steps is not False:
            total = 0
            for lasting, step in steps:
                if selects(state, lasting.controller, step.target, uid, defn, owner, lasting.this, lasting.that):
                    total += step.delta if isinstance(step.delta, int) else 0
            return total
    total = 0
    for lasting, step in in_force(state, A.Modify):
        assert isinstance(step, A.Modify)
        if step.stat == stat and selects(state, lasting.controller, step.target, uid, defn, owner, lasting.this, lasting.that):
            total += step.delta if isinstance(step.delta, int) else 0
    return total


STAT_STEPS: Final = "always-on changes of a stat"
"""With a stat (``cost``, ``damage``) and the aggressor, the key of ``state.by_characters`` under
which :func:`_modifiers` keeps the characters' always-on changes of that stat (:func:`_stat_steps`)."""


def _stat_steps(state: EpicBattlesState, stat: str) -> tuple[tuple[Lasting, A.Modify], ...] | Literal[False]:
    """The ``(lasting, step)`` pairs of the always-on changes of ``stat`` that the characters in
    play make, aggressor's first, as :func:`in_force` gives them (``()`` when none does): kept
    when they hold whatever happens, that is when no ability holding one has a condition and
    every other condition :func:`in_force` would read for changes can be read (an ability with
    no change of this stat adds nothing, whether its condition holds or not). Kept in
    ``state.by_characters`` (the aggressor is part of the key) until a character is shown.
    ``False`` (kept too) otherwise, or when a character's text cannot be read: each reading reads
    them in turn."""
    by_player = state.by_characters.get((BY_PLAYER, A.Modify))
    if by_player is None:
        by_player = _passives_by_player(state, A.Modify)
    steps: tuple[tuple[Lasting, A.Modify], ...] | Literal[False] = False
    if by_player is not None:
        read = [(controller, ability) for controller in state.in_order() for ability in by_player.get(controller, ())]
        changes = [[step for step in ability.effect if isinstance(step, A.Modify) and step.stat == stat] for _c, ability in read]
        if all(_always_readable(ability.condition) and (ability.condition is None or not found)
               for (_c, ability), found in zip(read, changes, strict=True)):
            steps = tuple((Lasting(step, controller), step) for (controller, _a), found in zip(read, changes, strict=True)
                          for step in found)
    state.by_characters[(STAT_STEPS, stat, state.aggressor)] = steps
    return steps


def printed(defn: CardDef | None, key: str) -> int:
    """A printed number: ``cost`` or a stat such as ``damage``."""
    if defn is None:
        return 0
    value = defn.cost if key == "cost" else defn.stats.get(key, 0)
    return value if isinstance(value, int) else 0


def own_steps(state: EpicBattlesState, name: str, player: str, variables: dict[str, object]) -> Iterable[A.Step]:
    """The steps of a card's own text that speak of the card itself, read when it is checked.

    Text that changes a card's own cost, lets it link, or lets it block other attacks
    would come too late if it waited for the card's text to be carried out (the cost is
    paid and the block or link made first); the spec reads it when the card is checked
    (docs/epic_battles-decisions.rst).
    """
    table = state.cat.own_steps
    found = table.get(name, False)
    if found is False:
        found = table[name] = _own_steps_as_printed(state, name)
    return found if found is not None else _own_steps(state, name, player, variables)  # type: ignore[return-value]  # the table holds tuples or None, never True


def _is_own_step(step: A.Step) -> bool:
    """A step of a card's text about the card's own cost, linking or blocking (see :func:`own_steps`)."""
    own_cost = isinstance(step, A.Modify) and step.target.quantifier == "this" and step.stat == "cost"
    own_link = isinstance(step, N.EpicBattlesLink) and step.what.quantifier == "this"
    own_permit = isinstance(step, A.Permit) and step.subject.quantifier == "this"
    return own_cost or own_link or own_permit


def _own_steps_as_printed(state: EpicBattlesState, name: str) -> tuple[A.Step, ...] | None:
    """The steps :func:`own_steps` yields for a card whose own steps stand outside every *if* of
    its text (the same in every state, worked out once per card); ``None`` when an *if* holds one
    of them, so that what the card says of itself depends on the state.

    An *if* that holds no own step adds nothing to them whether it holds or not (reading its
    condition is pure: :func:`condition_holds` changes nothing), so it is not read at all.
    """
    effect, _cost = spell(state, name)
    if any(isinstance(step, A.If) and _holds_own_step(step.then) for step in effect):
        return None
    return tuple(step for step in effect if not isinstance(step, A.If) and _is_own_step(step))


def _holds_own_step(steps: tuple[A.Step, ...]) -> bool:
    """Whether the steps an *if* carries out when it holds (its *then*, and the *then* of every
    *if* within) hold a step :func:`_own_steps` would yield."""
    return any(_holds_own_step(step.then) if isinstance(step, A.If) else _is_own_step(step) for step in steps)


def _own_steps(state: EpicBattlesState, name: str, player: str, variables: dict[str, object]) -> Iterator[A.Step]:
    """:func:`own_steps`, reading each *if* of the card's text in the state."""
    effect, _cost = spell(state, name)
    stack = list(effect)
    while stack:
        step = stack.pop(0)
        if isinstance(step, A.If):
            if _holds_quietly(state, player, step.condition, variables):
                stack[0:0] = list(step.then)
            continue
        if _is_own_step(step):
            yield step


def _holds_quietly(state: EpicBattlesState, player: str, cond: A.Condition, variables: dict[str, object]) -> bool:
    try:
        return condition_holds(state, player, cond, variables)
    except Unmodelled:
        return False


def damage(state: EpicBattlesState, card: CardObj, owner: str) -> int:
    """An attack's damage now: printed, then every change in force (never below zero)."""
    return max(0, printed(card.defn, "damage") + _modifiers(state, "damage", card.uid, card.defn, owner))


def cost(state: EpicBattlesState, card: CardObj, owner: str, variables: dict[str, object] | None = None) -> int:
    """The energy a card costs now: printed, its own text about its cost, every change in force."""
    return price(state, card.uid, card.name, card.defn, owner, variables)


def price(state: EpicBattlesState, uid: int, name: str | None, defn: CardDef | None, owner: str,
          variables: dict[str, object] | None = None) -> int:
    """:func:`cost` of the card ``uid`` read from its parts (no card object needed: a check
    pricing a card not yet in play passes ``-1``)."""
    total = printed(defn, "cost") + _modifiers(state, "cost", uid, defn, owner)
    if name is not None:
        own = state.cat.own_cost.get(name)
        total += own if own is not None else _own_cost(state, name, owner, variables or {})
    return max(0, total)


def _own_cost(state: EpicBattlesState, name: str, owner: str, variables: dict[str, object]) -> int:
    """What a card's own text adds to its cost (:func:`own_steps`); kept per card
    (``state.cat.own_cost``) when its own steps are the same in every state (none within an *if*)."""
    total = 0
    for step in own_steps(state, name, owner, variables):
        if isinstance(step, A.Modify) and isinstance(step.delta, int):
            total += step.delta
    if state.cat.own_steps.get(name) is not None:  # read as printed: the same for every player and state
        state.cat.own_cost[name] = total
    return total


def _gained(state: EpicBattlesState, uid: int, defn: CardDef | None, owner: str, part: str) -> list[str]:
    out = []
    for lasting, step in in_force(state, N.EpicBattlesGain):
        assert isinstance(step, N.EpicBattlesGain)
        if step.part == part and selects(state, lasting.controller, step.target, uid, defn, owner, lasting.this, lasting.that, gained=False):
            out.append(step.label)
    return out


def traits(state: EpicBattlesState, uid: int, defn: CardDef | None, owner: str) -> list[str]:
    """An attack's link traits: printed (or on its trait bar) and gained (EB.link.def)."""
    base = list(defn.traits) if defn is not None else []
    if not base and defn is not None:
        base = _bar(state, defn.name, "traits")
    return base + _gained(state, uid, defn, owner, "trait")


def moment_labels(state: EpicBattlesState, uid: int, defn: CardDef, owner: str) -> tuple[str, ...]:
    """The labels a moment involving this card carries (``Occurrence.labels``): its height, then its
    link traits (:func:`traits`). The printed part is read once per card (``state.cat.labels``);
    the traits gained are read in the state."""
    table = state.cat.labels
    printed_labels = table.get(defn.name)
    if printed_labels is None:
        height_ = height(defn)
        base = list(defn.traits) or _bar(state, defn.name, "traits")
        printed_labels = table[defn.name] = tuple(([height_] if height_ else []) + base)
    gained = _gained(state, uid, defn, owner, "trait")
    return printed_labels + tuple(gained) if gained else printed_labels


def follow_ups(state: EpicBattlesState, uid: int, defn: CardDef | None, owner: str) -> list[str]:
    """The traits an attack linked after this one may carry: printed and gained (EB.link.def)."""
    printed_ups = defn.stats.get("follow_ups") if defn is not None else None
    base = [str(x) for x in printed_ups] if isinstance(printed_ups, list) else []
    if not base and defn is not None:
        base = _bar(state, defn.name, "follow_ups")
    return base + _gained(state, uid, defn, owner, "follow_up")


def _bar(state: EpicBattlesState, name: str, part: str) -> list[str]:
    for ability in abilities(state, name, N.EpicBattlesLinkBar):
        if ability.part == part:
            return list(ability.labels)
    return []


def height(defn: CardDef | None) -> str | None:
    value = defn.stats.get("height") if defn is not None else None
    return value if value in HEIGHTS else None


def prohibited(state: EpicBattlesState, player: str, action: str) -> bool:
    """Whether a can't in force stops ``player`` from ``action`` (``recover``, ``flip events``...)."""
    for lasting, step in in_force(state, A.Prohibit):
        assert isinstance(step, A.Prohibit)
        if step.action == action and step.subject.type == "player" and player in who(state, lasting.controller, step.subject.owner):
            return True
    return False


def attack_prohibited(state: EpicBattlesState, uid: int, action: str) -> bool:
    """Whether a can't in force stops the attack ``uid`` (``be blocked``, ``be blocked by Low blocks``)."""
    for lasting, step in in_force(state, A.Prohibit):
        assert isinstance(step, A.Prohibit)
        if step.action == action and step.subject.quantifier in ("this", "that") and \
                uid == (lasting.this if step.subject.quantifier == "this" else lasting.that):
            return True
    return False


# ------------------------------------------------------------------ conditions


def condition_holds(state: EpicBattlesState, controller: str, cond: A.Condition, variables: dict[str, object]) -> bool:
    """Whether a condition of card text holds now."""
    if cond.subject == "state":
        player = player_of(state, controller, cond.of)
        down = state.sides[player].down
        value = {"knocked_down": down == "knock_down", "launched": down == "launch",
                 "aggressor": state.aggressor == player}.get(str(cond.value))
        if value is None:
            raise Unmodelled(f"the spec has no meaning for the state {cond.value!r}")
        return value if cond.op == "is" else not value
    if cond.subject == "cards":
        sel = cond.of or A.Selector("the", "card", owner="you", zone="hand")
        player = player_of(state, controller, sel)
        zone = ZONES.get(sel.zone or "hand")
        if zone is None:
            raise Unmodelled(f"the spec has no meaning for cards in the {sel.zone!r}")
        measured = len(getattr(state.sides[player], zone))
    elif cond.subject == "combo":
        position = variables.get("combo")
        measured = position if isinstance(position, int) else len(state.combo)
    else:
        raise Unmodelled(f"the spec has no meaning for the condition {cond.subject!r}")
    if not isinstance(cond.value, int):
        raise Unmodelled(f"the spec cannot compare {cond.subject!r} with {cond.value!r}")
    if cond.op == ">=":
        return measured >= cond.value
    if cond.op == "<=":
        return measured <= cond.value
    if cond.op == "==":
        return measured == cond.value
    raise Unmodelled(f"the spec has no meaning for the comparison {cond.op!r}")


def amount(value: A.Amount) -> int:
    """A number of card text (the cards of this game use literal numbers only)."""
    if isinstance(value, int):
        return value
    raise Unmodelled(f"the spec cannot evaluate {value.name!r} here")


# ------------------------------------------------------------------ deck construction and hidden cards


def is_character(defn: CardDef | None) -> bool:
    return role(defn) == "character"


def _named_in(title: str, name: str) -> bool:
    return _name_pattern(name).search(title) is not None


def _name_pattern(name: str) -> re.Pattern[str]:
    """A character's name as a whole word (not inside a longer word)."""
    return re.compile(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])")


def _characters(state: EpicBattlesState) -> list[tuple[str, re.Pattern[str]]]:
    """The characters of the card database, with the pattern of their name, in database order."""
    known = state.cat
    if known.characters is None:
        known.characters = [(other.name, _name_pattern(other.name)) for other in state.cards if is_character(other)]
    return known.characters


def _remembered(state: EpicBattlesState, defn: CardDef, key: tuple[str, str, str], work: Any) -> Any:
    """A deck-construction answer about a card of the database, worked out once (``work()``)."""
    if state.cards.get(defn.name) is not defn:
        return work()  # a card that is not the database's own: asked afresh
    table = state.cat.deck_rules
    found = table.get(key)
    if found is None:
        found = table[key] = work()
    return found


def character_allows(state: EpicBattlesState, defn: CardDef, character: str) -> bool:
    """Whether a deck of ``character`` may hold the card (EB.deck.character_name).

    A card that names the characters who may play it ("Only playable by ...") is held
    to that list; otherwise a character's name in its title ties it to that character.
    """
    def work() -> bool:
        named = [a for a in abilities(state, defn.name, N.EpicBattlesRestriction) if a.kind == "character"]
        if named:
            return all(character in a.names for a in named)
        for other, pattern in _characters(state):
            if other != character and pattern.search(defn.name) is not None:
                return False
        return True
    return bool(_remembered(state, defn, ("character", defn.name, character), work))


def game_allows(state: EpicBattlesState, defn: CardDef, character: str) -> bool:
    """Whether a deck of ``character`` may hold a card reserved for some games (EB.deck.game_only)."""
    def work() -> bool:
        games = [a for a in abilities(state, defn.name, N.EpicBattlesRestriction) if a.kind == "game"]
        char = state.cards.get(character)
        game = char.stats.get("game") if char is not None else None
        return all(game in a.names for a in games)
    return bool(_remembered(state, defn, ("game", defn.name, character), work))


def copy_limit(state: EpicBattlesState, defn: CardDef) -> int:
    """Copies a deck may hold: four, or what the card's own limit says (EB.deck.copies)."""
    def work() -> int:
        limits = abilities(state, defn.name, N.EpicBattlesLimit)
        return min((a.copies for a in limits), default=4)
    return int(_remembered(state, defn, ("copies", defn.name, ""), work))


def deck_limits(state: EpicBattlesState, defn: CardDef) -> tuple[int, bool]:
    """What deck construction asks of a card in the 60-card deck, in one look-up: its copy limit
    (:func:`copy_limit`, EB.deck.copies) and whether it is Side Deck Only (EB.side.exclusive).
    Both read the same card text, so either both can be read or neither."""
    return _remembered(state, defn, ("limits", defn.name, ""),
                       lambda: (copy_limit(state, defn), keyword(state, defn.name, "side_deck_only")))


def deck_allows(state: EpicBattlesState, defn: CardDef, character: str) -> tuple[bool, bool]:
    """Whether a deck of ``character`` may hold the card, in one look-up: by the characters it
    names (:func:`character_allows`, EB.deck.character_name) and by the games it is reserved for
    (:func:`game_allows`, EB.deck.game_only). Both read the same card text."""
    return _remembered(state, defn, ("allows", defn.name, character),
                       lambda: (character_allows(state, defn, character), game_allows(state, defn, character)))


def bound(state: EpicBattlesState, player: str, name: str) -> tuple[int | None, str]:
    """How many copies of ``name`` ``player``'s deck can hold, and the rule that says so."""
    side = state.sides[player]
    if side.knowledge.registered is not None:
        return side.knowledge.registered.get(name, 0), "EB.deck.size"
    defn = state.cards.get(name)
    if defn is None:
        return None, "EB.deck.size"
    if is_character(defn):
        return 0, "EB.card.character.count"
    if keyword(state, name, "side_deck_only"):
        return 0, "EB.side.exclusive"
    character = side.character.name if side.character is not None else None
    if character is not None:
        if not character_allows(state, defn, character):
            return 0, "EB.deck.character_name"
        if not game_allows(state, defn, character):
            return 0, "EB.deck.game_only"
    return copy_limit(state, defn), "EB.deck.copies"


def can_reveal(state: EpicBattlesState, player: str, name: str) -> bool:
    """Whether one more copy of ``name`` can come out of ``player``'s unseen cards."""
    side = state.sides[player]
    knowledge = side.knowledge
    registered = knowledge.registered
    cap = registered.get(name, 0) if registered is not None else bound(state, player, name)[0]  # (bound's first case, at once)
    return cap is None or knowledge.located.get(name, 0) + (side.top.count(name) if side.top else 0) < cap


__all__ = [
    "HEIGHTS", "TRIGGER_EVENTS", "ZONES", "Unmodelled", "abilities", "accepts", "alternative", "attack_prohibited",
    "blocked_effects", "bound", "can_reveal", "character_allows", "condition_gap", "condition_holds", "copy_limit", "cost", "damage",
    "flip_trigger", "follow_ups", "game_allows", "height", "hit_effects", "in_force", "is_character", "keyword",
    "own_steps", "passives", "player_of", "price", "printed", "prohibited", "role", "selects", "speaks_of_players", "spell",
    "text_of", "traits", "triggered_on", "watched", "who",
]
