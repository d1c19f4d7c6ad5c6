"""The kernel's own scalar instructions, counted where they run.

On the device the scalar unit executes the kernel's C++ (arithmetic, branches, loops, address
computation); the emulation library's code stands for pipe instructions and API calls that the
model charges itself. The kernel is compiled to assembly with `-fsanitize-coverage=trace-pc`, which
puts a call at the start of every basic block where the flags are dead, and `-g1`, whose `.loc`
directives name the source file of each instruction. This pass replaces each call with one add of
the block's weight to a counter in the kernel object (no call, no register touched): the weight
is the number of instructions from that call to the next that come from the candidate's own files,
not from the emulation headers or the system's, less calls and moves into argument registers or
stack slots (ARG_WRITE: on the device the API is inline and takes its operands where they are). A block of library code alone loses its call. The
runtime reads the counter at each traced instruction and charges `scalar_instr_cycles` per count
(runtime/core.cpp, Core::SettleScalarInstrs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

TRACE_CALL = re.compile(r"\tcall\t__sanitizer_cov_trace_pc(@PLT)?$")
FILE = re.compile(r'\t\.file\s+(\d+)\s+"([^"]*)"(?:\s+"([^"]*)")?')
LOC = re.compile(r"\t\.loc\s+(\d+)\s")
COUNTER = "ascendc_sim_scalar_instrs"  # the symbol the runtime looks up in the kernel object
_LOCAL = COUNTER + "_here"
_TAIL = (
    f"\t.bss\n\t.align 8\n{_LOCAL}:\n\t.zero 8\n"
    f"\t.globl {COUNTER}\n\t.type {COUNTER}, @object\n\t.size {COUNTER}, 8\n\t.set {COUNTER}, {_LOCAL}\n"
)


# A move into an argument register or a stack slot: the set-up of a library call's arguments and
# structures (DataCopyParams, a GlobalTensor slice, the source location every API call records),
# which the device's inline API does not have, or a spill of x86's 16 registers. Not counted.
ARG_WRITE = re.compile(
    r"^\t(v?mov|lea|xor)\w*\t.*,\s*(%[re]?(di|si|dx|cx)|%[sd]il|%r[89][dwb]?|%xmm[0-7]|-?\d*\(%rsp\))$"
)


def _is_instruction(line: str) -> bool:
    # An instruction line: a tab, then a mnemonic (directives start with '.', labels end in ':').
    return len(line) > 1 and line[0] == "\t" and line[1] != "." and not line.endswith(":")


def count_scalar_instructions(asm: str, library_dirs: Sequence[str]) -> str:
    """`asm` with each trace-pc call replaced by its block's weighted counter add."""
    lines = asm.split("\n")
    library: set[str] = set()
    out: list[str] = []
    pending = -1  # index in `out` of the last trace call, whose weight is being counted
    weight = 0  # before a function's first trace call: its entry, added to that call's weight
    own = True  # the current .loc is in a candidate file

    def settle() -> None:
        if pending >= 0:
            out[pending] = f"\taddq\t${weight}, {_LOCAL}(%rip)" if weight else ""

    for line in lines:
        if line.startswith("\t.file"):
            if m := FILE.match(line):
                path = m.group(3) or m.group(2)
                if path.startswith("/") and any(path.startswith(d) for d in library_dirs):
                    library.add(m.group(1))
        elif line.startswith("\t.loc"):
            if m := LOC.match(line):
                own = m.group(1) not in library
        elif TRACE_CALL.match(line):
            if pending >= 0:
                settle()
                weight = 0
            pending = len(out)
        elif line.startswith("\t.cfi_startproc") or line.startswith("\t.cfi_endproc"):
            settle()
            pending, weight = -1, 0
        elif (
            own
            and _is_instruction(line)
            and not line.startswith("\tcall")
            and not ARG_WRITE.match(line)
        ):
            weight += 1
        out.append(line)
    settle()
    return "\n".join(out) + "\n" + _TAIL
