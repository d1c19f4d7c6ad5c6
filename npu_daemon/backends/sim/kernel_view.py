"""How a kernel sees its op when compiled against the emulation headers with the host g++.

The parts the real toolchain generates are shared with the cann backend
(npu_daemon/backends/kernel_view.py); these are what a single host g++ compile adds to them.
"""

from __future__ import annotations

import ctypes
import re

from ascend_gym.package import OperatorPackage
from npu_daemon.backends import kernel_view


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


# Headers a host tiling header may include; pulled in before the wrapping namespace.
_TILING_HEADER_DEPS = [
    "cstdint",
    "cstddef",
    "cstring",
    "cmath",
    "algorithm",
    "array",
    "string",
    "vector",
    "map",
    "register/tilingdata_base.h",
    "tiling/tiling_api.h",
]


def tiling_view(pkg: OperatorPackage) -> list[str]:
    """The shared tiling view over the host header as the simulator's headers compile it."""
    view = kernel_view.tiling_view(pkg, [f'#include "{pkg.tiling_header_path}"'])
    deps = [f"#include <{h}>" if "/" not in h else f'#include "{h}"' for h in _TILING_HEADER_DEPS]
    return [*deps, *view] if view else []


_KERNEL_TYPE = re.compile(r"KERNEL_TASK_TYPE_DEFAULT\s*\(\s*(KERNEL_TYPE_\w+)\s*\)")
_MIX_HINTS = re.compile(r"\bASCEND_IS_AIC\b|\bREGIST_MATMUL_OBJ\b|\bCrossCore(Set|Wait)Flag\b")
_CUBE_HINTS = re.compile(r"\b(Mmad|Fixpipe|LoadData)\s*[<(]|TPosition::(A1|A2|B1|B2|CO1)\b")


def kernel_type(pkg: OperatorPackage) -> str:
    """Which cores the launch starts, as the real toolchain decides from the kernel source.

    `KERNEL_TASK_TYPE_DEFAULT(type)` wins. Without it the compiler infers the type from the code:
    cube and vector code together (or the AIC/AIV split, the Matmul service, cross-core flags) make
    a mixed 1:2 kernel unless ASCENDC_CUBE_ONLY is defined; cube code alone an AIC-only kernel.
    """
    text = "\n".join(t for p, t in pkg.files.items() if p.startswith("op_kernel/"))
    declared = _KERNEL_TYPE.search(text)
    if declared:
        return declared.group(1)
    cube_only = "ASCENDC_CUBE_ONLY" in text
    if _MIX_HINTS.search(text):
        return "KERNEL_TYPE_AIC_ONLY" if cube_only else "KERNEL_TYPE_MIX_AIC_1_2"
    if _CUBE_HINTS.search(text):
        return "KERNEL_TYPE_AIC_ONLY"
    return "KERNEL_TYPE_AIV_ONLY"
