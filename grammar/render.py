"""Write an effect AST back out in the game's canonical template wording.

:func:`render` is the inverse of :func:`grammar.parser.parse`: for every tree the
grammar can produce, ``parse(render(tree), game, card_type) == tree`` (with the same
``card_type`` the tree was read with). Wording lint uses it to propose the canonical
form of a card's text.

Canonical choices: one ability per line; one step per sentence at the top level and
``and`` between steps inside a cost, an ``if``, a ``you may`` or a delayed trigger;
counts of cards and dice in words (``two cards``) up to ten, damage and stat amounts
in digits (``2 damage``, ``+2 Attack``); ``a Food card`` but ``a Codestone``.
"""

from __future__ import annotations

from grammar.ast import (
    Abandon,
    Ability,
    Activated,
    Amount,
    Attach,
    CardText,
    Condition,
    Conditional,
    Deal,
    Delay,
    Discard,
    Draw,
    Duration,
    Freeze,
    Heal,
    If,
    Immune,
    Keyword,
    May,
    Modify,
    Negate,
    Passive,
    Permit,
    Prohibit,
    Replacement,
    Reroll,
    Reveal,
    Roll,
    Scrap,
    Search,
    Selector,
    Send,
    Shuffle,
    Spell,
    StayInPlay,
    Step,
    Transform,
    Trigger,
    Triggered,
    Unknown,
    Var,
)
from grammar.parser import NUMBER_WORDS as _WORDS

__all__ = ["RenderError", "capitalise", "render", "with_article"]



class RenderError(ValueError):
    """A tree (or part of one) that no template of the game can express."""


# ------------------------------------------------------------------------ helpers


def capitalise(text: str) -> str:
    """Capitalise the first letter (a sentence start); the game renderers share it."""
    return text[:1].upper() + text[1:]


_cap = capitalise


def _digits(amount: Amount) -> str:
    """A damage or stat amount: digits, or ``X``."""
    if isinstance(amount, Var):
        if amount.name == "X" and amount.of is None:
            return "X"
        raise RenderError(f"no wording for the amount {amount!r}")
    return str(amount)


def _count(amount: Amount) -> str:
    """A count of cards or dice: words up to ten, else digits, or ``X``."""
    if isinstance(amount, int) and 1 <= amount <= 10:
        return _WORDS[amount]
    return _digits(amount)


def _cards(amount: Amount) -> str:
    """``a card``, ``two cards``, ``X cards``."""
    if amount == 1:
        return "a card"
    return f"{_count(amount)} cards"


def _kind(card_type: str) -> str:
    """How a card type reads after an article: ``Food card``, ``Codestone``, ``card``."""
    if card_type == "Food":
        return "Food card"
    return card_type


def with_article(words: str) -> str:
    """Prefix the right indefinite article (``a card``, ``an Equipment``)."""
    return ("an " if words[:1] in "AEIOUaeiou" else "a ") + words


_a = with_article


def _neopet(sel: Selector) -> str:
    """A Neopet selector: ``your Neopet``, ``your opponent's Neopet``..."""
    if sel.type == "Neopet" and sel == Selector("the", "Neopet", owner="you"):
        return "your Neopet"
    if sel == Selector("the", "Neopet", owner="opponent"):
        return "your opponent's Neopet"
    if sel == Selector("each", "Neopet"):
        return "each Neopet"
    if sel == Selector("target", "Neopet"):
        return "target Neopet"
    raise RenderError(f"no wording for the Neopet {sel!r}")


def _who(who: str) -> str:
    """A player: ``you``, ``your opponent``, ``each player``."""
    names = {"you": "you", "opponent": "your opponent", "each": "each player"}
    if who not in names:
        raise RenderError(f"no wording for the player {who!r}")
    return names[who]


def _player_of(sel: Selector) -> str:
    """The Who of a player selector."""
    if sel == Selector("each", "player"):
        return "each"
    if sel.quantifier == "the" and sel.type == "player" and sel.owner in ("you", "opponent") \
            and sel == Selector("the", "player", owner=sel.owner):
        return sel.owner
    raise RenderError(f"no wording for the player {sel!r}")


def _subject(sel: Selector) -> str:
    """The subject of ``can't``/``can``/``would``: a player or a Neopet."""
    if sel.type == "player":
        return _who(_player_of(sel))
    return _neopet(sel)


def _verb(who: str, base: str, third: str) -> str:
    """``draw`` after the implied ``you``; ``your opponent draws`` otherwise."""
    if who == "you":
        return base
    return f"{_who(who)} {third}"


_DURATIONS = {
    "end_of_turn": "until end of turn",
    "end_of_round": "until the end of the round",
    "your_next_turn": "until the beginning of your next turn",
    "next_battle_phase": "during its next Battle Phase",
}


def _duration(duration: Duration | None) -> str:
    """`` until end of turn`` (with its leading space) or nothing."""
    if duration is None:
        return ""
    if duration.until not in _DURATIONS:
        raise RenderError(f"no wording for the duration {duration.until!r}")
    return " " + _DURATIONS[duration.until]


def _comparison(op: str, value: Amount | str) -> str:
    """``3``, ``3 or more``, ``3 or less``."""
    if isinstance(value, str):
        raise RenderError(f"no wording for comparing with {value!r}")
    number = _digits(value)
    return {"==": number, ">=": f"{number} or more", "<=": f"{number} or less"}[op]


def _condition(cond: Condition) -> str:
    """A condition after ``if``/``while`` (lower case)."""
    if cond.subject == "result" and cond.of is None:
        return f"the result is {_comparison(cond.op, cond.value)}"
    if cond.subject == "damage" and cond.of is not None:
        return f"{_neopet(cond.of)} has {_comparison(cond.op, cond.value)} damage"
    if cond.subject == "controls" and cond.op == "has" and cond.of is not None:
        who = _player_of(cond.of)
        verb = "control" if who == "you" else "controls"
        return f"{_who(who)} {verb} {_a(str(cond.value))}"
    if cond.subject == "map_pieces" and cond.of is not None:
        who = _player_of(cond.of)
        have, whose = ("have", "your") if who == "you" else ("has", "their")
        return f"{_who(who)} {have} {_comparison(cond.op, cond.value)} Map Pieces in {whose} Play Area"
    raise RenderError(f"no wording for the condition {cond!r}")


_PHASE_WORDS = {"Draw", "Train", "Preparation", "Battle"}


def _turn_owner(who: str | None) -> str:
    """``your`` or ``your opponent's``."""
    if who == "you":
        return "your"
    if who == "opponent":
        return "your opponent's"
    raise RenderError(f"no wording for whose turn: {who!r}")


def _trigger(trig: Trigger) -> str:
    """The trigger before the comma (lower case)."""
    if trig.event in ("turn_begins", "turn_ends") and trig.phase is None and trig.subject is None:
        edge = "beginning" if trig.event == "turn_begins" else "end"
        return f"at the {edge} of {_turn_owner(trig.who)} turn"
    if trig.event in ("phase_begins", "phase_ends") and trig.phase in _PHASE_WORDS \
            and trig.subject is None:
        edge = "beginning" if trig.event == "phase_begins" else "end"
        return f"at the {edge} of {_turn_owner(trig.who)} {trig.phase} Phase"
    if trig.event == "dealt_damage" and trig.who is None and trig.subject is not None:
        return f"when {_neopet(trig.subject)} is dealt damage"
    if trig.event == "played" and trig.subject is not None \
            and trig.subject == Selector("a", trig.subject.type):
        kind = _a(_kind(trig.subject.type))
        if trig.who == "you":
            return f"when you play {kind}"
        if trig.who == "opponent":
            return f"when your opponent plays {kind}"
    if trig.event == "attached" and trig.subject == Selector("a", "Codestone"):
        return f"when a Codestone is attached to {_turn_owner(trig.who)} Neopet"
    if trig.event == "rolled" and trig.subject is None:
        if trig.who == "you":
            return "when you roll attack dice"
        if trig.who == "opponent":
            return "when your opponent rolls attack dice"
    raise RenderError(f"no wording for the trigger {trig!r}")


def _replaced(event: Trigger) -> str:
    """The event of a replacement: ``your Neopet would be frozen``."""
    if event.who is None and event.phase is None and event.subject is not None:
        if event.event == "frozen":
            return f"{_subject(event.subject)} would be frozen"
        if event.event == "dealt_damage":
            return f"{_subject(event.subject)} would be dealt damage"
    raise RenderError(f"no wording for the replaced event {event!r}")


def _action(action: str) -> str:
    """What a ``can't``/``can`` is about."""
    if action in ("attack", "defend", "play cards"):
        return action
    if action.startswith("play "):
        return f"{action} cards"
    raise RenderError(f"no wording for the action {action!r}")


def _send_what(sel: Selector) -> str:
    """The object of ``send``."""
    if sel == Selector("this"):
        return "this card"
    if sel == Selector("a", "Codestone", owner="you", zone="Codestone Slots"):
        return "a Codestone attached to your Neopet"
    if sel == Selector("target", sel.type):
        return f"target {_kind(sel.type)}"
    raise RenderError(f"no wording for sending {sel!r}")


# --------------------------------------------------------------------------- steps


def _step(step: Step) -> str:
    """One step as a clause starting with a small letter."""
    if isinstance(step, Draw):
        return f"{_verb(step.player, 'draw', 'draws')} {_cards(step.amount)}"
    if isinstance(step, Discard) and step.what is None:
        return f"{_verb(step.player, 'discard', 'discards')} {_cards(step.amount)}"
    if isinstance(step, Scrap):
        return f"{_verb(step.player, 'scrap', 'scraps')} {_cards(step.amount)}"
    if isinstance(step, Send) and step.to in ("Discard", "Void"):
        whose = "its owner's" if step.what.quantifier == "target" else "your"
        return f"send {_send_what(step.what)} to {whose} {step.to}"
    if isinstance(step, Deal):
        if step.amount == Var("result"):
            return f"deal damage equal to the result to {_neopet(step.to)}"
        return f"deal {_digits(step.amount)} damage to {_neopet(step.to)}"
    if isinstance(step, Heal):
        return f"heal {_digits(step.amount)} damage from {_neopet(step.target)}"
    if isinstance(step, Search) and step.player == "you" and step.to == "Inventory" \
            and step.zone in ("Main Deck", "Discard"):
        what = step.what
        if what == Selector("a", what.type, name_contains=what.name_contains):
            found = _a(_kind(what.type))
            if what.name_contains is not None:
                found += f' with "{what.name_contains}" in its name'
            return f"search your {step.zone} for {found} and put it into your Inventory"
    if isinstance(step, Reveal):
        what = step.what
        if what == Selector("a", what.type, owner="you", zone="Inventory"):
            return f"reveal {_a(_kind(what.type))} from your Inventory"
    if isinstance(step, Freeze):
        return f"freeze {_neopet(step.target)}"
    if isinstance(step, Negate) and step.target == Selector("target", step.target.type,
                                                            zone="queue"):
        return f"negate target {_kind(step.target.type)} in the queue"
    if isinstance(step, Negate) and step.target.type == "Neopet":
        return f"negate the abilities of {_neopet(step.target)}"
    if isinstance(step, Transform) and step.into is None:
        return "transform your Neopet"
    if isinstance(step, Attach) and step.to == Selector("the", "Neopet", owner="you") \
            and step.what.zone in ("Inventory", "Discard") \
            and step.what == Selector("a", "Codestone", owner="you", zone=step.what.zone):
        return f"attach a Codestone from your {step.what.zone} to your Neopet"
    if isinstance(step, Modify):
        delta = step.delta
        if isinstance(delta, int) and delta < 0:
            change = f"-{-delta}"
        else:
            change = f"+{_digits(delta)}"
        return f"{_neopet(step.target)} gets {change} {step.stat}{_duration(step.duration)}"
    if isinstance(step, Roll) and step.player in ("you", "opponent"):
        dice = f"a {step.die}" if step.count == 1 else f"{_count(step.count)} {step.die}"
        if isinstance(step.count, Var):
            raise RenderError("a roll needs a fixed number of dice")
        return f"{_verb(step.player, 'roll', 'rolls')} {dice}"
    if isinstance(step, Reroll) and step.player == "you" and isinstance(step.amount, int):
        return f"you may reroll up to {_count(step.amount)} of your dice"
    if isinstance(step, Abandon):
        return "abandon your Neopet"
    if isinstance(step, Prohibit):
        return f"{_subject(step.subject)} can't {_action(step.action)}{_duration(step.duration)}"
    if isinstance(step, Permit):
        if step.action == "play an additional card" \
                and step.subject == Selector("the", "player", owner="you"):
            if step.duration is None:
                return "you may play an additional card"
            if step.duration == Duration("this_phase"):
                return "you may play an additional card this Preparation Phase"
        else:
            return f"{_subject(step.subject)} can {_action(step.action)}{_duration(step.duration)}"
    if isinstance(step, Immune) and step.to in ("frozen", "damage"):
        return f"{_neopet(step.target)} is immune to {step.to}{_duration(step.duration)}"
    if isinstance(step, Shuffle) and step.player == "you" and step.zone == "Main Deck":
        return "shuffle your Main Deck"
    if isinstance(step, StayInPlay):
        return "this card stays in play"
    if isinstance(step, Delay):
        when = {"end_of_round": "the round", "end_of_turn": "this turn"}.get(step.when)
        if when is not None:
            return f"at the end of {when}, {_steps(step.effect)}"
    if isinstance(step, If) and not step.otherwise:
        return f"if {_condition(step.condition)}, {_steps(step.then)}"
    if isinstance(step, May) and step.player == "you":
        return f"you may {_steps(step.steps)}"
    if isinstance(step, Unknown):
        return step.text.rstrip(".")
    raise RenderError(f"no wording for the step {step!r}")


def _steps(steps: tuple[Step, ...]) -> str:
    """Steps joined by ``and`` inside one sentence."""
    if not steps:
        raise RenderError("an empty list of steps has no wording")
    return " and ".join(_step(s) for s in steps)


def _effect(steps: tuple[Step, ...], *, first_small: bool = False) -> str:
    """Sentences, one step each; the first one in small letters after ``,`` or ``;``."""
    if not steps:
        raise RenderError("an empty effect has no wording")
    sentences = [_step(s) + "." for s in steps]
    if not first_small:
        sentences[0] = _cap(sentences[0])
    return " ".join([sentences[0]] + [_cap(s) for s in sentences[1:]])


_TIMINGS = {
    "opponent_turn": "during your opponent's turn",
    "your_turn": "during your turn",
    "battle_phase": "during a Battle Phase",
    "after_roll": "after dice are rolled",
}


def _ability(ability: Ability) -> str:
    """One ability as one line."""
    if isinstance(ability, Spell):
        if ability.cost:
            return f"{_cap(_steps(ability.cost))}; {_effect(ability.effect, first_small=True)}"
        return _effect(ability.effect)
    if isinstance(ability, Activated):
        line = f"{_steps(ability.cost)}; {_effect(ability.effect, first_small=True)}"
        return f"Alternatively, {line}" if ability.alternative else _cap(line)
    if isinstance(ability, Triggered):
        return f"{_cap(_trigger(ability.trigger))}, {_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Passive):
        if ability.condition is None:
            return _effect(ability.effect)
        return f"While {_condition(ability.condition)}, " \
               f"{_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Replacement):
        return f"If {_replaced(ability.event)}, {_steps(ability.effect)} instead."
    if isinstance(ability, Conditional):
        parts = ["Play only"]
        if ability.timing is not None:
            if ability.timing not in _TIMINGS:
                raise RenderError(f"no wording for the timing {ability.timing!r}")
            parts.append(_TIMINGS[ability.timing])
        if ability.condition is not None:
            parts.append(f"if {_condition(ability.condition)}")
        if len(parts) == 1:
            raise RenderError("a Conditional needs a timing or a condition")
        return " ".join(parts) + "."
    if isinstance(ability, Keyword):
        if ability.name == "map_piece" and ability.argument:
            return f"This card can be collected as a Map Piece of {ability.argument}."
        if ability.name == "rainbow_pool" and ability.argument is None:
            return "This card begins the game in your Rainbow Pool."
    raise RenderError(f"no wording for the ability {ability!r}")


def render(tree: CardText, game: str = "neopets") -> str:
    """The canonical text of ``tree`` in ``game``'s templates, one ability per line.

    Raises :class:`RenderError` (a ValueError) for a node no template expresses.
    """
    from grammar.parser import grammar_of

    spec = grammar_of(game)
    if spec.render is not None:
        return spec.render(tree)
    return "\n".join(_ability(a) for a in tree.abilities)
