"""The tiling header of an operator whose tiling data is a plain struct (current CANN: host and
kernel include one header of op_kernel/, the kernel names the struct): the header the host's
includes reach that defines a struct the kernel reads its tiling as, wherever it sits."""

from ascend_core.package import OperatorPackage, load_package
from ascend_core.suite import SUITE_ROOT
from ascend_gym.corpus import kernel_tiling_structs, reached_tiling_header

ADD = load_package(SUITE_ROOT / "level1" / "add")

KERNEL = """#include "kernel_operator.h"
#include "mm_tiling_data.h"
extern "C" __global__ __aicore__ void mm(GM_ADDR a, GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(MmTilingData);
  GET_TILING_DATA_WITH_STRUCT(MmRunInfo, run, tiling);
}
"""
STRUCTS = "#pragma once\nstruct alignas(8) MmTilingData { uint32_t m; };\nstruct MmRunInfo { uint32_t k; };\n"


def package(files: dict[str, str]) -> OperatorPackage:
    """A package of several tiling headers in op_host/op_tiling/, the tiling source among them."""
    spec = ADD.spec.model_copy(
        update={
            "host_file": "op_host/op_tiling/mm_tiling.cpp",
            "kernel_file": "op_kernel/mm.cpp",
            "tiling_header": "",
        }
    )
    return OperatorPackage(spec=spec, files={"op_kernel/mm.cpp": KERNEL, **files})


def test_the_structs_a_kernel_reads_its_tiling_as():
    assert kernel_tiling_structs(KERNEL) == {"MmTilingData", "MmRunInfo"}
    keyed = "REGISTER_TILING_FOR_TILINGKEY(TILING_KEY_VAR == 1, MmOther);"
    assert kernel_tiling_structs(keyed) == {"MmOther"}
    assert kernel_tiling_structs("GET_TILING_DATA(t, tiling);") == set()


def test_the_struct_header_is_found_through_the_host_includes():
    pkg = package(
        {
            "op_host/op_tiling/mm_tiling.cpp": '#include "mm_tiling.h"\n#include "other_tiling.h"\n',
            "op_host/op_tiling/mm_tiling.h": '#include "../../op_kernel/mm_tiling_data.h"\n'
            "struct MmHostState { int x; };\n",
            "op_host/op_tiling/other_tiling.h": "struct Unrelated { int y; };\n",
            "op_kernel/mm_tiling_data.h": STRUCTS,
        }
    )
    assert reached_tiling_header(pkg) == "op_kernel/mm_tiling_data.h"
    # With it named, the package no longer has to guess among the op_host/ tiling headers.
    named = pkg.model_copy(
        update={"spec": pkg.spec.model_copy(update={"tiling_header": reached_tiling_header(pkg)})}
    )
    assert named.tiling_header_path == "op_kernel/mm_tiling_data.h"


def test_a_declared_tiling_data_class_comes_first():
    """A header declaring tiling data with BEGIN_TILING_DATA_DEF wins over a struct of the
    kernel's name, as before."""
    declared = ADD.files["op_host/add_tiling.h"]
    pkg = package(
        {
            "op_host/op_tiling/mm_tiling.cpp": '#include "../../op_kernel/mm_tiling_data.h"\n'
            '#include "declared.h"\n',
            "op_host/op_tiling/declared.h": declared,
            "op_kernel/mm_tiling_data.h": STRUCTS,
        }
    )
    assert reached_tiling_header(pkg) == "op_host/op_tiling/declared.h"


def test_no_header_defines_the_kernels_struct():
    pkg = package(
        {
            "op_host/op_tiling/mm_tiling.cpp": '#include "mm_tiling.h"\n',
            "op_host/op_tiling/mm_tiling.h": "struct Unrelated { int y; };\n",
        }
    )
    assert reached_tiling_header(pkg) is None
