"""The simulator's kernel compile: one kernel.so per dtype combination, against the emulation
headers with the precompiled kernel_operator.h (the shared toolchain is backends/common/build.py).

A tiling-only change does not rebuild a kernel: its key holds the kernel sources, the tiling
header the kernel sees and the macros, not the host program.
"""

from __future__ import annotations

from pathlib import Path

from ascend_gym.package import OperatorPackage
from npu_daemon.backends.common import build, kernel_view


def build_kernel(
    pkg: OperatorPackage, macros: dict[str, str], workdir: Path, rt: build.Runtime, timeout_s: float
) -> tuple[Path, bool]:
    """kernel.so for one set of DTYPE_<ARG> macros: returns (path, cache hit)."""
    defines = {"ASCENDC_SIM_OP_TYPE": pkg.spec.op_type, **macros}
    rename, link_alias = kernel_view.entry_renames(pkg.spec.kernel)
    key = build.digest(
        rt.digest,
        *build.package_sources(pkg, "op_kernel"),
        pkg.tiling_header_path,
        pkg.files[pkg.tiling_header_path],
        *sorted(f"{k}={v}" for k, v in defines.items()),
        *rename,
    )

    def compile_kernel(out: Path) -> None:
        # Macros go in a prelude after the precompiled header, so the PCH stays valid for every op.
        cwd = build.build_dir(pkg, workdir, f"kernel-{key}")
        prelude = cwd / f"prelude-{key}.h"
        lines = [f"#define {k} {v}" for k, v in defines.items()]
        prelude.write_text(
            "\n".join(
                [
                    *lines,
                    *kernel_view.host_tiling_view(pkg),
                    '#include "ascendc_sim/kernel_enums.h"',
                    *rename,
                    "",
                ]
            )
        )
        source = kernel_view.keyed_tiling_source(pkg, workdir, key[:16])
        cmd = [
            build.CXX,
            *build.CANDIDATE_CXXFLAGS,
            "-shared",
            "-DASCENDC_SIM_KERNEL",
            f"-I{rt.pch_dir}",
            *build.INCLUDE_FLAGS,
            "-I.",
            "-Iop_kernel",
            "-Iop_host",
            "-include",
            "kernel_operator.h",
            "-include",
            prelude.name,
            source,
            *rt.link_flags(),
            *build.CANDIDATE_LIBS,
            *link_alias,
            "-o",
            str(out),
        ]
        build.compile_candidate(cmd, cwd, out, "kernel", timeout_s)

    return build.cached("kernel", key, compile_kernel)
