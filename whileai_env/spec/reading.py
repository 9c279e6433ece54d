"""Read a spec file safely: what it is, how big, which encoding, then JSON or YAML with limits.

A spec path comes from a user and may be anything: a FIFO (opening it blocks forever),
``/dev/zero`` (reading it never ends), a 3 GB log, a UTF-16 export from a Windows editor, JSON
nested 3,000 deep, a YAML alias bomb. Each is refused here, before it costs more than a
``stat``, with a :class:`~whileai_env.errors.SpecError` that names the file and the problem:

- the suffix is checked first, then ``stat``: only regular files, at most :data:`MAX_SPEC_BYTES`;
  the file is opened non-blocking and checked again on the open descriptor, and at most
  ``MAX_SPEC_BYTES + 1`` bytes are ever read;
- the encoding comes from a byte-order mark (UTF-8, UTF-16, UTF-32) or is UTF-8; anything else
  is refused naming the byte, its offset and line;
- JSON nesting and number length are bounded before decoding
  (:mod:`whileai_env._util.bounded_json`); YAML goes through :mod:`whileai_env.spec.yaml_reading`.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from pathlib import Path
from typing import Any

from whileai_env._util.bounded_json import JsonLimitError, loads
from whileai_env.errors import SpecError
from whileai_env.spec.yaml_reading import MAX_DEPTH, read_yaml

#: Largest spec file read (a 500-tool spec is well under 1 MB).
MAX_SPEC_BYTES = 8 * 1024 * 1024
SPEC_SUFFIXES = (".json", ".yaml", ".yml")
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bytes(path: Path, origin: str, limit: int = MAX_SPEC_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``SpecError`` for anything else."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise SpecError(f"cannot read the file: {exc.strerror}", source=origin) from None
    if not stat.S_ISREG(mode):
        raise SpecError(
            f"not a regular file ({_kind(mode)}); a spec is a .json or .yaml file", source=origin
        )
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise SpecError(f"cannot open the file: {exc.strerror}", source=origin) from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise SpecError(f"not a regular file ({_kind(info.st_mode)})", source=origin)
        if info.st_size > limit:
            raise SpecError(
                f"the file is {info.st_size:,} bytes; a spec file may be at most {limit:,}",
                source=origin,
            )
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise SpecError(
            f"the file is over {limit:,} bytes; a spec file may be at most {limit:,}", source=origin
        )
    return data


def decode(data: bytes, origin: str) -> str:
    """``data`` as text: the encoding its byte-order mark names, else UTF-8; ``SpecError`` naming
    the encoding problem (which byte, where) otherwise."""
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    if encoding is None and b"\x00" in data[:4096]:
        guess = "UTF-16" if data.count(b"\x00") * 4 < len(data) * 3 else "UTF-32"
        raise SpecError(
            f"the file holds NUL bytes: it looks like {guess} without a byte-order mark; "
            "save it as UTF-8",
            source=origin,
        )
    try:
        return data.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        name = {"utf-8-sig": "UTF-8"}.get(encoding or "utf-8", (encoding or "utf-8").upper())
        line = data[: exc.start].count(b"\n") + 1 if encoding in (None, "utf-8-sig") else None
        bad = data[exc.start : exc.start + 1].hex()
        raise SpecError(
            f"not valid {name}: byte 0x{bad} at offset {exc.start} ({exc.reason}); "
            "save the file as UTF-8",
            source=origin,
            line=line,
        ) from None


def read_text(path: Path, limit: int = MAX_SPEC_BYTES) -> str:
    """A small text file next to a spec (``rubric.md``, ``system_prompt.md``), read as safely."""
    origin = str(path)
    return decode(read_bytes(path, origin, limit), origin)


def _parse_json(text: str, origin: str) -> Any:
    try:
        return loads(text, max_depth=MAX_DEPTH)
    except JsonLimitError as exc:
        raise SpecError(
            f"the JSON is {exc}" if exc.reason.startswith("nested") else f"the JSON {exc}",
            source=origin,
        ) from None
    except json.JSONDecodeError as exc:
        raise SpecError(
            f"invalid JSON: {exc.msg} (column {exc.colno})", source=origin, line=exc.lineno
        ) from None


def read_spec_file(path: Path) -> tuple[dict, str]:
    """The raw spec dict in a JSON or YAML file (a top-level list is the tools) and its origin."""
    origin = str(path)
    suffix = path.suffix.lower()
    if suffix not in SPEC_SUFFIXES:
        raise SpecError("a spec file must end in .json, .yaml or .yml", source=origin)
    text = decode(read_bytes(path, origin), origin)
    data = _parse_json(text, origin) if suffix == ".json" else read_yaml(text, origin)
    if isinstance(data, list):
        data = {"tools": data}
    if not isinstance(data, dict):
        raise SpecError(
            f"the spec must be an object or a list of tools, got {type(data).__name__}",
            source=origin,
        )
    return data, origin
