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

Destructor sections (`.fini_array*`, a `__attribute__((destructor))` function) are renamed to
`cand_fini` and retyped alike, and nothing calls them: a process that loads a candidate library
would otherwise run them at its exit or dlclose, outside every filter, and the candidate process
itself ends by `_exit`, running no static destructor either.
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
_RENAMED = ((b".init_array", SECTION), (b".ctors", SECTION), (b".fini_array", DROPPED))


def defer(obj: Path) -> int:
    """Rename and retype the constructor and destructor sections of a relocatable ELF64 object
    in place; returns how many. Names are rewritten inside the section-name table (the new one is shorter,
    NUL-terminated), so no other offset moves."""
    data = bytearray(obj.read_bytes())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{obj.name}: not a little-endian ELF64 object")
    shoff, shentsize, shnum, shstrndx = (
        struct.unpack_from("<Q", data, 0x28)[0],
        *struct.unpack_from("<HHH", data, 0x3A),
    )
    header = lambda k: shoff + k * shentsize  # noqa: E731
    names = struct.unpack_from("<Q", data, header(shstrndx) + 0x18)[0]
    count = 0
    for k in range(shnum):
        name_at = names + struct.unpack_from("<I", data, header(k))[0]
        name = bytes(data[name_at : data.index(b"\0", name_at)])
        renamed = next((to for d, to in _RENAMED if name == d or name.startswith(d + b".")), None)
        if renamed is not None:
            data[name_at : name_at + len(name)] = renamed.ljust(len(name), b"\0")
            struct.pack_into("<I", data, header(k) + 4, SHT_PROGBITS)
            count += 1
    if count:
        obj.write_bytes(bytes(data))
    return count
