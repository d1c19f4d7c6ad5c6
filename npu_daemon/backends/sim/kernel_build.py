"""The simulator's kernel compile: one kernel.so per dtype combination, against the emulation
headers with the precompiled kernel_operator.h (the shared toolchain is backends/common/build.py).

A tiling-only change does not rebuild a kernel: its key holds the kernel sources, the tiling
header the kernel sees and the macros, not the host program.
"""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import OperatorPackage
from npu_daemon import source_policy
from npu_daemon.backends.common import build, kernel_view, template_key
from npu_daemon.backends.sim.scalar_count import count_scalar_instructions

# Sources whose instructions stand for the device's pipe instructions and API calls, not the
# kernel's own scalar work (scalar_count.py).
LIBRARY_DIRS = [str(build.INCLUDE_DIR), str(build.HOST_INCLUDE_DIR), "/usr/"]


def _renames(pkg: OperatorPackage) -> tuple[list[str], list[str]]:
    rename, link_alias = kernel_view.entry_renames(pkg.spec.kernel)
    return rename + kernel_view.c_linkage(pkg), link_alias


def kernel_key(pkg: OperatorPackage, macros: dict[str, str], rt: build.Runtime) -> str:
    defines = {"ASCENDC_SIM_OP_TYPE": pkg.spec.op_type, **macros}
    return build.digest(
        "kernel",
        rt.digest,
        source_policy.fingerprint(),  # an unchecked object is never served to a checked build
        build.kernel_side_sources(pkg),
        build.derived_key(pkg),
        kernel_view.view_sources(pkg),
        sorted([k, v] for k, v in defines.items()),
        _renames(pkg)[0],
    )


def build_kernel(
    pkg: OperatorPackage, macros: dict[str, str], workdir: Path, rt: build.Runtime, timeout_s: float
) -> tuple[Path, bool]:
    """kernel.so for one set of DTYPE_<ARG> macros: returns (path, cache hit)."""

    def compile_kernel(out: Path) -> None:
        build.build_candidate(kernel_unit(pkg, macros, workdir, rt, timeout_s), out, timeout_s)

    return build.cached("kernel", kernel_key(pkg, macros, rt), compile_kernel, workdir, pkg)


def kernel_unit(
    pkg: OperatorPackage, macros: dict[str, str], workdir: Path, rt: build.Runtime, timeout_s: float
) -> build.Compile:
    """How kernel.so is compiled for one set of macros: its prelude and source written beside
    the package, the flags of the precompiled kernel_operator.h."""
    key = kernel_key(pkg, macros, rt)
    defines = {"ASCENDC_SIM_OP_TYPE": pkg.spec.op_type, **macros}
    rename, link_alias = _renames(pkg)
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
    source = kernel_view.keyed_tiling_source(pkg, workdir, key[:16], host_gxx=True)
    if header := template_key.key_header(pkg):
        source = with_dispatcher(pkg, source, header, workdir, key[:16], timeout_s)
    flags = [
        *build.KERNEL_CXXFLAGS,
        "-DASCENDC_SIM_KERNEL",
        f"-I{rt.pch_dir}",
        *build.INCLUDE_FLAGS,
        "-I.",
        "-Iop_kernel",
        "-Iop_host",
        *build.repo_root_flags(pkg, cwd),
        *build.include_root_flags(pkg, workdir),
        "-include",
        "kernel_operator.h",
        "-include",
        prelude.name,
    ]
    link = ["-Wl,--strip-debug", *rt.link_flags(), *build.CANDIDATE_LIBS, *link_alias]
    top = build.package_top(pkg, workdir)
    return build.Compile(
        "kernel",
        cwd,
        flags,
        [source],
        link,
        top,
        frozenset({prelude.resolve()}),
        assembly=lambda text: count_scalar_instructions(text, LIBRARY_DIRS),
        reads=(rt.root,),
    )


def with_dispatcher(
    pkg: OperatorPackage, source: str, header: str, workdir: Path, tag: str, timeout_s: float
) -> str:
    """The kernel source with the template-key dispatcher appended (a copy beside the original,
    as keyed_tiling_source makes): the key header preprocessed as the toolchain's generator
    preprocesses it (ASCENDC_TPL_PRE), then turned into instances by template_key."""
    cwd = build.build_dir(pkg, workdir, f"tpl-{tag}")
    out = cwd / "tiling_key.pre"
    cmd = [build.CXX, "-E", "-P", "-std=c++17", "-DASCENDC_TPL_PRE", *build.INCLUDE_FLAGS]
    cmd += ["-I.", "-Iop_kernel", *build.repo_root_flags(pkg, cwd)]
    cmd += [*build.include_root_flags(pkg, workdir), kernel_view.spelling(pkg, header)]
    cmd += ["-o", out.name]
    sees = build.view(build.package_top(pkg, workdir))
    build.compile_candidate(cmd, cwd, out, "tiling key header", timeout_s, sees)
    try:
        dispatch = template_key.dispatcher(pkg, out.read_text())
    except template_key.TemplateKeyError as e:
        raise build.BuildError("kernel", f"{header}: {e}") from None
    except (LookupError, ValueError) as e:
        # The candidate's header: a form the generator cannot read is its failure, not a daemon's.
        raise build.BuildError(
            "kernel", f"{header}: the tiling key generator cannot read it ({e!r})"
        ) from None
    path = Path(pkg.kernel_path)
    text = (workdir / source).read_text()
    if source == pkg.kernel_path:
        text = f'#line 1 "{pkg.kernel_path}"\n' + text
    dispatched = path.with_name(f"{path.stem}.tpl-{tag}{path.suffix}")
    (workdir / dispatched).write_text(
        f'{text}\n#line 1 "<template tiling key dispatch>"\n{dispatch}'
    )
    return dispatched.as_posix()
