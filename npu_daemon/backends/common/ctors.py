"""Candidate constructors run when the candidate process says, not when its libraries load.

dlopen runs a library's `.init_array` while the candidate process is still at the loading stage
of its syscall filter (read-only opens allowed); a candidate's global constructor would run
there. So each candidate object's constructor sections (`.init_array*`, `.ctors*`) are renamed to
`cand_init` and retyped PROGBITS before the link (gold places sections by type, ld by name):
neither linker then makes them the library's init array, and GNU ld's `__start_cand_init` /
`__stop_cand_init` bound them. The runner linked into every candidate library
(host/candidate_init.cpp) exports `ascendc_sim_candidate_init`, which calls them; the candidate
process calls it once its filter is at the running stage. Host tiling code's registrations
(OP_ADD, IMPL_OP_OPTILING) are such constructors and still run, only later.

Destructor sections (`.fini_array*`, `.dtors*`, a `__attribute__((destructor))` function) are
renamed to `cand_fini` and retyped alike, and nothing calls them: a process that loads a candidate
library would otherwise run them at its exit or dlclose, outside every filter, and the candidate
process itself ends by `_exit`, running no static destructor either.
"""

from __future__ import annotations

import struct
from pathlib import Path

SECTION = b"cand_init"
DROPPED = b"cand_fini"
RUNNER_SOURCE = Path(__file__).resolve().parent / "host" / "candidate_init.cpp"
RUNNER_OBJECT = "candidate_init.o"
SHT_PROGBITS, SHT_INIT_ARRAY = 1, 14
# Each section family (the name, or the name and a "." suffix) and what it is renamed to.
_RENAMED = (
    (b".init_array", SECTION),
    (b".ctors", SECTION),
    (b".fini_array", DROPPED),
    (b".dtors", DROPPED),
)
SHN_UNDEF, SHN_LORESERVE, SHN_XINDEX = 0, 0xFF00, 0xFFFF
# Offsets in an ELF64 section header (Elf64_Shdr).
SH_NAME, SH_TYPE, SH_OFFSET, SH_SIZE, SH_LINK = 0x00, 0x04, 0x18, 0x20, 0x28


def _renamed(name: bytes) -> bytes | None:
    return next((to for d, to in _RENAMED if name == d or name.startswith(d + b".")), None)


def defer(obj: Path) -> int:
    """Rename and retype the constructor and destructor sections of a relocatable ELF64 object
    in place; returns how many.

    The new names go into a copy of the section-name table appended at the object's end, which
    the table's header then points to: a name longer than the one it replaces (`.ctors`, 6 bytes,
    to `cand_init`, 9) moves no byte of the object, and a name the assembler shares with another
    section as its tail (`.init_array` inside `.rela.init_array`) renames that section alone. An
    object of 65,280 sections or more keeps its count and the table's index in section 0 (the
    ELF extended numbering), which are read there."""
    data = bytearray(obj.read_bytes())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{obj.name}: not a little-endian ELF64 object")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    header = lambda k: shoff + k * shentsize  # noqa: E731
    if shnum == 0 and shoff:
        shnum = struct.unpack_from("<Q", data, header(0) + SH_SIZE)[0]
    if shstrndx == SHN_XINDEX:
        shstrndx = struct.unpack_from("<I", data, header(0) + SH_LINK)[0]
    if shstrndx == SHN_UNDEF or shnum > (len(data) - shoff) // max(shentsize, 1):
        raise ValueError(f"{obj.name}: no section-name table in its {shnum} section headers")
    table_at, table_size = struct.unpack_from("<QQ", data, header(shstrndx) + SH_OFFSET)
    table = bytes(data[table_at : table_at + table_size])
    appended = bytearray()
    at_of: dict[bytes, int] = {}  # each new name's offset in the appended table
    count = 0
    for k in range(shnum):
        at = struct.unpack_from("<I", data, header(k) + SH_NAME)[0]
        renamed = _renamed(table[at : table.index(b"\0", at)])
        if renamed is None:
            continue
        if renamed not in at_of:
            at_of[renamed] = table_size + len(appended)
            appended += renamed + b"\0"
        struct.pack_into("<II", data, header(k) + SH_NAME, at_of[renamed], SHT_PROGBITS)
        count += 1
    if count:
        data += bytes(-len(data) % 8)
        struct.pack_into(
            "<QQ", data, header(shstrndx) + SH_OFFSET, len(data), table_size + len(appended)
        )
        obj.write_bytes(bytes(data + table + appended))
    return count
