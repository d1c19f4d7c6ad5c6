"""One canonical encoding for every content digest that joins parts (package hash, object cache,
case cache, the daemon's code digest).

Parts joined with a separator and no lengths are ambiguous: a file whose text holds the separator
reads like two files, so two different packages shared one hash. Here every part is typed and
length-prefixed, a sequence carries its count, and the encoding starts with a format tag naming
what is digested: two different inputs never encode alike, and no digest of one kind can be
passed off as another's.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence

# Bumped when the encoding changes: every digest changes with it.
FORMAT = "ascend-digest/1"

Part = str | bytes | int | Sequence["Part"]


def _encode(part: Part, out: list[bytes]) -> None:
    if isinstance(part, bytes):
        out += [b"b", struct.pack(">Q", len(part)), part]
    elif isinstance(part, str):
        data = part.encode("utf-8", "surrogatepass")
        out += [b"s", struct.pack(">Q", len(data)), data]
    elif isinstance(part, bool):
        raise TypeError("a digest part is text, bytes, an integer or a sequence of them")
    elif isinstance(part, int):  # any size: its decimal digits
        data = str(part).encode()
        out += [b"i", struct.pack(">Q", len(data)), data]
    else:
        out += [b"l", struct.pack(">Q", len(part))]
        for item in part:
            _encode(item, out)


def encode(tag: str, *parts: Part) -> bytes:
    """The canonical bytes of (FORMAT, tag, parts): injective over its arguments."""
    out: list[bytes] = []
    _encode([FORMAT, tag, list(parts)], out)
    return b"".join(out)


def digest(tag: str, *parts: Part) -> str:
    """sha256 (hex) of the canonical encoding of `parts` under `tag`."""
    return hashlib.sha256(encode(tag, *parts)).hexdigest()
