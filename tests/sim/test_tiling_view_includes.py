"""The kernel's view of the tiling follows the includes the host tiling compiles, as the device
build's generated TilingData does: level1/add rearranged the ways real repositories spell them,
each built and checked by the simulator (both engines)."""

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_core.suite import SUITE_ROOT
from ascend_gym.corpus import reached_tiling_header
from npu_daemon.backends.common import kernel_view

ADD = load_package(SUITE_ROOT / "level1" / "add")
HEADER = ADD.files["op_host/add_tiling.h"]


def rearranged(files: dict[str, str], **spec) -> object:
    """level1/add with its tiling header replaced by `files` (paths in the package)."""
    kept = {p: t for p, t in ADD.files.items() if p != "op_host/add_tiling.h"}
    return ADD.model_copy(
        update={"files": {**kept, **files}, "spec": ADD.spec.model_copy(update=spec)}
    )


def build(pkg, tmp_path, backend):
    from npu_daemon.backends.base import get_backend

    request = EvalRequest(
        run_id="t", package=pkg, soc="Ascend910B4", stages=[Stage.COMPILE, Stage.CHECK]
    )
    result = get_backend(backend).evaluate(request, tmp_path)
    assert result.status == Status.OK, f"{result.message}\n{result.log_tail}"
    assert all(c.passed for c in result.cases)


def class_header_in_another_directory():
    """The host includes a class header of a shared directory through an include root; the
    struct is defined by a header that one includes beside itself (ops-nn's foreach tilings)."""
    host = ADD.files["op_host/add.cpp"].replace('"add_tiling.h"', '"add_class.h"')
    pkg = rearranged(
        {
            "op_host/add.cpp": host,
            "tree/shared/op_host/add_class.h": '#pragma once\n#include "add_def.h"\n',
            "tree/shared/op_host/add_def.h": HEADER,
        },
        tree_path="ops/add",
        include_dirs=["shared/op_host"],
        tiling_header="",
    )
    header = reached_tiling_header(pkg)
    assert header == "tree/shared/op_host/add_def.h"
    return rearranged(
        dict(pkg.files), tree_path="ops/add", include_dirs=["shared/op_host"], tiling_header=header
    )


def test_the_struct_header_is_the_one_the_host_reaches_through_its_includes():
    pkg = class_header_in_another_directory()
    assert kernel_view.tiling_headers(pkg) == ["tree/shared/op_host/add_def.h"]
    # Written around the operator's directory: up from its build directory to the tree's root.
    assert kernel_view.spelling(pkg, pkg.tiling_header_path) == "../../../shared/op_host/add_def.h"


def test_a_relative_include_from_another_folder_is_a_package_file():
    pkg = rearranged(
        {
            "op_host/arch22/add_tiling.h": '#include "../../op_kernel/arch35/add_data.h"\n',
            "op_kernel/arch35/add_data.h": HEADER,
        },
        tiling_header="op_host/arch22/add_tiling.h",
    )
    assert kernel_view.tiling_headers(pkg) == [
        "op_host/arch22/add_tiling.h",
        "op_kernel/arch35/add_data.h",
    ]
    # It stays inside the view's namespace; only the toolkit's header is hoisted.
    assert kernel_view.toolkit_includes(pkg) == []


def test_includes_resolve_as_the_compile_finds_them():
    resolve = kernel_view.resolve_include
    assert (
        resolve(ADD, "op_kernel/add.cpp", '"add_tiling.h"') == "op_host/add_tiling.h"
    )  # -Iop_host
    assert resolve(ADD, "op_kernel/add.cpp", '"../op_host/add_tiling.h"') == "op_host/add_tiling.h"
    # From the repository's root, as its build spells the package's own files (-I.repo).
    rooted = '"experimental/math/add/op_host/add_tiling.h"'
    assert resolve(ADD, "op_kernel/add.cpp", rooted) == "op_host/add_tiling.h"
    assert resolve(ADD, "op_kernel/add.cpp", "<kernel_operator.h>") is None  # the toolkit's


def kernel_header_named_like_the_tiling_header():
    """op_kernel/add_tiling.h, guarded like the host's, is the kernel's own (cann-ops
    ctc_loss_v3_grad): the kernel still needs the view, and the guard must not hide its header."""
    kernel = ADD.files["op_kernel/add.cpp"].replace(
        '#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "add_tiling.h"'
    )
    own = "#ifndef ADD_TILING_H\n#define ADD_TILING_H\nconstexpr int32_t KERNEL_OWN = 1;\n#endif\n"
    kernel = kernel.replace(
        "GET_TILING_DATA(", "static_assert(KERNEL_OWN == 1);\n  GET_TILING_DATA(", 1
    )
    return ADD.model_copy(
        update={"files": {**ADD.files, "op_kernel/add.cpp": kernel, "op_kernel/add_tiling.h": own}}
    )


def test_a_kernel_header_of_the_same_name_is_not_the_tiling_header():
    pkg = kernel_header_named_like_the_tiling_header()
    assert not kernel_view.includes_tiling_header(pkg)
    assert kernel_view.shared_guards(pkg) == ["ADD_TILING_H"]


def namespace_the_toolkit_also_opens():
    """The tiling header includes a repository header that opens `Ops` and names the toolkit's
    `Ops::NN` (ops-nn batch_norm_grad_v3): inside the view's namespace the wrapped `Ops` must
    not hide the global one."""
    header = HEADER.replace(
        '#include "register/tilingdata_base.h"',
        '#include "register/tilingdata_base.h"\n#include "op_host/tiling_base.h"\n#include "util.h"',
    ).replace(
        "REGISTER_TILING_DATA_CLASS",
        "using AddBase = Ops::NN::Optiling::TilingBaseClass;\nREGISTER_TILING_DATA_CLASS",
    )
    util = "#pragma once\nnamespace Ops {\nnamespace Util {\ninline int One() { return 1; }\n}\n}\n"
    return rearranged({"op_host/add_tiling.h": header, "op_host/util.h": util})


def test_a_wrapped_namespace_looks_into_the_global_one():
    view = kernel_view.tiling_view(namespace_the_toolkit_also_opens(), ["// header"])
    assert "namespace Ops { using namespace ::Ops; }" in view


def documented_api_forms():
    """A kernel using API forms as documented: the scalar `Ceil(uint32_t, uint32_t)` on operands
    of two types, and a queue configured by a `const TQueConfig*` (ops-nn mse_loss_grad_v2)."""
    kernel = ADD.files["op_kernel/add.cpp"]
    config = (
        "constexpr TPosition kNone[8] = {TPosition::MAX, TPosition::MAX, TPosition::MAX,\n"
        "    TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX};\n"
        "constexpr TQueConfig kConf = {false, false, false, 0, 1, 0,\n"
        "    {kNone[0], kNone[1], kNone[2], kNone[3], kNone[4], kNone[5], kNone[6], kNone[7]}};\n"
    )
    kernel = kernel.replace(
        "TQue<QuePosition::VECIN, BUFFER_NUM>", "TQue<QuePosition::VECIN, BUFFER_NUM, &kConf>"
    )
    kernel = kernel.replace("using namespace AscendC;\n", "using namespace AscendC;\n" + config, 1)
    kernel = kernel.replace(
        "GET_TILING_DATA(",
        "static_assert(sizeof(Ceil(uint8_t{9}, 8)) == 4);\n  GET_TILING_DATA(",
        1,
    )
    assert "&kConf" in kernel and "kConf =" in kernel
    return ADD.model_copy(update={"files": {**ADD.files, "op_kernel/add.cpp": kernel}})


@pytest.mark.parametrize("backend", ["sim", "sim-guest"])
@pytest.mark.parametrize(
    "make",
    [
        class_header_in_another_directory,
        kernel_header_named_like_the_tiling_header,
        namespace_the_toolkit_also_opens,
        documented_api_forms,
    ],
)
def test_the_kernel_builds_and_passes(make, backend, tmp_path):
    build(make(), tmp_path, backend)


def test_a_struct_header_the_kernel_includes_itself_stays_global():
    """The host's tiling header includes a plain struct header of op_kernel/ that the kernel
    includes too (ops-nn ascend_anti_quant_v2): parsed before the view, as the kernel sees it."""
    struct = "#pragma once\nstruct AddExtra { uint32_t n; };\n"
    header = HEADER.replace(
        '#include "register/tilingdata_base.h"',
        '#include "register/tilingdata_base.h"\n#include "../op_kernel/add_extra.h"',
    )
    kernel = '#include "add_extra.h"\n' + ADD.files["op_kernel/add.cpp"]
    pkg = rearranged(
        {
            "op_host/add_tiling.h": header,
            "op_kernel/add_extra.h": struct,
            "op_kernel/add.cpp": kernel,
        }
    )
    assert kernel_view.kernel_own_headers(pkg) == ["op_kernel/add_extra.h"]
    view = kernel_view.host_tiling_view(pkg)
    assert view.index('#include "op_kernel/add_extra.h"') < view.index(
        "namespace ascend_gym_tiling {"
    )
