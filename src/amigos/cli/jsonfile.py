"""Reading a JSON file that may be hostile, for `amigos rating` and `amigos archive import`.

A command line is handed whatever a user (or a script fed by strangers) names: a symlink to
/dev/zero, a FIFO nobody writes to, a directory, a file of gigabytes, or JSON that Python's reader
accepts but no other reader does. This module is the one place that refuses all of it, with a
short reason for the command's usual one-line error, before anything else runs:

- only a regular file is opened (checked on the open descriptor, so a symlink swapped in between
  is caught too), never one larger than the caller's limit, and never more than the limit is read
  (standard input, or a file that grows while being read);
- the text must be UTF-8; ``NaN``, ``Infinity`` and ``-Infinity`` are refused (not JSON), and so
  is a ``\\uD800``-style escape that leaves a lone surrogate in a string (no UTF-8 text holds one);
- nesting deeper than :data:`MAX_DEPTH` is refused, however deep, without a traceback;
- JSON Lines are read one line at a time (:func:`iter_json_lines`), so memory does not grow with
  the file.

The limits are documented in docs/archive.md and docs/record-format.md.
"""

from __future__ import annotations

import io
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO, cast

MiB = 1024 * 1024

#: Deepest nesting of arrays and objects accepted. A record nests 5 deep, a rating file 5.
MAX_DEPTH = 64
#: A whole JSON document (a rating file, a record, a JSON list of records) is read at once.
DOCUMENT_MAX_BYTES = 32 * MiB
#: A JSON Lines file is streamed, so it may be far larger than a document...
LINES_FILE_MAX_BYTES = 4096 * MiB
#: ...but each of its lines is read at once.
LINE_MAX_BYTES = 4 * MiB

_CHUNK = 1 * MiB


class JsonFileError(ValueError):
    """A file (or one line of a JSON Lines file) refused; ``reason`` is one short line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@contextmanager
def open_source(path: str, stdin: BinaryIO, max_bytes: int) -> Iterator[BinaryIO]:
    """The bytes of ``path`` (``-``: standard input), refused unless it is a regular file of at most
    ``max_bytes``. Reading past ``max_bytes`` is the reader's to refuse (see :func:`read_bounded`)."""
    if path == "-":
        yield stdin
        return
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        # Non-blocking, so that opening a FIFO with no writer returns at once (to be refused).
        descriptor = os.open(path, flags)
    except OSError as exc:
        raise JsonFileError(f"cannot read: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise JsonFileError(f"not a regular file ({_kind(info.st_mode)})")
        if info.st_size > max_bytes:
            raise JsonFileError(f"larger than {_size(max_bytes)}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
        handle = os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise
    with handle:
        yield handle


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a plain file"


def _size(limit: int) -> str:
    return f"{limit // MiB} MiB" if limit % MiB == 0 else f"{limit} bytes"


def read_bounded(stream: BinaryIO, max_bytes: int, already: int = 0) -> bytes:
    """The rest of ``stream``, refused as soon as it brings the file (of which ``already`` bytes were
    read before) past ``max_bytes``, never reading much further."""
    parts: list[bytes] = []
    total = already
    while True:
        part = stream.read(min(_CHUNK, max_bytes + 1 - total))
        if not part:
            return b"".join(parts)
        total += len(part)
        if total > max_bytes:
            raise JsonFileError(f"larger than {_size(max_bytes)}")
        parts.append(part)


def _refuse_constant(name: str) -> Any:
    raise JsonFileError(f"not JSON: {name} is not a JSON number")


def loads_strict(data: bytes) -> Any:
    """Decode one JSON text as strictly as RFC 8259 reads, refusing with a one-line reason."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonFileError(f"not UTF-8 text (byte {exc.start + 1})") from exc
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as exc:
        raise JsonFileError(f"not accepted: nested deeper than {MAX_DEPTH}") from exc
    except JsonFileError:
        raise
    except ValueError as exc:  # JSONDecodeError, and integers too long to read
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise JsonFileError(f"not JSON: {first[:100]}") from exc
    _check_tree(value, surrogates_possible="\\u" in text)
    return value


def _check_tree(value: Any, *, surrogates_possible: bool) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings with a lone surrogate (only a ``\\u``
    escape can make one, so the strings are looked at only when the text has one)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.items()
        elif isinstance(item, list):
            children = item
        else:
            if surrogates_possible and isinstance(item, str):
                _check_text(item)
            continue
        if depth >= MAX_DEPTH:
            raise JsonFileError(f"not accepted: nested deeper than {MAX_DEPTH}")
        for child in children:
            if isinstance(child, tuple):  # a key and its value
                if surrogates_possible:
                    _check_text(child[0])
                child = child[1]
            if isinstance(child, dict | list) or (surrogates_possible and isinstance(child, str)):
                stack.append((child, depth + 1))


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        raise JsonFileError(f"not accepted: a lone surrogate \\u{code:04x} in a string") from exc


def binary_stream(stdin: TextIO) -> BinaryIO:
    """The bytes under a text stream (the real standard input has them). A stream without any (an
    in-memory one, from a caller in this process) is encoded as it is read."""
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        return cast(BinaryIO, buffer)
    return cast(BinaryIO, io.BufferedReader(_EncodedText(stdin)))


class _EncodedText(io.RawIOBase):
    def __init__(self, text: TextIO) -> None:
        self._text = text
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending:
            chunk = self._text.read(_CHUNK)
            if not chunk:
                return 0
            self._pending = chunk.encode("utf-8", "surrogatepass")
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def read_json(path: str, stdin: BinaryIO, max_bytes: int = DOCUMENT_MAX_BYTES) -> Any:
    """One whole JSON document from ``path`` (``-``: standard input), read safely."""
    with open_source(path, stdin, max_bytes) as stream:
        data = read_bounded(stream, max_bytes)
    return loads_strict(data)


@dataclass(frozen=True)
class Line:
    """One record of a file: its number (from 1), and its value or why it was refused."""

    number: int
    value: Any = None
    error: JsonFileError | None = None


def iter_json_values(path: str, stdin: BinaryIO) -> Iterator[Line]:
    """The values of a file that holds JSON Lines (one object a line, streamed), one JSON value, or a
    JSON list of values, in order.

    A file is JSON Lines when its first non-blank line is one JSON object (it starts with ``{`` and
    ends with ``}``); a line of it that cannot be read is one refused :class:`Line`, and the rest go
    on. A file refused whole (or a line too long to read) raises :class:`JsonFileError`."""
    with open_source(path, stdin, LINES_FILE_MAX_BYTES) as stream:
        total = 0
        first = b""
        while not first.strip():
            first = stream.readline(LINE_MAX_BYTES + 1)
            if not first:
                return
            total += len(first)
        stripped = first.strip()
        one_object = stripped.startswith(b"{") and stripped.endswith(b"}") and len(first) <= LINE_MAX_BYTES
        try:
            head: Any = loads_strict(first) if one_object else None
        except JsonFileError as exc:
            head = exc  # a JSON Lines file whose first line is refused: the others go on
        if not isinstance(head, dict | JsonFileError):
            if total > DOCUMENT_MAX_BYTES:
                raise JsonFileError(f"larger than {_size(DOCUMENT_MAX_BYTES)}")
            whole = loads_strict(first + read_bounded(stream, DOCUMENT_MAX_BYTES, already=total))
            for number, value in enumerate(whole if isinstance(whole, list) else [whole], start=1):
                yield Line(number, value)
            return
        yield Line(1, error=head) if isinstance(head, JsonFileError) else Line(1, head)
        number = 1
        for line in _lines(stream, total):
            if not line.strip():
                continue
            number += 1
            try:
                yield Line(number, loads_strict(line))
            except JsonFileError as exc:
                yield Line(number, error=exc)


def _lines(stream: BinaryIO, total: int) -> Iterator[bytes]:
    while True:
        line = stream.readline(LINE_MAX_BYTES + 1)
        if not line:
            return
        total += len(line)
        if total > LINES_FILE_MAX_BYTES:
            raise JsonFileError(f"larger than {_size(LINES_FILE_MAX_BYTES)}")
        if len(line) > LINE_MAX_BYTES:
            raise JsonFileError(f"a line longer than {_size(LINE_MAX_BYTES)}")
        yield line
