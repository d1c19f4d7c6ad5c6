"""The kernel module itself on the guest engine: what a compiled kernel carries beside its code."""

from __future__ import annotations

from ascend_core.protocol import Status
from ascend_core.suite import resolve


def add_with(use: str, before: str = ""):
    """level1/add with `use` run after its tiling is read, and `before` above the kernel file."""
    pkg = resolve("level1/add")
    read = "  GET_TILING_DATA(tilingData, tiling);"
    kernel = before + pkg.files["op_kernel/add.cpp"].replace(read, f"{read}\n{use}", 1)
    return pkg.with_sources(kernel=kernel)


def test_a_kernel_with_a_large_initialised_table_runs(engines):
    # 64 KiB of initialised data: wasmtime would map it copy-on-write from a memfd, which the
    # harness's syscall filter refuses; the engine copies it instead (cann-ops' cross has one).
    table = "static const float kTable[16384] = {1.0f, 2.0f, 3.0f};\n"
    use = "  if (kTable[AscendC::GetBlockIdx() % 3] == 0.0f) return;\n"
    native, guest = engines.both(add_with(use, before=table))
    assert native.status is Status.OK, native.message
    assert guest.status is Status.OK, guest.message


def test_the_guest_kernel_s_key_covers_another_operator_s_kernel_headers():
    # The runner brings other operators' kernel headers beside op_kernel/ (`<op>/x.h`): a change
    # there must build anew, never reuse a module built against the old header.
    from ascend_core.package import dtype_macros
    from npu_daemon.backends.sim import guest_build

    pkg = resolve("level1/add")
    macros = dtype_macros(pkg.spec, pkg.spec.cases[0])
    one = pkg.model_copy(update={"files": {**pkg.files, "other_op/x.h": "#define K 1\n"}})
    two = pkg.model_copy(update={"files": {**pkg.files, "other_op/x.h": "#define K 2\n"}})
    assert guest_build.kernel_key(one, macros) != guest_build.kernel_key(two, macros)
    # The tiling's sources are not the kernel's.
    host = pkg.model_copy(update={"files": {**pkg.files, "op_host/extra.h": "//\n"}})
    assert guest_build.kernel_key(host, macros) == guest_build.kernel_key(pkg, macros)


def test_the_device_compiler_s_block_variables_and_the_library_s_constants(engines):
    # block_idx / block_num (the device compiler's globals), the scalar Ceil and the library's
    # derived lane counts, as older kernels spell GetBlockIdx() and their tile arithmetic.
    use = (
        "  if (int64_t(block_idx) != AscendC::GetBlockIdx() || int64_t(block_num) != AscendC::GetBlockNum() ||\n"
        "      AscendC::Ceil(7u, 2u) != 4u || AscendC::ONE_BLK_HALF_NUM != 16u ||\n"
        "      AscendC::MAX_REPEAT_FLOAT_SIZE != 64u * 255u) AscendC::Trap();\n"
    )
    engines.same(add_with(use))


# Run from a copy of npu_daemon: moving a header's mtime in the tree itself fails the compiles
# other test processes make from it at that moment (clang checks the header against the PCH).
_CHECKOUT_PROBE = """
import os, subprocess, sys
from pathlib import Path
from npu_daemon.backends.sim import guest_build

assert guest_build.GUEST_INCLUDE.is_relative_to(sys.argv[1]), guest_build.GUEST_INCLUDE
unit = Path(sys.argv[1], "unit.cpp")
unit.write_text('#include "kernel_operator.h"\\nint probe() { return AscendC::GetBlockIdx(); }\\n')

def compile_with(pch):
    cmd = [guest_build.CLANG, *guest_build.FLAGS, *guest_build.INCLUDES, "-include-pch", str(pch)]
    done = subprocess.run([*cmd, "-x", "c++", str(unit), "-S", "-emit-llvm", "-o", os.devnull],
                          capture_output=True, text=True)
    return done.returncode, done.stderr

first = guest_build.ensure_pch()
assert compile_with(first) == (0, ""), compile_with(first)
header = guest_build.GUEST_INCLUDE / "kernel_operator.h"
was = header.stat()
os.utime(header, ns=(was.st_atime_ns, was.st_mtime_ns - 86_400 * 10**9))
code, said = compile_with(first)
assert code != 0 and "has been modified since the precompiled header" in said, said
second = guest_build.ensure_pch()
assert second != first
assert compile_with(second) == (0, ""), compile_with(second)
"""


def test_a_checkout_whose_headers_carry_new_mtimes_gets_its_own_precompiled_header(clang, tmp_path):
    # A fresh checkout at the same path gives our headers new mtimes with the same content. clang
    # refuses a precompiled header built from the old ones, so the header is keyed by the mtimes
    # too, and the checkout gets one that serves it instead of failing every compile.
    import os
    import shutil
    import subprocess
    import sys

    import npu_daemon

    tree = tmp_path / "tree"
    source = os.path.dirname(npu_daemon.__file__)
    shutil.copytree(source, tree / "npu_daemon", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env["ASCEND_GYM_CACHE"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-c", _CHECKOUT_PROBE, str(tree)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr


def test_a_module_with_a_start_function_is_seen():
    # The guest's fuel count starts after instantiation, so a start function would run free; the
    # build refuses a module holding one (section 8). A module of one empty function, with and
    # without a start section naming it.
    from npu_daemon.backends.sim import guest_build

    header = b"\0asm\x01\0\0\0"
    types, funcs, code = (
        b"\x01\x04\x01\x60\x00\x00",
        b"\x03\x02\x01\x00",
        b"\x0a\x04\x01\x02\x00\x0b",
    )
    start = b"\x08\x01\x00"
    assert guest_build.section_ids(header + types + funcs + code) == [1, 3, 10]
    with_start = header + types + funcs + start + code
    assert guest_build.START_SECTION in guest_build.section_ids(with_start)
    assert guest_build.imports(with_start) == []
