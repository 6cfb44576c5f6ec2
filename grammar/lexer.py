"""A faster lexer and LALR loop for the card-text parsers, deciding exactly as Lark does.

Lark's contextual lexer tries, at every position, one big regular expression: the
alternation of every terminal the parser state accepts, in Lark's order of preference
(priority, then longest possible match, then longest literal, then name). Python's
regex engine walks that alternation one branch at a time, so most of a card text's
lexing time went into branches that could never match the character at hand. And
Lark's LALR driver spends, per token, several Python calls of its own.

Two plug-ins, handed to Lark through its ``_plugins`` option (so that a parser loaded
from Lark's cache gets them too), remove that waste without changing any decision:

* :class:`DispatchBasicLexer` (each state's lexer of :class:`DispatchContextualLexer`)
  keeps, for every ASCII character, the alternation of only those terminals that can
  begin with that character, in Lark's own order (:class:`DispatchScanner`). The first
  branch that matches is therefore the one Lark's full alternation would pick. Which
  characters a terminal can begin with is worked out from its parsed regular
  expression (:func:`first_chars`); whatever the analysis cannot pin down counts as
  "any ASCII character", and at a non-ASCII character the full alternation is tried,
  as Lark does.
* :class:`FastLALRParser` runs lexing, shifts and reductions in one tight loop over
  Lark's own parse table and tree-building callbacks (:meth:`FastLALRParser.reader`).
  When a text does not parse, the loop says so without building Lark's error, and
  :meth:`FastLALRParser.parse` lets Lark's own parser run again from the start, so
  every error (its class, position, expected terminals, interactive parser) is the
  one Lark raises. The loop's tables are worked out from Lark's once per parser:
  keyword re-typing is a dictionary look-up (:func:`_retyped`), a token takes the
  spaces after it along when whatever may follow skips them anyway
  (:func:`_space_takers`), helper rules of words alone build nothing
  (:func:`_childless_helpers`), ``?rule`` pass-throughs are taken with the goto
  before them (:func:`_through`), and the end of the text is fed like a token
  (:func:`_end_column`). A tree builder that reads tokens as text alone gets their
  plain strings, not Tokens (:func:`plugins`).

:func:`plugins` gives the ``_plugins`` mapping for ``Lark(...)``; :func:`reader` turns a
built parser into a function that tells a syntax error by :data:`NO_PARSE` instead of
an exception, for callers that only need to know *whether* a text parses.
``tests/test_grammar_fast.py`` holds the loop to Lark's results, errors and tokens.
"""

from __future__ import annotations

import re
import re._compiler as sre_compile
import re._constants as sre_constants
import re._parser as sre_parse
from collections.abc import Callable, Iterable
from functools import partial
from operator import itemgetter
from typing import Any, cast

from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.lexer import (
    BasicLexer,
    ContextualLexer,
    LexerThread,
    PatternStr,
    Scanner,
    TerminalDef,
    UnlessCallback,
)
from lark.parse_tree_builder import (
    ChildFilter,
    ChildFilterLALR,
    ChildFilterLALR_NoPlaceholders,
    ExpandSingleChild,
)
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_parser import LALR_Parser

__all__ = [
    "NO_PARSE",
    "DispatchBasicLexer",
    "DispatchContextualLexer",
    "DispatchScanner",
    "FastLALRParser",
    "constant",
    "first_chars",
    "first_child",
    "plugins",
    "reader",
]

ASCII = 128
"""Characters below this code point are dispatched on; the others use the full alternation."""

_ALL_ASCII: frozenset[int] = frozenset(range(ASCII))


class _Marker:
    """A named sentinel."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NO_PARSE = _Marker("NO_PARSE")
"""What a :func:`reader` returns where Lark would raise ``UnexpectedInput``."""


def constant(value: Any) -> Callable[[Any, list[Any]], Any]:
    """A tree builder's method that gives ``value`` whatever the children.

    The method carries the value along (as ``constant``, in a 1-tuple), so the parse
    loop puts the value in place without calling it (see :func:`_reduction`); Lark's
    own parser calls it and gets the same value.
    """

    def callback(self: Any, children: list[Any]) -> Any:
        return value

    callback.constant = (value,)  # type: ignore[attr-defined]
    return callback


def first_child(self: Any, children: list[Any]) -> Any:
    """A tree builder's method that gives its first child as it is.

    The parse loop knows this function: where the rule always hands it at least one
    child, the loop takes that child's value in place, with no call and no list of
    children (see :func:`_reduction`); Lark's own parser calls it and gets the same.
    """
    return children[0]


def _passes_first(callback: Any) -> bool:
    """Whether ``callback`` is (bound from) :func:`first_child`."""
    return getattr(callback, "__func__", callback) is first_child


def _helper_tree(callback: Any) -> Any:
    """``partial(tree, name)`` when ``callback`` is Lark's default callback of helper rule ``name``, else ``None``.

    A rule without a method of its own gets Lark's default callback, which hands the
    rule's name and children to the builder's ``__default__``. A builder whose
    ``__default__`` carries ``helper_tree`` (a tree class) says it answers a helper
    name (``_rule``, or Lark's own ``__rule`` for ``*`` and ``+``) with
    ``helper_tree(name, children)``; the partial makes that same tree without the two
    Python calls in between.
    """
    if type(callback) is not partial or callback.keywords or len(callback.args) != 1:
        return None
    name = callback.args[0]
    func = callback.func
    code = getattr(func, "__code__", None)
    closure = getattr(func, "__closure__", None)
    if code is None or not closure or code.co_name != "default_callback" or code.co_freevars != ("default_handler",) \
            or not str(name).startswith("_"):
        return None
    handler = closure[0].cell_contents
    tree = getattr(getattr(handler, "__func__", handler), "helper_tree", None)
    return None if tree is None else partial(tree, name)


def _constant_of(callback: Any) -> tuple[Any] | None:
    """``(value,)`` when ``callback`` is (bound from) a :func:`constant` method, else ``None``."""
    found = getattr(getattr(callback, "__func__", callback), "constant", None)
    return found if type(found) is tuple and len(found) == 1 else None


# ------------------------------------------------------------ first characters


_CHAR_OPS = {sre_constants.LITERAL, sre_constants.NOT_LITERAL, sre_constants.IN, sre_constants.ANY}
_REPEAT_OPS = {sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT}
_ZERO_WIDTH_OPS = {sre_constants.AT, sre_constants.ASSERT, sre_constants.ASSERT_NOT}


def _ascii_matched_by(node: tuple[Any, Any], flags: int) -> frozenset[int]:
    """The ASCII characters one single-character node matches, under ``flags``.

    The node is compiled on its own with the flags in force where it stands and tried
    on every ASCII character, so case folding, ``\\w``, ``\\s`` and negated sets come
    out exactly as the regex engine sees them.
    """
    state = sre_parse.State()
    state.flags = flags
    pattern = sre_compile.compile(sre_parse.SubPattern(state, [node]))
    return frozenset(code for code in range(ASCII) if pattern.match(chr(code)))


def _first_of_sequence(items: Iterable[tuple[Any, Any]], flags: int) -> tuple[frozenset[int], bool]:
    """(ASCII characters a sequence of regex nodes can begin with, whether it can match empty)."""
    found: set[int] = set()
    for node in items:
        chars, nullable = _first_of_node(node, flags)
        found |= chars
        if not nullable:
            return frozenset(found), False
    return frozenset(found), True


def _first_of_node(node: tuple[Any, Any], flags: int) -> tuple[frozenset[int], bool]:
    """(ASCII characters one regex node can begin with, whether it can match empty).

    Anything not understood here may begin with any ASCII character, which keeps the
    answer a superset of the truth.
    """
    op, arg = node
    if op is sre_constants.LITERAL and not flags & sre_constants.SRE_FLAG_IGNORECASE:
        return (frozenset({arg}) if arg < ASCII else frozenset()), False
    if op in _CHAR_OPS:
        return _ascii_matched_by(node, flags), False
    if op is sre_constants.SUBPATTERN:
        _group, add_flags, del_flags, body = arg
        return _first_of_sequence(body, (flags | add_flags) & ~del_flags)
    if op is sre_constants.BRANCH:
        found: set[int] = set()
        nullable = False
        for alternative in arg[1]:
            chars, empty = _first_of_sequence(alternative, flags)
            found |= chars
            nullable = nullable or empty
        return frozenset(found), nullable
    if op in _REPEAT_OPS:
        low, _high, body = arg
        chars, empty = _first_of_sequence(body, flags)
        return chars, empty or low == 0
    if op is sre_constants.ATOMIC_GROUP:
        return _first_of_sequence(arg, flags)
    if op in _ZERO_WIDTH_OPS:
        # Anchors and look-arounds consume nothing: the next node decides.
        return frozenset(), True
    return _ALL_ASCII, False


def first_chars(regexp: str, flags: int = 0) -> frozenset[int]:
    """The ASCII code points a match of ``regexp`` can begin with (a superset: never misses one).

    A pattern the analysis cannot read, or one that can match the empty string, may
    begin with any ASCII character.
    """
    try:
        parsed = sre_parse.parse(regexp, flags)
        chars, nullable = _first_of_sequence(parsed.data, parsed.state.flags | flags)
    except Exception:  # noqa: BLE001 - an unreadable pattern is kept in every bucket
        return _ALL_ASCII
    return _ALL_ASCII if nullable else chars


class _Unsure(Exception):
    """The analysis of :func:`second_chars` gave up on a pattern."""


_Items = list[tuple[Any, int]]
"""A sequence of regex nodes, each with the flags in force where it stands."""


def _after_first(items: _Items, code: int, depth: int = 0) -> list[_Items]:
    """What may be left of ``items`` to match once its match has begun with ``chr(code)`` (a superset).

    Each sequence returned is one way the rest of a match may go on; none means no
    match begins with that character. Look-arounds and anchors are passed over (they
    can only rule a match out), so the answer never misses a way.
    """
    if depth > 60:
        raise _Unsure
    if not items:
        return []
    (op, arg), flags = items[0]
    rest = items[1:]
    if op in _CHAR_OPS:
        return [rest] if code in _ascii_matched_by((op, arg), flags) else []
    if op is sre_constants.SUBPATTERN:
        _group, add_flags, del_flags, body = arg
        inner = (flags | add_flags) & ~del_flags
        return _after_first([(node, inner) for node in body] + rest, code, depth + 1)
    if op is sre_constants.ATOMIC_GROUP:
        return _after_first([(node, flags) for node in arg] + rest, code, depth + 1)
    if op is sre_constants.BRANCH:
        return [left for alternative in arg[1]
                for left in _after_first([(node, flags) for node in alternative] + rest, code, depth + 1)]
    if op in _REPEAT_OPS:
        low, high, body = arg
        found = _after_first(rest, code, depth + 1) if low == 0 else []
        if high != 0:
            more = high if high == sre_constants.MAXREPEAT else high - 1
            again = [((op, (max(low - 1, 0), more, body)), flags)] if more else []
            found += _after_first([(node, flags) for node in body] + again + rest, code, depth + 1)
        return found
    if op in _ZERO_WIDTH_OPS:
        return _after_first(rest, code, depth + 1)
    raise _Unsure


def second_chars(regexp: str, first: int, flags: int = 0) -> frozenset[int]:
    """The ASCII code points that can come second in a match of ``regexp`` that begins with ``chr(first)`` (a superset).

    Empty when no match begins with that character; every ASCII character when the
    analysis cannot tell, or when a match may be that one character alone (anything
    may follow it). Non-ASCII second characters are not covered: callers treat them
    as always possible.
    """
    try:
        parsed = sre_parse.parse(regexp, flags)
        found: set[int] = set()
        for left in _after_first([(node, parsed.state.flags | flags) for node in parsed.data], first):
            for node, node_flags in left:
                chars, nullable = _first_of_node(node, node_flags)
                found |= chars
                if not nullable:
                    break
            else:
                return _ALL_ASCII
    except Exception:  # noqa: BLE001 - an unreadable pattern may go on with anything
        return _ALL_ASCII
    return frozenset(found)


# ------------------------------------------------------------------- the lexer


_FIRST_CHARS: dict[tuple[str, int], frozenset[int]] = {}
_COMPILED: dict[tuple[Any, ...], tuple[re.Pattern[str], ...]] = {}
"""Alternations compiled so far, by flags and (terminal name, regexp) list: the states'
lexers of a grammar share most of theirs."""


def _first_chars_of(terminal: TerminalDef, flags: int) -> frozenset[int]:
    """:func:`first_chars` of a terminal's pattern, computed once per pattern."""
    key = (terminal.pattern.to_regexp(), flags)
    found = _FIRST_CHARS.get(key)
    if found is None:
        found = _FIRST_CHARS[key] = first_chars(*key)
    return found


class DispatchScanner(Scanner):
    """Lark's :class:`~lark.lexer.Scanner` that only tries the terminals that can match here.

    For a text position whose character has code ``c`` below :data:`ASCII`, it tries
    :meth:`bucket` ``(c)``: the terminals that can begin with that character, in the
    scanner's order, compiled on first need. Other characters use Lark's full
    alternation (``_mres``).
    """

    def __init__(self, scanner: Scanner) -> None:
        self.__dict__.update(scanner.__dict__)  # take over a built scanner, alternation and all
        dispatching = not self.use_bytes and self.re_ is re  # not bytes, not the ``regex`` module
        self._starts = [_first_chars_of(t, self.g_regex_flags) for t in self.terminals] if dispatching else None
        self._buckets: list[tuple[tuple[str, ...], tuple[re.Pattern[str], ...]] | None] = [None] * ASCII

    def bucket(self, code: int) -> tuple[tuple[str, ...], tuple[re.Pattern[str], ...]]:
        """(names, compiled alternations) of the terminals that can begin with ``chr(code)``.

        An empty tuple of alternations means nothing can match there.
        """
        found = self._buckets[code]
        if found is None:
            starts = self._starts
            if starts is None:
                chosen = list(self.terminals)
            else:
                chosen = [t for t, chars in zip(self.terminals, starts) if code in chars]
            key = (self.g_regex_flags, *((t.name, t.pattern.to_regexp()) for t in chosen))
            mres = _COMPILED.get(key)
            if mres is None:
                mres = _COMPILED[key] = tuple(self._build_mres(chosen, len(chosen))) if chosen else ()
            found = self._buckets[code] = (tuple(t.name for t in chosen), mres)
        return found

    def match(self, text: Any, pos: int) -> tuple[str, str] | None:  # type: ignore[override]
        """Lark's ``Scanner.match``: (matched text, terminal name) or ``None``."""
        string = text.text
        code = ord(string[pos]) if pos < text.end else ASCII
        for mre in self.bucket(code)[1] if code < ASCII else self._mres:
            m = mre.match(string, pos, text.end)
            if m:
                return m.group(0), m.lastgroup  # type: ignore[return-value]
        return None


class DispatchBasicLexer(BasicLexer):
    """Lark's basic lexer with a :class:`DispatchScanner` (the same tokens, found sooner)."""

    def _build_scanner(self) -> Scanner:
        return DispatchScanner(super()._build_scanner())  # Lark's also sets the "unless" callbacks


class DispatchContextualLexer(ContextualLexer):
    """Lark's contextual lexer whose per-state lexers are :class:`DispatchBasicLexer`."""

    BasicLexer = DispatchBasicLexer


# ------------------------------------------------------- the driver's lexer tables


_SKIP = _Marker("SKIP")
"""Entry of a character that can only be an ignored one-character string (a space)."""
_IGNORED = _Marker("IGNORED")
"""What a token of an ignored terminal becomes: nothing (it is dropped)."""
_NEVER = re.compile(r"(?!)")
"""Entry of a character no terminal of the state can begin with (never matches)."""


class _Alternations:
    """Several compiled alternations tried in turn (when one regex cannot hold them all)."""

    __slots__ = ("mres",)

    def __init__(self, mres: tuple[re.Pattern[str], ...]) -> None:
        self.mres = mres

    def match(self, text: str, pos: int) -> re.Match[str] | None:
        for mre in self.mres:
            m = mre.match(text, pos)
            if m:
                return m
        return None


_SPACED: dict[tuple[Any, ...], Any] = {}
"""Alternations compiled so far with the spaces after some tokens taken along."""


def _spaces_before(stops: frozenset[int] | None) -> str:
    """The regex of the run of spaces a token takes along, stopping before a space that ``stops`` (see :func:`_entry`)."""
    if stops is None:
        return ""
    if not stops:
        return " *"
    # Non-ASCII is written as the complement of ASCII: a class that spells out the range
    # up to U+10FFFF takes ``re`` some 15 ms to compile, once per branch of every
    # alternation, which a cold start (one replay, one card) paid hundreds of times. The
    # two are the same class while no global regex flag is set (the grammars set none).
    return "(?: (?![" + "".join(f"\\x{code:02x}" for code in sorted(stops)) + "]|[^\\x00-\\x7f]))*"


def _entry(
    mres: tuple[re.Pattern[str], ...], terminals: list[TerminalDef], flags: int, takers: dict[str, frozenset[int]]
) -> Any:
    """One object with ``.match(text, pos)`` for the alternation ``mres`` of ``terminals``.

    A terminal in ``takers`` (see :func:`_space_takers`) takes the run of spaces after
    its token along: its branch is followed by `` *``, or, when some terminal that may
    come next begins with a space, by spaces each followed by a character none of
    those can go on with (the ASCII characters of ``takers[name]``, and every non-ASCII
    one, stop the run). The spaces always match, so the branch that matches first,
    hence the terminal found (``lastgroup``) and its text (that group), are those of
    ``mres``; only ``end()`` moves past the spaces.
    """
    if not mres:
        return _NEVER
    if any(terminal.name in takers for terminal in terminals):
        branches = tuple(
            (terminal.name, terminal.pattern.to_regexp(), _spaces_before(takers.get(terminal.name)))
            for terminal in terminals
        )
        key = (flags, *branches)
        spaced = _SPACED.get(key)
        if spaced is None:
            pattern = "|".join(f"(?P<{name}>{regexp}){spaces}" for name, regexp, spaces in branches)
            try:
                spaced = re.compile(pattern, flags)
            except (AssertionError, OverflowError, re.error):  # too many groups for one regex: as Lark built it
                spaced = False
            _SPACED[key] = spaced
        if spaced is not False:
            return spaced
    if len(mres) == 1:
        return mres[0]
    return _Alternations(mres)


_SECOND_CHARS: dict[tuple[str, int], frozenset[int]] = {}


def _space_stops(lexer: BasicLexer) -> frozenset[int] | None:
    """Where ``lexer`` surely skips a space: ``None`` when it may not, else the ASCII characters it may not skip a space before.

    The plain " " must be ignored. A space is then skipped unless another terminal can
    begin with it: such a terminal may only match when the character after the space
    is one its match can go on with (:func:`second_chars`), so a space before any
    other ASCII character is skipped (the empty set: before any character at all).
    """
    space_ignored = False
    stops: set[int] = set()
    for terminal in lexer.terminals:
        pattern = terminal.pattern
        if terminal.name in lexer.ignore_types and isinstance(pattern, PatternStr) and not pattern.flags \
                and pattern.value == " ":
            space_ignored = True
        elif ord(" ") in _first_chars_of(terminal, lexer.g_regex_flags):
            key = (terminal.pattern.to_regexp(), lexer.g_regex_flags)
            found = _SECOND_CHARS.get(key)
            if found is None:
                found = _SECOND_CHARS[key] = second_chars(key[0], ord(" "), key[1])
            stops |= found
    if not space_ignored or stops >= _ALL_ASCII:
        return None
    return frozenset(stops)


def _space_takers(lexer: ContextualLexer, columns: dict[str, dict[Any, Any]]) -> dict[str, frozenset[int]]:
    """The terminals whose tokens may take the spaces after them along, each with where the spaces taken stop.

    After a token the parser is in a state the token's terminal is shifted into, and
    the next token is read by that state's lexer. When every such state's lexer
    surely skips a space (:func:`_space_stops`) unless the character after it is one
    of a few, the spaces right after the token that are not followed by one of those
    are skipped whatever follows, so the token's own match may take them along and
    the loop does not stop at each space. A terminal no state shifts is not one of
    them.
    """
    lexers = lexer.lexers
    stopping: dict[int, frozenset[int] | None] = {}

    def stops(state: Any) -> frozenset[int] | None:
        sub = lexers.get(state)
        if sub is None:
            return None
        if id(sub) not in stopping:
            stopping[id(sub)] = _space_stops(cast(BasicLexer, sub))  # each state's lexer is a BasicLexer
        return stopping[id(sub)]

    takers: dict[str, frozenset[int]] = {}
    for name, column in columns.items():
        targets = {action for action in column.values() if action.__class__ is int}
        found = [stops(state) for state in targets]
        if found and all(chars is not None for chars in found):
            takers[name] = frozenset().union(*cast(list[frozenset[int]], found))
    return takers


def _retyped_takers(lexer: BasicLexer, takers: dict[str, frozenset[int]]) -> dict[str, frozenset[int]]:
    """``takers`` as the terminals of ``lexer`` may take spaces, with Lark's re-typing of tokens.

    A token is matched under its terminal's name, but fed (and shifted) under the
    name Lark's "unless" callback gives it, so the spaces taken must be skipped after
    both: a terminal whose tokens may be re-typed to one that is not a taker takes
    none, and the others stop where any of those names stops.
    """
    kept = dict(takers)
    for name, callback in lexer.callback.items():
        retyped_to = getattr(getattr(callback, "scanner", None), "terminals", None)
        if retyped_to is None or any(terminal.name not in takers for terminal in retyped_to):
            kept.pop(name, None)
        elif name in kept:
            kept[name] = kept[name].union(*(takers[terminal.name] for terminal in retyped_to))
    return kept


class _CharTable:
    """Character -> what one state's lexer tries there, filled on first sight of a character.

    ``table`` is a plain dictionary (looked up faster than a subclass) that holds the
    entries found so far, and this object's :meth:`fill` under the key ``None``. The
    tokens of ``takers`` (see :func:`_space_takers`) take the spaces after them along.
    """

    def __init__(self, lexer: BasicLexer, takers: dict[str, frozenset[int]]) -> None:
        self.table: dict[Any, Any] = {None: self.fill}
        scanner = lexer.scanner
        assert isinstance(scanner, DispatchScanner)
        self.scanner = scanner
        self.takers = _retyped_takers(lexer, takers) if not scanner.use_bytes and scanner.re_ is re else {}
        self.ignored = {
            name: lexer.terminals_by_name[name].pattern for name in lexer.ignore_types
        }

    def fill(self, char: str) -> Any:
        """Work out, store and return the entry of ``char``."""
        code = ord(char)
        scanner = self.scanner
        flags = scanner.g_regex_flags
        if code >= ASCII:
            entry = _entry(tuple(scanner._mres), list(scanner.terminals), flags, self.takers)
        else:
            names, mres = scanner.bucket(code)
            pattern = self.ignored.get(names[0]) if len(names) == 1 else None
            if isinstance(pattern, PatternStr) and not pattern.flags and pattern.value == char != "\n":
                entry = _SKIP  # the only terminal that can start here matches, and is ignored
            else:
                by_name = {terminal.name: terminal for terminal in scanner.terminals}
                entry = _entry(mres, [by_name[name] for name in names], flags, self.takers)
        self.table[char] = entry
        return entry


class _Kept:
    """A terminal (``name``) whose tokens a callback reads (a Token is made), fed to ``column``.

    Like the loop's actions (see :class:`_Shift`), a slotted object: its fields are read
    faster than a tuple's are unpacked.
    """

    __slots__ = ("column", "name")

    def __init__(self, name: str, column: dict[Any, Any]) -> None:
        self.name = name
        self.column = column


class _Text:
    """A terminal whose tokens the callbacks read as text alone, fed to ``column``: the loop hands them the plain string.

    Used when the tree builder says so (``text_tokens``, see :func:`plugins`): a str
    is what such a callback reads of a Token (the Token is a str with positions
    added), so the tree comes out the same without a Token made per token.
    """

    __slots__ = ("column",)

    def __init__(self, column: dict[Any, Any]) -> None:
        self.column = column


class _Retyped:
    """A terminal with Lark's "unless" callback.

    ``words`` maps a token text to what the loop does with the token once re-typed (an
    entry of :func:`_kinds`), worked out beforehand for every keyword text; a text not
    there is ``unchanged`` (the terminal's own entry) when ``ask`` is ``None``, and
    else ``ask(text)`` gives its entry (see :func:`_retyped`).
    """

    __slots__ = ("ask", "unchanged", "words")

    def __init__(self, words: dict[str, Any], unchanged: Any, ask: Callable[[str], Any] | None) -> None:
        self.words = words
        self.unchanged = unchanged
        self.ask = ask


def _kinds(
    lexer: BasicLexer, unseen: frozenset[str], columns: dict[str, dict[Any, Any]], text_tokens: bool = False
) -> dict[str, Any]:
    """Terminal name -> what the loop does with a token of it, for every terminal of ``lexer``.

    * a column of the parse table (state -> action): the token is fed with no Token
      object made, as no callback reads it (the terminal is in ``unseen``);
    * :class:`_Kept`: a Token is made and fed to the column (:class:`_Text`, the plain
      string, when ``text_tokens``: the callbacks read tokens as text alone);
    * :class:`_Retyped`: Lark's "unless" callback first re-types the token;
    * :data:`_IGNORED`: the token is dropped.

    A terminal no state acts on gets an empty column (feeding it fails, as in Lark).
    """
    assert lexer.scanner is not None  # building the scanner sets the lexer's callbacks

    def entry(name: str) -> Any:
        column = columns.get(name, {})
        if name in unseen:
            return column
        return _Text(column) if text_tokens else _Kept(name, column)

    out: dict[str, Any] = {str(terminal.name): entry(str(terminal.name)) for terminal in lexer.terminals}
    for name, callback in lexer.callback.items():
        out[str(name)] = _retyped(str(name), _retyping(callback), out[str(name)], entry)
    out.update(dict.fromkeys(map(str, lexer.ignore_types), _IGNORED))
    return out


def _retyped(name: str, lookup: Any, unchanged: Any, entry: Callable[[str], Any]) -> _Retyped:
    """The :class:`_Retyped` entry of terminal ``name``, re-typed by ``lookup`` (see :func:`_retyping`).

    Every text that some keyword may fully match is looked up once here, so that the
    loop finds the re-typed entry with one dictionary look-up. With a plain
    dictionary, any other text keeps the terminal; with case-insensitive keywords, a
    text left out (a word of other letters or case) asks ``lookup`` as it comes.
    """

    def ask(text: str) -> Any:
        retyped = lookup.get(text, name)
        return unchanged if retyped == name else entry(retyped)

    if isinstance(lookup, dict):
        return _Retyped({text: ask(text) for text in lookup}, unchanged, None)
    texts: list[str] = []
    if isinstance(lookup, _FoldedKeywords):
        texts = [word if exact is None else exact
                 for word, keywords in lookup.by_lower.items() for _keyword, exact in keywords]
    return _Retyped({text: ask(text) for text in texts}, unchanged, ask)


def _retyping(callback: Callable[[Token], Token]) -> Any:
    """Lark's "unless" callback as a look-up ``get(text, name) -> new name``.

    Lark leaves out of the alternation the string terminals that a wider regex terminal
    also matches (keywords inside the pattern of names), and re-types a token of the
    regex terminal whose whole text fully matches one of those strings: the first of
    them in the callback's order. With plain strings that is a dictionary; with
    case-insensitive ones, :class:`_FoldedKeywords`; anything else asks the callback.
    """
    if type(callback) is not UnlessCallback:
        raise TypeError(f"unexpected lexer callback {callback!r}")  # user callbacks use Lark's way
    scanner = callback.scanner
    terminals = scanner.terminals
    patterns = [t.pattern for t in terminals]
    if scanner.g_regex_flags or scanner.use_bytes or scanner.re_ is not re or not all(
        isinstance(p, PatternStr) and p.value.isascii() and set(p.flags) <= {"i"} for p in patterns
    ):
        return _AskCallback(callback)
    if not any(p.flags for p in patterns):
        table: dict[str, str] = {}
        for terminal, pattern in zip(terminals, patterns):
            table.setdefault(pattern.value, str(terminal.name))
        return table
    return _FoldedKeywords(callback, [(str(t.name), p.value, bool(p.flags)) for t, p in zip(terminals, patterns)])


class _FoldedKeywords:
    """Keywords, some case-insensitive, as :func:`_retyping` reads them.

    For an ASCII text and ASCII keywords, a case-insensitive keyword fully matches
    exactly when both lower-cased are equal, and a case-sensitive one when both are
    equal; the first keyword (in the callback's order) that matches wins. Other texts
    ask Lark's callback.
    """

    __slots__ = ("by_lower", "callback")

    def __init__(self, callback: UnlessCallback, keywords: list[tuple[str, str, bool]]) -> None:
        self.callback = callback
        self.by_lower: dict[str, list[tuple[str, str | None]]] = {}
        for name, word, folded in keywords:
            self.by_lower.setdefault(word.lower(), []).append((name, None if folded else word))

    def get(self, text: str, name: str) -> str:
        if not text.isascii():
            return _AskCallback(self.callback).get(text, name)
        for keyword, exact in self.by_lower.get(text.lower(), ()):
            if exact is None or exact == text:
                return keyword
        return name


class _AskCallback:
    """A lexer callback asked for the new terminal name of a token text."""

    __slots__ = ("callback",)

    def __init__(self, callback: Callable[[Token], Token]) -> None:
        self.callback = callback

    def get(self, text: str, name: str) -> str:
        return str(self.callback(Token(name, text)).type)


def _retyped_here(shared: _Retyped, here: Callable[[Any], Any]) -> _Retyped:
    """The :class:`_Retyped` entry ``shared`` as one state's table holds it (see ``acting`` in :func:`_parse_loop`).

    Every entry it gives is ``here(entry)`` for the entry ``shared`` gives. Its
    ``words`` start empty and keep the keyword texts as they come; ``ask`` is always
    set, and answers every other text without keeping it.
    """
    words: dict[str, Any] = {}
    unchanged = here(shared.unchanged)

    def ask(text: str) -> Any:
        found = shared.words.get(text)
        if found is not None:
            found = words[text] = here(found)
            return found
        if shared.ask is not None:
            return here(shared.ask(text))
        return unchanged

    return _Retyped(words, unchanged, ask)


class _PerState(dict):  # type: ignore[type-arg]
    """Parser state -> (characters table, terminals table) of the state's lexer, made on first use.

    The characters table is the plain dictionary of a :class:`_CharTable`.

    States that share a lexer share its tables (see :class:`_CharTable` and :func:`_kinds`).
    """

    def __init__(
        self,
        lexer: ContextualLexer,
        unseen: frozenset[str],
        columns: dict[str, dict[Any, Any]],
        text_tokens: bool = False,
    ) -> None:
        super().__init__()
        self.text_tokens = text_tokens
        self.lexers = lexer.lexers
        self.unseen = unseen
        self.columns = columns
        self.takers = _space_takers(lexer, columns)
        self.by_lexer: dict[int, tuple[dict[Any, Any], dict[str, Any]]] = {}

    def __missing__(self, state: Any) -> tuple[dict[Any, Any], dict[str, Any]]:
        lexer = cast(BasicLexer, self.lexers[state])  # each state's lexer is a BasicLexer
        tables = self.by_lexer.get(id(lexer))
        if tables is None:
            tables = self.by_lexer[id(lexer)] = (
                _CharTable(lexer, self.takers).table, _kinds(lexer, self.unseen, self.columns, self.text_tokens)
            )
        self[state] = tables
        return tables


# ------------------------------------------------------------------- the parser


class FastLALRParser(LALR_Parser):
    """Lark's LALR parser with a tight loop for texts that parse.

    :meth:`parse` first runs the loop (:meth:`reader`); only when the text does not
    parse (or when an ``on_error`` handler is given) does Lark's own parser run, from
    the start, to raise its exact exception.
    """

    text_tokens = False
    """Whether the tree builder reads every token as text alone (see :func:`plugins`)."""

    def parse(self, lexer: LexerThread, start: str, on_error: Any = None) -> Any:
        state = lexer.state
        if on_error is None and state is not None and isinstance(lexer.lexer, DispatchContextualLexer):
            text = state.text
            if (isinstance(text.text, str) and text.start == 0 and text.end == len(text.text)
                    and state.line_ctr.char_pos == 0):
                result = self.reader(lexer.lexer, start)(text.text)
                if result is not NO_PARSE:
                    return result
        return super().parse(lexer, start, on_error)

    def reader(self, lexer: ContextualLexer, start: str) -> Callable[[str], Any]:
        """A function from a text to the tree builder's result, or to :data:`NO_PARSE`.

        :data:`NO_PARSE` stands exactly where Lark would raise ``UnexpectedInput``;
        every other exception passes through, as in Lark. Made once per lexer and start.
        """
        readers: dict[tuple[int, str], Callable[[str], Any]] = self.__dict__.setdefault("_readers", {})
        key = (id(lexer), start)
        read = readers.get(key)
        if read is None:

            def by_lark(text: str) -> Any:
                try:
                    return LALR_Parser.parse(self, LexerThread.from_text(lexer, text), start)
                except UnexpectedInput:
                    return NO_PARSE

            read = readers[key] = _make_loop(self, lexer, start, by_lark) or by_lark
        return read


_CHILD_FILTERS = (ChildFilter, ChildFilterLALR, ChildFilterLALR_NoPlaceholders)


def _unseen_terminals(reductions: Iterable[tuple[Any, Any]], token_callbacks: dict[str, Any]) -> frozenset[str]:
    """Terminals whose tokens no callback of ``reductions`` ((rule, callback) pairs) reads.

    Lark's tree builder wraps a rule's callback in a child filter that drops the
    punctuation and ``_NAMED`` terminals of the rule before the builder sees the
    children. A terminal dropped by every rule that holds it (and without a callback
    of its own) is never looked at, so its tokens need not be built.
    """
    seen: set[str] = set(map(str, token_callbacks))
    held: set[str] = set()
    for rule, callback in reductions:
        kept = {i for i, *_ in callback.to_include} if type(callback) in _CHILD_FILTERS else None
        for i, symbol in enumerate(rule.expansion):
            if symbol.is_term:
                held.add(str(symbol.name))
                if kept is None or i in kept:
                    seen.add(str(symbol.name))
    return frozenset(held - seen)


def _childless_helpers(reductions: dict[Any, Any], starts: set[str]) -> frozenset[str]:
    """The ``_rule`` symbols whose trees never hold a child, and which only the loop's filters read.

    Lark's tree builder inlines the children of a ``_rule`` tree into its parent. A
    ``_rule`` all of whose expansions keep no child (only dropped punctuation, or other
    such rules), like ``_is: "is"i | "are"i``, gives a tree without children, so
    inlining it adds nothing and its value need not be built. That holds when:

    * every rule of the symbol has the child filter the loop works in place, keeping
      only inlined symbols that are themselves childless; its builder, asked once here
      with no children (as the filter calls it), returns a value whose ``children`` is
      an empty list (Lark's tree for a ``_rule``, our builders' ``__default__``, the
      TTCG builder's ``_Words``), and is taken to do so every time;
    * every rule holding the symbol has the loop's filter too (so no one else sees the
      value), and the symbol is not a start symbol.
    """
    by_origin: dict[str, list[tuple[Any, Any]]] = {}
    read_whole: set[str] = set(starts)
    for rule, callback in reductions.items():
        by_origin.setdefault(str(rule.origin.name), []).append((rule, callback))
        if type(callback) is not ChildFilterLALR_NoPlaceholders:
            read_whole.update(str(symbol.name) for symbol in rule.expansion if not symbol.is_term)

    def builds_empty_tree(callback: Any) -> bool:
        if type(callback) is not ChildFilterLALR_NoPlaceholders:
            return False
        children = getattr(callback.node_builder([]), "children", None)
        return type(children) is list and not children

    found = {
        name for name, rules in by_origin.items()
        if name.startswith("_") and name not in read_whole
        and all(builds_empty_tree(callback) for _rule, callback in rules)
    }
    changed = True
    while changed:  # keep those whose kept children are all childless helpers
        changed = False
        for name in list(found):
            for rule, callback in by_origin[name]:
                if any(not inline or str(rule.expansion[i].name) not in found for i, inline in callback.to_include):
                    found.discard(name)
                    changed = True
                    break
    return frozenset(found)


_ROOM = 32
"""Stack places a line starts with (see :func:`_parse_loop`); deeper lines get more."""

_NOTHING: tuple[()] = ()
"""The ``pick`` of a reduction whose callback gets no children."""

_ACCEPT = _Marker("ACCEPT")
"""The end column's action in the end state: the text is read (see :func:`_end_column`)."""
_TO_LARK = _Marker("TO_LARK")
"""The end column's action where Lark's table would shift the end: Lark's parser decides."""


def _end_column(column: dict[Any, Any], end_state: Any) -> dict[Any, Any]:
    """The column of the end of the text (``$END``), made ready for the loop's one feeding path, in place.

    The end is fed like any token (see :func:`_parse_loop`): reductions until the end
    state, where Lark stops and returns the value on top. So the end state holds
    :data:`_ACCEPT`; any other shift of the end (which Lark never makes) holds
    :data:`_TO_LARK`, and no shift of the end is ever taken.
    """
    for state, action in list(column.items()):
        if action.__class__ is int:
            column[state] = _TO_LARK
    column[end_state] = _ACCEPT
    return column


def _through(goto: dict[Any, Any], column: dict[Any, Any], stop: Any) -> dict[Any, Any]:
    """A goto that also takes the ``?rule`` pass-throughs that follow on the same look-ahead.

    After a reduction to a symbol, the parser often reduces again at once by a rule of
    that one symbol passed on as it is (``?step: add_step``, ``?amount: number``): no
    callback runs and no value changes, only the state does, and the state uncovered
    (``below``) stays the same. So the state finally reached depends only on ``below``,
    the goto and the look-ahead terminal. The result is a plain dictionary (looked up
    faster than a subclass) from ``below`` to that state, filled on first need by the
    :class:`_Chain` it holds under the key ``None`` (no state is ``None``).

    As an action (in a column), such a dictionary is itself a pass-through.
    """
    table: dict[Any, Any] = {}
    table[None] = _Chain(table, goto, column, stop)
    return table


class _Chain:
    """Works out and stores, in its :func:`_through` table, where a goto and its pass-throughs lead.

    On ``$END`` it stops at the end state (``stop``), where Lark stops.
    """

    __slots__ = ("column", "goto", "stop", "table")

    def __init__(self, table: dict[Any, Any], goto: dict[Any, Any], column: dict[Any, Any], stop: Any) -> None:
        self.table = table
        self.goto = goto
        self.column = column
        self.stop = stop

    def __call__(self, below: Any) -> Any:
        state = self.goto[below]
        column = self.column
        while state != self.stop:
            action = column.get(state)
            if action.__class__ is not dict:
                break
            state = action[None].goto[below]
        self.table[below] = state
        return state


# The loop's actions are small slotted objects rather than tuples: the loop tells them
# apart by class, and reading a field of a slotted object is quicker than unpacking a
# subclass of tuple (which Python does through an iterator).


class _Shift:
    """A shift, with the lexer tables of the state shifted to.

    The next token is read by the lexer of the state a token is shifted to, so the loop
    finds ``chars`` (characters table) and ``kinds`` (terminals table) at once.
    ``state`` is that state, or where the reductions that pass the value on at once
    lead (see :func:`_parse_loop`). The table holds plain ``int`` shifts; each becomes a
    :class:`_Shift` (or :class:`_Fused`) the first time the loop takes it.
    """

    __slots__ = ("chars", "kinds", "state")

    def __init__(self, state: Any, chars: dict[Any, Any], kinds: dict[str, Any]) -> None:
        self.state = state
        self.chars = chars
        self.kinds = kinds


class _Fused:
    """A shift followed at once by reductions.

    The lexer tables (``chars``, ``kinds``) are those of the state shifted to; ``state``
    is where the reductions lead, and each of ``steps``, ``(callback, with_child)``,
    turns the value, or ``(None, value)`` puts a :func:`constant` value in its place
    (see :func:`_unit_reductions` and :func:`_parse_loop`).
    """

    __slots__ = ("chars", "kinds", "state", "steps")

    def __init__(
        self, state: Any, chars: dict[Any, Any], kinds: dict[str, Any], steps: tuple[tuple[Any, bool], ...]
    ) -> None:
        self.state = state
        self.chars = chars
        self.kinds = kinds
        self.steps = steps


class _Unary:
    """A reduction of one symbol whose ``callback`` gets that one child, then ``goto``."""

    __slots__ = ("callback", "goto")

    def __init__(self, callback: Callable[[list[Any]], Any], goto: dict[Any, Any]) -> None:
        self.callback = callback
        self.goto = goto


class _Reduce:
    """Any other reduction: ``callback``, ``goto``, ``size`` and ``pick`` (see :func:`_reduction`)."""

    __slots__ = ("callback", "goto", "pick", "size")

    def __init__(self, callback: Callable[[list[Any]], Any] | None, goto: dict[Any, Any], size: int, pick: Any) -> None:
        self.callback = callback
        self.goto = goto
        self.size = size
        self.pick = pick


class _Constant:
    """A reduction whose callback is a :func:`constant`: its ``value``, ``goto`` and ``size``."""

    __slots__ = ("goto", "size", "value")

    def __init__(self, value: Any, goto: dict[Any, Any], size: int) -> None:
        self.value = value
        self.goto = goto
        self.size = size


class _Splice(tuple):  # type: ignore[type-arg]
    """The ``pick`` of a reduction that inlines ``_rule`` children: ``(offset, inline)`` pairs.

    It does what Lark's child filter does: the children at the offsets (from the top of
    the value stack, see :func:`_reduction`) in order, the ``children`` of those marked
    ``inline`` in their place.
    """

    __slots__ = ()


def _reduction(
    size: int,
    callback: Callable[[list[Any]], Any] | None,
    goto: dict[Any, Any],
    expansion: tuple[str, ...] = (),
    childless: frozenset[str] = frozenset(),
    builds_nothing: bool = False,
) -> Any:
    """One reduction as the loop runs it.

    ``goto`` maps the state uncovered by the reduction to the next state. Lark's tree
    builder wraps the builder's function in up to two layers, both of which the loop
    can do in place:

    * a child filter keeping some children (dropping punctuation and ``_NAMED``
      terminals, inlining the children of ``_rule`` trees): the callback becomes the
      filter's inner one, and a ``pick`` says which children to keep (:data:`_NOTHING`,
      one offset from the top of the value stack, an ``itemgetter`` of several from
      the rule's own children, or a :class:`_Splice` when some are inlined);
    * ``ExpandSingleChild`` (``?rule``) returning a lone child as it is: the callback is
      ``None`` (the kept child becomes the rule's value), and with more or fewer
      children, the inner function. When the number of children is only known as the
      loop runs (inlined children), the layer is kept.

    A :func:`first_child` callback that surely gets a child becomes ``None`` too, with
    ``pick`` the offset of that first child, and Lark's default callback of a helper
    rule the tree class the builder names for it (:func:`_helper_tree`).

    ``expansion`` names the rule's symbols and ``childless`` the ``_rule`` symbols whose
    trees never hold a child (see :func:`_childless_helpers`): inlining one adds
    nothing, so the filter leaves it out. A rule of such a symbol (``builds_nothing``)
    has a value no one reads: the loop does not build it, and with one symbol the rule
    is a mere pass-through.

    An offset counts from the top of the value stack: ``0`` is the rule's last symbol,
    ``1 - size`` its first (the loop adds it to its top index, see :func:`_parse_loop`).

    The result is a :class:`_PassOn` for a rule of one symbol passed on as it is (the
    commonest ``?rule``), a :class:`_Constant` when the callback is a :func:`constant`
    (whatever the children, the value is known), a :class:`_Unary` for one symbol
    handed to the callback, else a :class:`_Reduce`, whose ``pick`` is ``None`` when
    the callback gets the rule's children as they are. :func:`_join_passes` then gives
    each its :func:`_through`.
    """
    if builds_nothing and size:
        return _PassOn((goto,)) if size == 1 else _Reduce(None, goto, size, 0)
    pick: Any = None
    kept: int | None = size
    first = 1 - size  # the offset of the first child the callback gets
    if type(callback) is ChildFilterLALR_NoPlaceholders:
        include = callback.to_include
        if childless:
            include = [(i, inline) for i, inline in include if not (inline and expansion[i] in childless)]
        callback = callback.node_builder
        if any(inline for _i, inline in include):
            pick = _Splice((i - size + 1, bool(inline)) for i, inline in include)
            kept = None
        else:
            kept = len(include)
            if not include:
                pick = _NOTHING
            elif len(include) == 1:
                pick = first = include[0][0] - size + 1
            else:
                pick = itemgetter(*(i for i, _inline in include))
                first = include[0][0] - size + 1
    if type(callback) is ExpandSingleChild and kept is not None:
        if kept == 1:
            callback = None
            pick = 0 if pick is None else pick
        else:
            callback = callback.node_builder
    if kept and callback is not None and _passes_first(callback):  # the first child is the value
        callback = None
        pick = first
    if callback is not None:
        callback = _helper_tree(callback) or callback
    known = _constant_of(callback) if callback is not None else None
    if known is not None:
        return _Constant(known[0], goto, size)
    if size == 1 and kept == 1:
        return _PassOn((goto,)) if callback is None else _Unary(callback, goto)
    return _Reduce(callback, goto, size, pick)


class _PassOn(tuple):  # type: ignore[type-arg]
    """``(goto,)``: a rule of one symbol whose value is passed on (before gotos are joined up)."""

    __slots__ = ()


def _make_loop(
    parser: LALR_Parser, lexer: ContextualLexer, start: str, by_lark: Callable[[str], Any]
) -> Callable[[str], Any] | None:
    """The shift/reduce loop of ``parser`` with ``lexer``, or ``None`` to always use Lark's.

    ``by_lark`` reads a text with Lark's own parser; the loop hands it what it does not
    handle itself.

    The table is Lark's, recoded by column: per terminal name, a state leads to the
    next state (an ``int``: shift) or to a reduction (see :func:`_reduction`).
    """
    table = parser._parse_table
    callbacks = parser.parser.callbacks
    if not callbacks or getattr(lexer.root_lexer, "user_callbacks", True):
        return None  # a lexer callback of the user might see ignored tokens: Lark's way
    if any(isinstance(name, str) for name in callbacks):
        return None  # callbacks on shifted tokens: Lark's way
    gotos: dict[str, dict[Any, Any]] = {}
    for state, row in table.states.items():
        for name, (action, arg) in row.items():
            if action is Shift:
                gotos.setdefault(str(name), {})[state] = arg
    columns: dict[str, dict[Any, Any]] = {}
    reductions: dict[Any, Any] = {}
    for state, row in table.states.items():
        for name, (action, arg) in row.items():
            if action is Shift:
                if type(arg) is not int:
                    return None
            else:
                callback = callbacks.get(arg)
                if callback is None:
                    return None
                reductions[arg] = callback
    childless = _childless_helpers(reductions, set(map(str, table.start_states)))
    for state, row in table.states.items():
        for name, (action, arg) in row.items():
            coded: Any
            if action is Shift:
                coded = arg
            else:
                origin = str(arg.origin.name)
                coded = _reduction(
                    len(arg.expansion),
                    reductions[arg],
                    gotos.get(origin, {}),
                    tuple(str(symbol.name) for symbol in arg.expansion),
                    childless,
                    origin in childless,
                )
            columns.setdefault(str(name), {})[state] = coded
    units = _unit_reductions(table.states, columns, set(map(str, table.start_states)))
    _join_passes(columns, table.end_states[start])
    unseen = _unseen_terminals(reductions.items(), {})
    return _parse_loop(
        columns,
        _PerState(lexer, unseen, columns, bool(getattr(parser, "text_tokens", False))),
        table.start_states[start],
        table.end_states[start],
        by_lark,
        units,
        gotos,
    )


def _unit_reductions(
    states: dict[Any, dict[Any, Any]], columns: dict[str, dict[Any, Any]], starts: set[str]
) -> dict[Any, tuple[str, Any]]:
    """State -> (symbol, step) for the states where the parser can only reduce, by one rule of one symbol.

    In such a state (``kind_word: "monsters"i .``, ``_is: "is"i .``) Lark reduces by
    that rule whatever the next token, unless the token is wrong there; the loop may
    then reduce as soon as it shifts (see :func:`_parse_loop`). ``step`` is ``None``
    when the reduction passes the value on as it is, ``(callback, True)`` when the
    callback gets the value as its one child, ``(callback, False)`` when it gets no
    children and ``(None, value)`` when the value is a :func:`constant`'s. Rules of a start symbol, and rules whose children are inlined, are left
    out. ``columns`` holds the reductions as :func:`_reduction` codes them.
    """
    units: dict[Any, tuple[str, Any]] = {}
    for state, row in states.items():
        rules = {arg for action, arg in row.values() if action is not Shift}
        if len(rules) != 1 or any(action is Shift for action, _arg in row.values()):
            continue
        (rule,) = rules
        origin = str(rule.origin.name)
        if len(rule.expansion) != 1 or origin in starts:
            continue
        coded = columns[str(next(iter(row)))][state]
        cls = coded.__class__
        if cls is _PassOn:
            step = None
        elif cls is _Constant:
            step = (None, coded.value)
        elif cls is _Unary:
            step = (coded.callback, True)
        else:
            callback, pick = coded.callback, coded.pick
            if callback is None:
                step = None
            elif pick is None or pick.__class__ is int:
                step = (callback, True)
            elif pick is _NOTHING:
                step = (callback, False)
            else:
                continue  # inlined children: the loop's general reduction
        units[state] = (origin, step)
    return units


def _join_passes(columns: dict[str, dict[Any, Any]], end_state: Any) -> None:
    """Give every reduction the :func:`_through` of its goto and look-ahead, in place.

    A :class:`_PassOn` becomes the :func:`_through` table itself; the goto of a
    :class:`_Unary`, :class:`_Constant` or :class:`_Reduce` is replaced by one. Reductions of the same symbol
    on the same look-ahead share it.
    """
    for name, column in columns.items():
        stop = end_state if name == "$END" else None
        throughs: dict[int, dict[Any, Any]] = {}
        for state, action in column.items():
            cls = action.__class__
            if cls is _PassOn or cls is _Unary or cls is _Reduce or cls is _Constant:
                goto = action[0] if cls is _PassOn else action.goto
                through = throughs.get(id(goto))
                if through is None:
                    through = throughs[id(goto)] = _through(goto, column, stop)
                if cls is _PassOn:
                    column[state] = through
                elif cls is _Unary:
                    column[state] = _Unary(action.callback, through)
                elif cls is _Constant:
                    column[state] = _Constant(action.value, through, action.size)
                else:
                    column[state] = _Reduce(action.callback, through, action.size, action.pick)


def _parse_loop(
    columns: dict[str, dict[Any, Any]],
    lexer_of: dict[Any, tuple[dict[Any, Any], dict[str, Any]]],
    start_state: Any,
    end_state: Any,
    by_lark: Callable[[str], Any],
    units: dict[Any, tuple[str, Any]] | None = None,
    gotos: dict[str, dict[Any, Any]] | None = None,
) -> Callable[[str], Any]:
    """The parse loop over fixed tables (see :func:`_make_loop`).

    It lexes as Lark's contextual lexer (the state's lexer, the same first match,
    ignored terminals dropped, Lark's keyword re-typing), makes each token the tree
    builder may read with the fields Lark gives it, and shifts and reduces as Lark's
    ``ParserState.feed_token``, calling the same callbacks in the same order. A text
    with a line break goes to ``by_lark`` (the loop counts no lines).

    The two stacks (states, and the values beside them) are lists of :data:`_ROOM`
    places made once per text, with ``top`` the index of the last state: a shift
    writes one place further, a reduction of ``size`` symbols writes its value and
    state where its first symbol stood (``base``). Indexes counted from the front keep
    Python on its quick path for lists, and nothing is appended or deleted; the
    places above ``top`` are never read. A line that goes deeper (the ``IndexError``
    of a write one place past the end) doubles both lists and writes again.

    A token no callback reads whose first action is a shift is shifted as soon as it
    is read: the terminals table of the state (``acting``) holds that shift itself,
    so the loop skips looking it up in the token's column.

    Actions are told apart by class, commonest first: a :class:`_Shift` shifts, a
    :class:`_Reduce` reduces, a :class:`_Fused` shifts and reduces at once, a
    :class:`_Unary` hands a lone child to a callback, a :class:`_Constant` puts its
    value in place of the rule's symbols, a plain dictionary
    (:func:`_through`) passes it on, and an ``int`` shift becomes a :class:`_Shift`
    when first taken; each goto takes the pass-throughs after it. The
    plain dictionaries hold what they have worked out so far; a missing key asks the
    filler each keeps under ``None``.

    The end of the text is fed through the same path, with its column
    (:func:`_end_column`): it reduces until the end state, whose :data:`_ACCEPT`
    gives the value on top, as Lark's parser returns it there.

    A shift into a state of ``units`` (:func:`_unit_reductions`) also reduces there at
    once, and so on while the state reached is one (a :class:`_Fused` shift, or a
    :class:`_Shift` to the last state when every such reduction passes the value on).
    Lark makes the same reductions in the same order as the next token comes, unless
    that token is wrong there; then the loop finds it wrong a little later, before
    shifting it (an LR parser never shifts a wrong token after such reductions), and
    the text does not parse either way. Only the next token is read by the lexer of
    the state first shifted to, as Lark reads it. A callback that raises in the loop
    lets Lark's own parser read the text instead, so an error Lark would have found
    before that reduction is the one raised.
    """
    new_str = str.__new__
    nothing = _NOTHING
    ignored = _IGNORED
    skip = _SKIP
    no_parse = NO_PARSE
    retyped_class = _Retyped
    text_class = _Text
    unary_class = _Unary
    reduce_class = _Reduce
    splice_class = _Splice
    shift_class = _Shift
    fused_class = _Fused
    constant_class = _Constant
    accept = _ACCEPT
    to_lark = _TO_LARK
    end_column = _end_column(columns.get("$END", {}), end_state)
    unit_of = units or {}
    goto_of = gotos or {}
    acting_tables: dict[tuple[int, Any], dict[Any, Any]] = {}

    def acting(kinds: dict[str, Any], state: Any) -> dict[Any, Any]:
        """The terminals table ``kinds`` of a state's lexer, as seen by the parser in ``state``.

        A token is read by the lexer of the state last shifted to, and its first action
        is looked up in the state the parser is in then (the same one, or where the
        reductions that follow the shift at once lead). For a terminal no callback reads
        (a column) whose action there is a shift, this table holds that
        :class:`_Shift`, so that the loop shifts such a token without looking it up
        again; any other terminal keeps its entry of ``kinds``. The table is a plain
        dictionary filled on first need by the function it keeps under ``None``.
        """
        key = (id(kinds), state)
        known = acting_tables.get(key)
        if known is None:
            table: dict[Any, Any] = {}

            def here(entry: Any) -> Any:
                """``entry``, or its :class:`_Shift` in ``state`` for a column that shifts there."""
                if entry.__class__ is dict:
                    action = entry.get(state)
                    if action.__class__ is int:  # as the loop does the first time a shift is taken
                        action = entry[state] = shift_to(action, state)
                    if action.__class__ is shift_class:
                        return action
                return entry

            def fill(name: str) -> Any:
                entry = kinds[name]
                if entry.__class__ is retyped_class:
                    entry = _retyped_here(entry, here)
                else:
                    entry = here(entry)
                table[name] = entry
                return entry

            table[None] = fill
            known = acting_tables[key] = table
        return known

    start_chars, shared_kinds = lexer_of[start_state]
    start_kinds = acting(shared_kinds, start_state)

    def shift_to(target: Any, below: Any) -> _Shift | _Fused:
        """The shift from ``below`` to ``target``, with the reductions that follow it at once."""
        chars, kinds = lexer_of[target]
        state = target
        steps = []
        for _ in range(len(unit_of)):
            unit = unit_of.get(state)
            if unit is None:
                break
            origin, step = unit
            following = goto_of.get(origin, {}).get(below)
            if following is None or following == end_state:
                break
            if step is not None:
                steps.append(step)
            state = following
        kinds = acting(kinds, state)
        if steps:
            return _Fused(state, chars, kinds, tuple(steps))
        return _Shift(state, chars, kinds)

    def grow(states: list[Any], values: list[Any]) -> None:
        """Make both stacks twice as long."""
        states += [None] * len(states)
        values += [None] * len(values)

    def loop(text: str) -> Any:
        if "\n" in text:
            return by_lark(text)
        state = start_state
        states = [state] * _ROOM
        values: list[Any] = [None] * _ROOM
        top = 0
        pos = 0
        chars = start_chars
        kinds = start_kinds
        while True:
            # ---- the next token, as the lexer of the state last shifted to reads it
            while True:
                try:
                    entry = chars[text[pos]]
                except IndexError:  # past the last character: feed the end of the text
                    column = end_column
                    token = None
                    break
                except KeyError:  # a character not seen yet in this state
                    entry = chars[None](text[pos])
                if entry is skip:
                    pos += 1
                    continue
                m = entry.match(text, pos)
                try:
                    group = m.lastgroup
                except AttributeError:  # no match (``m`` is None)
                    return no_parse
                try:
                    column = kinds[group]
                except KeyError:  # a terminal not seen yet in this state
                    column = kinds[None](group)
                cls = column.__class__
                if cls is retyped_class:
                    found = column.words.get(m[group])
                    column = found if found is not None else column.ask(m[group])
                    cls = column.__class__
                if cls is shift_class:  # a token no callback reads, shifted at once
                    pos = m.end()
                    state = column.state
                    chars = column.chars
                    kinds = column.kinds
                    top += 1
                    try:
                        states[top] = state
                    except IndexError:  # a deep line: longer stacks
                        grow(states, values)
                        states[top] = state
                    values[top] = None
                    continue
                if cls is dict:  # a terminal no callback reads: no Token
                    token = None
                    pos = m.end()
                    break
                if cls is text_class:  # a terminal the callbacks read as text alone: the string
                    token = m[group]
                    column = column.column
                    pos = m.end()
                    break
                if column is ignored:
                    pos = m.end()
                    continue
                kind = column.name
                column = column.column
                value = m[group]
                token = new_str(Token, value)
                token.type = kind
                token.start_pos = pos
                token.value = value
                token.line = 1
                token.column = pos + 1
                pos = m.end(group)
                token.end_line = 1
                token.end_column = pos + 1
                token.end_pos = pos
                pos = m.end()
                break
            # ---- feed it: reduce as the table says, then shift
            while True:
                try:
                    action = column[state]
                except KeyError:
                    return no_parse
                cls = action.__class__
                if cls is shift_class:
                    state = action.state
                    chars = action.chars
                    kinds = action.kinds
                    top += 1
                    try:
                        states[top] = state
                    except IndexError:  # a deep line: longer stacks
                        grow(states, values)
                        states[top] = state
                    values[top] = token
                    break
                if cls is reduce_class:
                    callback = action.callback
                    pick = action.pick
                    base = top - action.size + 1  # where the rule's first symbol stands
                    if callback is None:
                        value = values[top + pick]
                    else:
                        if pick is None:
                            children = values[base:top + 1]
                        elif pick is nothing:
                            children = []
                        elif pick.__class__ is int:
                            children = [values[top + pick]]
                        elif pick.__class__ is splice_class:
                            children = []
                            for offset, inline in pick:
                                if not inline:
                                    children.append(values[top + offset])
                                elif children:
                                    children += values[top + offset].children
                                else:
                                    children = values[top + offset].children
                        else:
                            children = list(pick(values[base:top + 1]))
                        value = callback(children)
                    top = base
                    goto = action.goto
                    try:
                        state = goto[states[base - 1]]
                    except KeyError:
                        state = goto[None](states[base - 1])
                    try:
                        states[top] = state
                    except IndexError:  # an empty rule on a deep line: longer stacks
                        grow(states, values)
                        states[top] = state
                    values[top] = value
                    continue
                if cls is fused_class:
                    state = action.state
                    chars = action.chars
                    kinds = action.kinds
                    for callback, arg in action.steps:
                        token = arg if callback is None else callback([token] if arg else [])
                    top += 1
                    try:
                        states[top] = state
                    except IndexError:  # a deep line: longer stacks
                        grow(states, values)
                        states[top] = state
                    values[top] = token
                    break
                if cls is unary_class:
                    values[top] = action.callback([values[top]])
                    goto = action.goto
                    try:
                        state = states[top] = goto[states[top - 1]]
                    except KeyError:
                        state = states[top] = goto[None](states[top - 1])
                    continue
                if cls is constant_class:
                    top = base = top - action.size + 1
                    goto = action.goto
                    try:
                        state = goto[states[base - 1]]
                    except KeyError:
                        state = goto[None](states[base - 1])
                    try:
                        states[top] = state
                    except IndexError:  # an empty rule on a deep line: longer stacks
                        grow(states, values)
                        states[top] = state
                    values[top] = action.value
                    continue
                if cls is dict:  # a lone child passed on
                    try:
                        state = states[top] = action[states[top - 1]]
                    except KeyError:
                        state = states[top] = action[None](states[top - 1])
                    continue
                if action is accept:  # the end of the text, in the end state: the start rule is complete
                    return values[top]
                if action is to_lark:  # a shift of the end (Lark never makes one): leave any surprise to it
                    return by_lark(text)
                # an ``int``: the first time this shift is taken
                column[state] = shift_to(action, state)

    def run(text: str) -> Any:
        try:
            return loop(text)
        except UnexpectedInput:  # from a tree-building callback: Lark lets it out of parse()
            return no_parse
        except Exception:  # noqa: BLE001 - Lark's own parser decides (see above)
            return by_lark(text)

    return run


# ------------------------------------------------------------------- wiring


class _TextTokensParser(FastLALRParser):
    """:class:`FastLALRParser` whose loop hands the callbacks plain strings for tokens."""

    text_tokens = True


def plugins(text_tokens: bool = False) -> dict[str, type]:
    """The ``_plugins`` option that makes ``Lark(..., parser="lalr", lexer="contextual")`` fast.

    ``text_tokens``: the tree builder reads every token it gets as text alone (as a
    ``str``: its words, never its type or position), so the loop may hand it the
    plain string of a token instead of a Lark Token (see :class:`_Text`). Lark's own
    parser, where the loop leaves a text to it, still hands Tokens, which read the same.
    """
    parser = _TextTokensParser if text_tokens else FastLALRParser
    return {"ContextualLexer": DispatchContextualLexer, "LALR_Parser": parser}


def reader(parser: Lark, start: str | None = None) -> Callable[[str], Any]:
    """A function reading one text with ``parser``: the result, or :data:`NO_PARSE` where Lark raises ``UnexpectedInput``.

    With a parser built with :func:`plugins` this is the fast loop, without Lark's
    error report (nor the second run that makes it); with any other parser it is
    ``parser.parse`` with the error caught.
    """
    frontend = parser.parser
    lalr = getattr(frontend, "parser", None)
    lexer = getattr(frontend, "lexer", None)
    if isinstance(lalr, FastLALRParser) and isinstance(lexer, DispatchContextualLexer):
        if start is None:
            starts = lalr._parse_table.start_states
            start = next(iter(starts)) if len(starts) == 1 else frontend._verify_start(None)
        return lalr.reader(lexer, start)

    def read(text: str) -> Any:
        try:
            return parser.parse(text, start)
        except UnexpectedInput:
            return NO_PARSE

    return read
