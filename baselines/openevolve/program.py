"""An operator package as one OpenEvolve program, and back.

OpenEvolve evolves a single text file. The program holds the two parts an agent may change, the
host tiling program and the device kernel, each inside its own EVOLVE-BLOCK; everything outside
the blocks (the banner and the file headers that say where each block goes) is fixed, and the
evaluator rejects a program whose fixed text differs from the initial program's.
"""

from __future__ import annotations

import difflib
import re

from agents.llm.sources import cases_text
from ascend_core.package import OperatorPackage
from ascend_gym import rewrites

START, END = "// EVOLVE-BLOCK-START", "// EVOLVE-BLOCK-END"
_FILE = "// ===== FILE {path}{bare} ====="
# A block holds its file less one final newline; a file without one says so in its header (fixed
# text), so every file comes back byte for byte (the baseline's hash is the baseline's).
_BARE = " (no newline at end)"
_SECTION = re.compile(
    r"^// ===== FILE (?P<path>\S+)(?P<bare>"
    + re.escape(_BARE)
    + r")? =====\n"
    + re.escape(START)
    + r"\n(?P<body>.*?)\n"
    + re.escape(END)
    + r"$",
    re.MULTILINE | re.DOTALL,
)


class ProgramError(ValueError):
    """The program cannot be mapped back onto the operator package."""


def evolvable_paths(package: OperatorPackage) -> list[str]:
    """The files every policy's moves may change: the host tiling program, the kernel file and
    the op_kernel headers beside it (real operators keep their kernel classes there)."""
    return [package.host_path, *rewrites.kernel_side(package)]


def compose(package: OperatorPackage) -> str:
    """The program text of a package: a fixed banner, then one EVOLVE-BLOCK per evolvable file."""
    lines = [
        f"// AscendC operator {package.spec.name} ({package.uri}): host tiling program and device kernel.",
        "// Only the text inside the EVOLVE-BLOCKs may change; each block is the whole file named above it.",
        "// Correctness: a candidate must pass every case below, each within its dtype's tolerance.",
        *(f"// {line}" for line in cases_text(package.spec).splitlines()),
    ]
    for path in evolvable_paths(package):
        text = package.files[path]
        bare = not text.endswith("\n")
        body = text if bare else text[:-1]
        lines += [_FILE.format(path=path, bare=_BARE if bare else ""), START, body, END]
    return "\n".join(lines) + "\n"


def fixed_text(program: str) -> list[str]:
    """The text outside the EVOLVE-BLOCKs, segment by segment."""
    out, rest = [], program
    while START in rest:
        head, _, tail = rest.partition(START)
        if END not in tail:
            raise ProgramError("an EVOLVE-BLOCK-START has no EVOLVE-BLOCK-END")
        out.append(head)
        rest = tail.partition(END)[2]
    out.append(rest)
    return out


def check_blocks(initial: str, program: str) -> None:
    """Raise unless `program` changes only the inside of the initial program's EVOLVE-BLOCKs."""
    if program.count(START) != initial.count(START) or program.count(END) != initial.count(END):
        raise ProgramError(
            f"EVOLVE-BLOCK markers were added or removed (expected {initial.count(START)} blocks)"
        )
    if fixed_text(program) != fixed_text(initial):
        raise ProgramError(
            "text outside the EVOLVE-BLOCKs was changed; only the block contents may change"
        )


def split(program: str, baseline: OperatorPackage) -> OperatorPackage:
    """The package a program stands for: the baseline with each block's file replaced."""
    files = dict(baseline.files)
    seen = []
    for m in _SECTION.finditer(program):
        path = m["path"]
        if path not in evolvable_paths(baseline):
            raise ProgramError(f"{path} is not an evolvable file of {baseline.spec.name}")
        files[path] = m["body"] + ("" if m["bare"] else "\n")
        seen.append(path)
    if sorted(seen) != sorted(evolvable_paths(baseline)):
        raise ProgramError(
            f"the program must hold exactly the blocks {evolvable_paths(baseline)}, found {seen}"
        )
    return baseline.model_copy(update={"files": files})


def search_replace(old: str, new: str) -> str:
    """SEARCH/REPLACE blocks turning `old` into `new`, each SEARCH unique in `old`.

    Each hunk starts with one line of context and grows until its SEARCH text occurs once in
    `old` and ends on a non-blank line (OpenEvolve strips trailing whitespace from both halves).
    """
    a, b = old.split("\n"), new.split("\n")
    blocks = []
    for group in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_grouped_opcodes(1):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        while True:
            search = a[i1:i2]
            unique = bool(search) and "\n".join(a).count("\n".join(search)) == 1
            if unique and search[-1].strip():
                break
            if i2 < len(a) and (not search or not search[-1].strip() or i1 == 0):
                i2, j2 = i2 + 1, j2 + 1
            elif i1 > 0:
                i1, j1 = i1 - 1, j1 - 1
            else:
                break
        blocks.append(
            "<<<<<<< SEARCH\n"
            + "\n".join(a[i1:i2])
            + "\n=======\n"
            + "\n".join(b[j1:j2])
            + "\n>>>>>>> REPLACE"
        )
    return "\n\n".join(blocks)
