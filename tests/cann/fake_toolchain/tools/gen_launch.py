#!/usr/bin/env python3
"""Fake CANN (tests only): write aclrtlaunch_<kernel>.h and a CPU launch stub per kernel entry.

usage: gen_launch.py OUT_DIR SOURCE...   (follows quoted #includes relative to each file)

The device compiler has no C library, so an entry may be named like a libc function (expm1); our
g++ compile sees libc's declaration of that name, so such an entry is compiled under another name:
OUT_DIR/fake_entry_renames.h (force-included into the kernel sources) renames it after
kernel_operator.h has declared libc's, and its launch stub calls the renamed symbol.
"""

import ctypes
import re
import sys
from pathlib import Path

ENTRY = re.compile(r'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+(\w+)\s*\(([^)]*)\)')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def entries(path: Path, seen: set[Path]) -> list[tuple[str, list[str]]]:
    path = path.resolve()
    if path in seen or not path.is_file():
        return []
    seen.add(path)
    text = path.read_text(errors="replace")
    found = [
        (m[1], [p.split()[-1].lstrip("*&") for p in m[2].split(",") if p.strip()])
        for m in ENTRY.finditer(text)
    ]
    for inc in INCLUDE.findall(text):
        found += entries(path.parent / inc, seen)
    return found


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    seen: set[Path] = set()
    found = {n: p for src in sys.argv[2:] for n, p in entries(Path(src), seen)}
    libc = ctypes.CDLL(None)
    inner = {n: f"fake_cann_entry_{n}" if hasattr(libc, n) else n for n in found}
    (out / "fake_entry_renames.h").write_text(
        '#pragma once\n#include "kernel_operator.h"\n'
        + "".join(f"#define {n} {i}\n" for n, i in inner.items() if i != n)
    )
    for name, params in found.items():
        decl = ", ".join(f"void* {p}" for p in params)
        (out / f"aclrtlaunch_{name}.h").write_text(
            '#pragma once\n#include <cstdint>\n#include "acl/acl.h"\n'
            f'extern "C" uint32_t aclrtlaunch_{name}(uint32_t blockDim, aclrtStream stream, {decl});\n'
            "#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n"
        )
        args = ", ".join(f"static_cast<uint8_t*>({p})" for p in params)
        (out / f"aclrtlaunch_{name}.cpp").write_text(
            "#include <cstdint>\n#include <functional>\n"
            f'extern "C" void {inner[name]}({", ".join("uint8_t*" for _ in params)});\n'
            "uint32_t FakeCannLaunch(const char*, uint32_t, const char*, const std::function<void()>&);\n"
            f'extern "C" uint32_t aclrtlaunch_{name}(uint32_t blockDim, void* stream, {decl}) {{\n'
            f'  (void)stream;\n  return FakeCannLaunch("{name}", blockDim, FAKE_CANN_SOC_PARAMS, [&] {{ {inner[name]}({args}); }});\n}}\n'
        )


if __name__ == "__main__":
    main()
