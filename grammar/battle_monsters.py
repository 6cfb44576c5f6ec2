"""Reading and writing the card text of Battle Monsters.

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/battle_monsters.lark``, how a line becomes an ability for each card type, how
a text is cut into lines, and the canonical renderer. The game's own AST nodes are in
:mod:`grammar.battle_monsters_nodes`.

How lines become abilities
--------------------------
* ``Name: sentences`` (a monster's named special effect) is a
  :class:`~grammar.battle_monsters_nodes.Special`; its always-on sentences form
  :class:`~grammar.ast.Passive` abilities (conditions become
  :class:`~grammar.battle_monsters_nodes.IfThen` steps) and sentences with an event
  ("When %NAME is summoned, ...", "... when summoned") are
  :class:`~grammar.battle_monsters_nodes.Reaction` abilities.
* ``TRIGGER: ...`` followed by ``EFFECT: ...`` (two printed lines, joined by
  :func:`split`) is one :class:`~grammar.battle_monsters_nodes.TriggerEffect`.
* Other lines are plain effects: a :class:`~grammar.ast.Spell`, which :func:`settle`
  turns into a :class:`~grammar.ast.Passive` on monsters.

Card types of the real data look like ``Monster (root)``, ``Monster (element prefix)``,
``Spell`` and ``Trap``; any type string is accepted and only the word before a
parenthesis counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from lark import Token
from msgspec.structs import replace

from grammar.ast import (
    Ability,
    CardText,
    Discard,
    Draw,
    Duration,
    May,
    Passive,
    Selector,
    Spell,
    Step,
    Var,
    Who,
)
from grammar.battle_monsters_nodes import (
    Battling,
    Can,
    Cannot,
    Cards,
    Compare,
    Cond,
    Did,
    DrawUntil,
    EndGame,
    Event,
    Fuse,
    IfThen,
    ImmuneTo,
    Lives,
    Nullify,
    Number,
    Points,
    Present,
    Quantity,
    Reaction,
    RevealCards,
    SendTo,
    SkipTurn,
    Slot,
    Special,
    StatTest,
    Switch,
    Trade,
    TriggerEffect,
    TurnOf,
)
from grammar.lexer import NO_PARSE, constant, first_child
from grammar.parser import CoreBuilder, GameGrammar
from grammar.render import capitalise as _cap

__all__ = ["GRAMMAR", "Builder", "render", "settle", "split"]

_THIS = Cards("this")
_IT = Cards("it")
_THEY = "they"
"""Stand-in for "their" until the clause's subject is known."""

class RenderError(ValueError):
    """A tree (or part of one) that no Battle Monsters template can express."""


# ------------------------------------------------------------------ parse helpers


@dataclass
class _NP:
    """The words of a noun phrase before a determiner settles its quantifier."""

    kinds: tuple[str, ...] = ("card",)
    plural: bool = False
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class _No:
    """``no`` before a noun phrase: "there are no visible monsters"."""

    cards: Cards


@dataclass
class _Elliptic:
    """"if under 5": a comparison whose left side is what the clause just changed."""

    op: str
    value: Number


Pred = Callable[[Cards | None], tuple[Step, ...]]
"""A predicate waiting for its subject (``None``: an order to the player)."""


@dataclass
class _Item:
    """One clause: its subjects (``None`` when it has none) and its predicate."""

    subjects: list[Cards] | None
    pred: Pred


@dataclass
class _Part:
    """A part of a sentence: clauses with an optional condition and event."""

    items: list[_Item]
    cond: Any = None
    event: Event | None = None
    steps: tuple[Step, ...] = ()


def _who(cards: Cards | None) -> Who:
    """The player a subject stands for (a card's subject is its controller)."""
    if cards is None:
        return "you"
    if cards.kinds == ("player",):
        if cards.quantifier in ("all", "both"):
            return "each"
        if cards.owner is not None:
            return cards.owner
    return "you"


def _player(who: Who) -> Cards:
    """The Cards of one player."""
    if who == "each":
        return Cards("all", ("player",))
    return Cards("the", ("player",), owner=who)


def _other(who: Who) -> Who:
    """The opponent of ``who``."""
    return "you" if who == "opponent" else "opponent"


def _resolve(who: str, subject: Cards | None) -> Who:
    """``their`` means the subject's player; anything else stays."""
    if who == _THEY:
        return _who(subject)
    return cast(Who, who)


def _hand(who: Who) -> Var:
    """The number of cards in a player's hand."""
    return Var("cards", of=Selector("all", "card", owner=who, zone="hand"))


def _unwrap(cards: Any) -> Cards:
    """A Cards from an NP result ("no monsters" reads as "a monster" outside conditions)."""
    return cards.cards if isinstance(cards, _No) else cards  # type: ignore[no-any-return]




def _kinds_by(c: list[Any]) -> tuple[tuple[str, ...], Cards | None]:
    """An event's kinds (the words among ``c``) and who does it (the first other child, or ``None``)."""
    kinds = tuple([x for x in c if isinstance(x, str)])
    for x in c:
        if not isinstance(x, str):
            return kinds, _unwrap(x)
    return kinds, None


def _const(value: Any) -> Callable[[Any, list[Any]], Any]:
    """A callback that ignores its children and returns ``value`` (see :func:`grammar.lexer.constant`)."""
    return constant(value)


_first = first_child
"""A callback that passes its first child through (the fast loop takes the child without calling it)."""


def _tagged(key: str, value: Any) -> Callable[[Any, list[Any]], Any]:
    """A callback that ignores its children and returns the modifier pair ``(key, value)``."""
    return constant((key, value))


# -------------------------------------------------------------------- the builder


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/battle_monsters.lark``.

    Noun phrases become :class:`Cards` at once; a predicate becomes a function of its
    subject, applied when the clause is complete; a sentence becomes a list of parts,
    which the line they are on turns into abilities (a monster's special effect) or
    steps (a spell's effect).
    """

    tokens_as_text = True
    """Every token read here (names, numbers, words, REGARDLESS) is read as its words
    alone: the fast loop hands the plain strings (see :attr:`CoreBuilder.tokens_as_text`)."""

    # ---- numbers
    def big_number(self, c: list[Token]) -> int:
        return int(str(c[0]).replace(",", ""))

    n1, n2, n3, n4, n5 = _const(1), _const(2), _const(3), _const(4), _const(5)
    n6, n7, n8, n9, n10 = _const(6), _const(7), _const(8), _const(9), _const(10)

    # ---- lines
    def named_ability(self, c: list[Any]) -> Ability:
        name = str(c[0])[:-1].strip()
        return Special(name, _abilities(c[1]))

    def plain_line(self, c: list[Any]) -> Ability:
        return Spell(_effect(c[0]))

    def magic_ability(self, c: list[Any]) -> Ability:
        (event, use), parts = c
        return TriggerEffect(event, _effect(parts), use)

    def trigger_only(self, c: list[Any]) -> Ability:
        event, use = c[0]
        return TriggerEffect(event, (), use)

    def effect_only(self, c: list[Any]) -> Ability:
        return TriggerEffect(None, _effect(c[0]))

    def trigger_part(self, c: list[Any]) -> tuple[Event | None, str | None]:
        """The first event and the first use (a word) among the children."""
        event = use = None
        for x in c:
            if event is None and isinstance(x, Event):
                event = x
            elif use is None and isinstance(x, str):
                use = x
        return event, use

    single_use = _const("single")
    unlimited_use = _const("unlimited")
    permanent_use = _const("permanent")
    once_per_turn = _const("once_per_turn")

    def lasts_turns(self, c: list[Any]) -> str:
        return f"{c[0]}_turns"

    # ---- sentences
    def sentences(self, c: list[Any]) -> list[_Part]:
        """The parts of the sentences so far (a list, first when there are any) and of this one.

        Clauses without a subject take the last one named within their own sentence.
        """
        if c[0].__class__ is list:
            parts, own = c[0], c[1:]
        else:
            parts, own = [], c
        carry: list[Cards] | None = None
        for part in own:
            carry = _settle_items(part, carry)
        parts.extend(own)
        return parts

    def part(self, c: list[Any]) -> _Part:
        """The clauses, and a trailer (a tuple) after them when there is one."""
        if isinstance(c[-1], _Item):
            return _Part(c)
        part = _Part(c[:-1])
        _attach(part, c[-1])
        return part

    def lead_part(self, c: list[Any]) -> _Part:
        return _lead_part(c)

    def lead_cond(self, c: list[Any]) -> tuple[str, Any]:
        return ("cond", c[0])

    def lead_event(self, c: list[Any]) -> tuple[str, Any]:
        return ("event", c[0])

    def lead_cond_event(self, c: list[Any]) -> tuple[str, Any]:
        return ("cond_event", (c[0], c[1]))

    trail_cond = lead_cond
    trail_event = lead_event

    def lead_turn(self, c: list[Any]) -> tuple[str, Any]:
        return ("cond", TurnOf(c[0]))

    trail_turn = lead_turn

    def subject_item(self, c: list[Any]) -> _Item:
        """The subjects (card phrases) come before the predicate, which is last."""
        return _Item([x.cards if isinstance(x, _No) else x for x in c[:-1]], c[-1])  # each :func:`_unwrap`-ped

    def bare_item(self, c: list[Any]) -> _Item:
        return _Item(None, c[0])

    def skip_item(self, c: list[Any]) -> _Item:
        who = c[0]
        return _Item(None, lambda s: (SkipTurn(_resolve(who, s)),))

    # ---- points and lives
    temporarily = _const(Duration("temporary"))
    attack_stat = _const("attack")
    defense_stat = _const("defense")
    until_end_of_turn = _const(Duration("end_of_turn"))

    def _change_points(self, c: list[Any], sign: int) -> Pred:
        durations = [x for x in c if isinstance(x, Duration)]
        duration = durations[-1] if durations else None
        per = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "per"), None)
        changes: list[tuple[Any, str]] = []
        amount: Any = None
        for x in c:
            if isinstance(x, (int, Var)):
                amount = x
            elif isinstance(x, tuple) and x[0] == "stats":
                changes.extend((amount, stat) for stat in x[1])
            elif isinstance(x, tuple) and x[0] == "more":
                changes.extend((x[1], stat) for stat in x[2])

        def pred(s: Cards | None) -> tuple[Step, ...]:
            return tuple(
                Points(s or _THIS, cast(Any, stat),
                       n * sign if isinstance(n, int) else n, duration, per)
                for n, stat in changes)

        return pred

    def stats(self, c: list[Any]) -> tuple[str, tuple[str, ...]]:
        return ("stats", tuple(c))

    def more_points(self, c: list[Any]) -> tuple[Any, ...]:
        return ("more", c[0], c[1][1])

    def per(self, c: list[Any]) -> tuple[str, Cards]:
        return ("per", Cards("all", c[0].kinds, **c[0].fields))

    def gain_points(self, c: list[Any]) -> Pred:
        return self._change_points(c, 1)

    def lose_points(self, c: list[Any]) -> Pred:
        return self._change_points(c, -1)

    def gain_lives(self, c: list[Any]) -> Pred:
        n = c[0]
        return lambda s: (Lives(_who(s), n),)

    def gain_a_life(self, c: list[Any]) -> Pred:
        return lambda s: (Lives(_who(s), 1),)

    def lose_a_life(self, c: list[Any]) -> Pred:
        return lambda s: (Lives(_who(s), -1),)

    def lose_lives(self, c: list[Any]) -> Pred:
        n = c[0]
        return lambda s: (Lives(_who(s), -n),)

    def damage_health(self, c: list[Any]) -> Pred:
        who, n = c
        return lambda s: (Lives(_resolve(who, s), -n),)

    def remove_lives(self, c: list[Any]) -> Pred:
        n, target = c
        return lambda s: (Lives(_who(target), -n),)

    def sacrifice(self, c: list[Any]) -> Pred:
        n = c[0]
        who = next((x for x in c[1:] if isinstance(x, str)), None)
        then = next((x for x in c[1:] if callable(x)), None)

        def pred(s: Cards | None) -> tuple[Step, ...]:
            cost = Lives(_resolve(who, s) if who is not None else _who(s), -n)
            if then is None:
                return (cost,)
            return (Trade((cost,), then(s)),)

        return pred

    # ---- immunity, can, cannot
    def immune(self, c: list[Any]) -> Pred:
        to = c[0]
        return lambda s: (ImmuneTo(s or _THIS, to),)

    def immune_adjective(self, c: list[Any]) -> Pred:
        to = Cards("all", (c[0],))
        return lambda s: (ImmuneTo(s or _THIS, to),)

    imm_attack = _const("attack")
    imm_spell = _const("spell")
    imm_trap = _const("trap")
    imm_effect = _const("effect")

    def immune_list(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(c)

    def immunity(self, c: list[Any]) -> Cards:
        kinds = next(x for x in c if isinstance(x, tuple) and x and x[0] not in _MOD_KEYS)
        mods = [x for x in c if isinstance(x, tuple) and x and x[0] in _MOD_KEYS]
        return Cards("all", kinds, **_mod_fields(mods))

    def cannot(self, c: list[Any]) -> Pred:
        actions = tuple(x for x in c if isinstance(x, str))
        by = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "by"), None)
        when = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "when"), None)
        return lambda s: (Cannot(s or _THIS, actions, by, when),)

    def can(self, c: list[Any]) -> Pred:
        action = next(x for x in c if isinstance(x, str) and x != "only")
        only = "only" in [x for x in c if isinstance(x, str)]
        by = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "by"), None)
        when = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "when"), None)
        overriding = any(isinstance(x, str) and "regardless" in x for x in c)  # REGARDLESS: no action says it
        return lambda s: (Can(s or _THIS, action, by, when, only, overriding),)

    only = _const("only")

    def may(self, c: list[Any]) -> Pred:
        pred = c[0]

        def may_pred(s: Cards | None) -> tuple[Step, ...]:
            chooser = _who(s)
            return (May(chooser, pred(_player(chooser))),)

        return may_pred

    act_attack = _const("attack")
    act_be_attacked = _const("be_attacked")
    act_lose_lives_in_battle = _const("lose_lives_in_battle")
    act_be_switched = _const("be_switched")
    act_be_switched_manually = _const("be_switched_manually")
    act_attack_directly = _const("attack_directly")
    act_attack_twice = _const("attack_twice")
    act_be_targeted = _const("be_targeted")
    act_summon = _const("summon")
    act_activate = _const("activate")
    act_draw = _const("draw")
    act_reveal = _const("reveal")
    act_be_destroyed = _const("be_destroyed")

    def by(self, c: list[Any]) -> tuple[str, Cards]:
        return ("by", _unwrap(c[0]))

    def when(self, c: list[Any]) -> tuple[str, str]:
        return ("when", c[0])

    this_turn = _tagged("when", "this_turn")
    fused_turn = _const("fused_turn")
    revealed_turn = _const("revealed_turn")
    summoned_turn = _const("summoned_turn")

    # ---- passive clauses and orders
    def automatically(self, c: list[Any]) -> Pred:
        return cast(Pred, c[0])

    def p_sent(self, c: list[Any]) -> Pred:
        to = c[0]
        return lambda s: (SendTo(s or _THIS, to),)

    def p_destroyed(self, c: list[Any]) -> Pred:
        return lambda s: (SendTo(s or _THIS, "graveyard"),)

    def p_returned(self, c: list[Any]) -> Pred:
        return lambda s: (SendTo(s or _THIS, "hand"),)

    def p_summoned(self, c: list[Any]) -> Pred:
        return lambda s: (SendTo(s or _THIS, "field"),)

    def return_to_hand(self, c: list[Any]) -> Pred:
        what = _unwrap(c[0])
        return lambda s: (SendTo(what, "hand"),)

    def summon_cards(self, c: list[Any]) -> Pred:
        what = _unwrap(c[0])
        return lambda s: (SendTo(what, "field"),)

    def destroy_cards(self, c: list[Any]) -> Pred:
        what = _unwrap(c[0])
        return lambda s: (SendTo(what, "graveyard"),)

    def p_revealed(self, c: list[Any]) -> Pred:
        return lambda s: (RevealCards(s or _THIS),)

    def p_switched(self, c: list[Any]) -> Pred:
        mode = c[0]
        return lambda s: (Switch(s or _THIS, mode),)

    def p_nullified(self, c: list[Any]) -> Pred:
        return lambda s: (Nullify(s or _THIS),)

    to_graveyard = _const("graveyard")
    to_hand = _const("hand")
    graveyard_ref = _const(None)
    hand_ref = _const(None)
    attack_mode = _const("attack")
    defense_mode = _const("defense")

    def send_vp(self, c: list[Any]) -> Pred:
        what = [_unwrap(x) for x in c if isinstance(x, (Cards, _No))]
        to: Any = next(x for x in c if isinstance(x, str))  # the grammar gives one of SendTo's places
        return lambda s: tuple(SendTo(w, to) for w in what)

    def draw(self, c: list[Any]) -> Pred:
        n = c[0]
        return lambda s: (Draw(_who(s), n),)

    def draw_until(self, c: list[Any]) -> Pred:
        n = c[0]
        return lambda s: (DrawUntil(_who(s), n),)

    def discard(self, c: list[Any]) -> Pred:
        n = c[0]
        return lambda s: (Discard(_who(s), n),)

    def discard_hand(self, c: list[Any]) -> Pred:
        who = c[0]

        def pred(s: Cards | None) -> tuple[Step, ...]:
            player = _resolve(who, s)
            return (Discard(player, _hand(player)),)

        return pred

    one_card = _const(1)

    def reveal_vp(self, c: list[Any]) -> Pred:
        what = _unwrap(c[0])
        return lambda s: (RevealCards(what),)

    def fuse_vp(self, c: list[Any]) -> Pred:
        what = _unwrap(c[0])
        return lambda s: (Fuse(what),)

    def switch_vp(self, c: list[Any]) -> Pred:
        what, mode = _unwrap(c[0]), c[1]
        return lambda s: (Switch(what, mode),)

    def skip_vp(self, c: list[Any]) -> Pred:
        who = c[0]
        return lambda s: (SkipTurn(_resolve(who, s)),)

    def win_game(self, c: list[Any]) -> Pred:
        return lambda s: (EndGame(_who(s), "win"),)

    def lose_game(self, c: list[Any]) -> Pred:
        return lambda s: (EndGame(_who(s), "lose"),)

    def nullify_own(self, c: list[Any]) -> Pred:
        return lambda s: (Nullify(s or _THIS),)

    def nullify(self, c: list[Any]) -> Pred:
        what = _unwrap(c[0])
        return lambda s: (Nullify(what),)

    # ---- cards and players
    self_name = _const(_THIS)
    self_this = _const(_THIS)
    pronoun = _const(_IT)
    value_self = _const(_THIS)
    value_it = _const(_IT)

    def player_you(self, c: list[Any]) -> Cards:
        return _player("you")

    def player_opponent(self, c: list[Any]) -> Cards:
        return _player("opponent")

    def player_owner(self, c: list[Any]) -> Cards:
        return _player("owner")

    poss_you = _const("you")
    poss_their = _const(_THEY)
    poss_its = _const("owner")
    poss_opponent = _const("opponent")

    def poss_of(self, c: list[Any]) -> str:
        cards = _unwrap(c[0])
        if cards.kinds == ("player",):
            return _who(cards)
        return "owner"

    det_a = _const(("a", 1, False, None, False))
    det_another = _const(("a", 1, True, None, False))
    det_all = _const(("all", 1, False, None, False))
    det_the = _const(("the", 1, False, None, False))
    det_chosen = _const(("chosen", 1, False, None, False))
    det_both = _const(("both", 1, False, None, False))
    det_no = _const(("a", 1, False, None, True))

    def det_number(self, c: list[Any]) -> tuple[Any, ...]:
        return ("a", c[0], False, None, False)

    def det_up_to(self, c: list[Any]) -> tuple[Any, ...]:
        return ("up_to", c[0], False, None, False)

    def det_poss(self, c: list[Any]) -> tuple[Any, ...]:
        return ("poss", 1, False, c[0], False)

    det_opponents = _const(("poss", 1, False, "opponent", False))

    def np(self, c: list[Any]) -> Cards | _No:
        (quantifier, count, other, owner, negated), body = c
        if not body.fields and not other and quantifier != "poss":  # nothing to add: the commonest noun phrase
            cards = Cards(quantifier, body.kinds, count=count if isinstance(count, int) else 1)
            return _No(cards) if negated else cards
        fields = dict(body.fields)
        if quantifier == "poss":
            quantifier = "all" if body.plural else "a"
            if owner is not None and owner != _THEY:
                fields.setdefault("owner", owner)
        if other:
            fields["other"] = True
        if not isinstance(count, int):
            count = 1
        cards = Cards(quantifier, body.kinds, count=count, **fields)
        return _No(cards) if negated else cards

    def bare_np(self, c: list[Any]) -> Cards:
        """A noun without a determiner speaks of every such card ("by monsters")."""
        body = c[0]
        return Cards("all", body.kinds, **body.fields)

    def np_body(self, c: list[Any]) -> _NP:
        if len(c) == 1:  # the head alone, the commonest noun: no modifier list to read
            _head, kinds, plural, species = c[0]
            return _NP(kinds, plural, {} if species is None else {"species": species})
        np = _NP()
        mods: list[tuple[str, Any]] = []
        for x in c:
            if isinstance(x, tuple) and x and x[0] == "head":
                np.kinds, np.plural = x[1], x[2]
                if x[3] is not None:
                    mods.append(("species", x[3]))
            else:
                mods.append(x)
        np.fields = _mod_fields(mods)
        return np

    m_visible = _tagged("visible", True)
    m_hidden = _tagged("visible", False)
    m_other = _tagged("other", True)
    m_fused = _tagged("state", "fused")
    m_attacking = _tagged("state", "attacking")
    m_defending = _tagged("state", "defending")
    m_summoned = _tagged("state", "summoned")
    pm_visible = _tagged("visible", True)

    def m_element(self, c: list[Any]) -> tuple[str, Any]:
        return ("element", c[0])

    def m_not_element(self, c: list[Any]) -> tuple[str, Any]:
        return ("not_element", c[0])

    def m_prefix(self, c: list[Any]) -> tuple[str, Any]:
        return ("prefix", str(c[0]).rsplit(" ", 1)[0])

    def m_species(self, c: list[Any]) -> tuple[str, Any]:
        return ("species", c[0])

    def element_slot(self, c: list[Token]) -> Slot:
        return Slot(str(c[0])[1:])

    def element_word(self, c: list[Token]) -> str:
        return str(c[0]).lower()

    element_keyword = element_word

    def species_slot(self, c: list[Token]) -> Slot:
        return Slot(str(c[0])[1:])

    def species_word(self, c: list[Token]) -> str:
        return str(c[0])

    def head_kinds(self, c: list[Any]) -> tuple[Any, ...]:
        kinds, plural = c[0]
        return ("head", kinds, plural, None)

    def head_species(self, c: list[Any]) -> tuple[Any, ...]:
        return ("head", ("monster",), False, c[0])

    def head_species_kinds(self, c: list[Any]) -> tuple[Any, ...]:
        kinds, plural = c[1]
        return ("head", kinds, plural, c[0])

    def kind_list(self, c: list[Any]) -> tuple[tuple[str, ...], bool]:
        if len(c) == 1:  # one kind word, no suffix: the commonest list
            kind, plural = c[0]
            return (kind,), plural
        words = [x for x in c if isinstance(x, tuple)]
        suffix = [x for x in c if isinstance(x, bool)]
        plural = suffix[-1] if suffix else words[-1][1]
        return tuple(w[0] for w in words), plural or len(words) > 1 and plural

    singular = _const(False)
    plural = _const(True)
    k_monster, k_monsters = _const(("monster", False)), _const(("monster", True))
    k_spell, k_spells = _const(("spell", False)), _const(("spell", True))
    k_trap, k_traps = _const(("trap", False)), _const(("trap", True))
    k_card, k_cards = _const(("card", False)), _const(("card", True))
    k_player, k_players = _const(("player", False)), _const(("player", True))
    k_effect, k_effects = _const(("effect", False)), _const(("effect", True))

    pm_location = _first

    def pm_stat(self, c: list[Any]) -> tuple[str, Any]:
        return ("stat", c[0])

    def pm_element(self, c: list[Any]) -> tuple[str, Any]:
        return ("element", c[0])

    def pm_prefix(self, c: list[Any]) -> tuple[str, Any]:
        return ("prefix", str(c[0]))

    def pm_mode(self, c: list[Any]) -> tuple[str, Any]:
        return ("mode", c[0])

    loc_field = _const(("zone", ("field", None)))

    def loc_side(self, c: list[Any]) -> tuple[str, Any]:
        return ("zone", ("field", c[0]))

    def loc_hand(self, c: list[Any]) -> tuple[str, Any]:
        return ("zone", ("hand", c[0]))

    def loc_graveyard(self, c: list[Any]) -> tuple[str, Any]:
        return ("zone", ("graveyard", c[0]))

    loc_any_graveyard = _const(("zone", ("graveyard", None)))

    side_of = _first
    side_same = _const("you")
    side_opposing = _const("opponent")
    side_any = _const(None)

    def _stat_test(self, c: list[Any], op: str) -> StatTest:
        stat = next(x for x in c if isinstance(x, str))
        value = next(x for x in c if not isinstance(x, str))
        if isinstance(value, Cards):
            value = Quantity(cast(Any, stat), of=value)
        return StatTest(cast(Any, stat), cast(Any, op), value)

    def st_more(self, c: list[Any]) -> StatTest:
        return self._stat_test(c, ">")

    def st_less(self, c: list[Any]) -> StatTest:
        return self._stat_test(c, "<")

    st_over = st_more
    st_under = st_less

    def st_at_least(self, c: list[Any]) -> StatTest:
        return self._stat_test(c, ">=")

    def st_at_most(self, c: list[Any]) -> StatTest:
        return self._stat_test(c, "<=")

    value_number = _first
    value_quantity = _first

    # ---- conditions
    def cond_there_is(self, c: list[Any]) -> Cond:
        what = c[0]
        if isinstance(what, _No):
            return Present(what.cards, negated=True)
        return Present(what)

    def cond_state(self, c: list[Any]) -> Cond:
        return Present(_with_mods(_unwrap(c[0]), c[1:]))

    def cond_not_state(self, c: list[Any]) -> Cond:
        return Present(_with_mods(_unwrap(c[0]), c[1:]), negated=True)

    def cond_exists(self, c: list[Any]) -> Cond:
        what = c[0]
        if isinstance(what, _No):
            return Present(_with_mods(what.cards, c[1:]), negated=True)
        return Present(_with_mods(what, c[1:]))

    def cond_did(self, c: list[Any]) -> Cond:
        what, action, (turn, whose) = c
        return Did(_unwrap(what), action, turn, whose)

    def cond_compare(self, c: list[Any]) -> Cond:
        return Compare(c[0], c[1], c[2])

    def cond_more_cards(self, c: list[Any]) -> Cond:
        player = _who(_unwrap(c[0]))
        sides = []
        for zone, who in c[1:]:
            owner = player if who in (None, _THEY) else who
            sides.append(Quantity("count", of=Cards("all", ("card",), owner=owner, zone=zone)))
        return Compare(sides[0], ">", sides[1])

    def cond_lives(self, c: list[Any]) -> Cond:
        op, value = c[1]
        return Compare(Quantity("lives", player=_who(_unwrap(c[0]))), op, value)

    def cond_card_count(self, c: list[Any]) -> Cond:
        player = _who(_unwrap(c[0]))
        op, value = c[1]
        zone, who = c[2] if len(c) > 2 else ("hand", None)
        owner = player if who in (None, _THEY) else who
        return Compare(Quantity("count", of=Cards("all", ("card",), owner=owner, zone=zone)),
                       op, value)

    def cond_battling(self, c: list[Any]) -> Cond:
        return cast(Cond, c[1])

    def cond_under(self, c: list[Any]) -> _Elliptic:
        return _Elliptic("<", c[0])

    def cond_over(self, c: list[Any]) -> _Elliptic:
        return _Elliptic(">", c[0])

    did_attack = _const("attacked")
    did_defend = _const("defended")

    def turn_previous_of(self, c: list[Any]) -> tuple[str, Any]:
        who = c[0]
        return ("previous", None if who == _THEY else who)

    turn_previous = _const(("previous", None))
    turn_this = _const(("this", None))

    def q_stat(self, c: list[Any]) -> Quantity:
        return Quantity(c[1], of=_unwrap(c[0]))

    def q_its_stat(self, c: list[Any]) -> Quantity:
        return Quantity(c[0], of=_IT)

    def q_lives(self, c: list[Any]) -> Quantity:
        who = c[0]
        return Quantity("lives", player="you" if who == _THEY else who)

    op_lt = _const("<")
    op_gt = _const(">")
    op_ge = _const(">=")
    op_le = _const("<=")
    op_eq = _const("==")

    def op_lt_lives(self, c: list[Any]) -> tuple[str, Any]:
        return ("<", c[0])

    def op_gt_lives(self, c: list[Any]) -> tuple[str, Any]:
        return (">", c[0])

    def op_ge_lives(self, c: list[Any]) -> tuple[str, Any]:
        return (">=", c[0])

    def op_le_lives(self, c: list[Any]) -> tuple[str, Any]:
        return ("<=", c[0])

    def op_eq_lives(self, c: list[Any]) -> tuple[str, Any]:
        return ("==", c[0])

    where_field = _const(("field", None))

    def where_hand(self, c: list[Any]) -> tuple[str, Any]:
        return ("hand", c[0])

    def where_graveyard(self, c: list[Any]) -> tuple[str, Any]:
        return ("graveyard", c[0])

    def battle_defending(self, c: list[Any]) -> Cond:
        return Battling("defending", _unwrap(c[0]) if c else None)

    def battle_attacking(self, c: list[Any]) -> Cond:
        return Battling("attacking", _unwrap(c[0]) if c else None)

    def battle_any(self, c: list[Any]) -> Cond:
        return Battling("any", _unwrap(c[0]) if c else None)

    # ---- events
    def ev_passive(self, c: list[Any]) -> Event:
        kinds, by = _kinds_by(c[1:])
        return Event(kinds, subject=_unwrap(c[0]), by=by)

    def ev_elided(self, c: list[Any]) -> Event:
        kinds, by = _kinds_by(c)
        return Event(kinds, subject=_THIS, by=by)

    def ev_attacks(self, c: list[Any]) -> Event:
        subject = _unwrap(c[0])
        target = _unwrap(c[1]) if len(c) > 1 else None
        return Event(("attacks",), subject=subject, target=target)

    def ev_defends(self, c: list[Any]) -> Event:
        kind = "defended" if "successfully" in c else "attacked"
        return Event((kind,), subject=_unwrap(c[0]))

    successfully = _const("successfully")

    def ev_defeats(self, c: list[Any]) -> Event:
        return Event(("defeats",), subject=_unwrap(c[0]), target=_unwrap(c[1]))

    def ev_wins(self, c: list[Any]) -> Event:
        return Event(("defeats",), subject=_unwrap(c[0]))

    e_defeated = _const("defeated")
    e_drawn = _const("drawn")
    e_discarded = _const("discarded")

    def ev_by_player(self, c: list[Any]) -> Event:
        return Event((c[1],), subject=_unwrap(c[2]), who=_who(_unwrap(c[0])))

    def ev_used(self, c: list[Token]) -> Event:
        name = str(c[0]).rsplit(" ", 2)[0]
        return Event(("used",), name=name)

    e_summoned = _const("summoned")
    e_revealed = _const("revealed")
    e_activated = _const("activated")
    e_attacked = _const("attacked")
    e_sent = _const("sent_to_graveyard")

    def turn_begins(self, c: list[Any]) -> Event:  # type: ignore[override]
        return Event(("turn_begins",), who=c[0])

    def turn_ends(self, c: list[Any]) -> Event:  # type: ignore[override]
        return Event(("turn_ends",), who=c[0])

    def whose_poss(self, c: list[Any]) -> Who:
        return "you" if c[0] == _THEY else cast(Who, c[0])

    whose_each = _const("each")


_MOD_KEYS = frozenset({"visible", "other", "state", "element", "not_element", "prefix",
                       "species", "stat", "mode", "zone"})


def _mod_fields(mods: list[tuple[str, Any]]) -> dict[str, Any]:
    """Cards fields from modifier pairs (pre- and post-modifiers alike)."""
    out: dict[str, Any] = {}
    for key, value in mods:
        if key == "not_element":
            out["element"] = value
            out["exclude_element"] = True
        elif key == "zone":
            zone, owner = value
            out["zone"] = zone
            if owner is not None:
                out["owner"] = "you" if owner == _THEY else owner
        else:
            out[key] = value
    return out


def _with_mods(cards: Cards, mods: list[Any]) -> Cards:
    """``cards`` with more modifiers (a predicate's states, an existence's location)."""
    extra = _mod_fields([m for m in mods if isinstance(m, tuple)])
    return replace(cards, **extra) if extra else cards


def _lead_part(c: list[Any]) -> _Part:
    """A part with its lead first, then its clauses, then perhaps a trailer."""
    if isinstance(c[-1], _Item):
        part = _Part(c[1:])
        _attach(part, c[0])
    else:
        part = _Part(c[1:-1])
        _attach(part, c[0])
        _attach(part, c[-1])
    return part


def _attach(part: _Part, extra: tuple[str, Any]) -> None:
    """Add a lead or trailer to a part: the first condition and event found win."""
    kind, value = extra
    if kind == "cond_event":
        cond, event = value
        _attach(part, ("cond", cond))
        _attach(part, ("event", event))
    elif kind == "cond":
        part.cond = value if part.cond is None else ("and", part.cond, value)
    elif part.event is None:
        part.event = value


def _settle_items(part: _Part, carry: list[Cards] | None) -> list[Cards] | None:
    """Apply each clause's predicate to its subjects; a clause without one takes the last."""
    steps: list[Step] = []
    for item in part.items:
        subjects: Sequence[Cards | None] | None = item.subjects if item.subjects is not None else carry
        for subject in subjects or [None]:
            steps.extend(item.pred(subject))
        if item.subjects is not None:
            carry = item.subjects
    part.steps = tuple(steps)
    if isinstance(part.cond, _Elliptic):
        part.cond = _elliptic(part.cond, part.steps)
    elif isinstance(part.cond, tuple):
        part.cond = tuple(_elliptic(c, part.steps) if isinstance(c, _Elliptic) else c
                          for c in part.cond)
    return carry


def _elliptic(cond: _Elliptic, steps: tuple[Step, ...]) -> Cond:
    """"if under 5" after "restore health": the lives of the player just named."""
    for step in steps:
        if isinstance(step, Lives):
            return Compare(Quantity("lives", player=step.player), cast(Any, cond.op), cond.value)
        if isinstance(step, Points):
            return Compare(Quantity(step.stat, of=step.target), cast(Any, cond.op), cond.value)
    return Compare(Quantity("lives", player="you"), cast(Any, cond.op), cond.value)


def _guard(cond: Any, steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """Wrap steps in the part's condition(s)."""
    if cond is None:
        return steps
    if isinstance(cond, tuple) and cond and cond[0] == "and":
        return _guard(cond[1], _guard(cond[2], steps))
    return (IfThen(cond, steps),)


def _effect(parts: list[_Part]) -> tuple[Step, ...]:
    """The steps of a spell's effect (or any plain line)."""
    out: list[Step] = []
    for part in parts:
        body = _guard(part.cond, part.steps)
        if part.event is not None:
            out.append(Reaction(part.event, body))
        else:
            out.extend(body)
    return tuple(out)


def _abilities(parts: list[_Part]) -> tuple[Ability, ...]:
    """The abilities of a monster's special effect: consecutive always-on parts merge."""
    out: list[Ability] = []
    for part in parts:
        body = _guard(part.cond, part.steps)
        if part.event is not None:
            out.append(Reaction(part.event, body))
        elif out and isinstance(out[-1], Passive):
            out[-1] = Passive(out[-1].effect + body)
        else:
            out.append(Passive(body))
    return tuple(out)


# ---------------------------------------------------------------- settle and split


def base_type(card_type: str | None) -> str | None:
    """``Monster`` for ``Monster (element prefix)``; ``None`` stays ``None``."""
    if card_type is None:
        return None
    return card_type.split("(", 1)[0].strip().capitalize() or None


def settle(ability: Ability, card_type: str | None) -> Ability:
    """Plain lines are the effect of a spell or trap, and always on for a monster."""
    if isinstance(ability, Spell) and not ability.cost and base_type(card_type) == "Monster":
        return Passive(ability.effect)
    return ability


_TRIGGER_LABELS = ("TRIGGER:", "Trigger:")
_EFFECT_LABELS = ("EFFECT:", "Effect:")


def _cut(text: str, read: Callable[[str], Any], read_all: bool) -> list[tuple[int, str, Any]]:
    """The ability lines of a text: number, line, and its reading (or ``None``).

    A ``TRIGGER:`` line and the ``EFFECT:`` line after it become one line when the
    EFFECT line reads on its own, so that a mistake in it is reported on its own line
    number and column. ``read`` is the game's fast reader (an ability or ``NO_PARSE``);
    with ``read_all`` every line comes with its reading, else only the joined lines
    that were read while cutting (the others carry ``None``).

    The joined line is read first: when it reads, its EFFECT line reads on its own as
    well, so that second reading is skipped. After the label, the parser is in a state
    whose items (the effect's sentences, then the end of the line) are those of the
    state after an EFFECT label opening a line, and the label is lexed alike in both
    (no terminal of the grammar spans the space before it). That holds while the two
    copies of the EFFECT line differ by spaces only, the one blank the grammar skips;
    a line with other blanks around it (a tab) reads its EFFECT line first, as ever.
    """
    if "\n" not in text:  # one line: nothing to join
        lines = [(1, text.rstrip("\r"))] if text.strip() else []
    else:
        lines = [(n, line.rstrip("\r")) for n, line in enumerate(text.split("\n"), start=1)
                 if line.strip()]
    out: list[tuple[int, str, Any]] = []
    i = 0
    while i < len(lines):
        number, line = lines[i]
        if i + 1 < len(lines) and line.lstrip().startswith(_TRIGGER_LABELS) \
                and lines[i + 1][1].lstrip().startswith(_EFFECT_LABELS):
            effect = lines[i + 1][1]
            joined = line.rstrip() + " " + effect.strip()
            if effect.strip(" ") == effect.strip():
                reading = read(joined)
                if reading is not NO_PARSE or read(effect) is not NO_PARSE:
                    out.append((number, joined, reading))
                    i += 2
                    continue
            elif read(effect) is not NO_PARSE:
                out.append((number, joined, read(joined) if read_all else None))
                i += 2
                continue
        out.append((number, line, read(line) if read_all else None))
        i += 1
    return out


def split(text: str) -> list[tuple[int, str]]:
    """Cut a text into ability lines; a ``TRIGGER:`` line and the ``EFFECT:`` line after it are one.

    The two lines are joined only when the ``EFFECT:`` line reads on its own, so that a
    mistake in it is reported on its own line number and column (see :func:`_cut`).
    """
    return [(number, line) for number, line, _ in _cut(text, _reader(), False)]


def split_read(text: str, read: Callable[[str], Any]) -> list[tuple[str, Any]]:
    """The lines of :func:`split`, each with its reading by ``read`` (the game's fast reader).

    A joined line read while cutting is not read again. A text of one line (most
    monsters' special effects) is that line and its reading, as :func:`_cut` finds.
    """
    if "\n" not in text:  # one line: nothing to join
        line = text.rstrip("\r")
        return [(line, read(line))] if text.strip() else []
    return [(line, reading) for _number, line, reading in _cut(text, read, True)]


def _reader() -> Callable[[str], Any]:
    """The game's fast reader: a line's ability, or ``NO_PARSE`` when it does not parse.

    It answers without building Lark's error report (or the second run that makes it)
    when the line does not parse; the parser module keeps it with the parser it belongs
    to, so it is not made again for each line.
    """
    from grammar.parser import _lenient_reading

    return _lenient_reading("battle_monsters")[1]


# ----------------------------------------------------------------------- rendering


def _num(value: Number) -> str:
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Var) and value.name == "X" and value.of is None:
        return "X"
    raise RenderError(f"no wording for the number {value!r}")


def _slot_or(value: str | Slot) -> str:
    return value.text() if isinstance(value, Slot) else value


_KIND_WORDS = {
    "monster": ("monster", "monsters"),
    "spell": ("spell", "spells"),
    "trap": ("trap", "traps"),
    "card": ("card", "cards"),
    "player": ("player", "players"),
    "effect": ("special effect", "special effects"),
}


def _join(words: list[str], conj: str) -> str:
    if len(words) == 1:
        return words[0]
    if len(words) == 2:
        return f"{words[0]} {conj} {words[1]}"
    return ", ".join(words[:-1]) + f", {conj} {words[-1]}"


def _plural(cards: Cards) -> bool:
    return cards.quantifier in ("all", "both", "up_to") or cards.count > 1


def _poss(who: Who) -> str:
    """A player's possessive: ``your``, ``the opponent's``, ``its owner's``."""
    names = {"you": "your", "opponent": "the opponent's", "owner": "its owner's",
             "each": "each player's"}
    if who not in names:
        raise RenderError(f"no wording for whose: {who!r}")
    return names[who]


def _player_name(who: Who) -> str:
    names = {"you": "you", "opponent": "the opponent", "owner": "its owner",
             "each": "each player"}
    if who not in names:
        raise RenderError(f"no wording for the player {who!r}")
    return names[who]


def _cards(cards: Cards, bare: bool = False) -> str:
    """A noun phrase for ``cards``; ``bare`` drops "all" before a plural ("by monsters")."""
    if cards == _THIS:
        return "%NAME"
    if cards == _IT:
        return "it"
    if cards.kinds == ("player",):
        if cards == _player("each"):
            return "each player"
        if cards.quantifier == "the" and cards.owner in ("you", "opponent", "owner") \
                and cards == _player(cards.owner):
            return _player_name(cards.owner)
    if cards.quantifier in ("this", "it"):
        raise RenderError(f"no wording for {cards!r}")
    plural = _plural(cards)
    det = {"all": "all", "the": "the", "chosen": "the chosen", "both": "both"}.get(
        cards.quantifier, "")
    other = cards.other
    owner_det = False
    if cards.quantifier == "a":
        if cards.owner is not None and cards.zone is None and cards.count == 1:
            det, owner_det = _poss(cards.owner), True
        elif cards.count == 1:
            det, other = ("another", False) if other else ("a", other)
        else:
            det = str(cards.count)
    elif cards.quantifier == "up_to":
        det = f"up to {cards.count}"
    elif cards.quantifier == "all" and cards.owner is not None and cards.zone is None:
        det, owner_det = _poss(cards.owner), True
    elif cards.owner is not None and cards.zone is None:
        raise RenderError(f"no wording for whose cards: {cards!r}")
    if cards.quantifier != "a" and cards.count != 1 and cards.quantifier != "up_to":
        raise RenderError(f"no wording for a count with {cards.quantifier!r}")
    if bare and cards.quantifier == "all" and not owner_det:
        det = ""
    words = [det]
    if other:
        words.append("other")
    if cards.visible is True:
        words.append("visible")
    elif cards.visible is False:
        words.append("face-down")
    if cards.state is not None:
        if cards.state not in ("fused", "attacking", "defending", "summoned"):
            raise RenderError(f"no wording for the state {cards.state!r}")
        words.append(cards.state)
    if cards.element is not None:
        element = _slot_or(cards.element) + " element"
        words.append("non-" + element if cards.exclude_element else element)
    elif cards.exclude_element:
        raise RenderError("an excluded element needs an element")
    if cards.prefix is not None:
        words.append(f"{cards.prefix} prefixed")
    if cards.species is not None:
        words.append(_slot_or(cards.species))
    if not cards.kinds:
        raise RenderError("a noun phrase needs a kind")
    nouns = [_KIND_WORDS[k][1 if plural else 0] if k in _KIND_WORDS else _bad(k)
             for k in cards.kinds]
    if len(cards.kinds) > 1 and len(set(cards.kinds)) != len(cards.kinds):
        raise RenderError(f"a kind named twice: {cards!r}")
    if set(cards.kinds) <= {"spell", "trap"}:
        nouns = [_KIND_WORDS[k][0] for k in cards.kinds]
        words.append(_join(nouns, "and" if plural else "or") + (" cards" if plural else " card"))
    else:
        words.append(_join(nouns, "and" if plural else "or"))
    if cards.stat is not None:
        words.append(_stat_test(cards.stat))
    if cards.mode is not None:
        words.append(f"in {cards.mode} mode")
    if cards.zone is not None:
        words.append(_location(cards.zone, cards.owner))
    elif cards.owner is not None and not owner_det:
        raise RenderError(f"no wording for whose cards: {cards!r}")
    return " ".join(w for w in words if w)


def _each(cards: Cards) -> str:
    """A noun phrase after "for each": one card, no determiner."""
    if cards.quantifier != "all" or cards.count != 1 or (cards.owner is not None
                                                         and cards.zone is None):
        raise RenderError(f"no wording for each of {cards!r}")
    words = _cards(replace(cards, quantifier="a", other=False)).split(" ", 1)[1]
    return f"other {words}" if cards.other else words


def _bad(kind: str) -> str:
    raise RenderError(f"no wording for the kind {kind!r}")


def _location(zone: str, owner: Who | None) -> str:
    if zone == "field":
        if owner is None:
            return "on the field"
        if owner == "opponent":
            return "on the opposing side of the field"
        return f"on {_poss(owner)} side of the field"
    if zone in ("hand", "graveyard") and owner is not None:
        return f"in {_poss(owner)} {zone}"
    if zone == "graveyard":
        return "in the graveyard"
    raise RenderError(f"no wording for the zone {zone!r} of {owner!r}")


_OPS = {">": "more", "<": "less"}


def _stat_test(test: StatTest) -> str:
    value = test.value
    if isinstance(value, Quantity):
        if value.name != test.stat or value.of is None or test.op not in _OPS \
                or value.of not in (_THIS, _IT) or value.player is not None:
            raise RenderError(f"no wording for the stat test {test!r}")
        return f"with {_OPS[test.op]} {test.stat} points than {_cards(value.of)}"
    n = _num(value)
    forms = {">": f"over {n}", "<": f"under {n}", ">=": f"{n} or more",
             "<=": f"{n} or less"}
    if test.op not in forms:
        raise RenderError(f"no wording for the stat test {test!r}")
    return f"with {forms[test.op]} {test.stat} points"


def _verb(subject: Cards, singular: str, plural: str) -> str:
    if subject.kinds == ("player",) and subject.owner == "you" and subject == _player("you"):
        return plural
    return plural if _plural(subject) and subject.kinds != ("player",) else singular


def _is(subject: Cards) -> str:
    return _verb(subject, "is", "are")


_COMPARE_WORDS = {"<": "less than", ">": "more than", "<=": "at most", ">=": "at least",
                  "==": "equal to"}


def _quantity(q: Quantity) -> str:
    if q.name == "lives" and q.player is not None and q.of is None:
        return f"{_poss(q.player)} life points"
    if q.name in ("attack", "defense") and q.of is not None and q.player is None:
        whose = "its" if q.of == _IT else f"{_cards(q.of)}'s"
        return f"{whose} {q.name} points"
    raise RenderError(f"no wording for the quantity {q!r}")


def _condition(cond: Cond) -> str:
    """A condition after ``if`` (small letters)."""
    if isinstance(cond, Present):
        what = cond.what
        if what.quantifier in ("this", "it"):
            base = replace(what, visible=None, zone=None, owner=None, mode=None)
            states = []
            if what.visible is True:
                states.append("visible")
            elif what.visible is False:
                states.append("face-down")
            if what.mode is not None:
                states.append(f"in {what.mode} mode")
            if what.zone is not None:
                states.append(_location(what.zone, what.owner))
            elif what.owner is not None:
                raise RenderError(f"no wording for {cond!r}")
            if not states or base not in (_THIS, _IT):
                raise RenderError(f"no wording for {cond!r}")
            neg = "not " if cond.negated else ""
            return f"{_cards(base)} is {neg}{' '.join(states)}"
        if cond.negated:
            if what.quantifier != "a" or what.count != 1 or what.other:
                raise RenderError(f"no wording for {cond!r}")
            body = _cards(what)
            return "there is no " + body.split(" ", 1)[1]
        return f"there {'are' if _plural(what) else 'is'} {_cards(what)}"
    if isinstance(cond, Did):
        if cond.turn == "this":
            when = "this turn"
            if cond.whose is not None:
                raise RenderError(f"no wording for {cond!r}")
        elif cond.whose is None:
            when = "on the previous turn"
        else:
            when = f"on {_poss(cond.whose)} previous turn"
        return f"{_cards(cond.what)} {cond.action} {when}"
    if isinstance(cond, Battling):
        role = {"defending": "defending against", "attacking": "attacking",
                "any": "battling"}[cond.role]
        if cond.against is None:
            role = role.replace(" against", "")
            return f"%NAME is {role}"
        return f"%NAME is {role} {_cards(cond.against)}"
    if isinstance(cond, Compare):
        left, right = cond.left, cond.right
        if isinstance(left, Quantity) and left.name == "count" and isinstance(right, Quantity) \
                and right.name == "count" and cond.op == ">":
            return _more_cards(left, right, cond)
        if isinstance(left, Quantity) and left.name == "count" and isinstance(right, int):
            return _card_count(left, cond.op, right, cond)
        if not isinstance(left, Quantity):
            raise RenderError(f"no wording for {cond!r}")
        value = _quantity(right) if isinstance(right, Quantity) else _num(right)
        return f"{_quantity(left)} are {_COMPARE_WORDS[cond.op]} {value}"
    raise RenderError(f"no wording for the condition {cond!r}")


_COUNT_WORDS = {"<": "less than {}", ">": "more than {}", ">=": "{} or more",
                "<=": "{} or less", "==": "exactly {}"}


def _card_count(left: Quantity, op: str, value: int, cond: Compare) -> str:
    """"the opponent has 3 or more cards in their hand"."""
    of = left.of
    if of is None or of.owner is None or of.zone not in ("field", "hand", "graveyard") \
            or of != Cards("all", ("card",), owner=of.owner, zone=of.zone):
        raise RenderError(f"no wording for {cond!r}")
    whose = "your" if of.owner == "you" else "their"
    where = {"field": "on the field", "hand": f"in {whose} hand",
             "graveyard": f"in {whose} graveyard"}[of.zone]
    has = "have" if of.owner == "you" else "has"
    count = _COUNT_WORDS[op].format(value)
    return f"{_player_name(of.owner)} {has} {count} cards {where}"


def _more_cards(left: Quantity, right: Quantity, cond: Compare) -> str:
    sides = []
    owner = left.of.owner if left.of is not None else None
    for q in (left, right):
        of = q.of
        if of is None or of.owner != owner or owner is None \
                or of != Cards("all", ("card",), owner=owner, zone=of.zone):
            raise RenderError(f"no wording for {cond!r}")
        whose = "your" if owner == "you" else "their"
        sides.append({"field": "on the field", "hand": f"in {whose} hand",
                      "graveyard": f"in {whose} graveyard"}[cast(str, of.zone)])
    subject = _player_name(cast(Who, owner))
    has = "have" if owner == "you" else "has"
    return f"{subject} {has} more cards {sides[0]} than {sides[1]}"


_PARTICIPLES = {"summoned": "summoned", "revealed": "revealed", "activated": "activated",
                "attacked": "attacked", "sent_to_graveyard": "sent to the graveyard",
                "defeated": "defeated"}
_PLAYER_VERBS = {"summoned": "summons", "revealed": "reveals", "activated": "activates",
                 "drawn": "draws", "discarded": "discards"}


def _event(event: Event, elided: bool = False) -> str:
    """An event after ``when``/``if`` (small letters)."""
    kinds = event.kinds
    if kinds == ("used",) and event.name and event.subject is None and event.who is None \
            and event.by is None and event.target is None:
        return f"{event.name} is used"
    if event.name is not None:
        raise RenderError(f"no wording for {event!r}")
    by = f" by {_cards(event.by, bare=True)}" if event.by is not None else ""
    if event.by is not None and (event.who is not None or any(
            k not in _PARTICIPLES for k in kinds)):
        raise RenderError(f"no wording for {event!r}")
    if kinds in (("turn_begins",), ("turn_ends",)):
        raise RenderError("turn events have their own wording")
    if event.subject is None:
        raise RenderError(f"no wording for {event!r}")
    if event.who is not None:
        if len(kinds) != 1 or kinds[0] not in _PLAYER_VERBS or event.target is not None:
            raise RenderError(f"no wording for {event!r}")
        verb = _PLAYER_VERBS[kinds[0]]
        if event.who == "you":
            verb = verb[:-1]
        return f"{_player_name(event.who)} {verb} {_cards(event.subject)}"
    subject = event.subject
    if kinds == ("attacks",):
        verb = _verb(subject, "attacks", "attack")
        target = f" {_cards(event.target)}" if event.target is not None else ""
        return f"{_cards(subject)} {verb}{target}"
    if kinds == ("defeats",):
        if event.target is None:
            return f"{_cards(subject)} {_verb(subject, 'wins', 'win')} a battle"
        return f"{_cards(subject)} {_verb(subject, 'defeats', 'defeat')} {_cards(event.target)}"
    if event.target is not None:
        raise RenderError(f"no wording for {event!r}")
    if kinds == ("defended",):
        return f"{_cards(subject)} successfully {_verb(subject, 'defends', 'defend')} " \
               "from an attack"
    if not kinds or any(k not in _PARTICIPLES for k in kinds):
        raise RenderError(f"no wording for {event!r}")
    words = " or ".join(_PARTICIPLES[k] for k in kinds)
    if elided and subject == _THIS:
        return words + by
    return f"{_cards(subject)} {_is(subject)} {words}{by}"


def _whose_turn(who: Who) -> str:
    return "each" if who == "each" else _poss(who)


def _turn_event(event: Event) -> str:
    """"at the start of your turn" (small letters) for a turn event, else raise."""
    if len(event.kinds) == 1 and event.kinds[0] in ("turn_begins", "turn_ends") \
            and event.subject is None and event.target is None and event.name is None \
            and event.who is not None:
        edge = "start" if event.kinds[0] == "turn_begins" else "end"
        whose = "each" if event.who == "each" else _poss(event.who)
        return f"at the {edge} of {whose} turn"
    raise RenderError(f"no wording for {event!r}")


def _is_turn(event: Event) -> bool:
    return event.kinds in (("turn_begins",), ("turn_ends",))


_ACTIONS = {
    "attack": "attack",
    "be_attacked": "be attacked",
    "lose_lives_in_battle": "lose life points from monster battles",
    "be_switched": "be switched to attack mode or defense mode",
    "be_switched_manually": "be switched to attack mode or defense mode manually",
    "attack_directly": "attack directly",
    "attack_twice": "attack twice",
    "be_targeted": "be targeted",
}
_PROHIBITED = {
    **_ACTIONS,
    "summon": "summon",
    "activate": "activate",
    "draw": "draw",
    "reveal": "reveal",
    "be_destroyed": "be destroyed",
}
_OBJECT_ACTIONS = frozenset({"attack", "summon", "activate", "draw", "reveal"})
"""Actions whose other side follows them directly ("attack a monster"), not after "by"."""
_WHEN = {"fused_turn": "on the turn it is fused", "revealed_turn": "on the turn it is revealed",
         "summoned_turn": "on the turn it is summoned", "this_turn": "this turn"}


def _action(action: str, table: dict[str, str] = _ACTIONS) -> str:
    if action not in table:
        raise RenderError(f"no wording for the action {action!r}")
    return table[action]


def _by(actions: tuple[str, ...], by: Cards | None) -> str:
    """The other side of an action: "by monsters" or, after "attack", "a monster"."""
    if by is None:
        return ""
    if actions[-1] in _OBJECT_ACTIONS:
        return f" {_cards(by, bare=True)}"
    return f" by {_cards(by, bare=True)}"


def _when(when: str | None) -> str:
    if when is None:
        return ""
    if when not in _WHEN:
        raise RenderError(f"no wording for {when!r}")
    return " " + _WHEN[when]


def _immunity(to: Cards) -> str:
    words = {"spell": "spells", "trap": "traps", "effect": "special effects",
             "attack": "monster attacks"}
    if to.quantifier != "all" or not to.kinds or any(k not in words for k in to.kinds):
        raise RenderError(f"no wording for immunity to {to!r}")
    rest = replace(to, quantifier="a", kinds=("card",))
    if rest.owner is not None or rest.zone is not None or rest.stat is not None \
            or rest.mode is not None or rest.count != 1 or rest.other \
            or rest.species is not None or len(set(to.kinds)) != len(to.kinds):
        raise RenderError(f"no wording for immunity to {to!r}")
    mods = _cards(rest).split(" ")[1:-1]
    return " ".join(["all", *mods, _join([words[k] for k in to.kinds], "and")])


def _lives(step: Lives, implied: Who | None, remove: bool = False) -> str:
    """A change of life points: imperative when its player is the implied one.

    ``remove`` words another player's loss as "remove N life points from P" (after
    "can choose to", where a subject cannot follow).
    """
    delta = step.delta
    if isinstance(delta, int) and delta < 0:
        amount, gain = -delta, False
    else:
        amount, gain = delta, True  # type: ignore[assignment]
    n = _num(amount)
    unit = "life point" if amount == 1 else "life points"
    if step.player == implied:
        return f"{'gain' if gain else 'lose'} {n} {unit}"
    if remove and not gain:
        return f"remove {n} {unit} from {_player_name(step.player)}"
    subject = _player(step.player)
    verb = _verb(subject, "gains" if gain else "loses", "gain" if gain else "lose")
    return f"{_player_name(step.player)} {verb} {n} {unit}"


def _by_player(who: Who, imperative: bool, base: str, third: str, rest: str) -> str:
    if who == "you" and imperative:
        return f"{base} {rest}"
    subject = _player(who)
    return f"{_player_name(who)} {_verb(subject, third, base)} {rest}"


def _cards_count(n: int | Var) -> str:
    if n == 1:
        return "a card"
    return f"{_num(n)} cards"


def _step(step: Step, imperative: bool = True) -> str:
    """One step as a clause (small letters); ``imperative`` allows an order to "you"."""
    if isinstance(step, Draw):
        return _by_player(step.player, imperative, "draw", "draws", _cards_count(step.amount))
    if isinstance(step, Discard) and step.what is None:
        if isinstance(step.amount, Var):
            if step.amount != _hand(step.player):
                raise RenderError(f"no wording for {step!r}")
            whose = "your" if step.player == "you" else "their"
            return _by_player(step.player, imperative, "discard", "discards",
                              f"{whose} entire hand")
        return _by_player(step.player, imperative, "discard", "discards",
                          _cards_count(step.amount))
    if isinstance(step, DrawUntil):
        pronoun = "you" if step.player == "you" else "they"
        return _by_player(step.player, imperative, "draw", "draws",
                          f"until {pronoun} are holding {step.hand} cards")
    if isinstance(step, Lives):
        return _lives(step, "you" if imperative else None)
    if isinstance(step, SkipTurn):
        return f"{_poss(step.player)} next turn is skipped"
    if isinstance(step, EndGame):
        subject = _player(step.player)
        verb = _verb(subject, step.result + "s", step.result)
        return f"{_player_name(step.player)} {verb} the game"
    if isinstance(step, SendTo):
        where = {"graveyard": "sent to the graveyard", "hand": "returned to its owner's hand",
                 "field": "summoned to the field"}[step.to]
        return f"{_cards(step.what)} {_is(step.what)} {where}"
    if isinstance(step, RevealCards):
        return f"{_cards(step.what)} {_is(step.what)} revealed"
    if isinstance(step, Switch):
        return f"{_cards(step.target)} {_is(step.target)} switched to {step.mode} mode"
    if isinstance(step, Nullify):
        return f"{_cards(step.what)} has its effect nullified"
    if isinstance(step, Fuse):
        text = f"fuse the special effects of {_cards(step.what)} together"
        return text if imperative else "you " + text
    if isinstance(step, Points):
        delta = step.delta
        if isinstance(delta, int) and delta < 0:
            forms, amount = ("loses", "lose"), -delta
        else:
            forms, amount = ("gains", "gain"), delta  # type: ignore[assignment]
        temporary = step.duration == Duration("temporary")
        until = ""
        if step.duration == Duration("end_of_turn"):
            until = " until the end of the turn"
        elif step.duration is not None and not temporary:
            raise RenderError(f"no wording for the duration {step.duration!r}")
        adverb = "temporarily " if temporary else ""
        per = f" for each {_each(step.per)}" if step.per is not None else ""
        return f"{_cards(step.target)} {adverb}{_verb(step.target, *forms)} {_num(amount)} " \
               f"{step.stat} points{until}{per}"
    if isinstance(step, ImmuneTo):
        return f"{_cards(step.target)} {_is(step.target)} immune to {_immunity(step.to)}"
    if isinstance(step, Cannot):
        if not step.actions:
            raise RenderError("a prohibition needs an action")
        actions = " or ".join(_action(a, _PROHIBITED) for a in step.actions)
        return f"{_cards(step.subject)} cannot {actions}{_by(step.actions, step.by)}" \
               f"{_when(step.when)}"
    if isinstance(step, Can):
        only = "only " if step.only else ""
        by = _by((step.action,), step.by)
        regardless = ", regardless of other penalties" if step.overriding else ""
        return f"{_cards(step.subject)} can {only}{_action(step.action)}{by}" \
               f"{_when(step.when)}{regardless}"
    if isinstance(step, May) and len(step.steps) == 1:
        return f"{_player_name(step.player)} can choose to {_predicate(step.steps[0], step.player)}"
    if isinstance(step, Trade):
        text = _trade(step, "you")
        return text if imperative else "you " + text
    raise RenderError(f"no wording for the step {step!r}")


def _predicate(step: Step, chooser: Who) -> str:
    """A step as what ``chooser`` does (no subject), after "can choose to"."""
    if isinstance(step, Trade):
        return _trade(step, chooser)
    if isinstance(step, Draw) and step.player == chooser:
        return f"draw {_cards_count(step.amount)}"
    if isinstance(step, Discard) and step.player == chooser and isinstance(step.amount, int):
        return f"discard {_cards_count(step.amount)}"
    if isinstance(step, Lives):
        return _lives(step, chooser, remove=True)
    if isinstance(step, SendTo):
        if step.to == "field":
            return f"summon {_cards(step.what)}"
        where = "the graveyard" if step.to == "graveyard" else "its owner's hand"
        return f"send {_cards(step.what)} to {where}"
    if isinstance(step, RevealCards):
        return f"reveal {_cards(step.what)}"
    if isinstance(step, Switch):
        return f"switch {_cards(step.target)} to {step.mode} mode"
    if isinstance(step, Nullify):
        return f"nullify the effect of {_cards(step.what)}"
    if isinstance(step, Fuse):
        return f"fuse the special effects of {_cards(step.what)} together"
    if isinstance(step, EndGame) and step.player == chooser:
        return f"{'win' if step.result == 'win' else 'lose'} the game"
    raise RenderError(f"no wording for {step!r} as a choice of {chooser!r}")


def _trade(step: Trade, payer: Who) -> str:
    if len(step.cost) != 1 or len(step.effect) != 1:
        raise RenderError(f"no wording for {step!r}")
    cost = step.cost[0]
    if not isinstance(cost, Lives) or cost.player != payer or not isinstance(cost.delta, int) \
            or cost.delta >= 0:
        raise RenderError(f"no wording for the cost of {step!r}")
    whose = "your" if payer == "you" else "their"
    return f"sacrifice {-cost.delta} of {whose} life points to {_predicate(step.effect[0], payer)}"


def _steps(steps: tuple[Step, ...]) -> str:
    """Steps joined by "and" inside one sentence, each with its subject."""
    if not steps:
        raise RenderError("an empty list of steps has no wording")
    return " and ".join(_step(s, imperative=False) for s in steps)


def _sentence(step: Step, static: bool = False) -> str:
    """A step as a whole sentence; ``static`` words a condition "As long as" (always-on)."""
    if isinstance(step, IfThen):
        if isinstance(step.condition, TurnOf):
            return f"During {_whose_turn(step.condition.player)} turn, {_steps(step.then)}."
        lead = "As long as" if static else "If"
        return f"{lead} {_condition(step.condition)}, {_steps(step.then)}."
    if isinstance(step, Reaction):
        return _reaction(step.event, step.effect)
    return _cap(_step(step)) + "."


def _reaction(event: Event, effect: tuple[Step, ...]) -> str:
    if _is_turn(event):
        if len(effect) == 1 and isinstance(effect[0], IfThen):
            guard = effect[0]
            if isinstance(guard.condition, TurnOf):
                return f"{_cap(_turn_event(event))}, {_steps(guard.then)} during " \
                       f"{_whose_turn(guard.condition.player)} turn."
            return f"{_cap(_turn_event(event))}, {_steps(guard.then)} " \
                   f"if {_condition(guard.condition)}."
        return f"{_cap(_turn_event(event))}, {_steps(effect)}."
    if len(effect) == 1 and isinstance(effect[0], IfThen):
        guard = effect[0]
        if isinstance(guard.condition, TurnOf):
            return f"When {_event(event)}, {_steps(guard.then)} during " \
                   f"{_whose_turn(guard.condition.player)} turn."
        return f"If {_condition(guard.condition)} when {_event(event)}, {_steps(guard.then)}."
    return f"When {_event(event)}, {_steps(effect)}."


def _effect_text(steps: tuple[Step, ...], static: bool = False) -> str:
    if not steps:
        raise RenderError("an empty effect has no wording")
    return " ".join(_sentence(s, static) for s in steps)


_USES = {"single": "Single use.", "unlimited": "Unlimited use.", "permanent": "Permanent.",
         "once_per_turn": "Once per turn."}


def _use(use: str) -> str:
    if use in _USES:
        return _USES[use]
    turns = use.removesuffix("_turns")
    if turns != use and turns.isdigit():
        return f"Lasts {int(turns)} turns."
    raise RenderError(f"no wording for the use {use!r}")


def _ability(ability: Ability) -> str:
    if isinstance(ability, Special):
        if not ability.abilities:
            raise RenderError("a special effect needs a sentence")
        sentences = []
        for inner in ability.abilities:
            if isinstance(inner, Passive) and inner.condition is None:
                sentences.append(_effect_text(inner.effect, static=True))
            elif isinstance(inner, Reaction):
                sentences.append(_reaction(inner.event, inner.effect))
            else:
                raise RenderError(f"no wording for {inner!r} in a special effect")
        for earlier, later in zip(ability.abilities, ability.abilities[1:]):
            if isinstance(earlier, Passive) and isinstance(later, Passive):
                raise RenderError("two always-on abilities in a row read as one")
        name = ability.name
        if not name or any(ch in name for ch in ":.\n") or name != name.strip():
            raise RenderError(f"no wording for the special effect name {name!r}")
        return f"{name}: " + " ".join(sentences)
    if isinstance(ability, TriggerEffect):
        lines = []
        head = []
        if ability.trigger is not None:
            if _is_turn(ability.trigger):
                head.append(_cap(_turn_event(ability.trigger)) + ".")
            else:
                head.append(f"When {_event(ability.trigger, elided=True)}.")
        if ability.use is not None:
            head.append(_use(ability.use))
        if head:
            lines.append("TRIGGER: " + " ".join(head))
        if ability.effect:
            lines.append("EFFECT: " + _effect_text(ability.effect))
        if not lines:
            raise RenderError("a spell needs a condition or an effect")
        return "\n".join(lines)
    if isinstance(ability, (Spell, Passive)) and not getattr(ability, "cost", ()) \
            and getattr(ability, "condition", None) is None:
        return _effect_text(ability.effect)
    if isinstance(ability, Reaction):
        return _reaction(ability.event, ability.effect)
    raise RenderError(f"no wording for the ability {ability!r}")


def render(tree: CardText) -> str:
    """The canonical Battle Monsters text of ``tree``, one ability per line.

    Canonical choices: the card itself is ``%NAME``; one step per sentence at the top
    level and "and" between steps inside a condition or a reaction, each with its
    subject; noun phrases always carry a determiner ("all monsters", "a spell"); an
    element reads ``fire element``, an excluded one ``non-fire element``; a spell's
    condition reads ``When revealed.`` when it is about the card itself.
    """
    for earlier, later in zip(tree.abilities, tree.abilities[1:]):
        if isinstance(earlier, TriggerEffect) and not earlier.effect \
                and isinstance(later, TriggerEffect) and later.trigger is None \
                and later.use is None:
            raise RenderError("a condition line followed by an effect line reads as one card")
    return "\n".join(_ability(a) for a in tree.abilities)


def pool_fields(record: dict[str, Any]) -> dict[str, Any]:
    """Our card fields from a real card-pool record: its ``stats["elements"]`` (``"FIRE"``,
    ``"ALL"``) are its ``traits``, in small letters as in our card files.

    The public pool prints no attack or defense points; a monster read from it has none
    (the spec reports a battle that needs them as unverifiable).
    """
    stats = record.get("stats")
    found = stats.get("elements") if isinstance(stats, dict) else None
    if not isinstance(found, list):
        return {}
    return {"traits": [e.lower() for e in found if isinstance(e, str)]}


GRAMMAR = GameGrammar("battle_monsters", Builder, card_types=None, settle=settle,
                      split=split, split_read=split_read, render=render, pool_fields=pool_fields)
