"""Atheris harness: card text of every game through the strict and the lenient parser.

Run it for as long as you like (libFuzzer options after the script)::

    python tests/fuzz/fuzz_cards.py -atheris_runs=200000
    python tests/fuzz/fuzz_cards.py corpus_dir/ -max_total_time=600

The first input byte picks the game and the card type; the rest is the text. The strict
parser may only refuse a text with :class:`~grammar.parser.CardTextError` naming a line
and a column; the lenient parser may only refuse an over-long text. Anything else is a
crash that libFuzzer reports with the input that caused it.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["grammar"]):
    from grammar.parser import GAMES, MAX_TEXT_LENGTH, CardTextError, grammar_of, parse, parse_lenient

GAME_IDS = sorted(GAMES)
TYPES = {game: sorted(grammar_of(game).card_types or ()) for game in GAME_IDS}


def one_input(data: bytes) -> None:
    """Parse one fuzzed card text; raise only for behaviour the parsers must never show."""
    if not data:
        return
    game = GAME_IDS[data[0] % len(GAME_IDS)]
    types = TYPES[game]
    card_type = types[(data[0] // len(GAME_IDS)) % len(types)] if types and data[0] >= 128 else None
    text = data[1:].decode("utf-8", errors="replace")
    try:
        parse(text, game, card_type=card_type)
    except CardTextError as error:
        if error.line < 1 or error.column < 1 or not error.reason:
            raise AssertionError(f"an error without a place or a reason: {error!r}") from None
    try:
        parse_lenient(text, game, card_type=card_type)
    except CardTextError:
        if len(text) <= MAX_TEXT_LENGTH:
            raise


def main(argv: list[str]) -> None:
    atheris.Setup(argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
