"""The lexer and parse loop of :mod:`grammar.lexer` decide exactly as plain Lark does.

Every game's parser is built with the plug-ins of ``grammar/lexer.py``; here each is
set beside plain Lark built from the same grammar, cache and tree builder, and both
read every shipped and real card text (and the card files the replays name), then
texts mutated by hypothesis. The trees (as msgspec JSON), the ``CardTextError`` of
:func:`~grammar.parser.parse` (reason, line, column, expected words), Lark's own
exceptions and the token streams must be the same. Nothing here measures speed.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import Scanner

import grammar.parser as gp
from grammar import lexer as fast
from grammar.ast import to_json
from grammar.parser import GAMES, CardTextError, grammar_of, parse, parse_lenient
from spec.core.cards import CardDatabase

ROOT = Path(__file__).resolve().parents[1]
SHARED_CARDS = ROOT.parent / "shared" / "cards"


# ------------------------------------------------------------------ the texts


def _kind(game: str, card_type: Any) -> str | None:
    """A card type the game's parser accepts, else ``None`` (as ``arbiter bench`` does)."""
    known = grammar_of(game).card_types
    return card_type if isinstance(card_type, str) and (known is None or card_type in known) else None


def _pool_texts(game: str, records: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """(text, card type) of card-pool records."""
    spec = grammar_of(game)
    return [(spec.pool_text(r), _kind(game, r.get("type"))) for r in records if spec.pool_text(r)]


def _card_file_texts(game: str, path: Path) -> list[tuple[str, str | None]]:
    """(text, card type) of a card file: our TOML, or a JSON Lines card pool."""
    if path.suffix == ".toml":
        return [(c.text, _kind(game, c.type)) for c in CardDatabase.load(path, game) if c.text]
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return _pool_texts(game, records)


def _replay_texts(game: str) -> list[tuple[str, str | None]]:
    """(text, card type) of the card files (or inline cards) the game's replays name."""
    out: list[tuple[str, str | None]] = []
    seen: set[Path] = set()
    for replay in sorted((ROOT / "replays" / game).rglob("*.jsonl")):
        with replay.open(encoding="utf-8") as handle:
            try:
                header = json.loads(handle.readline())
            except json.JSONDecodeError:
                continue
        source = header.get("cards") if isinstance(header, dict) else None
        if isinstance(source, list):
            out.extend(_pool_texts(game, [r for r in source if isinstance(r, dict)]))
            continue
        if not isinstance(source, str):
            continue
        prefix = f"{game}/"
        if source.startswith(prefix) and "/" not in source[len(prefix):]:
            path = ROOT / "spec" / game / "cards" / f"{source[len(prefix):]}.toml"
        else:
            path = (replay.parent / source).resolve()
        if path not in seen and path.is_file():
            seen.add(path)
            out.extend(_card_file_texts(game, path))
    return out


@cache
def corpus(game: str) -> tuple[tuple[str, str | None], ...]:
    """Every shipped, real and replay card text of ``game`` (no duplicates), with its card type."""
    found: list[tuple[str, str | None]] = []
    for path in sorted((ROOT / "spec" / game / "cards").glob("*.toml")):
        found.extend(_card_file_texts(game, path))
    pool = SHARED_CARDS / f"{game}.dev.jsonl"
    if pool.exists():
        found.extend(_card_file_texts(game, pool))
    found.extend(_replay_texts(game))
    return tuple(dict.fromkeys(found))


@cache
def corpus_lines(game: str) -> tuple[str, ...]:
    """Every ability line of the corpus, and every sentence of those lines."""
    spec = grammar_of(game)
    lines: dict[str, None] = {}
    for text, _kind_ in corpus(game):
        for _number, line in gp._split(text, spec):
            lines[line] = None
            for sentence in gp._SENTENCE_END.split(line.strip()):
                if sentence:
                    lines[sentence] = None
    return tuple(lines)


# ------------------------------------------------------------------ the two parsers


@cache
def plain_parser(game: str) -> Lark:
    """Lark as it comes: the same grammar, cache and tree builder, without the plug-ins."""
    return gp._build(game, gp._cache_path(game), plain=True)


@cache
def tree_parsers(game: str) -> tuple[Lark, Lark]:
    """(with the plug-ins, plain) parsers of ``game`` that build Lark trees (tokens kept)."""

    def build(plugins: dict[str, type]) -> Lark:
        return Lark.open(
            str(gp._GRAMMAR_DIR / f"{game}.lark"),
            parser="lalr",
            lexer="contextual",
            cache=gp._cache_path(game),
            propagate_positions=False,
            maybe_placeholders=False,
            _plugins=plugins,
        )

    return build(fast.plugins()), build({})


@contextmanager
def plain_lark(game: str) -> Iterator[None]:
    """Within the block, :mod:`grammar.parser` reads ``game`` with plain Lark."""
    saved = gp._PARSERS.get(game)
    gp._PARSERS[game] = plain_parser(game)
    try:
        yield
    finally:
        if saved is None:
            gp._PARSERS.pop(game, None)
        else:
            gp._PARSERS[game] = saved


def _card_outcome(read: Callable[..., Any], text: str, game: str, card_type: str | None) -> tuple[Any, ...]:
    """The tree (JSON) or the CardTextError of ``read(text, game, card_type)``."""
    try:
        return ("tree", to_json(read(text, game, card_type)))
    except CardTextError as error:
        return ("error", error.reason, error.line, error.column, error.text, tuple(error.expected))


def _token(token: Token) -> tuple[Any, ...]:
    """Every field of a token."""
    return (
        type(token).__name__, token.type, str(token), token.value, token.start_pos, token.line,
        token.column, token.end_line, token.end_column, token.end_pos,
    )


def _lark_error(error: UnexpectedInput) -> tuple[Any, ...]:
    """What a Lark exception says: class, position, expected terminals, token, what fits."""
    found: tuple[Any, ...] = (type(error).__name__, error.line, error.column, error.pos_in_stream)
    if isinstance(error, UnexpectedToken):
        accepts = error.interactive_parser.accepts() if error.interactive_parser else None
        found += (sorted(error.expected), _token(error.token), sorted(accepts or ()))
    if isinstance(error, UnexpectedCharacters):
        found += (sorted(error.allowed or ()), error.char)
    return found


def _lark_outcome(parser: Lark, line: str) -> tuple[Any, ...]:
    """``parser.parse(line)`` as JSON, or its exception."""
    try:
        return ("tree", msgspec.json.encode(parser.parse(line)))
    except UnexpectedInput as error:
        return ("error", *_lark_error(error))


def _shape(node: Any) -> Any:
    """A Lark tree with every token field spelled out."""
    if isinstance(node, Tree):
        return (str(node.data), [_shape(child) for child in node.children])
    if isinstance(node, Token):
        return _token(node)
    return ("value", repr(node))


def _tree_outcome(parser: Lark, line: str) -> tuple[Any, ...]:
    """The Lark tree of ``line`` (tokens spelled out), or the exception."""
    try:
        return ("tree", _shape(parser.parse(line)))
    except UnexpectedInput as error:
        return ("error", *_lark_error(error))


def _token_stream(parser: Lark, line: str) -> list[tuple[Any, ...]]:
    """The tokens Lark's own parser takes from the contextual lexer, then how it stops."""
    interactive = parser.parse_interactive(line)
    out: list[tuple[Any, ...]] = []
    try:
        for token in interactive.iter_parse():
            out.append(_token(token))
        out.append(("accepts", sorted(interactive.accepts())))
    except UnexpectedInput as error:
        out.append(("error", *_lark_error(error)))
    return out


def assert_same_card_text(game: str, text: str, card_type: str | None) -> None:
    """``parse`` and ``parse_lenient`` give the same with the plug-ins as with plain Lark."""
    ours = [_card_outcome(read, text, game, card_type) for read in (parse, parse_lenient)]
    with plain_lark(game):
        theirs = [_card_outcome(read, text, game, card_type) for read in (parse, parse_lenient)]
    assert ours == theirs, text


def assert_same_line(game: str, line: str) -> None:
    """One line: the same result or exception, trees, tokens and ``reader`` answer."""
    ours, theirs = gp.get_parser(game), plain_parser(game)
    expected = _lark_outcome(theirs, line)
    assert _lark_outcome(ours, line) == expected, line
    read = fast.reader(ours)(line)
    assert (read is fast.NO_PARSE) == (expected[0] == "error"), line
    if read is not fast.NO_PARSE:
        assert msgspec.json.encode(read) == expected[1], line
    with_trees, plain_trees = tree_parsers(game)
    assert _tree_outcome(with_trees, line) == _tree_outcome(plain_trees, line), line
    assert _token_stream(ours, line) == _token_stream(theirs, line), line


# ------------------------------------------------------------------ the corpus


def test_the_parsers_carry_the_plug_ins() -> None:
    for game in GAMES:
        frontend = gp.get_parser(game).parser
        assert isinstance(frontend.parser, fast.FastLALRParser)
        assert isinstance(frontend.lexer, fast.DispatchContextualLexer)
        assert not isinstance(plain_parser(game).parser.parser, fast.FastLALRParser)


def test_fresh_and_cached_builds_carry_the_plug_ins(tmp_path: Path) -> None:
    cache_file = str(tmp_path / "neopets.cache")
    built = gp._build("neopets", cache_file)  # no cache file yet: built, then saved
    loaded = gp._build("neopets", cache_file)  # from the cache file
    for parser in (built, loaded, gp._build("neopets", False)):
        assert isinstance(parser.parser.parser, fast.FastLALRParser)
        assert to_json(parse("Draw a card.")) == to_json(gp.CardText((parser.parse("Draw a card."),)))


@pytest.mark.parametrize("game", GAMES)
def test_every_card_text_reads_the_same(game: str) -> None:
    texts = corpus(game)
    assert texts, f"no card texts for {game}"
    for text, card_type in texts:
        assert_same_card_text(game, text, card_type)


@pytest.mark.parametrize("game", GAMES)
def test_every_line_reads_and_lexes_the_same(game: str) -> None:
    for line in corpus_lines(game):
        assert_same_line(game, line)


@pytest.mark.parametrize("game", GAMES)
def test_every_card_text_reads_the_same_for_every_card_type(game: str) -> None:
    known = grammar_of(game).card_types
    kinds: list[str | None] = [None, *sorted(known)] if known is not None else [None, "Monster", "Spell"]
    for text, _card_type in corpus(game)[:40]:
        for kind in kinds:
            assert_same_card_text(game, text, kind)


# ------------------------------------------------------------------ mutated texts


_WORD = re.compile(r"\S+")
_ODD_CHARS = st.sampled_from(list(" .,;:'\"-+()[]%\n\t0123456789AaZz") + ["é", "’", "ß", "K", "ſ", "İ", "中"])


@st.composite
def mutated(draw: st.DrawFn, game: str) -> str:
    """A corpus text with words dropped, swapped or doubled and characters put in."""
    texts = corpus(game)
    text = draw(st.sampled_from(texts))[0]
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        words = _WORD.findall(text)
        how = draw(st.sampled_from(["drop", "swap", "double", "insert", "case"]))
        if how == "insert" or not words:
            at = draw(st.integers(min_value=0, max_value=len(text)))
            text = text[:at] + draw(_ODD_CHARS) + text[at:]
            continue
        i = draw(st.integers(min_value=0, max_value=len(words) - 1))
        j = draw(st.integers(min_value=0, max_value=len(words) - 1))
        if how == "drop":
            del words[i]
        elif how == "swap":
            words[i], words[j] = words[j], words[i]
        elif how == "double":
            words.insert(i, words[i])
        else:
            words[i] = words[i].swapcase()
        text = " ".join(words)
    return text


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_texts_read_the_same(game: str, data: st.DataObject) -> None:
    text = data.draw(mutated(game))
    known = grammar_of(game).card_types
    card_type = data.draw(st.sampled_from([None, *sorted(known)])) if known else None
    assert_same_card_text(game, text, card_type)
    for line in text.split("\n"):
        if line.strip():
            assert_same_line(game, line)


# ------------------------------------------------------------------ the pieces


def test_first_chars_of_plain_patterns() -> None:
    def chars(regexp: str) -> str:
        return "".join(sorted(chr(c) for c in fast.first_chars(regexp)))

    assert chars("draw") == "d"
    assert chars("(?i:as long as)") == "Aa"
    assert chars(",? ?regardless") == " ,r"
    assert chars("(?:,? (?:and|or)|,)(?= (?:special))") == " ,"
    assert chars(r"when(?= (?:defending|attacking)\b)") == "w"
    assert chars("[0-9]{1,3}(?:,[0-9]{3})+") == "0123456789"
    assert chars("(?i:k)") == "Kk"  # the Kelvin sign is not ASCII: full alternation there
    assert fast.first_chars("a?") == frozenset(range(fast.ASCII))  # may match empty
    assert fast.first_chars(r"(a)\1") == frozenset({ord("a")})
    assert fast.first_chars(r"(?(1)a|b)") == frozenset(range(fast.ASCII))  # not read: anything
    negated = fast.first_chars(r"[^\s:.]x")
    assert ord(":") not in negated and ord(" ") not in negated and ord("\n") not in negated
    assert {ord("a"), ord("Z"), 0, ord("~")} <= negated


def test_second_chars_of_space_first_patterns() -> None:
    def chars(regexp: str) -> str:
        return "".join(sorted(chr(c) for c in fast.second_chars(regexp, ord(" "))))

    assert chars(",? ?regardless of") == "r"
    assert chars("(?:,? (?:and|or)|,)(?= (?:special))") == "ao"
    assert chars(" +x") == " x"
    assert chars(" {2,3}x") == " "
    assert chars("(?: a|b)*c") == "a"
    assert chars("(?i: ab)") == "Aa"
    assert chars("x ") == ""  # no match begins with a space
    assert fast.second_chars(" ", ord(" ")) == frozenset(range(fast.ASCII))  # the space alone: anything may follow
    assert fast.second_chars(r"(?(1)a|b)", ord(" ")) == frozenset(range(fast.ASCII))  # not read: anything


@pytest.mark.parametrize("game", GAMES)
def test_second_chars_never_miss_a_match(game: str) -> None:
    """Wherever a terminal matches the corpus from a space, the character after it is in its set."""
    parser = gp.get_parser(game)
    flags = parser.lexer_conf.g_regex_flags
    lines = [line.replace(" ", "  ") for line in corpus_lines(game)[:150]] + list(corpus_lines(game)[:150])
    for terminal in parser.terminals:
        regexp = terminal.pattern.to_regexp()
        pattern = re.compile(regexp, flags)
        if ord(" ") not in fast.first_chars(regexp, flags):
            continue
        after = fast.second_chars(regexp, ord(" "), flags)
        for line in lines:
            for pos in range(len(line) - 1):
                if line[pos] == " " and ord(line[pos + 1]) < fast.ASCII and pattern.match(line, pos):
                    assert ord(line[pos + 1]) in after, (terminal.name, line, pos)


@pytest.mark.parametrize("game", GAMES)
def test_first_chars_never_miss_a_match(game: str) -> None:
    """Wherever a terminal matches the corpus, its first character is in its set."""
    parser = gp.get_parser(game)
    flags = parser.lexer_conf.g_regex_flags
    lines = corpus_lines(game)[:150]
    for terminal in parser.terminals:
        regexp = terminal.pattern.to_regexp()
        pattern = re.compile(regexp, flags)
        starts = fast.first_chars(regexp, flags)
        for line in lines:
            for pos in range(len(line)):
                if ord(line[pos]) < fast.ASCII and pattern.match(line, pos):
                    assert ord(line[pos]) in starts, (terminal.name, line, pos)


@pytest.mark.parametrize("game", GAMES)
def test_dispatch_scanners_match_as_lark_scanners(game: str) -> None:
    """Each state's scanner gives Lark's (text, terminal) at every position tried."""
    from lark.utils import TextSlice

    lexer = gp.get_parser(game).parser.lexer
    samples = [*corpus_lines(game)[:6], "".join(chr(c) for c in range(32, 127)), "Ünïcödé ſK x’y"]
    lexers = {id(state_lexer): state_lexer for state_lexer in lexer.lexers.values()}
    lexers[id(lexer.root_lexer)] = lexer.root_lexer
    for state_lexer in lexers.values():
        ours = state_lexer.scanner
        assert isinstance(ours, fast.DispatchScanner)
        theirs = Scanner(ours.terminals, ours.g_regex_flags, ours.re_, ours.use_bytes)
        for sample in samples:
            text = TextSlice(sample, 0, len(sample))
            for pos in range(len(sample)):
                assert ours.match(text, pos) == theirs.match(text, pos), (sample, pos)


def test_keyword_retyping_follows_lark() -> None:
    """Case-insensitive keyword tables give the terminal Lark's "unless" callback gives."""
    from lark.lexer import UnlessCallback

    lexer = gp.get_parser("battle_monsters").parser.lexer
    tried = 0
    for state_lexer in {id(x): x for x in lexer.lexers.values()}.values():
        assert state_lexer.scanner  # building the scanner sets the lexer's callbacks
        for name, callback in state_lexer.callback.items():
            if not isinstance(callback, UnlessCallback):
                continue
            table = fast._retyping(callback)
            words = [t.pattern.value for t in callback.scanner.terminals]
            for word in {*words, *(w.upper() for w in words), *(w.title() for w in words), "zzz", "ſo", "KEY"}:
                expected = callback(Token(name, word)).type
                assert table.get(word, name) == expected, (name, word)
                tried += 1
    assert tried


def test_reader_of_a_plain_parser_catches_syntax_errors() -> None:
    read = fast.reader(plain_parser("neopets"))
    assert read("Draw a card.") == gp.get_parser("neopets").parse("Draw a card.")
    assert read("Draw a banana.") is fast.NO_PARSE
    assert fast.reader(gp.get_parser("neopets"))("Draw a banana.") is fast.NO_PARSE


def test_multi_line_text_goes_to_lark_and_reads_the_same() -> None:
    parser = gp.get_parser("neopets")
    for text in ("Draw a card.\nDiscard a card.", "Draw a card.\n"):
        assert _lark_outcome(parser, text) == _lark_outcome(plain_parser("neopets"), text)


# ------------------------------------------------------------------ corner cases


_TOY_GRAMMAR = r"""
start: greeting? item+ tail
greeting: "hello"i ","?
?item: pair | word | number | empty_then_word
pair: "(" word "," word ")"
word: NAME
number: NUMBER
empty_then_word: nothing "~" NAME
nothing:
tail: "." | "!" -> shout
NAME: /[a-zé][a-zé-]*/i
NUMBER: /[0-9]+/
KEYWORD_AND: "and"
%ignore " "
%ignore /\t+/
"""


class _Toy:
    """A tree builder for the toy grammar; ``word`` refuses "bad" the way Lark errors do."""

    def __init__(self, with_token_callback: bool = False) -> None:
        if with_token_callback:
            self.NUMBER = lambda token: int(token)  # a callback on shifted NUMBER tokens

    def word(self, children: list[Any]) -> str:
        if children[0] == "bad":
            raise UnexpectedCharacters("bad", 0, 1, 1)
        return f"w:{children[0]}:{children[0].type}:{children[0].column}"

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        return Tree(data, children)


def _toy(plugins: dict[str, type], **options: Any) -> Lark:
    from lark import Transformer

    builder = type("ToyBuilder", (_Toy, Transformer), {})
    return Lark(_TOY_GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False,
                transformer=builder(options.pop("with_token_callback", False)), _plugins=plugins, **options)


def _assert_read_alike(ours: Any, theirs: Any, texts: list[str]) -> None:
    """Our plug-ins and plain Lark give each text the same outcome, tree shape and tokens."""
    for text in texts:
        expected = _tree_outcome(theirs, text)
        assert _tree_outcome(ours, text) == expected, text
        read = fast.reader(ours)(text)
        assert (read is fast.NO_PARSE) == (expected[0] == "error"), text
        if read is not fast.NO_PARSE:
            assert ("tree", _shape(read)) == expected, text
        assert _token_stream(ours, text) == _token_stream(theirs, text), text


@pytest.mark.parametrize("options", [
    {}, {"with_token_callback": True}, {"g_regex_flags": re.IGNORECASE},
    {"lexer_callbacks": {"NAME": lambda token: token}},
])
def test_toy_grammar_reads_the_same(options: dict[str, Any]) -> None:
    ours, theirs = _toy(fast.plugins(), **dict(options)), _toy({}, **dict(options))
    texts = [
        "a b.", "Hello, a (b, c) 12 ~ d!", "HELLO a-b and .", "a bad .", "a B .", "a\tb .",
        "a\nb .", "a é ß .", "", "a", "(a, b", "a K .", "~", "hello hello a.",
    ]
    _assert_read_alike(ours, theirs, texts)


def test_expected_words_do_not_depend_on_the_hash_seed() -> None:
    """'Both' and 'both' sort equal ignoring case: the error must still list them in one order.

    Two interpreters with different string hash seeds parse the same broken text;
    their messages must be identical (reports are compared byte for byte).
    """
    import subprocess
    import sys

    code = ("from grammar.parser import parse, CardTextError\n"
            "try:\n    parse('Add one rank 2 golem card', 'ttcg')\n"
            "except CardTextError as e:\n    print(e)\n")
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**__import__("os").environ, "PYTHONHASHSEED": seed})
        assert "the word 'Both', the word 'both'" in done.stdout
        outputs.add(done.stdout)
    assert len(outputs) == 1


_WORDS_GRAMMAR = r"""
start: item+
item: _is WORD _list                    -> listed
    | WORD                              -> word
    | NAME _SEP NAME                    -> pair
    | "big"i _SEP WORD                  -> big
_is: "is"i | "are"i | _be
_be: "be"i
_list: "of"i | "of"i "the"i
_SEP: / and/
NAME: /[A-Z][a-z]*/
WORD: /[a-z]+/
%ignore " "
"""
"""Helper rules of words alone (one inside another), case-insensitive keywords that a
wider terminal also matches, and a terminal that begins with a space after NAME and
after "big" (a WORD re-typed)."""


def _words_parser(plugins: dict[str, type]) -> Lark:
    from lark import Transformer

    class WordsBuilder(Transformer):  # type: ignore[type-arg]
        def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
            return Tree(data, children)

    return Lark(_WORDS_GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False,
                transformer=WordsBuilder(), _plugins=plugins)


def test_helpers_of_words_and_trailing_spaces_read_the_same() -> None:
    """Childless ``_rule`` trees are not built, spaces go with the tokens that may take them: same results."""
    from lark.parsers.lalr_analysis import Shift

    ours, theirs = _words_parser(fast.plugins()), _words_parser({})
    lalr = ours.parser.parser
    assert isinstance(lalr, fast.FastLALRParser)
    childless = fast._childless_helpers(lalr.parser.callbacks, {"start"})
    assert {"_is", "_be", "_list"} <= childless
    assert not any(name.startswith("__") for name in childless)  # item+ keeps its children
    columns: dict[str, dict[Any, Any]] = {}
    for state, row in lalr._parse_table.states.items():
        for name, (action, arg) in row.items():
            columns.setdefault(str(name), {})[state] = arg if action is Shift else None
    takers = fast._space_takers(ours.parser.lexer, columns)
    assert takers["WORD"] == frozenset()  # spaces after a WORD are always skipped
    assert takers["NAME"] == {ord("a")}  # " and" may follow a NAME: a space before an "a" stays
    retyping = [sub for sub in ours.parser.lexer.lexers.values() if sub.scanner and "WORD" in sub.callback]
    assert retyping  # building a scanner sets its lexer's callbacks
    for sub in retyping:  # ... or a WORD re-typed to "big"
        assert fast._retyped_takers(sub, takers).get("WORD") == {ord("a")}
    texts = [
        "is cat of the dog Bob and Al are x of", "Bob  and Al", "Bob and  Al", "IS cat OF",
        "be cat of the", "bob", "Bob and", "Al and Bob is", "  are  cat  of  the  ", "Bob andAl",
        "is of of", "the", "Bob Al", "dog  Bob and Al  ", "Is cat Of The the",
        "big and cat", "big  and  cat dog", "cat big and x", "big cat", "Big and cat",
        "Bob   and Al", "Bob  andAl", "Bob  anD Al", "Bob \u00e9 Al", "big  a cat", "big  \u00e9", "Bob ", "Bob  a",
    ]
    _assert_read_alike(ours, theirs, texts)


class _TextAndTokens:
    """A tree builder that calls each callback of ``builder`` twice: with the children as Lark
    gives them (Tokens) and with each Token replaced by its plain string, and notes any pair
    of values that differ (see ``test_builders_that_read_tokens_as_text_read_strings_the_same``).
    """

    def __init__(self, builder: Any) -> None:
        self.builder = builder
        self.differences: list[tuple[str, Any, Any]] = []
        self.calls_with_tokens = 0

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.builder, name)
        if name.startswith("__") or not callable(method):
            return method

        def both(children: list[Any]) -> Any:
            texts = [str(child) if isinstance(child, Token) else child for child in children]
            if texts == children and all(type(a) is type(b) for a, b in zip(texts, children)):
                return method(children)
            self.calls_with_tokens += 1
            with_tokens = method(copy.deepcopy(children))
            with_texts = method(texts)
            seen_tokens, seen_texts = with_tokens, with_texts
            if callable(seen_tokens) and callable(seen_texts):  # a predicate (Battle Monsters): what it gives
                seen_tokens, seen_texts = seen_tokens(None), seen_texts(None)
            if seen_tokens != seen_texts or repr(seen_tokens) != repr(seen_texts):
                self.differences.append((name, seen_tokens, seen_texts))
            return with_texts

        return both


@pytest.mark.parametrize("game", [game for game in GAMES if grammar_of(game).builder.tokens_as_text])
def test_builders_that_read_tokens_as_text_read_strings_the_same(game: str) -> None:
    """A builder with ``tokens_as_text`` (the fast loop hands it plain strings, not Tokens)
    gives, for every line of the corpus, the same value from the strings as from Lark's Tokens."""
    twice = _TextAndTokens(grammar_of(game).builder())
    parser = Lark.open(
        str(gp._GRAMMAR_DIR / f"{game}.lark"), parser="lalr", lexer="contextual", transformer=twice,
        propagate_positions=False, maybe_placeholders=False,
    )
    for line in corpus_lines(game):
        try:
            parser.parse(line)
        except UnexpectedInput:
            continue
    assert twice.calls_with_tokens > 0
    assert twice.differences == []


@settings(max_examples=300, deadline=None)
@given(stops=st.frozensets(st.integers(0, fast.ASCII - 1), min_size=1, max_size=8),
       text=st.text(alphabet=st.sampled_from([" ", " ", "a", "r", "K", "\u212a", "\u017f", "é", "\U0001f600", "\n"]),
                    max_size=12))
def test_spaces_taken_along_stop_before_stops_and_non_ascii(stops: frozenset[int], text: str) -> None:
    """The run of spaces a token takes along ends before the first space followed by a
    stop or a non-ASCII character; a space at the very end is taken."""
    run = re.compile(fast._spaces_before(stops))
    taken = 0
    while taken < len(text) and text[taken] == " ":
        after = text[taken + 1] if taken + 1 < len(text) else None
        if after is not None and (ord(after) in stops or ord(after) >= fast.ASCII):
            break
        taken += 1
    assert run.match(text).end() == taken


def test_spaces_taken_along_spell_no_range_to_the_last_code_point() -> None:
    """The non-ASCII stop is the complement of ASCII, not a range to U+10FFFF, which ``re``
    takes milliseconds to compile once per branch of every alternation a state's lexer
    builds (a cold start builds hundreds)."""
    assert "\\U" not in fast._spaces_before(frozenset({ord("r")}))


def test_first_child_callbacks_become_pass_throughs() -> None:
    """A :func:`~grammar.lexer.first_child` callback that surely gets a child is not called: its first child is the value.

    The loop reads a ``None`` callback as "take the value at ``pick``", so ``pick`` must
    be the offset of the first child the callback would get; with no child the
    callback stays (it raises, as under Lark's own parser).
    """
    from lark.parse_tree_builder import ChildFilterLALR_NoPlaceholders

    bound = fast.first_child.__get__(object())
    goto: dict[Any, Any] = {}
    assert type(fast._reduction(1, bound, goto)) is fast._PassOn
    whole = fast._reduction(3, bound, goto)
    assert type(whole) is fast._Reduce and whole.callback is None and whole.pick == -2
    kept = fast._reduction(3, ChildFilterLALR_NoPlaceholders([(1, False), (2, False)], bound), goto)
    assert type(kept) is fast._Reduce and kept.callback is None and kept.pick == -1
    lone = fast._reduction(2, ChildFilterLALR_NoPlaceholders([(1, False)], bound), goto)
    assert type(lone) is fast._Reduce and lone.callback is None and lone.pick == 0
    none = fast._reduction(1, ChildFilterLALR_NoPlaceholders([], bound), goto)
    assert type(none) is fast._Reduce and none.callback is bound
    inlined = fast._reduction(2, ChildFilterLALR_NoPlaceholders([(0, True), (1, False)], bound), goto)
    assert type(inlined) is fast._Reduce and inlined.callback is bound
    assert [fast.first_child(None, ["a", "b"])] == ["a"]


def test_helper_rules_of_a_marked_builder_make_their_trees_directly() -> None:
    """Lark's default callback of a ``_rule`` or ``__rule`` becomes ``partial(Tree, name)`` when ``__default__`` says so.

    The tree made is the one ``__default__`` makes; rules with methods of their own,
    and builders whose ``__default__`` is not marked, keep Lark's callback.
    """
    from functools import partial

    from lark import Transformer

    grammar = 'start: _pair+ word\n_pair: word word\nword: /[a-z]+/\n%ignore " "\n'

    class Marked(Transformer):  # type: ignore[type-arg]
        def word(self, children: list[Any]) -> str:
            return str(children[0])

        def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
            return Tree(data, children)

        __default__.helper_tree = Tree  # type: ignore[attr-defined]

    class Unmarked(Marked):
        def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
            return Tree(data, children)

    def made(builder: Transformer) -> dict[str, Any]:  # type: ignore[type-arg]
        parser = Lark(grammar, parser="lalr", lexer="contextual", transformer=builder)
        callbacks = parser.parser.parser.parser.callbacks
        out = {}
        for rule, callback in callbacks.items():
            inner = getattr(callback, "node_builder", callback)
            out[str(rule.origin.name)] = fast._helper_tree(inner)
        return out

    marked = made(Marked())
    helpers = {name: tree for name, tree in marked.items() if name.startswith("_")}
    assert "_pair" in helpers and any(name.startswith("__") for name in helpers)
    for name, tree in helpers.items():
        assert type(tree) is partial and tree.func is Tree and tree.args == (name,)
        assert tree(["a"]) == Tree(name, ["a"])
    assert marked["word"] is None and marked["start"] is None
    assert all(tree is None for tree in made(Unmarked()).values())
    assert getattr(gp.CoreBuilder.__default__, "helper_tree", None) is Tree
