"""Reading and writing the card text of Bakugan (2023).

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/bakugan.lark``, how a line becomes an ability for each card type
(:func:`settle`), how a printed line is cut into abilities (:func:`split`), and the
canonical renderer (:func:`render`). The game's own AST nodes are in
:mod:`grammar.bakugan_nodes`.

Reading a card
--------------
Real cards print all their abilities on one line, such as ``[MS]: +4 [Damage Rating].
[HE]: +600 [B].`` or ``+1 [Damage Rating]. Turbo - If you control the most Energy
cards, +6 [Damage Rating] instead.`` :func:`split` cuts a line before every sentence that opens a
new ability (a BakuCore icon before ``:``, a keyword rider, a trigger, the reroll
keyword line) and drops reminder text in parentheses; the other sentences stay with the
ability before them. Every piece keeps its column in the printed line, so an error
points at the right place.

:func:`settle` gives plain lines their ability kind: on Action and Flip cards (and
when the type is unknown) plain sentences are the :class:`~grammar.ast.Spell` the card
does when it completes; on Character, Evo, Hero and Energy cards they are a static
:class:`~grammar.ast.Passive` (6.5.1), and a lone ``If CONDITION, EFFECT.`` becomes a
Passive with that condition. Card types are not checked (real pools print types such
as ``Action`` or ``Evo``; any string is accepted).

Writing a card
--------------
:func:`render` writes one ability per line in the canonical wording: ``+200 [B]``,
``[Damage Rating]`` spelt out, ``a Hero card`` (never the bare ``a Hero``), riders
with ``:``, a conditional static as ``While ...``, a named Bakugan as the subject
(``That Bakugan gets +1 [Damage Rating].``), counts of cards in words up to ten, stat
amounts in digits. ``parse(render(tree)) == tree`` for every tree the grammar makes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from lark import Token

from grammar.ast import (
    Ability,
    Activated,
    Amount,
    Attach,
    CardText,
    Condition,
    Deal,
    Delay,
    Discard,
    Draw,
    Duration,
    If,
    Keyword,
    May,
    Modify,
    Negate,
    Passive,
    Permit,
    Prohibit,
    Reroll,
    Reveal,
    Search,
    Selector,
    Send,
    Shuffle,
    Spell,
    Step,
    Trigger,
    Triggered,
    Var,
)
from grammar.bakugan_nodes import (
    BAKUCORES,
    FACTIONS,
    REPEAT,
    Attack,
    Choice,
    Copy,
    CoreStatic,
    CostChange,
    Destroy,
    Detach,
    EndTurn,
    Energize,
    FlipCoin,
    ForEach,
    Instead,
    Look,
    Pay,
    Play,
    Qualified,
    Recharge,
    Retract,
    Rider,
    Select,
    SetStat,
    Spend,
    Stop,
    SwapCore,
    TakeControl,
    VictorBy,
)
from grammar.lexer import constant, first_child
from grammar.parser import NUMBER_WORDS as _WORDS
from grammar.parser import CoreBuilder, GameGrammar, printed_number
from grammar.render import RenderError
from grammar.render import capitalise as _cap

__all__ = ["GRAMMAR", "IMPLIED", "Builder", "render", "settle", "split"]

IMPLIED = Selector("the", "Bakugan")
"""The Bakugan a change applies to when the text names none (rule 1.13.1.2)."""

SAME = Selector("it", "Bakugan")
"""The Bakugan the change before it selected: "give a Bakugan +400 [B] and +4 [Damage Rating]"
makes one selection, whose Bakugan gets both (:func:`_shared_subject`)."""

STATIC_TYPES: frozenset[str] = frozenset({"Character", "Evo", "Hero", "Energy"})
"""Card types that stay in play: their plain lines are static abilities (6.5.1)."""

SPELL_TYPES: frozenset[str] = frozenset({"Action", "Flip"})
"""Card types whose plain lines are what they do as they complete (3.5.2, 3.6)."""


# ------------------------------------------------------------------ tree building


@dataclass(frozen=True)
class _Qualified:
    """A selector with conditions the shared Selector cannot hold (a cost limit...)."""

    selector: Selector
    where: tuple[Condition, ...]


SelectorLike = Selector | _Qualified


def _sel(value: SelectorLike) -> Selector:
    return value.selector if isinstance(value, _Qualified) else value


def _wrap(value: SelectorLike, make: Callable[[Selector], Step]) -> Step:
    """Build a step on a selector; a qualified selector wraps it in :class:`Qualified`."""
    if isinstance(value, _Qualified):
        return Qualified(make(value.selector), value.where)
    return make(value)


def _named_subject(step: Step) -> Selector | None:
    """The Bakugan a stat change names (a qualified one's too), or ``None`` for a step that is no
    stat change, a change of a player's Energy, or one naming no Bakugan (:data:`IMPLIED`)."""
    change = step.step if isinstance(step, Qualified) else step
    if not isinstance(change, Modify | SetStat) or change.target.type == "player" or change.target == IMPLIED:
        return None
    return change.target


def _shared_subject(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """A change that names no Bakugan, joined to a change of a named one ("a Bakugan gets +200 [B]
    and +2 [Damage Rating]"), is for the same Bakugan, not for the one an Action is played on:
    the same selector when it names one Bakugan outright ("this", "that Bakugan"), :data:`SAME`
    when it is a selection (a qualified one is always), so that one selection is made. The
    change's target is :data:`IMPLIED` itself only where :meth:`Builder.build_modify` supplied it
    (the text said none)."""
    out = list(steps)
    for i in range(1, len(out)):
        step, named = out[i], _named_subject(out[i - 1])
        if isinstance(step, Modify) and step.target is IMPLIED and named is not None:
            out[i] = Modify(SAME if named.quantifier == "a" else named, step.stat, step.delta, step.duration)
    return tuple(out)


def _player(who: str) -> Selector:
    """The selector of a player seen from the ability's controller."""
    if who == "each":
        return Selector("each", "player")
    return Selector("the", "player", owner=who)  # type: ignore[arg-type]


def _faction(token: Token | str) -> str:
    """``[Aquos]`` -> ``Aquos``."""
    return str(token).strip("[]")


def _const(value: Any) -> Callable[[Builder, list[Any]], Any]:
    """A callback that ignores its children and returns ``value`` (see :func:`grammar.lexer.constant`)."""
    return constant(value)


_first = first_child
"""A callback that passes its first child through (the fast loop takes the child without calling it)."""


def _flat(children: list[Any]) -> tuple[Step, ...]:
    """Steps and tuples of steps, flattened in order."""
    if len(children) == 1:  # the commonest list: one step, or one tuple of them kept as it is
        only = children[0]
        if type(only) is tuple:
            return only
        if not isinstance(only, tuple):
            return (only,)
    out: list[Step] = []
    for child in children:
        if isinstance(child, tuple):
            out.extend(child)
        else:
            out.append(child)
    return tuple(out)


_ADJ = dict[str, Any]


def _card(quantifier: str, children: list[Any], count: Amount = 1) -> SelectorLike:
    """A card selector from adjective dicts, a kind and an optional (zone, owner)."""
    fields: dict[str, Any] = {}
    where: list[Condition] = []
    kind = "card"
    for child in children:
        if isinstance(child, dict):
            for key, value in child.items():
                if key == "where":
                    where.append(value)
                else:
                    fields[key] = value
        elif isinstance(child, str):
            kind = child
        elif isinstance(child, tuple):
            zone, owner = child
            fields["zone"] = zone
            if owner is not None:
                fields["owner"] = owner
    selector = Selector(quantifier, kind, count=count, **fields)  # type: ignore[arg-type]
    return _Qualified(selector, tuple(where)) if where else selector


def _retarget(step: Step, who: str) -> Step:
    """``All players must discard a card``: the step is done by another player."""
    if isinstance(step, Draw):
        return Draw(who, step.amount)  # type: ignore[arg-type]
    if isinstance(step, Discard):
        return Discard(who, step.amount, step.what)  # type: ignore[arg-type]
    if isinstance(step, Reroll):
        return Reroll(who, step.amount)  # type: ignore[arg-type]
    return step


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/bakugan.lark`` (the shared ones are inherited)."""

    tokens_as_text = True
    """Every token read here is read as its words alone (``str(token)`` and the like,
    never its type or position): the fast loop hands the plain strings (see
    :attr:`grammar.parser.CoreBuilder.tokens_as_text`)."""

    # ---- ability lines
    def activated_ability(self, c: list[Any]) -> Ability:
        return Activated(cost=c[0], effect=c[1])

    def cost(self, c: list[Any]) -> tuple[Step, ...]:
        return c[0] if isinstance(c[0], tuple) else (c[0],)

    def spend_and(self, c: list[Any]) -> tuple[Step, ...]:
        return (c[0], *c[1])

    def spend(self, c: list[Any]) -> Step:
        return Spend(c[0])

    def core_static(self, c: list[Any]) -> Ability:
        return CoreStatic(c[0], c[1])

    def core_icons(self, c: list[Any]) -> tuple[str, ...]:
        if len(c) == 1:
            return (c[0],)
        return (*c[0], c[1])

    def core_icon(self, c: list[Any]) -> str:
        return str(c[0]).strip("[]")

    def rider_ability(self, c: list[Any]) -> Ability:
        keyword, body = c
        trigger = None
        if isinstance(body, _Timed):
            trigger, body = body.trigger, body.effect
        if len(body) == 1 and isinstance(body[0], If) and not body[0].otherwise:
            return Rider(keyword, body[0].then, condition=body[0].condition, trigger=trigger)
        return Rider(keyword, body, trigger=trigger)

    def timed_rider(self, c: list[Any]) -> _Timed:
        return _Timed(c[0], c[1])

    def rider_word(self, c: list[Any]) -> str:
        return str(c[0])

    def reroll_keyword(self, c: list[Any]) -> Ability:
        return Keyword("reroll_on_miss", c[1])

    reroll_once = _const(Keyword("reroll_on_miss", "once each turn"))

    once_each_turn = _const("once each turn")
    any_time = _const("any time")
    factions_keyword = _const(Keyword("all_factions"))

    def triggered_ability(self, c: list[Any]) -> Ability:
        trigger, effect = c
        if isinstance(trigger, tuple):
            trigger, condition = trigger
            return Triggered(trigger, (If(condition, effect),))
        return Triggered(trigger, effect)

    def plain_ability(self, c: list[Any]) -> Ability:
        effect: tuple[Step, ...] = c[0]
        if type(effect) is tuple and not any(isinstance(s, Spend) for s in effect):  # the common line: nothing to spend
            return Spell(effect=effect, cost=())
        cost = tuple(s for s in effect if isinstance(s, Spend))
        return Spell(effect=tuple(s for s in effect if not isinstance(s, Spend)), cost=cost)

    # ---- effects and lists
    def effect(self, c: list[Any]) -> tuple[Step, ...]:
        out: list[Step] = []
        for step in _flat(c):
            if isinstance(step, _Otherwise):
                last = out[-1] if out else None
                if isinstance(last, If) and not last.otherwise:
                    out[-1] = If(last.condition, last.then, step.steps)
                else:  # no "If" to complete: the steps simply happen
                    out.extend(step.steps)
            else:
                out.append(step)
        return tuple(out)

    def otherwise_clause(self, c: list[Any]) -> Any:
        return _Otherwise(_flat(c))

    clause = _first
    step = _first

    def if_body(self, c: list[Any]) -> tuple[Step, ...]:
        return _flat(c)

    def if_clause(self, c: list[Any]) -> Step:
        return If(c[0], _flat(c[1:]))

    def instead_body(self, c: list[Any]) -> tuple[Step, ...]:
        return (Instead(_flat(c)),)

    def if_suffix(self, c: list[Any]) -> tuple[Step, ...]:
        return (If(c[1], _flat(c[:1])),)

    def for_each_clause(self, c: list[Any]) -> tuple[Step, ...]:
        return (ForEach(_flat(c[1:]), c[0]),)

    def turn_clause(self, c: list[Any]) -> tuple[Step, ...]:
        return _flat(c[1:])

    turn_prefix = _const(None)

    def step_list(self, c: list[Any]) -> tuple[Step, ...]:
        return _flat(c)

    def simple_list(self, c: list[Any]) -> tuple[Step, ...]:
        return _shared_subject(_flat(c))

    def may_clause(self, c: list[Any]) -> Step:
        return May(c[0], _flat(c[1:]))

    def repeatable(self, c: list[Any]) -> Step:
        return Permit(_player(c[0]), REPEAT)

    x_cost = _const(Spend(Var("X")))

    def choose_one_clause(self, c: list[Any]) -> Step:
        return Choice(tuple((s,) for s in c))

    def must_clause(self, c: list[Any]) -> tuple[Step, ...]:
        who = c[0]
        return tuple(_retarget(s, who) for s in _flat(c[1:]))

    # ---- step wrappers
    def choice_step(self, c: list[Any]) -> Step:
        return Choice(tuple((s,) for s in c))

    def chosen_by(self, c: list[Any]) -> Step:
        return Choice(tuple((s,) for s in c[1:]), chooser=c[0])

    def for_each_step(self, c: list[Any]) -> Step:
        return ForEach((c[0],), c[1])

    def delayed_step(self, c: list[Any]) -> Step:
        return Delay("end_of_turn", (c[0],))

    # ---- stat changes
    def build_modify(self, target: SelectorLike | None, change: tuple[str, Amount],
                duration: Duration | None) -> Step:
        stat, delta = change
        if target is None:
            target = _player("you") if stat == "Energy" else IMPLIED
        return _wrap(target, lambda s: Modify(s, stat, delta, duration))

    def modify_step(self, c: list[Any]) -> Step:
        change = c[0]
        target = next((x for x in c[1:] if isinstance(x, (Selector, _Qualified))), None)
        duration = next((x for x in c[1:] if isinstance(x, Duration)), None)
        return self.build_modify(target, change, duration)

    modify_target = _first

    def gets_one(self, c: list[Any]) -> Step:
        return self.build_modify(c[0], c[1], c[2] if len(c) > 2 else None)

    gets_many = gets_one

    def give_step(self, c: list[Any]) -> Step:
        return self.build_modify(c[0], c[1], c[2] if len(c) > 2 else None)

    def set_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], lambda s: SetStat(s, c[1], c[2]))

    def plus(self, c: list[Any]) -> tuple[str, Amount]:
        return (c[1], c[0])

    def minus(self, c: list[Any]) -> tuple[str, Amount]:  # type: ignore[override]  # Bakugan's "-N stat" is a change, not a number
        return (c[1], -c[0])

    def plus_flag(self, c: list[Any]) -> tuple[str, Amount]:
        return (c[0], 1)

    def plus_cost(self, c: list[Any]) -> tuple[str, Amount]:
        return ("Damage Rating", Var("cost", of=c[0]))

    discarded_card = _const(Selector("that", "card", zone="discard pile"))
    revealed_card = _const(Selector("that", "card"))

    bpower = _const("BPower")
    damage_rating = _const("Damage Rating")
    energy = _const("Energy")
    froststrike = _const("FrostStrike")
    doublestrike = _const("DoubleStrike")
    shadowstrike = _const("ShadowStrike")
    stat = _first
    keyword_icon = _first
    flag = _first
    this_turn = _const(Duration("end_of_turn"))

    # ---- cards and players
    def draw_you(self, c: list[Any]) -> Step:
        return self.build_draw("you", c[0])

    def draw_player(self, c: list[Any]) -> Step:
        return self.build_draw(c[0], c[1])

    def build_draw(self, who: str, what: Any) -> Step:
        if what == "extra":
            return Permit(_player(who), "draw an additional card each turn")
        return Draw(who, what)  # type: ignore[arg-type]

    draw_what = _first
    draw_even = _const(Var("difference", of=Selector("all", "card", owner="opponent",
                                                     zone="hand")))
    extra_draw = _const("extra")

    def discard_you(self, c: list[Any]) -> Step:
        return self.build_discard("you", c[0])

    def discard_player(self, c: list[Any]) -> Step:
        return self.build_discard(c[0], c[1])

    def discard_chosen(self, c: list[Any]) -> Step:
        return self.build_discard("any", c[0])

    def build_discard(self, who: str, what: Any) -> Step:
        if what == "hand":
            return Discard(who, what=Selector("all", "card", zone="hand"))  # type: ignore[arg-type]
        if isinstance(what, (Selector, _Qualified)):
            return Discard(who, 1, _sel(what))  # type: ignore[arg-type]
        return Discard(who, what)  # type: ignore[arg-type]

    discard_what = _first
    whole_hand = _const("hand")

    def destroy_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Destroy)

    def negate_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Negate)

    negate_its = _const(Negate(Selector("it")))

    def retract_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Retract)

    def energize(self, c: list[Any]) -> Step:
        return _wrap(c[0], Energize)

    def energize_uncharged(self, c: list[Any]) -> Step:
        return _wrap(c[0], lambda s: Energize(s, uncharged=True))

    def recharge_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Recharge)

    def send_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], lambda s: Send(s, c[1]))

    choose_return = send_step

    def shuffle_into(self, c: list[Any]) -> Step:
        return _wrap(c[0], lambda s: Send(s, "deck"))

    to_hand = _const("hand")
    to_bottom = _const("bottom of deck")
    to_top = _const("top of deck")
    to_discard = _const("discard pile")

    shuffle_step = _const(Shuffle("you", "deck"))

    def search_step(self, c: list[Any]) -> Step:
        return _wrap(c[1], lambda s: Search("you", c[0], s, to="hand"))

    def reveal_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Reveal)

    def reveal_hand(self, c: list[Any]) -> Step:
        return Reveal(Selector("all", "card", owner=c[0], zone="hand"))

    player_hand = _const(None)

    def look_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Look)

    def play_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Play)

    def play_free(self, c: list[Any]) -> Step:
        return _wrap(c[0], lambda s: Play(s, free=True))

    def attach_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], lambda s: Attach(s, _sel(c[1])))

    def attack_step(self, c: list[Any]) -> Step:
        return Attack(_faction(c[0]), c[1])

    def reroll_step(self, c: list[Any]) -> Step:
        return Reroll(_sel(c[0]).owner or "you")

    reroll_must = reroll_step

    def copy_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Copy)

    def control_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], TakeControl)

    def detach_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Detach)

    def swap_step(self, c: list[Any]) -> Step:
        return SwapCore(_sel(c[0]), _sel(c[1]))

    coin_step = _const(FlipCoin())
    end_turn_step = _const(EndTurn())

    def victor_step(self, c: list[Any]) -> Step:
        return VictorBy(c[0])

    def select_step(self, c: list[Any]) -> Step:
        return _wrap(c[0], Select)

    def select_by(self, c: list[Any]) -> Step:
        return _wrap(c[1], lambda s: Select(s, c[0]))

    face_up_step = _const(Reveal(Selector("a", "BakuCore", zone="field")))

    def onto_field_step(self, c: list[Any]) -> Step:
        return _wrap(c[1], lambda s: Send(s, "field face down"))

    def prohibit(self, c: list[Any]) -> Step:
        return _wrap(c[0], lambda s: Prohibit(s, c[1], c[2] if len(c) > 2 else None))

    def play_kinds(self, c: list[Any]) -> str:
        return "play cards" if c[0] == "card" else f"play {c[0]}"

    be_negated = _const("be negated")
    be_destroyed = _const("be destroyed")
    be_retracted = _const("be retracted")
    reroll_action = _const("Reroll")
    open_action = _const("open")

    def select_player(self, c: list[Any]) -> Step:
        return Select(Selector("a", "player"))

    def gain_step(self, c: list[Any]) -> Step:
        return Modify(_player("you"), "Energy", c[0], c[1] if len(c) > 1 else None)

    def deal_step(self, c: list[Any]) -> Step:
        return Deal(c[0], _player(c[1]))

    def pay_step(self, c: list[Any]) -> Step:
        return Pay((c[0],), (c[1],))

    def cost_less(self, c: list[Any]) -> Step:
        return CostChange(c[0], -c[1] if isinstance(c[1], int) else c[1])

    def cost_more(self, c: list[Any]) -> Step:
        return CostChange(c[0], c[1])

    this_free = _const(CostChange(Selector("this"), free=True))
    cost_use = _const(None)

    def your_kinds(self, c: list[Any]) -> Selector:
        return Selector("all", c[0], owner="you")

    def opponents_kinds(self, c: list[Any]) -> Selector:
        return Selector("all", c[0], owner="opponent")

    next_card = _const(Selector("the", "card", owner="you", zone="next played"))

    # ---- [Stop]
    stop_step = _first

    stop_any = _const(Stop())

    def stop_factions(self, c: list[Any]) -> Step:
        return Stop(c[0])

    def stop_non(self, c: list[Any]) -> Step:
        return Stop((_faction(c[0]),), excluded=True)

    def stop_holding(self, c: list[Any]) -> Step:
        return Stop(holding=c[0])

    def factions(self, c: list[Any]) -> tuple[str, ...]:
        if len(c) == 1:
            return (_faction(c[0]),)
        return (*c[0], _faction(c[1]))

    # ---- Bakugan selectors
    def a_bakugan(self, c: list[Any]) -> SelectorLike:
        return _card("a", [*c, "Bakugan"])

    another_bakugan = _const(Selector("a", "Bakugan", other=True))
    one_of_yours = _const(Selector("a", "Bakugan", owner="you"))

    def a_bakugan_holding(self, c: list[Any]) -> SelectorLike:
        return _card("a", [*c[:-1], "Bakugan", {"where": Condition("holding", "has", c[-1])}])

    def a_bakugan_unopened(self, c: list[Any]) -> SelectorLike:
        return _card("a", [*c, "Bakugan", {"where": Condition("opened", "not", "this turn")}])

    yours_unopened = _const(_Qualified(Selector("a", "Bakugan", owner="you"),
                                       (Condition("opened", "not", "this turn"),)))
    your_bakugan = _const(Selector("the", "Bakugan", owner="you"))
    your_attacks = _const(Selector("all", "attack", owner="you"))
    your_next_attack = _const(Selector("the", "attack", owner="you"))
    the_opposing = _const(Selector("the", "Bakugan", owner="opponent"))
    that_bakugan = _const(Selector("that", "Bakugan"))
    this_bakugan = _const(Selector("this", "Bakugan"))
    it = _const(Selector("it"))
    this_card = _const(Selector("this"))

    def your_bakugan_all(self, c: list[Any]) -> Selector:
        if c:
            return Selector("all", "Bakugan", owner="you", team=_faction(c[0]))
        return Selector("all", "Bakugan", owner="you")

    opposing_all = _const(Selector("all", "Bakugan", owner="opponent"))
    all_bakugan = _const(Selector("all", "Bakugan"))

    def non_faction_all(self, c: list[Any]) -> Selector:
        return Selector("all", "Bakugan", team="non-" + _faction(c[0]))

    def faction_adj(self, c: list[Any]) -> _ADJ:
        return {"team": _faction(c[0])}

    def non_faction_adj(self, c: list[Any]) -> _ADJ:
        return {"team": "non-" + _faction(c[0])}

    enemy_adj = _const({"owner": "opponent"})
    open_adj = _const({"zone": "open"})
    other_adj = _const({"other": True})
    non_energy_adj = _const({"where": Condition("type", "not", "Energy")})
    enemy_bakugan = _const(Selector("a", "Bakugan", owner="opponent"))

    # ---- card selectors
    def qualified_card(self, c: list[Any]) -> SelectorLike:
        base = c[0]
        extra = tuple(x for x in c[1:] if isinstance(x, Condition))
        zone = next((x for x in c[1:] if isinstance(x, tuple)), None)
        where = (*base.where, *extra) if isinstance(base, _Qualified) else extra
        selector = _sel(base)
        if zone is not None and selector.zone is None:
            selector = msgspec.structs.replace(selector, zone=zone[0],
                                               owner=zone[1] or selector.owner)
        return _Qualified(selector, where)

    def cost_at_most(self, c: list[Any]) -> Condition:
        return Condition("cost", "<=", c[0])

    not_played = _const(Condition("played", "not", "this turn"))

    def a_card(self, c: list[Any]) -> SelectorLike:
        return _card("a", c)

    def some_cards(self, c: list[Any]) -> SelectorLike:
        return _card("a", c[1:], count=c[0])

    def all_cards(self, c: list[Any]) -> SelectorLike:
        return _card("all", c)

    def your_all(self, c: list[Any]) -> SelectorLike:
        return Selector("all", c[0], owner="you")

    def each_card(self, c: list[Any]) -> SelectorLike:
        return _card("each", c)

    def any_number(self, c: list[Any]) -> SelectorLike:
        return _card("up_to", c, count=Var("any"))

    def up_to(self, c: list[Any]) -> SelectorLike:
        return _card("up_to", c[1:], count=c[0])

    def top_card(self, c: list[Any]) -> Selector:
        return Selector("the", "card", owner=c[0], zone="top of deck")

    def top_cards(self, c: list[Any]) -> Selector:
        return Selector("the", "card", count=c[0], owner=c[1], zone="top of deck")

    your_hand = _const(Selector("all", "card", owner="you", zone="hand"))
    your_discard_pile = _const(Selector("all", "card", owner="you", zone="discard pile"))
    opponents_hand = _const(Selector("all", "card", owner="opponent", zone="hand"))

    that_evo = _const(Selector("that", "Evo"))

    def bare_plural(self, c: list[Any]) -> SelectorLike:
        return _card("all", c)

    this_from_discard = _const(Selector("this", zone="discard pile"))

    def first_each_turn(self, c: list[Any]) -> Selector:
        return Selector("the", c[0], owner="you", zone="first played each turn")

    def next_played(self, c: list[Any]) -> Selector:
        return Selector("the", c[0], owner="you", zone="next played")

    def a_core(self, c: list[Any]) -> Selector:
        return Selector("a", "BakuCore", zone=c[0] if c else None)

    def a_core_icon(self, c: list[Any]) -> Selector:
        return Selector("a", "BakuCore", team=c[0], zone=c[1] if len(c) > 1 else None)

    enemy_cores = _const(Selector("all", "BakuCore", owner="opponent", zone="held"))

    def held_core(self, c: list[Any]) -> Selector:
        return Selector("a", "BakuCore", owner=_sel(c[0]).owner, zone="held")

    that_core = _const(Selector("that", "BakuCore"))
    card_base = _first

    def from_zone(self, c: list[Any]) -> tuple[str, str | None]:
        return (c[0], "you")

    in_play = _const(("play", None))
    core_zone = _const("field")

    hand = _const("hand")
    deck = _const("deck")
    discard_pile = _const("discard pile")

    any_card = _const("card")
    action = _const("Action")
    hero = _const("Hero")
    evo = _const("Evo")
    flip = _const("Flip")
    character = _const("Character")
    energy_card = _const("Energy")
    kind = _first
    kind_plural = _first

    # ---- what "for each" counts
    def count_faction(self, c: list[Any]) -> Var:
        return Var("count", of=Selector("each", "Bakugan", owner="you", team=_faction(c[0])))

    def count_stat(self, c: list[Any]) -> Var:
        name = c[-2] if isinstance(c[-2], str) else "Damage Rating"
        return Var(name, of=_sel(c[-1]))

    def count_in_play(self, c: list[Any]) -> Var:
        return Var("count", of=Selector("each", c[0], owner="you", zone="play"))

    def count_opponent_in_play(self, c: list[Any]) -> Var:
        return Var("count", of=Selector("each", c[0], owner="opponent", zone="play"))

    def count_in_zone(self, c: list[Any]) -> Var:
        return Var("count", of=Selector("each", c[0], owner="you", zone=c[1]))

    count_held_by_this = _const(Var("cores", of=Selector("this")))
    count_open = _const(Var("count", of=Selector("each", "Bakugan", zone="open")))
    count_team = _const(Var("count", of=Selector("each", "Bakugan", owner="you")))

    def count_all_in_play(self, c: list[Any]) -> Var:
        return Var("count", of=Selector("each", c[0], zone="play"))

    count_cores = _const(Var("count", of=Selector("each", "BakuCore", owner="you", zone="held")))
    count_other_played = _const(Var("played", of=Selector("each", "card", owner="you",
                                                          other=True)))
    count_played = _const(Var("played", of=Selector("each", "card", owner="you")))
    count_shuffled = _const(Var("shuffled"))
    count_x = _const(Var("X"))

    controller = _const("controller")
    chosen_player = _const("any")

    # ---- triggers
    when_you_play_this = _const(Trigger("played", who="you", subject=Selector("this")))

    def when_play_on_this(self, c: list[Any]) -> Trigger:
        return Trigger("played_on", who=c[0], subject=_sel(c[1]))

    def when_play(self, c: list[Any]) -> Trigger:
        return Trigger("played", who=c[0], subject=_sel(c[1]))

    when_this_opens = _const(Trigger("opens", subject=Selector("this")))

    def when_open(self, c: list[Any]) -> Trigger:
        return Trigger("opens", who=c[0], subject=Selector("a", "Bakugan"))

    def when_discard(self, c: list[Any]) -> Trigger:
        return Trigger("discarded", who=c[0], subject=Selector("a", "card"))

    def when_attacks(self, c: list[Any]) -> Trigger:
        return Trigger("attacks", subject=_sel(c[0]))

    def when_bakugan_opens(self, c: list[Any]) -> Trigger:
        return Trigger("opens", subject=_sel(c[0]))

    when_this_victor = _const(Trigger("victor", subject=Selector("this")))

    def when_retract(self, c: list[Any]) -> Trigger:
        return Trigger("retracted", who=c[0], subject=Selector("a", "Bakugan"))

    when_this_attacks = _const(Trigger("attacks", subject=Selector("this")))
    when_this_destroyed = _const(Trigger("destroyed", subject=Selector("this")))

    def when_energize(self, c: list[Any]) -> Trigger:
        return Trigger("energized", who=c[0], subject=_sel(c[1]))

    def when_draw(self, c: list[Any]) -> Trigger:
        return Trigger("drawn", who=c[0], subject=Selector("a", "card"))

    def when_select(self, c: list[Any]) -> Trigger:
        return Trigger("selected", who=c[0], subject=Selector("a", "Bakugan"))

    def if_take_damage(self, c: list[Any]) -> Trigger:
        return Trigger("dealt_damage", who=c[0])

    if_this_discarded = _const(Trigger("discarded", subject=Selector("this")))

    def if_discard_this(self, c: list[Any]) -> Trigger:
        return Trigger("discarded", who=c[0], subject=Selector("this"))

    def if_deal_damage(self, c: list[Any]) -> tuple[Trigger, Condition]:
        op, value = c[1]
        return (Trigger("deals_damage", who=c[0]), Condition("damage", op, value))

    at_turn_end = _const(Trigger("turn_ends"))
    at_turn_start = _const(Trigger("turn_begins"))

    # ---- conditions
    def faction_condition(self, c: list[Any]) -> Condition:
        return Condition("faction", "is", _faction(c[0]))

    def holding_condition(self, c: list[Any]) -> Condition:
        return Condition("holding", "has", c[1], of=_sel(c[0]))

    def this_holding_condition(self, c: list[Any]) -> Condition:
        return Condition("holding", "has", c[0], of=Selector("this"))

    def count_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        kind, zone = c[2] if isinstance(c[2], tuple) else (c[2], None)
        return Condition("count", op, value, of=Selector("all", kind, owner=c[0], zone=zone))

    def in_play_kinds(self, c: list[Any]) -> tuple[str, str]:
        return (c[0], "play")

    def in_hand_kinds(self, c: list[Any]) -> tuple[str, str]:
        return (c[0], "hand")

    counted_kind = _first

    def open_count_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition("count", op, value,
                         of=Selector("all", "Bakugan", owner=c[0], zone="open"))

    def empty_hand_condition(self, c: list[Any]) -> Condition:
        return Condition("count", "==", 0, of=Selector("all", "card", owner=c[0], zone="hand"))

    def zone_count_condition(self, c: list[Any]) -> Condition:
        op, value = c[0]
        return Condition("count", op, value, of=Selector("all", "card", owner="you", zone=c[1]))

    def cores_held_condition(self, c: list[Any]) -> Condition:
        op, value = c[0]
        return Condition("cores", op, value, of=Selector("this"))

    def most_energy_condition(self, c: list[Any]) -> Condition:
        return Condition("most", "has", "Energy", of=_player(c[0]))

    most_cores_condition = _const(Condition("most", "has", "BakuCore", of=_player("you")))

    def played_another_condition(self, c: list[Any]) -> Condition:
        return Condition("played", ">=", 1, of=Selector("all", "card", owner=c[0], other=True))

    def played_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition("played", op, value, of=Selector("all", "card", owner=c[0]))

    def reroll_condition(self, c: list[Any]) -> Condition:
        return Condition("reroll", "is", "open", of=_player(c[0]))

    def not_kind_condition(self, c: list[Any]) -> Condition:
        of = _sel(c[0]) if len(c) > 1 else Selector("it")
        return Condition("type", "not", c[-1], of=of)

    heads_condition = _const(Condition("coin", "is", "heads"))

    def stat_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition(c[0], op, value, of=IMPLIED)

    def controls_name_condition(self, c: list[Any]) -> Condition:
        return Condition("controls", "has", str(c[1]), of=_player(c[0]))

    def is_kind_condition(self, c: list[Any]) -> Condition:
        return Condition("type", "is", c[1], of=_sel(c[0]))

    def costs_at_most_condition(self, c: list[Any]) -> Condition:
        return Condition("cost", "<=", c[1], of=_sel(c[0]))

    def costs_at_least_condition(self, c: list[Any]) -> Condition:
        return Condition("cost", ">=", c[1], of=_sel(c[0]))

    def did_condition(self, c: list[Any]) -> Condition:
        return Condition("done", "is", "yes", of=_player(c[0]))

    bakugan_holder = _first

    def has_kind_condition(self, c: list[Any]) -> Condition:
        return Condition("count", ">=", 1, of=Selector("all", c[1], owner=c[0]))

    def has_kind_in_play_condition(self, c: list[Any]) -> Condition:
        return Condition("count", ">=", 1, of=Selector("all", c[1], owner=c[0], zone="play"))

    def stat_has_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition(c[2], op, value, of=_sel(c[0]))

    def flag_has_condition(self, c: list[Any]) -> Condition:
        return Condition(c[1], ">=", 1, of=_sel(c[0]))

    def holder_faction_condition(self, c: list[Any]) -> Condition:
        return Condition("faction", "is", _faction(c[1]), of=_sel(c[0]))

    def opens_condition(self, c: list[Any]) -> Condition:
        return Condition("opens", "is", "yes", of=_sel(c[0]))


@dataclass(frozen=True)
class _Otherwise:
    """``Otherwise, STEPS.``: the other branch of the ``If`` sentence before it."""

    steps: tuple[Step, ...]


@dataclass(frozen=True)
class _Timed:
    """A rider body that waits for a moment: ``At the end of the turn, ...``."""

    trigger: Trigger
    effect: tuple[Step, ...]


# ------------------------------------------------------------------ settling


def settle(ability: Ability, card_type: str | None) -> Ability:
    """Give a plain line the kind of ability its card type calls for.

    Plain sentences are a Spell on Action and Flip cards (and when the type is unknown
    or something else) and a static Passive on Character, Evo, Hero and Energy cards,
    where a lone ``If CONDITION, EFFECT.`` becomes the Passive's condition.
    """
    if isinstance(ability, Spell) and not ability.cost and _is_static(card_type):
        effect = ability.effect
        if len(effect) == 1 and isinstance(effect[0], If) and not effect[0].otherwise:
            return Passive(effect[0].then, condition=effect[0].condition)
        return Passive(effect)
    return ability


def _is_static(card_type: str | None) -> bool:
    """Whether a (possibly decorated, e.g. ``Evo (Aquos)``) card type stays in play."""
    if card_type is None:
        return False
    head = card_type.split("(")[0].strip()
    words = head.split()
    return bool(words) and (head in STATIC_TYPES or words[0] in STATIC_TYPES)


# ------------------------------------------------------------------ splitting

_ICON = r"\[?(?:FT|FF|SD|MS|HE)\]?"
_OPENERS = re.compile(
    rf"{_ICON}(?:\s*or\s*{_ICON})*\s*:"
    r"|[A-Z][a-z]+(?::|\s+-)"
    r"|When(?:ever)?\s"
    r"|At the (?:end|start|beginning) of the turn,"
    r"|If (?:you take damage|this is discarded|you discard this)\b"
    r"|If you deal \S+ or more damage"
    r"|The turn you play this,"
    r"|You may Reroll (?:this )?(?:once each turn|any time|whenever)"
    r"|Once each turn, you may Reroll"
    r"|This counts as all Factions"
)
_STATIC_AFTER_TRIGGER = re.compile(
    r"(?:[+\-][0-9X]* ?)?\[(?:B|Damage Rating|FrostStrike|DoubleStrike|ShadowStrike)\] to your "
    r"|Your (?:\[[A-Za-z]+\] )?Bakugan have (?![^.]* at the end of the turn\.)")  # that one is delayed: the trigger's own step
_TRIGGER_START = re.compile(r"When|If|At the|The turn")
_SENTENCE = re.compile(r"\.\s+(?=\S)")
"""A sentence break: a period, spaces, then more text (a match ends where the next sentence begins).

The period is part of the match rather than a look-behind: the engine then looks for
periods alone instead of trying every position of the line."""
_REMINDER = re.compile(r"\([^()]*\)")


def _blank(match: re.Match[str]) -> str:
    """Reminder text as as many spaces (columns stay those of the printed line)."""
    return " " * len(match.group(0))


def split(text: str) -> list[tuple[int, str]]:
    """Cut a card text into ability lines, with their 1-based line numbers.

    Each printed line is cut before a sentence that opens a new ability (see the module
    docstring). After a triggered ability it is also cut before a static that Hero cards
    print there: a stat change ``to your`` Bakugan or attacks, or ``Your Bakugan have ...``.
    Reminder text in parentheses is dropped. Every piece is left-padded with spaces, so the
    columns of a parse error are those of the line.

    Most lines are one sentence, so the regular expressions run only where they can
    find something: the reminders where a ``(`` is, the sentence breaks where a period
    comes before the last character of the line (a break needs text after it), and the
    trigger test at the first break.
    """
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if "(" in line:
            line = _REMINDER.sub(_blank, line)
        kept = line.rstrip()
        if not kept:
            continue
        if "." not in kept[:-1]:  # one sentence: the line is the piece
            out.append((number, kept))
            continue
        starts = [0]
        triggered: bool | None = None  # whether the ability being read is triggered, once a break is found
        for match in _SENTENCE.finditer(line):
            if triggered is None:
                triggered = bool(_TRIGGER_START.match(line.lstrip()))
            at = match.end()
            if _OPENERS.match(line, at):
                starts.append(at)
                triggered = bool(_TRIGGER_START.match(line, at))
            elif triggered and _STATIC_AFTER_TRIGGER.match(line, at):
                starts.append(at)
                triggered = False
        for begin, end in zip(starts, [*starts[1:], len(line)], strict=True):
            piece = line[begin:end].rstrip()
            if piece.strip():
                out.append((number, " " * begin + piece))
    return out


# ------------------------------------------------------------------ rendering

_ICONS = {
    "BPower": "[B]",
    "Damage Rating": "[Damage Rating]",
    "Energy": "[Energy]",
    "FrostStrike": "[FrostStrike]",
    "DoubleStrike": "[DoubleStrike]",
    "ShadowStrike": "[ShadowStrike]",
}
_FLAGS = ("DoubleStrike", "ShadowStrike")
_KIND_ONE = {"card": "card", "Action": "Action card", "Hero": "Hero card",
             "Evo": "Evo card", "Flip": "Flip card", "Character": "Character card",
             "Energy": "Energy card"}
_KIND_MANY = {"card": "cards", "Action": "Action cards", "Hero": "Hero cards",
              "Evo": "Evo cards", "Flip": "Flip cards", "Energy": "Energy cards"}
_ZONES = {"hand": "hand", "deck": "deck", "discard pile": "discard pile"}
_DECK_OWNERS = {"you": "your", "opponent": "your opponent's", "each": "their"}
_DESTINATIONS = {
    "hand": "return {} to your hand",
    "bottom of deck": "return {} to the bottom of your deck",
    "top of deck": "put {} on top of your deck",
    "discard pile": "put {} into your discard pile",
    "deck": "shuffle {} into your deck",
    "field face down": "you return {} onto the field face down",
}


def _fail(what: str, node: object) -> RenderError:
    return RenderError(f"no Bakugan wording for {what} {node!r}")




def _an(words: str) -> str:
    """``a`` or ``an`` before ``words`` (icons read by their name: ``an [Aquos]``)."""
    return ("an " if words.lstrip("[")[:1] in "AEIOUaeiou" else "a ") + words


def _digits(amount: Amount) -> str:
    """A stat or energy amount: digits, or ``X``."""
    if isinstance(amount, Var):
        if amount == Var("X"):
            return "X"
        raise _fail("the amount", amount)
    if amount < 0:
        raise _fail("the amount", amount)
    return str(amount)


def _count(amount: Amount) -> str:
    """A count of cards: words up to ten, digits above, or ``X``."""
    if isinstance(amount, int) and 1 <= amount <= 10:
        return _WORDS[amount]
    return _digits(amount)


def _number(amount: Amount) -> str:
    """A count where ``X`` is not allowed."""
    if not isinstance(amount, int):
        raise _fail("the number", amount)
    return _count(amount)


def _cards(amount: Amount) -> str:
    return "a card" if amount == 1 else f"{_count(amount)} cards"


def _who(who: str) -> str:
    names = {"you": "you", "opponent": "your opponent", "each": "each player",
             "controller": "its controller", "any": "that player"}
    if who not in names:
        raise _fail("the player", who)
    return names[who]


def _who_of(sel: Selector | None) -> str:
    """The Who of a player selector."""
    if sel == Selector("each", "player"):
        return "each"
    if sel is not None and sel.owner is not None and sel == Selector("the", "player",
                                                                      owner=sel.owner):
        return sel.owner
    raise _fail("the player", sel)


def _third(who: str, base: str, third: str) -> str:
    """``draw`` after the implied ``you``; ``your opponent draws`` otherwise."""
    return base if who == "you" else f"{_who(who)} {third}"


def _change(stat: str, delta: Amount) -> str:
    """``+200 [B]``, ``-3 [Damage Rating]``, ``+[ShadowStrike]``..."""
    if stat not in _ICONS:
        raise _fail("the stat", stat)
    icon = _ICONS[stat]
    if isinstance(delta, Var):
        if delta.name == "cost" and delta.of is not None and stat == "Damage Rating":
            if delta.of == Selector("that", "card", zone="discard pile"):
                return "+[Damage Rating] equal to the discarded card's Energy cost"
            if delta.of == Selector("that", "card"):
                return "+[Damage Rating] equal to the revealed card's Energy cost"
        return f"+{_digits(delta)} {icon}"
    if stat in _FLAGS and delta == 1:
        return f"+{icon}"
    return f"+{delta} {icon}" if delta >= 0 else f"-{-delta} {icon}"


def _faction_adj(team: str) -> str:
    return f"non-[{team[4:]}]" if team.startswith("non-") else f"[{team}]"


def _bakugan_words(sel: Selector, where: tuple[Condition, ...] = ()) -> str:
    """A Bakugan (or attack) as an object: ``a [Haos] Bakugan``, ``that Bakugan``..."""
    unopened = where == (Condition("opened", "not", "this turn"),)
    holding = len(where) == 1 and where[0].subject == "holding" and where[0].op == "has" \
        and where[0].of is None and where[0].value in BAKUCORES
    if where and not (unopened or holding):
        raise _fail("the Bakugan", (sel, where))
    if sel.quantifier == "a" and sel.type == "Bakugan" and sel.count == 1 \
            and sel.name_contains is None:
        tail = " that didn't open this turn" if unopened else ""
        if holding:
            tail = f" holding [{where[0].value}]"
        if sel == Selector("a", "Bakugan", other=True) and not where:
            return "another Bakugan"
        if sel == Selector("a", "Bakugan", owner="you") and not holding:
            return "one of your Bakugan" + tail
        adjs = [a for a in (
            _faction_adj(sel.team) if sel.team else None,
            "enemy" if sel.owner == "opponent" else None,
            "open" if sel.zone == "open" else None,
        ) if a]
        plain = Selector("a", "Bakugan", owner=sel.owner, zone=sel.zone, team=sel.team)
        if len(adjs) <= 1 and sel == plain and sel.owner in (None, "opponent") \
                and sel.zone in (None, "open"):
            return _an(" ".join([*adjs, "Bakugan"])) + tail
    if where:
        raise _fail("the Bakugan", (sel, where))
    fixed = {
        Selector("the", "Bakugan", owner="you"): "your Bakugan",
        Selector("all", "attack", owner="you"): "your attacks",
        Selector("the", "attack", owner="you"): "your next attack this turn",
        Selector("the", "Bakugan", owner="opponent"): "the opposing Bakugan",
        Selector("that", "Bakugan"): "that Bakugan",
        Selector("this", "Bakugan"): "this Bakugan",
        Selector("it"): "it",
        Selector("this"): "this",
        Selector("all", "Bakugan"): "all Bakugan",
        Selector("all", "Bakugan", owner="opponent"): "all enemy Bakugan",
        Selector("all", "Bakugan", owner="you"): "all your Bakugan",
    }
    if sel in fixed:
        return fixed[sel]
    if sel.team and sel == Selector("all", "Bakugan", owner="you", team=sel.team) \
            and not sel.team.startswith("non-"):
        return f"your [{sel.team}] Bakugan"
    raise _fail("the Bakugan", sel)


def _subject(sel: Selector, where: tuple[Condition, ...] = ()) -> str:
    """A Bakugan as the subject of a stat change, with its verb: ``that Bakugan gets``,
    ``your Bakugan have``, ``opposing Bakugan get``."""
    plural = {
        Selector("all", "Bakugan", owner="you"): "your Bakugan have",
        Selector("all", "Bakugan", owner="opponent"): "opposing Bakugan get",
        Selector("all", "attack", owner="you"): "your attacks have",
        Selector("all", "Bakugan"): "all Bakugan get",
    }
    if not where and sel in plural:
        return plural[sel]
    if not where and sel.team and sel.team.startswith("non-") \
            and sel == Selector("all", "Bakugan", team=sel.team):
        return f"{_faction_adj(sel.team)} Bakugan get"
    text = _bakugan_words(sel, where)
    return text + (" have" if text.startswith("your [") else " gets")


def _poss(sel: Selector) -> str:
    """``a Bakugan's``, ``an enemy Bakugan's``, ``this Bakugan's``, ``that Bakugan's``."""
    names = {
        Selector("a", "Bakugan"): "a Bakugan's",
        Selector("a", "Bakugan", owner="opponent"): "an enemy Bakugan's",
        Selector("this", "Bakugan"): "this Bakugan's",
        Selector("that", "Bakugan"): "that Bakugan's",
    }
    if sel not in names:
        raise _fail("the Bakugan", sel)
    return names[sel]


def _zone_tail(sel: Selector) -> str:
    """`` from your hand``, `` in your discard pile``, `` in play``."""
    if sel.zone is None:
        return ""
    if sel.zone == "play" and sel.owner is None:
        return " in play"
    if sel.zone in _ZONES and sel.owner == "you":
        return f" from your {_ZONES[sel.zone]}"
    raise _fail("the zone of", sel)


def _card_words(sel: Selector, where: tuple[Condition, ...] = ()) -> str:
    """A card (or BakuCore) as an object: ``an enemy Energy card``, ``the top card of
    your deck``, ``a Hero card with cost 4 [Energy] or less``..."""
    non_energy = Condition("type", "not", "Energy")
    filters = [c for c in where if c != non_energy]
    tail = ""
    for cond in filters:
        if cond.subject == "cost" and cond.op == "<=" and cond.of is None \
                and not isinstance(cond.value, str):
            tail += f" with cost {_digits(cond.value)} [Energy] or less"
        elif cond == Condition("played", "not", "this turn"):
            tail += " that was not played this turn"
        else:
            raise _fail("the condition", cond)
    adjectives = ["non-Energy"] if non_energy in where else []
    return _card_base(sel, adjectives) + tail


def _card_base(sel: Selector, adjectives: list[str]) -> str:
    fixed = {
        Selector("this"): "this",
        Selector("it"): "it",
        Selector("this", zone="discard pile"): "this from your discard pile",
        Selector("that", "Evo"): "that Bakugan's Evo card",
        Selector("that", "BakuCore"): "the BakuCore",
        Selector("all", "BakuCore", owner="opponent", zone="held"):
            "all BakuCores enemy Bakugan hold",
        Selector("all", "card", owner="opponent", zone="hand"): "your opponent's hand",
    }
    if not adjectives and sel in fixed:
        return fixed[sel]
    if adjectives and (sel.type not in _KIND_ONE or sel.type == "Energy"):
        raise _fail("the card", sel)
    if sel.type == "BakuCore":
        return _core(sel)
    if sel.quantifier == "the" and sel.zone == "top of deck" and not adjectives \
            and sel.owner in _DECK_OWNERS and sel == Selector(
                "the", "card", count=sel.count, owner=sel.owner, zone="top of deck"):
        whose = _DECK_OWNERS[sel.owner]
        if sel.count == 1:
            return f"the top card of {whose} deck"
        return f"the top {_number(sel.count)} cards of {whose} deck"
    if sel.quantifier == "the" and sel.owner == "you" and sel.type in _KIND_ONE \
            and sel.zone in ("next played", "first played each turn") and not adjectives \
            and sel == Selector("the", sel.type, owner="you", zone=sel.zone):
        if sel.zone == "next played":
            return f"the next {_KIND_ONE[sel.type]} you play"
        return f"the first {_KIND_ONE[sel.type]} you play each turn"
    if sel.name_contains is not None or sel.type not in _KIND_ONE:
        raise _fail("the card", sel)
    words = list(adjectives)
    if sel.owner == "opponent":
        words.append("enemy")
    if sel.other:
        words.append("other")
    if sel.team:
        words.append(_faction_adj(sel.team))
    owner_ok = sel.owner in (None, "opponent") or (sel.owner == "you" and sel.zone in _ZONES)
    if sel.quantifier == "all" and sel.owner == "you" and sel.zone is None \
            and sel.type in _KIND_MANY and sel == Selector("all", sel.type, owner="you") \
            and not adjectives:
        return f"your {_KIND_MANY[sel.type]}"
    if not owner_ok:
        raise _fail("the card", sel)
    zone = _zone_tail(sel)
    if sel.quantifier == "a" and sel.count == 1:
        return _an(" ".join([*words, _KIND_ONE[sel.type]])) + zone
    if sel.type not in _KIND_MANY:
        raise _fail("the card", sel)
    many = " ".join([*words, _KIND_MANY[sel.type]])
    if sel.quantifier == "a" and isinstance(sel.count, int):
        return f"{_number(sel.count)} {many}{zone}"
    if sel.quantifier == "all" and sel.count == 1:
        return f"all {many}{zone}"
    if sel.quantifier == "each" and sel.count == 1:
        return f"each {' '.join([*words, _KIND_ONE[sel.type]])}{zone}"
    if sel.quantifier == "up_to" and sel.count == Var("any") and not words:
        return f"any number of {many}{zone}"
    if sel.quantifier == "up_to" and isinstance(sel.count, int) and not words:
        return f"up to {_number(sel.count)} {many}{zone}"
    raise _fail("the card", sel)


def _core(sel: Selector) -> str:
    """A BakuCore: ``a BakuCore from the field``, ``a [FT]``, ``an enemy Bakugan's
    BakuCore``."""
    if sel.quantifier == "a" and sel.owner is None and sel.zone in (None, "field") \
            and sel == Selector("a", "BakuCore", team=sel.team, zone=sel.zone) \
            and (sel.team is None or sel.team in BAKUCORES):
        name = f"[{sel.team}]" if sel.team else "BakuCore"
        return f"{_an(name)}{' from the field' if sel.zone else ''}"
    if sel == Selector("a", "BakuCore", owner=sel.owner, zone="held") \
            and sel.owner in (None, "opponent"):
        owner = "an enemy Bakugan's" if sel.owner == "opponent" else "a Bakugan's"
        return f"{owner} BakuCore"
    raise _fail("the BakuCore", sel)


def _comparison(op: str, value: Amount | str) -> str:
    if isinstance(value, str):
        raise _fail("the comparison", value)
    number = _count(value) if isinstance(value, int) else _digits(value)
    return {"==": number, ">=": f"{number} or more", "<=": f"{number} or less"}[op]


def _holder(sel: Selector | None) -> str:
    names = {
        Selector("that", "Bakugan"): "that Bakugan",
        Selector("the", "Bakugan", owner="you"): "your Bakugan",
        Selector("a", "Bakugan", owner="you"): "one of your Bakugan",
        Selector("it"): "it",
        Selector("the", "Bakugan", owner="opponent"): "the opposing Bakugan",
        Selector("this", "Bakugan"): "this Bakugan",
    }
    if sel not in names:
        raise _fail("the Bakugan", sel)
    return names[sel]  # type: ignore[index]


def _condition(cond: Condition) -> str:
    """A condition after ``If`` (lower case)."""
    subject, op, value, of = cond.subject, cond.op, cond.value, cond.of
    if subject == "faction" and op == "is" and of is None and isinstance(value, str) \
            and value in FACTIONS:
        return f"[{value}]"
    if subject == "holding" and op == "has" and isinstance(value, str) and value in BAKUCORES:
        if of == Selector("this"):
            return f"this is holding [{value}]"
        return f"{_holder(of)} is holding [{value}]"
    if subject == "faction" and op == "is" and of is not None and isinstance(value, str) \
            and value in FACTIONS:
        return f"{_holder(of)} is [{value}]"
    if subject in _FLAGS and op == ">=" and value == 1 and of is not None and of != IMPLIED:
        return f"{_holder(of)} has {_ICONS[subject]}"
    if subject in _ICONS and subject != "Energy" and of is not None and of != IMPLIED \
            and op in ("==", ">=", "<="):
        return f"{_holder(of)} has {_comparison(op, value)} {_ICONS[subject]}"
    if subject == "opens" and op == "is" and value == "yes" and of is not None:
        return f"{_holder(of)} opens"
    if subject == "count" and of is not None and op in ("==", ">=", "<=") \
            and of.owner is not None:
        return _count_condition(cond, of)
    if subject == "cores" and of == Selector("this") and op in ("==", ">=", "<="):
        return f"this holds {_comparison(op, value)} BakuCores"
    if subject == "most" and op == "has" and of == _player("you"):
        if value == "Energy":
            return "you control the most Energy cards"
        if value == "BakuCore":
            return "your Bakugan hold the most BakuCores"
    if subject == "played" and of is not None and of.owner is not None \
            and of == Selector("all", "card", owner=of.owner, other=of.other):
        who = _who(of.owner)
        if of.other and op == ">=" and value == 1:
            return f"{who} played another card this turn"
        if not of.other and op in ("==", ">=", "<="):
            return f"{who} played {_comparison(op, value)} cards this turn"
    if subject == "reroll" and op == "is" and value == "open" and of is not None:
        return f"{_who(_who_of(of))} open on the Reroll"
    if subject == "type" and op == "not" and isinstance(value, str) and value in _KIND_ONE \
            and value != "card" and of is not None:
        return f"{_holder(of)} is not {_an(_KIND_ONE[value])}"
    if subject == "type" and op == "is" and isinstance(value, str) and value in _KIND_ONE \
            and of is not None:
        return f"{_holder(of)} is {_an(_KIND_ONE[value])}"
    if subject == "cost" and op in ("<=", ">=") and of is not None \
            and not isinstance(value, str):
        return f"{_holder(of)} costs {_digits(value)} [Energy] or " \
               f"{'less' if op == '<=' else 'more'}"
    if subject == "controls" and op == "has" and isinstance(value, str) \
            and _NAME.fullmatch(value) and of == _player("you"):
        return f"you control {value}"
    if cond == Condition("coin", "is", "heads"):
        return "heads"
    if subject in _ICONS and of == IMPLIED and op in ("==", ">=", "<="):
        return f"the Bakugan's {_ICONS[subject]} becomes {_comparison(op, value)}"
    if subject == "done" and op == "is" and value == "yes" and of is not None:
        return f"{_who(_who_of(of))} do"
    raise _fail("the condition", cond)


def _count_condition(cond: Condition, of: Selector) -> str:
    op, value = cond.op, cond.value
    assert of.owner is not None
    who = _who(of.owner)
    have = "have" if of.owner == "you" else "has"
    if of == Selector("all", "card", owner=of.owner, zone="hand") and op == "==" and value == 0:
        return f"{who} {have} no cards in hand"
    if of == Selector("all", "Bakugan", owner="you", zone="open"):
        return f"you only have {_comparison(op, value)} open Bakugan"
    if of.type == "card" and of.owner == "you" and of.zone in _ZONES \
            and of == Selector("all", "card", owner="you", zone=of.zone):
        return f"there are {_comparison(op, value)} cards in your {_ZONES[of.zone]}"
    if of.type in _KIND_MANY and of.zone in (None, "play", "hand") \
            and of == Selector("all", of.type, owner=of.owner, zone=of.zone):
        where = {None: "", "play": " in play", "hand": " in hand"}[of.zone]
        return f"{who} {have} {_comparison(op, value)} {_KIND_MANY[of.type]}{where}"
    raise _fail("the condition", cond)


def _counted(count: Var) -> str:
    """What ``for each`` counts."""
    of = count.of
    if count == Var("X"):
        return "[Energy] used"
    if count == Var("shuffled"):
        return "card shuffled"
    if count == Var("cores", of=Selector("this")):
        return "BakuCore this is holding"
    if count == Var("count", of=Selector("each", "Bakugan", zone="open")):
        return "open Bakugan"
    if count == Var("count", of=Selector("each", "Bakugan", owner="you")):
        return "Bakugan on your team"
    if of is not None and count.name == "count" and of.type in _KIND_ONE \
            and of == Selector("each", of.type, zone="play"):
        return f"{_KIND_ONE[of.type]} in play"
    if count.name == "played" and of is not None \
            and of == Selector("each", "card", owner="you", other=of.other):
        return "other card you played this turn" if of.other else \
            "card you have played this turn"
    if count.name == "count" and of is not None:
        if of.type == "Bakugan" and of.team in FACTIONS \
                and of == Selector("each", "Bakugan", owner="you", team=of.team):
            return f"[{of.team}] Bakugan on your team"
        if of == Selector("each", "BakuCore", owner="you", zone="held"):
            return "BakuCore that your Bakugan hold"
        if of.type in _KIND_ONE and of == Selector("each", of.type, owner="opponent",
                                                   zone="play"):
            return f"{_KIND_ONE[of.type]} your opponent has in play"
        if of.type in _KIND_ONE and of.zone is not None \
                and of == Selector("each", of.type, owner="you", zone=of.zone):
            if of.zone == "play":
                return f"{_KIND_ONE[of.type]} you have in play"
            if of.zone in _ZONES:
                return f"{_KIND_ONE[of.type]} in your {_ZONES[of.zone]}"
    if count.name in ("Damage Rating", "FrostStrike", "DoubleStrike", "ShadowStrike") \
            and of is not None:
        owner = _bakugan_words(of)
        if count.name == "Damage Rating":
            return f"1 [Damage Rating] {owner} has"
        return f"point of {_ICONS[count.name]} {owner} has"
    raise _fail("what is counted", count)


def _trigger(trig: Trigger) -> str:
    """The trigger before the comma, capitalised."""
    event, who, subject = trig.event, trig.who, trig.subject
    if trig.phase is not None:
        raise _fail("the trigger", trig)
    if event == "played" and who is not None and subject is not None:
        thing = "this" if subject == Selector("this") else _card_words(subject)
        return f"When {_who(who)} {'play' if who == 'you' else 'plays'} {thing}"
    if event == "played_on" and who is not None and subject is not None:
        return f"When {_who(who)} {'play' if who == 'you' else 'plays'} {_card_words(subject)} on this"
    if trig == Trigger("opens", subject=Selector("this")):
        return "When this opens"
    if event == "opens" and who is not None and subject == Selector("a", "Bakugan"):
        return f"When {_who(who)} {'open' if who == 'you' else 'opens'} a Bakugan"
    if event == "discarded" and subject == Selector("a", "card") and who is not None:
        return f"When {_who(who)} {'discard' if who == 'you' else 'discards'} a card"
    if trig == Trigger("discarded", subject=Selector("this")):
        return "If this is discarded"
    if event == "discarded" and subject == Selector("this") and who is not None:
        return f"If {_who(who)} {'discard' if who == 'you' else 'discards'} this card"
    if event in ("attacks", "opens") and who is None and subject is not None \
            and (subject == Selector("this") or subject.type == "Bakugan"):
        return f"When {_bakugan_words(subject)} {event}"
    if trig == Trigger("destroyed", subject=Selector("this")):
        return "When this is destroyed"
    if trig == Trigger("victor", subject=Selector("this")):
        return "When this becomes the Victor"
    if event == "retracted" and who is not None and subject == Selector("a", "Bakugan"):
        return f"When {_who(who)} {'retract' if who == 'you' else 'retracts'} a Bakugan"
    if event == "energized" and who is not None and subject is not None:
        return f"When {_who(who)} {'energize' if who == 'you' else 'energizes'} " \
               f"{_card_words(subject)}"
    if event == "drawn" and who is not None and subject == Selector("a", "card"):
        return f"When {_who(who)} {'draw' if who == 'you' else 'draws'} a card"
    if event == "selected" and who is not None and subject == Selector("a", "Bakugan"):
        return f"When {_who(who)} {'select' if who == 'you' else 'selects'} a Bakugan to roll"
    if event == "dealt_damage" and who is not None and subject is None:
        return f"If {_who(who)} {'take' if who == 'you' else 'takes'} damage"
    if trig == Trigger("turn_ends"):
        return "At the end of the turn"
    if trig == Trigger("turn_begins"):
        return "At the start of the turn"
    raise _fail("the trigger", trig)


def _step(step: Step, where: tuple[Condition, ...] = ()) -> str:
    """One step that may stand in a list (lower case)."""
    if isinstance(step, Qualified):
        return _step(step.step, step.where)
    if isinstance(step, Choice):
        if not all(len(option) == 1 and _is_base(option[0]) for option in step.options) \
                or len(step.options) < 2:
            raise _fail("the choice", step)
        options = " or ".join(_base(option[0]) for option in step.options)
        if step.chooser == "you":
            return options
        return f"{_who(step.chooser)} chooses if {options}"
    if isinstance(step, ForEach) and len(step.steps) == 1 and _is_base(step.steps[0]):
        return f"{_base(step.steps[0])} for each {_counted(step.count)}"
    if isinstance(step, Delay) and step.when == "end_of_turn" and len(step.effect) == 1 \
            and _is_base(step.effect[0]):
        return f"{_base(step.effect[0])} at the end of the turn"
    if isinstance(step, Stop):
        return _stop(step)
    if _is_base(step):
        return _base(step, where)
    raise _fail("the step", step)


def _is_base(step: Step) -> bool:
    """Whether a step renders as a base step (usable in a choice, a payment...)."""
    if isinstance(step, Qualified):
        return _is_base(step.step)
    return not isinstance(step, (Choice, ForEach, Delay, Stop, If, May, Instead, Spend)) \
        and not (isinstance(step, Permit) and step.action == REPEAT)


def _stop(step: Stop) -> str:
    if step.holding and not step.factions and not step.excluded \
            and all(core in BAKUCORES for core in step.holding):
        return "[Stop] a Bakugan holding " + " or ".join(f"[{c}]" for c in step.holding)
    if step.holding:
        raise _fail("the stop", step)
    if not step.factions and not step.excluded:
        return "[Stop] an attack"
    if not all(f in FACTIONS for f in step.factions):
        raise _fail("the stop", step)
    if step.excluded and len(step.factions) == 1:
        return f"[Stop] non-[{step.factions[0]}]"
    if not step.excluded:
        return "[Stop] " + " or ".join(f"[{f}]" for f in step.factions)
    raise _fail("the stop", step)


def _modify(step: Modify, where: tuple[Condition, ...]) -> str:
    change = _change(step.stat, step.delta)
    duration = ""
    if step.duration is not None:
        if step.duration != Duration("end_of_turn"):
            raise _fail("the duration", step.duration)
        duration = " for the turn"
    if step.stat == "Energy":
        if step.target == _player("you") and not where:
            return change + duration
        raise _fail("the energy change", step)
    if step.target == IMPLIED and not where:
        return change + duration
    if step.target == SAME and not where:  # after the change of the Bakugan it shares (_shared_subject)
        return change + duration
    return f"{_subject(step.target, where)} {change}{duration}"


def _base(step: Step, where: tuple[Condition, ...] = ()) -> str:
    """A base step (lower case)."""
    if isinstance(step, Qualified):
        return _base(step.step, (*where, *step.where))
    def card(sel: Selector) -> str:
        return _card_words(sel, where)

    if isinstance(step, Modify):
        return _modify(step, where)
    if where and not isinstance(step, (Destroy, Negate, Retract, Energize, Recharge, Send,
                                       Search, Reveal, Look, Play, Attach, Copy, TakeControl,
                                       Detach, Select, Prohibit)):
        raise _fail("the qualified step", step)
    if isinstance(step, SetStat):
        return f"{_poss(step.target)} {_ICONS.get(step.stat) or ''} becomes " \
               f"{_digits(step.value)}".replace("  ", " ")
    if isinstance(step, Draw):
        if step.amount == Var("difference", of=Selector("all", "card", owner="opponent",
                                                        zone="hand")) and step.player == "you":
            return "draw until you have as many cards as your opponent"
        return f"{_third(step.player, 'draw', 'draws')} {_cards(step.amount)}"
    if isinstance(step, Permit) and step.action == "draw an additional card each turn":
        who = _who_of(step.subject)
        return f"{_third(who, 'draw', 'draws')} an additional card each turn"
    if isinstance(step, Discard):
        return _discard(step)
    if isinstance(step, Destroy):
        return f"destroy {card(step.what)}"
    if isinstance(step, Negate):
        if step.target == Selector("it") and not where:
            return "negate its effect"
        return f"negate {card(step.target)}"
    if isinstance(step, Retract):
        return f"retract {_bakugan_words(step.what, where)}"
    if isinstance(step, Energize):
        return f"energize {card(step.what)}{' uncharged' if step.uncharged else ''}"
    if isinstance(step, Recharge):
        return f"recharge {card(step.what)}"
    if isinstance(step, Send) and step.to in _DESTINATIONS:
        return _DESTINATIONS[step.to].format(card(step.what))
    if step == Shuffle("you", "deck"):
        return "shuffle your deck"
    if isinstance(step, Search) and step.player == "you" and step.zone in _ZONES \
            and step.to == "hand" and step.what.quantifier != "each":
        return f"search your {_ZONES[step.zone]} for {card(step.what)}"
    if isinstance(step, Reveal):
        shown = step.what
        if shown == Selector("a", "BakuCore", zone="field") and not where:
            return "turn a BakuCore on the field face up"
        if shown.owner in ("opponent", "each", "controller") and not where \
                and shown == Selector("all", "card", owner=shown.owner, zone="hand"):
            return f"{_who(shown.owner)} reveals their hand"
        return f"reveal {card(shown)}"
    if isinstance(step, Look):
        return f"look at {card(step.what)}"
    if isinstance(step, Play):
        return f"play {card(step.what)}{' for free' if step.free else ''}"
    if isinstance(step, Attach):
        return f"attach {card(step.what)} to {_bakugan_words(step.to)}"
    if isinstance(step, Attack) and step.faction in FACTIONS:
        return f"make a [{step.faction}] attack for {_digits(step.amount)} [Damage Rating]"
    if isinstance(step, Reroll) and step.amount == 1:
        if step.player == "you":
            return "Reroll your Bakugan"
        if step.player == "opponent":
            return "the opposing Bakugan must Reroll"
    if isinstance(step, CostChange):
        return _cost_change(step)
    if isinstance(step, Copy):
        return f"copy {card(step.what)}"
    if isinstance(step, TakeControl):
        return f"take control of {card(step.what)}"
    if isinstance(step, Detach) and not step.face_down:
        return f"remove {card(step.what)}"
    if isinstance(step, SwapCore):
        return f"swap one of {_poss(step.first)} BakuCores with {_bakugan_words(step.second)}"
    if isinstance(step, FlipCoin):
        return "flip a coin"
    if isinstance(step, EndTurn):
        return "end the turn"
    if isinstance(step, VictorBy) and step.stat in _ICONS:
        return f"the Victor is decided by highest {_ICONS[step.stat]} instead of [B]"
    if isinstance(step, Prohibit):
        return _prohibit(step, where)
    if isinstance(step, Deal) and not where:
        return f"deal {_digits(step.amount)} damage to {_who(_who_of(step.to))}"
    if step == Select(Selector("a", "player")) and not where:
        return "choose a player"
    if isinstance(step, Select):
        what = _bakugan_words(step.what, where) if step.what.type == "Bakugan" else card(step.what)
        if step.player == "you":
            return f"choose {what}"
        return f"{_who(step.player)} chooses {what}"
    if isinstance(step, Pay) and len(step.cost) == 1 and isinstance(step.cost[0], Discard) \
            and len(step.effect) == 1 and _is_base(step.effect[0]):
        payload = _base(step.effect[0])
        joiner = "for" if payload[:1] in "+-[" else "to"
        return f"{_discard(step.cost[0])} {joiner} {payload}"
    raise _fail("the step", step)


_CAN_ACTIONS = {"be negated", "be destroyed", "be retracted", "Reroll", "open", "play cards"}


def _prohibit(step: Prohibit, where: tuple[Condition, ...]) -> str:
    """``your opponent can't play Action cards this turn``, ``this can't be negated``."""
    sel, action = step.subject, step.action
    if sel.type == "player" and not where:
        subject = _who(_who_of(sel))
    elif sel == Selector("all", "Bakugan", owner="opponent") and not where:
        subject = "opposing Bakugan"
    else:
        subject = _bakugan_words(sel, where)
    kind = action[5:] if action.startswith("play ") else None
    if action not in _CAN_ACTIONS and kind not in _KIND_MANY:
        raise _fail("the action", action)
    words = f"play {_KIND_MANY[kind]}" if kind in _KIND_MANY and kind != "card" else action
    if step.duration is not None and step.duration != Duration("end_of_turn"):
        raise _fail("the duration", step.duration)
    return f"{subject} can't {words}{' this turn' if step.duration else ''}"


def _discard(step: Discard) -> str:
    what = step.what
    if what is None:
        if step.player == "any":
            return f"choose a player to discard {_cards(step.amount)}"
        return f"{_third(step.player, 'discard', 'discards')} {_cards(step.amount)}"
    if step.amount != 1 or step.player == "any":
        raise _fail("the discard", step)
    verb = _third(step.player, "discard", "discards")
    if what == Selector("all", "card", zone="hand"):
        return f"{verb} your hand" if step.player == "you" else f"{verb} their hand"
    if what == Selector("it"):
        return f"{verb} it"
    if what.type in _KIND_ONE and what.type != "card" \
            and what == Selector("a", what.type):
        return f"{verb} {_an(_KIND_ONE[what.type])}"
    raise _fail("the discard", step)


def _cost_change(step: CostChange) -> str:
    what = step.what
    if step.free:
        if what == Selector("this") and step.delta == 0:
            return "this is free"
        raise _fail("the cost", step)
    if not isinstance(step.delta, int) or step.delta == 0:
        raise _fail("the cost", step)
    amount = f"{abs(step.delta)} [Energy] {'less' if step.delta < 0 else 'more'}"
    if what == Selector("this"):
        return f"this costs {amount} to play"
    if what.quantifier == "the" and what.type in _KIND_ONE and what.zone in (
            "next played", "first played each turn") \
            and what == Selector("the", what.type, owner="you", zone=what.zone):
        if what.zone == "next played":
            return f"the next {_KIND_ONE[what.type]} you play this turn costs {amount}"
        return f"the first {_KIND_ONE[what.type]} you play each turn costs {amount}"
    if what.type in _KIND_MANY and what.owner in ("you", "opponent") \
            and what == Selector("all", what.type, owner=what.owner):
        whose = "your" if what.owner == "you" else "your opponent's"
        return f"{whose} {_KIND_MANY[what.type]} cost {amount} to play"
    raise _fail("the cost", step)


def _list(steps: tuple[Step, ...]) -> str:
    """Steps joined by ``and`` in one sentence; ``you may ...`` only last."""
    if not steps:
        raise RenderError("an empty list of steps has no wording")
    parts: list[str] = []
    for index, step in enumerate(steps):
        last = index == len(steps) - 1
        if isinstance(step, (May, Permit)) and _is_may(step):
            if not last:
                raise _fail("a 'may' before the end of a list", step)
            parts.append(_may(step))
        elif index and _shares_subject(steps[index - 1], step):  # "this gets +100 [B] and +2 [Damage Rating]"
            assert isinstance(step, Modify)
            parts.append(_modify(Modify(IMPLIED, step.stat, step.delta, step.duration), ()))
        else:
            parts.append(_step(step))
    return " and ".join(parts)


def _shares_subject(before: Step, step: Step) -> bool:
    """Whether ``step`` is a change of the one Bakugan the change ``before`` it names outright,
    written without its subject (what :func:`_shared_subject` reads back)."""
    named = _named_subject(before)
    return isinstance(step, Modify) and named is not None and step.target == named and named.quantifier != "a"


def _is_may(step: Step) -> bool:
    return isinstance(step, May) or (isinstance(step, Permit)
                                     and step.action == REPEAT)


def _may(step: Step) -> str:
    if isinstance(step, Permit):
        return f"{_who(_who_of(step.subject))} may {REPEAT}"
    assert isinstance(step, May)
    if step.player not in ("you", "opponent", "each"):
        raise _fail("the player", step.player)
    return f"{_who(step.player)} may {_list(step.steps)}"


def _sentence(step: Step) -> str:
    """One step as a sentence body (lower case, without the period)."""
    if isinstance(step, If):
        text = f"if {_condition(step.condition)}, {_body(step.then)}"
        if step.otherwise:
            text += f". Otherwise, {_body(step.otherwise)}"
        return text
    if isinstance(step, Instead):
        return f"{_list(step.steps)} instead"
    if isinstance(step, ForEach) and not (len(step.steps) == 1 and _is_base(step.steps[0])):
        return f"for each {_counted(step.count)}, {_list(step.steps)}"
    if isinstance(step, Spend) and step.amount == Var("X"):
        return "you may use any amount of [Energy] to play this"
    return _list((step,))


def _body(steps: tuple[Step, ...]) -> str:
    """What follows ``If ...,``: a list, or a list and ``instead``."""
    if len(steps) == 1 and isinstance(steps[0], Instead):
        return f"{_list(steps[0].steps)} instead"
    return _list(steps)


def _effect(steps: tuple[Step, ...], *, first_small: bool = False) -> str:
    """Sentences, one step each, except that a run of stat changes shares a sentence
    (``+300 [B] and +2 [Damage Rating].``)."""
    if not steps:
        raise RenderError("an empty effect has no wording")
    groups: list[list[Step]] = []
    for step in steps:
        before = groups[-1][-1] if groups else None
        if isinstance(before, Modify) and isinstance(step, Modify) \
                and not (step.target == IMPLIED and _named_subject(before) is not None):  # joined, it would share a subject
            groups[-1].append(step)
        else:
            groups.append([step])
    sentences = [(_list(tuple(g)) if len(g) > 1 else _sentence(g[0])) + "." for g in groups]
    first = sentences[0] if first_small else _cap(sentences[0])
    return " ".join([first, *(_cap(s) for s in sentences[1:])])


_RIDER_WORD = re.compile(r"[A-Z][a-z]+")
_NAME = re.compile(r"[A-Z][A-Za-z'.-]*(?: [A-Z][A-Za-z'.-]*)+")


def _ability(ability: Ability) -> str:
    """One ability as one line."""
    if isinstance(ability, Spell):
        if ability.cost == (Spend(Var("X")),):
            text = "You may use any amount of [Energy] to play this."
            return f"{text} {_effect(ability.effect)}" if ability.effect else text
        if ability.cost:
            raise _fail("the cost", ability.cost)
        return _effect(ability.effect)
    if isinstance(ability, Passive):
        if ability.condition is None:
            return _effect(ability.effect)
        return f"While {_condition(ability.condition)}, " \
               f"{_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Activated) and not ability.alternative:
        return f"{_cost(ability.cost)}: {_effect(ability.effect)}"
    if isinstance(ability, Triggered):
        trig = ability.trigger
        if trig.event == "deals_damage" and trig.who is not None and trig.subject is None \
                and len(ability.effect) == 1 and isinstance(ability.effect[0], If):
            cond = ability.effect[0].condition
            if cond.subject == "damage" and cond.of is None:
                head = f"If {_who(trig.who)} {'deal' if trig.who == 'you' else 'deals'} " \
                       f"{_comparison(cond.op, cond.value)} damage in an attack"
                return f"{head}, {_effect(ability.effect[0].then, first_small=True)}"
        return f"{_trigger(trig)}, {_effect(ability.effect, first_small=True)}"
    if isinstance(ability, CoreStatic) and ability.cores \
            and all(core in BAKUCORES for core in ability.cores):
        icons = " or ".join(f"[{core}]" for core in ability.cores)
        return f"{icons}: {_effect(ability.effect)}"
    if isinstance(ability, Rider) and _RIDER_WORD.fullmatch(ability.keyword):
        return f"{ability.keyword}: {_rider_body(ability)}"
    if isinstance(ability, Keyword):
        if ability.name == "reroll_on_miss" and ability.argument == "once each turn":
            return "Once each turn, you may Reroll this if you miss a Roll with it."
        if ability.name == "reroll_on_miss" and ability.argument == "any time":
            return "You may Reroll this whenever you miss a Roll with it."
        if ability.name == "all_factions" and ability.argument is None:
            return "This counts as all Factions."
    raise _fail("the ability", ability)


def _rider_body(rider: Rider) -> str:
    head = "" if rider.trigger is None else _trigger(rider.trigger) + ", "
    if rider.condition is not None:
        cond = f"if {_condition(rider.condition)}, {_body(rider.effect)}."
        return head + (cond if head else _cap(cond))
    if head:
        return head + _effect(rider.effect, first_small=True)
    return _effect(rider.effect)


def _cost(cost: tuple[Step, ...]) -> str:
    """The cost of an activated ability: ``2 [Energy]``, ``Discard a card``..."""
    if not cost:
        raise RenderError("an activated ability needs a cost")
    if isinstance(cost[0], Spend):
        head = f"{_digits(cost[0].amount)} [Energy]"
        return head if len(cost) == 1 else f"{head} and {_list(cost[1:])}"
    if any(isinstance(s, Spend) for s in cost):
        raise _fail("the cost", cost)
    return _cap(_list(cost))


def render(tree: CardText) -> str:
    """The canonical text of ``tree``, one ability per line.

    Raises :class:`~grammar.render.RenderError` for a tree no template expresses.
    """
    return "\n".join(_one_line(_ability(a)) for a in tree.abilities)


_SPLIT_HAVE = re.compile(r"(?<=\. )(Your (?:\[[A-Za-z]+\] )?Bakugan) have ")


def _one_line(line: str) -> str:
    """``line`` worded so that :func:`split` keeps it one ability: after a trigger, a sentence
    opening "Your Bakugan have" is cut off as a static of its own, so one of the trigger's own
    sentences says "get" (the same change)."""
    return _SPLIT_HAVE.sub(r"\1 get ", line) if _TRIGGER_START.match(line) else line


# ------------------------------------------------------------------ public card pools

CORE_NAMES: dict[str, str] = {"Fist": "FT", "Flaming Fist": "FF", "Shield": "SD", "Magic Shield": "MS", "Helix": "HE"}
"""The BakuCore indicators by the names a card pool may give them (besides their icons ``[FT]``...)."""


def _pool_core(value: Any) -> str | None:
    """The icon code of a BakuCore indicator as a pool gives it (``"Fist"``, ``"[FT]"``)."""
    if not isinstance(value, str):
        return None
    word = value.strip()
    if word.startswith("[") and word.endswith("]"):
        word = word[1:-1]
    return word if word in BAKUCORES else CORE_NAMES.get(word)


def pool_fields(record: dict[str, Any]) -> dict[str, Any]:
    """Our card fields from a real card-pool record.

    The pool keeps a card's Factions among its stats (``factions``): they are its
    ``traits``, as in our card files. ``bPower``, ``damage``, ``coreTypes`` (named, or as
    icons) and ``evolvesFrom`` become ``stats`` ``bpower``, ``damage``, ``cores`` (icon
    codes) and ``evolves_from``. What cannot be read is left out.
    """
    stats = record.get("stats")
    if not isinstance(stats, dict):
        return {}
    out: dict[str, Any] = {}
    factions = stats.get("factions")
    if isinstance(factions, list):
        out["traits"] = [f for f in factions if isinstance(f, str)]
    ours: dict[str, Any] = {}
    for theirs, key in (("bPower", "bpower"), ("damage", "damage")):
        number = printed_number(stats.get(theirs))
        if number is not None:
            ours[key] = number
    cores = stats.get("coreTypes")
    if isinstance(cores, list) and cores:
        codes = [_pool_core(c) for c in cores]
        if all(codes):
            ours["cores"] = codes
    if isinstance(stats.get("evolvesFrom"), str):
        ours["evolves_from"] = stats["evolvesFrom"]
    out["stats"] = ours
    return out


def pool_printing(record: dict[str, Any]) -> str | None:
    """A printing of a card-pool record: its Factions and its set (``"Aquos, BB"``).

    Real pools print different cards under one name, one per Faction or set (three
    Characters called Cyndeous Ultra); each is a card of its own. The set is given by
    the short form in its brackets where it has one ("Battle Brawlers (BB)": ``BB``).
    """
    stats = record.get("stats")
    if not isinstance(stats, dict):
        return None
    factions = stats.get("factions")
    parts = ["/".join(f for f in factions if isinstance(f, str))] if isinstance(factions, list) else []
    printed_set = stats.get("set")
    if isinstance(printed_set, str) and printed_set.strip():
        short = re.search(r"\(([^()]+)\)\s*$", printed_set)
        parts.append(short.group(1) if short else printed_set.strip())
    found = ", ".join(p for p in parts if p)
    return found or None


GRAMMAR = GameGrammar("bakugan", Builder, card_types=None, settle=settle, split=split,
                      render=render, pool_fields=pool_fields, pool_printing=pool_printing)
"""How :mod:`grammar.parser` reads and writes Bakugan card text."""
