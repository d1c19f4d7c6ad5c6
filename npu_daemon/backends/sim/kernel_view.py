"""How a kernel sees its op when compiled against the emulation headers.

The real toolchain generates pieces of the kernel compile: kernel-side TilingData structs, one
kernel per tiling key with that key's TilingData, the entry symbol. These helpers reproduce them
for a single g++ compile: prelude lines, link flags and, when needed, a rewritten kernel source.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

from ascend_gym.package import OperatorPackage


def entry_renames(entry: str) -> tuple[list[str], list[str]]:
    """Prelude lines and link flags that keep a kernel entry named like a C library function working.

    Real ops are often named after math functions (atanh, exp, abs, select); on the host g++ those
    names are already extern "C" declarations from libc, so the entry is compiled under another
    name and exported under its own with a linker alias, which is what the harness looks up.
    """
    if not hasattr(ctypes.CDLL(None), entry):
        return [], []
    inner = f"ascendc_sim_entry_{entry}"
    return [f"#define {entry} {inner}"], [f"-Wl,--defsym,{entry}={inner}"]


_TILING_STRUCT = re.compile(r"BEGIN_TILING_DATA_DEF\(\s*(\w+)\s*\)")
# Headers a host tiling header may include; pulled in before the wrapping namespace below.
_TILING_HEADER_DEPS = ["cstdint", "cstddef", "cstring", "cmath", "algorithm", "array", "string", "vector", "map",
                       "register/tilingdata_base.h", "tiling/tiling_api.h"]


def tiling_view(pkg: OperatorPackage) -> list[str]:
    """Prelude lines that give the kernel the tiling structs and nothing else of the host header.

    The real toolchain generates the kernel-side TilingData structs in the global namespace from
    the registered classes; other host declarations (constants, helper structs) never reach the
    kernel, so a kernel may reuse their names. We include the host header inside a namespace of
    its own and re-export only the TilingData names. A kernel that includes the header itself
    (the standard C++ struct form) gets it as written.
    """
    header = pkg.tiling_header_path
    name = Path(header).name
    kernel_files = [t for p, t in pkg.files.items() if p.startswith("op_kernel/")]
    if any(re.search(rf'#\s*include\s*[<"](?:[^">]*/)?{re.escape(name)}[">]', t) for t in kernel_files):
        return []
    structs = sorted(set(_TILING_STRUCT.findall(pkg.files[header])))
    return [*(f"#include <{h}>" if "/" not in h else f'#include "{h}"' for h in _TILING_HEADER_DEPS),
            "namespace ascendc_sim_tiling {", f'#include "{header}"', "namespace optiling {}", "using namespace optiling;",
            "}", "namespace optiling { using namespace ::ascendc_sim_tiling::optiling; }",
            *(f"using ascendc_sim_tiling::{s};" for s in structs)]


_KEYED_REGISTRATION = re.compile(r"REGISTER_TILING_DATA_CLASS\(\s*(\w+?)_(\d+)\s*,\s*([\w:]+)\s*\)")
_KEY_BRANCH = re.compile(r"\bif\s*(?:constexpr\s*)?\(((?:\s*(?:\|\|)?\s*TILING_KEY_IS\(\s*\d+\s*\))+)\s*\)\s*\{")
_KEY_NUMBER = re.compile(r"TILING_KEY_IS\(\s*(\d+)")
_GET_TILING_DATA = re.compile(r"\bGET_TILING_DATA\s*\(")


def _block_end(text: str, open_brace: int) -> int:
    """Index of the `}` closing the block that opens at `open_brace` (strings and comments skipped)."""
    depth, i, n = 0, open_brace, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 1
        elif c in "\"'":
            i += 1
            while i < n and text[i] != c:
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


def bind_keyed_tiling(source: str, structs: dict[int, str]) -> str:
    """Inside `if (TILING_KEY_IS(k)) {...}`, make GET_TILING_DATA read the struct registered for key k.

    The real toolchain compiles one kernel per tiling key, so in the branch of key k the generated
    GET_TILING_DATA yields `REGISTER_TILING_DATA_CLASS(Op_k, S)`'s S. Line numbers are unchanged.
    """
    out, pos = [], 0
    for m in _KEY_BRANCH.finditer(source):
        if m.start() < pos:
            continue  # inside a branch already rewritten
        end = _block_end(source, m.end() - 1)
        chosen = {structs.get(int(k)) for k in _KEY_NUMBER.findall(m.group(1))}
        body = source[m.end():end]
        if len(chosen) == 1 and None not in chosen:
            body = _GET_TILING_DATA.sub(f"GET_TILING_DATA_WITH_STRUCT({chosen.pop()}, ", body)
        out += [source[pos:m.end()], body]
        pos = end
    return "".join(out) + source[pos:]


def keyed_tiling_source(pkg: OperatorPackage, workdir: Path, tag: str) -> str:
    """The kernel file to compile: the package's own, or a copy with per-key TilingData bound.

    The copy sits beside the original (so relative includes resolve alike) under a name carrying
    `tag`, so that concurrent compiles of the same package never share it."""
    structs = {int(k): s for op, k, s in _KEYED_REGISTRATION.findall(pkg.files[pkg.tiling_header_path])
               if op == pkg.spec.op_type}
    if not structs:
        return pkg.kernel_path
    source = pkg.files[pkg.kernel_path]
    bound = bind_keyed_tiling(source, structs)
    if bound == source:
        return pkg.kernel_path
    path = Path(pkg.kernel_path)
    keyed = path.with_name(f"{path.stem}.keyed-{tag}{path.suffix}")
    (workdir / keyed).write_text(f'#line 1 "{pkg.kernel_path}"\n' + bound)
    return keyed.as_posix()
