"""Reading replay files (format v1) as a stream fed to visitors.

Like python-chess reads PGN, a replay is read once, front to back, and each part is
handed to a :class:`Visitor`: the header, then each event as it is decoded (events are
not kept). :class:`verifier.verify.Verifier` checks the game; :class:`HeaderReader`
stops after the header; :class:`EventCounter` only counts. Decoding is typed (msgspec):
a header field or event field the format does not define is an error with its line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

MAX_LINE_BYTES = 1_000_000
MAX_EVENTS = 2_000_000
MAX_FILE_BYTES = 512_000_000


class ReplayError(ValueError):
    """A replay that is not valid input: the file, the line and the reason."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        self.path, self.line, self.reason = path, line, reason
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")


class Expect(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The verdict a test corpus expects (first finding's seq and rule)."""

    verdict: str
    seq: int | None = None
    rule: str | None = None


class Header(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Line 1 of a replay."""

    replay: int
    game: str
    ruleset: str
    players: list[str]
    decks: dict[str, Any] = {}
    cards: str | list[Any] | None = None
    options: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    expect: Expect | None = None


_header_decoder = msgspec.json.Decoder(Header)
_seq_decoder = msgspec.json.Decoder(dict[str, Any])

T = TypeVar("T")


class Visitor(Generic[T]):
    """Receives a replay part by part; override what you need.

    ``begin`` gets the header and returns False to skip the events; ``visit`` gets each
    decoded event with its line number and returns False to stop early; ``error`` gets
    a :class:`ReplayError` for a bad line (reading stops there); ``result`` is what
    :func:`read` returns.
    """

    def begin(self, header: Header, path: str) -> bool:
        return True

    def visit(self, event: Any, line: int) -> bool:
        return True

    def error(self, error: ReplayError) -> None:
        raise error

    def end(self) -> None:
        return None

    def result(self) -> T:
        raise NotImplementedError


class HeaderReader(Visitor[Header | None]):
    """Reads only the header."""

    def __init__(self) -> None:
        self.header: Header | None = None

    def begin(self, header: Header, path: str) -> bool:
        self.header = header
        return False

    def result(self) -> Header | None:
        return self.header


class EventCounter(Visitor[int]):
    """Counts events without checking them (decoding only)."""

    def __init__(self) -> None:
        self.count = 0

    def visit(self, event: Any, line: int) -> bool:
        self.count += 1
        return True

    def result(self) -> int:
        return self.count


def decode_header(raw: bytes, path: str) -> Header:
    try:
        header = _header_decoder.decode(raw)
    except msgspec.ValidationError as error:
        raise ReplayError(path, 1, f"bad header: {error}") from None
    except msgspec.DecodeError as error:
        raise ReplayError(path, 1, f"header is not JSON: {error}") from None
    if header.replay != 1:
        raise ReplayError(path, 1, f"replay format version {header.replay} is not supported (this verifier reads version 1)")
    if len(header.players) != 2 or len(set(header.players)) != 2:
        raise ReplayError(path, 1, "the header must name two different players")
    return header


def _pieces(path: Path) -> list[bytes]:
    """The file's bytes split at each newline, after the file size limit is applied.

    The file is read at once (it is at most :data:`MAX_FILE_BYTES`).
    """
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ReplayError(str(path), None, f"file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
    return path.read_bytes().split(b"\n")


def _checked_lines(name: str, pieces: list[bytes], max_events: int | None = None) -> Iterator[tuple[int, bytes]]:
    """The non-empty lines of a file that may break a limit: each error comes when its line is reached.

    A line over :data:`MAX_LINE_BYTES` is refused; with ``max_events``, so is the event
    line (any non-empty line after the first) beyond that many events.
    """
    last = len(pieces) - 1
    seen = -1  # the header is not an event
    for index, raw in enumerate(pieces):
        if len(raw) + (index < last) > MAX_LINE_BYTES:
            raise ReplayError(name, index + 1, f"line is over the {MAX_LINE_BYTES}-byte limit")
        if raw.strip():
            seen += 1
            if max_events is not None and seen > max_events:
                raise ReplayError(name, index + 1, f"more than {max_events} events")
            yield index + 1, raw


def read(path: Path, visitor: Visitor[T], event_decoder: Any = None) -> T:
    """Feed a replay file to a visitor and return its result.

    ``event_decoder`` is a function from the header to a msgspec decoder of one event
    line (the game's vocabulary); without it, events are plain dicts.

    Lines are numbered as they are read. In a file that no limit can touch (the common
    case) blank lines are not looked for beforehand: such a line fails to decode and is
    then found blank and skipped, so that each event line costs one decode.
    """
    name = str(path)
    try:
        pieces = _pieces(path)
        numbered: Iterator[tuple[int, bytes]]
        if max(map(len, pieces)) + 1 > MAX_LINE_BYTES or len(pieces) > MAX_EVENTS + 1:
            numbered = _checked_lines(name, pieces, MAX_EVENTS)
        else:
            numbered = enumerate(pieces, 1)
        for number, raw in numbered:
            if raw.strip():
                break
        else:
            raise ReplayError(name, None, "the file is empty: a replay needs a header line")
        header = decode_header(raw, name)
        if not visitor.begin(header, name):
            visitor.end()
            return visitor.result()
        decode = (event_decoder(header) if event_decoder is not None else _seq_decoder).decode
        visit = visitor.visit
        expected_seq = 1
        for number, raw in numbered:
            try:
                event: Any = decode(raw)
            except msgspec.ValidationError as error:
                raise ReplayError(name, number, f"bad event: {error}") from None
            except msgspec.DecodeError as error:
                if not raw.strip():
                    continue  # a blank line
                raise ReplayError(name, number, f"not JSON: {error}") from None
            except UnicodeDecodeError:
                raise ReplayError(name, number, "not UTF-8 text") from None
            try:
                seq = event.seq
            except AttributeError:  # a plain dict, or a decoded value without a seq
                seq = event.get("seq") if type(event) is dict else None
            if seq != expected_seq:
                raise ReplayError(name, number, f"seq is {seq}, expected {expected_seq}")
            expected_seq += 1
            if not visit(event, number):
                break
    except ReplayError as error:
        visitor.error(error)
    except OSError as error:
        visitor.error(ReplayError(name, None, f"cannot read the file: {error.strerror or error}"))
    except UnicodeDecodeError:
        visitor.error(ReplayError(name, None, "not UTF-8 text"))
    visitor.end()
    return visitor.result()
