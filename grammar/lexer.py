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
  one Lark raises.

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
from operator import itemgetter
from typing import Any

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
    "first_chars",
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


_TRAILING_SPACES: dict[re.Pattern[str], re.Pattern[str]] = {}
"""Alternations compiled so far with the spaces after a token taken along."""


def _with_trailing_spaces(mre: re.Pattern[str]) -> re.Pattern[str]:
    """``mre`` followed by any run of spaces: the same branch matches, the spaces go with it.

    The alternation is tried first and the spaces after it always match, so the
    terminal found (``lastgroup``) and its text (that group) are those of ``mre``.
    """
    found = _TRAILING_SPACES.get(mre)
    if found is None:
        found = _TRAILING_SPACES[mre] = re.compile(f"(?:{mre.pattern}) *", mre.flags)
    return found


def _entry(mres: tuple[re.Pattern[str], ...], spaces: bool) -> Any:
    """One object with ``.match(text, pos)`` trying ``mres`` in turn (taking trailing spaces along if ``spaces``)."""
    if not mres:
        return _NEVER
    if spaces:
        mres = tuple(_with_trailing_spaces(mre) for mre in mres)
    if len(mres) == 1:
        return mres[0]
    return _Alternations(mres)


def _spaces_only_ignored(lexer: ContextualLexer) -> bool:
    """Whether the ignored " " is the only terminal of the grammar that can begin with a space.

    Then, in every state, a space after a token is skipped before the next one is
    looked for, so the token's own match may take the spaces along (the parse loop
    then never stops at a space).
    """
    root = lexer.root_lexer
    if not isinstance(root, BasicLexer):
        return False
    flags = root.g_regex_flags
    for terminal in root.terminals:
        pattern = terminal.pattern
        if terminal.name in root.ignore_types:
            if isinstance(pattern, PatternStr) and not pattern.flags and pattern.value == " ":
                continue
            return False  # another ignored terminal: leave the skipping to the table
        if ord(" ") in _first_chars_of(terminal, flags):
            return False
    return True


class _CharTable(dict):  # type: ignore[type-arg]
    """Character -> what one state's lexer tries there, filled on first sight of a character.

    With ``spaces`` (see :func:`_spaces_only_ignored`) each alternation takes the
    spaces after its token along.
    """

    def __init__(self, lexer: BasicLexer, spaces: bool) -> None:
        super().__init__()
        scanner = lexer.scanner
        assert isinstance(scanner, DispatchScanner)
        self.scanner = scanner
        self.spaces = spaces
        self.ignored = {
            name: lexer.terminals_by_name[name].pattern for name in lexer.ignore_types
        }

    def __missing__(self, char: str) -> Any:
        try:
            return self._fill(char)
        except IndexError as error:  # the loop reads IndexError as the end of the text
            raise RuntimeError(f"lexer table for {char!r}") from error

    def _fill(self, char: str) -> Any:
        """Work out, store and return the entry of ``char``."""
        code = ord(char)
        scanner = self.scanner
        if code >= ASCII:
            entry = _entry(tuple(scanner._mres), self.spaces)
        else:
            names, mres = scanner.bucket(code)
            pattern = self.ignored.get(names[0]) if len(names) == 1 else None
            if isinstance(pattern, PatternStr) and not pattern.flags and pattern.value == char != "\n":
                entry = _SKIP  # the only terminal that can start here matches, and is ignored
            else:
                entry = _entry(mres, self.spaces)
        self[char] = entry
        return entry


class _Kept(tuple):  # type: ignore[type-arg]
    """``(terminal name, column)``: a terminal whose tokens a callback reads (a Token is made)."""

    __slots__ = ()


class _Retyped(tuple):  # type: ignore[type-arg]
    """``(look-up, what the terminal is when not re-typed)``: a terminal with Lark's "unless" callback.

    ``look-up.get(text, name)`` gives the terminal the token is re-typed to (see
    :func:`_retyping`).
    """

    __slots__ = ()


def _kinds(lexer: BasicLexer, unseen: frozenset[str], columns: dict[str, dict[Any, Any]]) -> dict[str, Any]:
    """Terminal name -> what the loop does with a token of it, for every terminal of ``lexer``.

    * a column of the parse table (state -> action): the token is fed with no Token
      object made, as no callback reads it (the terminal is in ``unseen``);
    * :class:`_Kept`: a Token is made and fed to the column;
    * :class:`_Retyped`: Lark's "unless" callback first re-types the token;
    * :data:`_IGNORED`: the token is dropped.

    A terminal no state acts on gets an empty column (feeding it fails, as in Lark).
    """
    assert lexer.scanner is not None  # building the scanner sets the lexer's callbacks
    out: dict[str, Any] = {}
    for terminal in lexer.terminals:
        name = str(terminal.name)
        column = columns.get(name, {})
        out[name] = column if name in unseen else _Kept((name, column))
    for name, callback in lexer.callback.items():
        out[str(name)] = _Retyped((_retyping(callback), out[str(name)]))
    out.update(dict.fromkeys(map(str, lexer.ignore_types), _IGNORED))
    return out


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


class _PerState(dict):  # type: ignore[type-arg]
    """Parser state -> (characters table, terminals table) of the state's lexer, made on first use.

    States that share a lexer share its tables (see :class:`_CharTable` and :func:`_kinds`).
    """

    def __init__(
        self, lexer: ContextualLexer, unseen: frozenset[str], columns: dict[str, dict[Any, Any]]
    ) -> None:
        super().__init__()
        self.lexers = lexer.lexers
        self.unseen = unseen
        self.columns = columns
        self.spaces = _spaces_only_ignored(lexer)
        self.by_lexer: dict[int, tuple[_CharTable, dict[str, Any]]] = {}

    def __missing__(self, state: Any) -> tuple[_CharTable, dict[str, Any]]:
        lexer = self.lexers[state]
        tables = self.by_lexer.get(id(lexer))
        if tables is None:
            tables = self.by_lexer[id(lexer)] = (
                _CharTable(lexer, self.spaces), _kinds(lexer, self.unseen, self.columns)
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


_NOTHING: tuple[()] = ()
"""The ``pick`` of a reduction whose callback gets no children."""


class _Through(dict):  # type: ignore[type-arg]
    """A goto that also takes the ``?rule`` pass-throughs that follow on the same look-ahead.

    After a reduction to a symbol, the parser often reduces again at once by a rule of
    that one symbol passed on as it is (``?step: add_step``, ``?amount: number``): no
    callback runs and no value changes, only the state does, and the state uncovered
    (``below``) stays the same. So the state finally reached depends only on ``below``,
    the goto and the look-ahead terminal: ``self[below]`` works it out on first need
    from the tables and keeps it. On ``$END`` it stops at the end state, where Lark
    stops.

    As an action (in a column), it is itself such a pass-through.
    """

    __slots__ = ("column", "goto", "stop")

    def __init__(self, goto: dict[Any, Any], column: dict[Any, Any], stop: Any) -> None:
        super().__init__()
        self.goto = goto
        self.column = column
        self.stop = stop

    def __missing__(self, below: Any) -> Any:
        state = self.goto[below]
        column = self.column
        while state != self.stop:
            action = column.get(state)
            if action.__class__ is not _Through:
                break
            state = action.goto[below]
        self[below] = state
        return state


class _Unary(tuple):  # type: ignore[type-arg]
    """``(callback, goto)``: a reduction of one symbol whose callback gets that one child."""

    __slots__ = ()


class _Reduce(tuple):  # type: ignore[type-arg]
    """``(callback, goto, size, pick)``: any other reduction (see :func:`_reduction`)."""

    __slots__ = ()


class _Splice(tuple):  # type: ignore[type-arg]
    """The ``pick`` of a reduction that inlines ``_rule`` children: ``(offset, inline)`` pairs.

    It does what Lark's child filter does: the children at the offsets (from the top of
    the value stack) in order, the ``children`` of those marked ``inline`` in their place.
    """

    __slots__ = ()


def _reduction(size: int, callback: Callable[[list[Any]], Any] | None, goto: dict[Any, Any]) -> Any:
    """One reduction as the loop runs it.

    ``goto`` maps the state uncovered by the reduction to the next state. Lark's tree
    builder wraps the builder's function in up to two layers, both of which the loop
    can do in place:

    * a child filter keeping some children (dropping punctuation and ``_NAMED``
      terminals, inlining the children of ``_rule`` trees): the callback becomes the
      filter's inner one, and a ``pick`` says which children to keep (:data:`_NOTHING`,
      one offset from the top of the value stack, an ``itemgetter`` of several, or a
      :class:`_Splice` when some are inlined);
    * ``ExpandSingleChild`` (``?rule``) returning a lone child as it is: the callback is
      ``None`` (the kept child becomes the rule's value), and with more or fewer
      children, the inner function. When the number of children is only known as the
      loop runs (inlined children), the layer is kept.

    The result is a :class:`_PassOn` for a rule of one symbol passed on as it is (the
    commonest ``?rule``), a :class:`_Unary` for one symbol handed to the callback, else a
    :class:`_Reduce`, whose ``pick`` is ``None`` when the callback gets the rule's
    children as they are. :func:`_join_passes` then gives each its :class:`_Through`.
    """
    pick: Any = None
    kept: int | None = size
    if type(callback) is ChildFilterLALR_NoPlaceholders:
        include = callback.to_include
        callback = callback.node_builder
        if any(inline for _i, inline in include):
            pick = _Splice((i - size, bool(inline)) for i, inline in include)
            kept = None
        else:
            offsets = [i - size for i, _inline in include]
            kept = len(offsets)
            if not offsets:
                pick = _NOTHING
            elif len(offsets) == 1:
                pick = offsets[0]
            else:
                pick = itemgetter(*offsets)
    if type(callback) is ExpandSingleChild and kept is not None:
        if kept == 1:
            callback = None
            pick = -1 if pick is None else pick
        else:
            callback = callback.node_builder
    if size == 1 and kept == 1:
        return _PassOn((goto,)) if callback is None else _Unary((callback, goto))
    return _Reduce((callback, goto, size, pick))


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
                coded: Any = arg
            else:
                callback = callbacks.get(arg)
                if callback is None:
                    return None
                reductions[arg] = callback
                coded = _reduction(len(arg.expansion), callback, gotos.get(str(arg.origin.name), {}))
            columns.setdefault(str(name), {})[state] = coded
    _join_passes(columns, table.end_states[start])
    unseen = _unseen_terminals(reductions.items(), {})
    return _parse_loop(
        columns,
        _PerState(lexer, unseen, columns),
        table.start_states[start],
        table.end_states[start],
        by_lark,
    )


def _join_passes(columns: dict[str, dict[Any, Any]], end_state: Any) -> None:
    """Give every reduction the :class:`_Through` of its goto and look-ahead, in place.

    A :class:`_PassOn` becomes the :class:`_Through` itself; the goto of a
    :class:`_Unary` or :class:`_Reduce` is replaced by one. Reductions of the same symbol
    on the same look-ahead share it.
    """
    for name, column in columns.items():
        stop = end_state if name == "$END" else None
        throughs: dict[int, _Through] = {}
        for state, action in column.items():
            cls = action.__class__
            if cls is _PassOn or cls is _Unary or cls is _Reduce:
                goto = action[0] if cls is _PassOn else action[1]
                through = throughs.get(id(goto))
                if through is None:
                    through = throughs[id(goto)] = _Through(goto, column, stop)
                if cls is _PassOn:
                    column[state] = through
                elif cls is _Unary:
                    column[state] = _Unary((action[0], through))
                else:
                    column[state] = _Reduce((action[0], through, *action[2:]))


def _parse_loop(
    columns: dict[str, dict[Any, Any]],
    lexer_of: dict[Any, tuple[dict[str, Any], dict[str, Any]]],
    start_state: Any,
    end_state: Any,
    by_lark: Callable[[str], Any],
) -> Callable[[str], Any]:
    """The parse loop over fixed tables (see :func:`_make_loop`).

    It lexes as Lark's contextual lexer (the state's lexer, the same first match,
    ignored terminals dropped, Lark's keyword re-typing), makes each token the tree
    builder may read with the fields Lark gives it, and shifts and reduces as Lark's
    ``ParserState.feed_token``, calling the same callbacks in the same order. A text
    with a line break goes to ``by_lark`` (the loop counts no lines).

    Actions are told apart by class, commonest first: an ``int`` shifts, a
    :class:`_Through` passes a lone child on, a :class:`_Unary` hands it to a callback,
    and a :class:`_Reduce` does the rest; each goto takes the pass-throughs after it.
    """
    new_str = str.__new__
    nothing = _NOTHING
    ignored = _IGNORED
    skip = _SKIP
    no_parse = NO_PARSE
    retyped_class = _Retyped
    unary_class = _Unary
    through_class = _Through
    splice_class = _Splice
    end_column = columns.get("$END", {})

    def loop(text: str) -> Any:
        if "\n" in text:
            return by_lark(text)
        state = start_state
        stack = [state]
        values: list[Any] = []
        push_state = stack.append
        push_value = values.append
        pos = 0
        while True:
            # ---- the next token, as the state's lexer reads it
            chars, kinds = lexer_of[state]
            while True:
                try:
                    entry = chars[text[pos]]
                except IndexError:  # past the last character (the table itself never raises it)
                    return end(state, stack, values, text)
                if entry is skip:
                    pos += 1
                    continue
                m = entry.match(text, pos)
                if m is None:
                    return no_parse
                kind = group = m.lastgroup
                column = kinds[kind]
                if column.__class__ is retyped_class:
                    retyped = column[0].get(m.group(group), kind)
                    if retyped == kind:
                        column = column[1]
                    else:
                        kind = retyped
                        column = kinds[kind]
                if column.__class__ is dict:  # a terminal no callback reads: no Token
                    token = None
                    pos = m.end()
                    break
                if column is ignored:
                    pos = m.end()
                    continue
                column = column[1]
                value = m.group(group)
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
                if cls is int:
                    state = action
                    push_state(state)
                    push_value(token)
                    break
                if cls is through_class:  # a lone child passed on
                    state = stack[-1] = action[stack[-2]]
                    continue
                if cls is unary_class:
                    callback, goto = action
                    values[-1] = callback([values[-1]])
                    state = stack[-1] = goto[stack[-2]]
                    continue
                callback, goto, size, pick = action
                if callback is None:
                    value = values[pick]
                else:
                    if pick is None:
                        children = values[-size:] if size else []
                    elif pick is nothing:
                        children = []
                    elif pick.__class__ is int:
                        children = [values[pick]]
                    elif pick.__class__ is splice_class:
                        children = []
                        for offset, inline in pick:
                            if not inline:
                                children.append(values[offset])
                            elif children:
                                children += values[offset].children
                            else:
                                children = values[offset].children
                    else:
                        children = list(pick(values))
                    value = callback(children)
                if size == 1:
                    values[-1] = value
                    state = stack[-1] = goto[stack[-2]]
                    continue
                if size:
                    del values[-size:]
                    del stack[-size:]
                push_value(value)
                state = goto[stack[-1]]
                push_state(state)

    def end(state: Any, stack: list[Any], values: list[Any], text: str) -> Any:
        """At the end of the text: reduce until the start rule is complete."""
        while True:
            try:
                action = end_column[state]
            except KeyError:
                return no_parse
            cls = action.__class__
            if cls is int:
                return by_lark(text)  # Lark never shifts the end; leave any surprise to it
            if cls is through_class or cls is unary_class:
                if cls is unary_class:
                    callback, goto = action
                    values[-1] = callback([values[-1]])
                else:
                    goto = action
                state = stack[-1] = goto[stack[-2]]
                if state == end_state:
                    return values[-1]
                continue
            callback, goto, size, pick = action
            if callback is None:
                value = values[pick]
            else:
                if pick is None:
                    children = values[-size:] if size else []
                elif pick is nothing:
                    children = []
                elif pick.__class__ is int:
                    children = [values[pick]]
                elif pick.__class__ is splice_class:
                    children = []
                    for offset, inline in pick:
                        if not inline:
                            children.append(values[offset])
                        elif children:
                            children += values[offset].children
                        else:
                            children = values[offset].children
                else:
                    children = list(pick(values))
                value = callback(children)
            if size:
                del values[-size:]
                del stack[-size:]
            values.append(value)
            state = goto[stack[-1]]
            stack.append(state)
            if state == end_state:
                return values[-1]

    def run(text: str) -> Any:
        try:
            return loop(text)
        except UnexpectedInput:  # from a tree-building callback: Lark lets it out of parse()
            return no_parse

    return run


# ------------------------------------------------------------------- wiring


def plugins() -> dict[str, type]:
    """The ``_plugins`` option that makes ``Lark(..., parser="lalr", lexer="contextual")`` fast."""
    return {"ContextualLexer": DispatchContextualLexer, "LALR_Parser": FastLALRParser}


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
