"""What the toolkit's kernel compile gives production kernels (issue 52), on both engines: the host
tiling header's declarations over the Matmul tiling's host types and namespaces opened inside
other namespaces (`Ops { NN {`), the whole ge::Format list as macros, the Matmul library's 16-bit
CeilDiv / CeilAlign, DropOutShapeInfo and PRELOAD (a kernel that adds 1 to z when a value differs
from the documented one, so a pass on both engines is the values checked), and DataCopy from CO1."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import Status
from ascend_core.suite import resolve
from npu_daemon.backends.common.kernel_view import opened_namespaces
from tests.guest.test_real_gaps import add_edited

_ENQUE = "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n"
_ADD = "    Add(zLocal, xLocal, yLocal, (len + alignElems - 1) / alignElems * alignElems);\n"
_ADD_N = (
    "    const uint32_t n = (len + alignElems - 1) / alignElems * alignElems;\n"
    "    Add(zLocal, xLocal, yLocal, n);\n"
)


def checked(condition: str, head: str = "") -> str:
    """level1/add's kernel, z = x + y + 1 where `condition` fails."""
    text = add_edited(
        (_ADD, _ADD_N),
        (
            _ENQUE,
            f"    if (!({condition})) Adds(zLocal, zLocal, static_cast<DTYPE_Z>(1.0f), n);\n{_ENQUE}",
        ),
    )
    return head + text


# The block index keeps the compiler from folding the arithmetic away; 65537 wraps to 1 in uint16_t.
LIBRARY_VALUES = checked(
    "AscendC::CeilDiv(7 + GetBlockIdx() % 1, 2) == 4 && CeilAlign(7 + GetBlockIdx() % 1, 4) == 8 && "
    "CeilDiv(65537u + GetBlockIdx() % 1, 2u) == 1 && Probe() == 15 && FORMAT_NDC1HWC0 == 32 && "
    "FORMAT_FRACTAL_Z_3D == 33 && FORMAT_NCL == 47 && FORMAT_ND == 2",
    head=(
        '#include "lib/matmul_intf.h"\n'
        "__aicore__ inline uint32_t Probe() {\n"
        "  AscendC::DropOutShapeInfo info;\n"
        "  info.firstAxis = 3;\n"
        "  info.srcLastAxis = 4;\n"
        "  info.maskLastAxis = 8;\n"
        "  PRELOAD(2);\n"
        "  return sizeof(info) == 12 ? info.firstAxis + info.srcLastAxis + info.maskLastAxis : 0;\n"
        "}\n"
    ),
)


def test_the_library_helpers_give_the_documented_values_on_both_engines(engines):
    engines.same(resolve("level1/add").with_sources(kernel=LIBRARY_VALUES))


# A tiling header as production ones are: a class declaring members over the Matmul tiling's host
# types, and a base class of a namespace nested in another (`Ops { NN {`) that the toolkit's headers
# also open; the kernel sees the TilingData alone.
TILING_HEADER = """#ifndef ADD_TILING_H
#define ADD_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
#include "op_host/tiling_base.h"

namespace Ops {
namespace NN {
constexpr int32_t kAddBlocks = 8;
}  // namespace NN
}  // namespace Ops

namespace optiling {
BEGIN_TILING_DATA_DEF(AddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, formerNum);
TILING_DATA_FIELD_DEF(uint32_t, formerLength);
TILING_DATA_FIELD_DEF(uint32_t, tailLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Add, AddTilingData)

class AddMatmulHelper : public Ops::NN::Optiling::TilingBaseClass {
public:
  using TilingBaseClass::TilingBaseClass;
  ge::graphStatus SplitFor(matmul_tiling::DataType dataType, matmul_tiling::CubeFormat format);
  int32_t blocks = Ops::NN::kAddBlocks;
};
}  // namespace optiling

#endif  // ADD_TILING_H
"""


def test_a_tiling_header_over_host_types_and_nested_namespaces_compiles_on_both_engines(engines):
    package = resolve("level1/add").with_sources(tiling_header=TILING_HEADER)
    engines.same(package)


def test_opened_namespaces_are_read_with_their_nesting():
    text = (
        "namespace Ops {\nnamespace NN {\nstruct A { int x; };\n}  // namespace NN\n}\n"
        'namespace optiling { const char* s = "namespace Fake {"; }\n'
        "namespace Cmct::Gemm { }\n// namespace Hidden {\nnamespace { int y; }\n"
    )
    assert opened_namespaces(text) == ["Cmct", "Ops", "optiling", "Cmct::Gemm", "Ops::NN"]


# DataCopy from L0C (CO1) with DataCopyCO12DstParams, the fixpipe instruction by its older name:
# packages/cube_fill's Fixpipe of C to GM in ND, spelled so, gives the same values and latency.
CUBE_FILL = Path(__file__).parent / "packages" / "cube_fill"
FIXPIPE = "  Fixpipe(gc, co, FixpipeParamsV220(n, n, n, n, false));\n"


def co1_copy(quant: str) -> OperatorPackage:
    pkg = load_package(CUBE_FILL)
    kernel = pkg.files["op_kernel/cube_fill.cpp"]
    assert FIXPIPE in kernel
    copy = f"  DataCopy(gc, co, DataCopyCO12DstParams(n, n, n, n, QuantMode_t::{quant}, 0, false, true));\n"
    return pkg.with_sources(kernel=kernel.replace(FIXPIPE, copy))


def test_a_copy_from_co1_is_its_fixpipe_on_both_engines(engines):
    fixpipe = engines.same(load_package(CUBE_FILL))
    copy = engines.same(co1_copy("NoQuant"))
    assert all(c.passed and c.max_abs_error == 0.0 for c in copy.cases)
    assert copy.latency_us == fixpipe.latency_us


def test_a_copy_from_co1_with_an_unmodelled_scale_stops_the_kernel(engines):
    # DEQF16 takes its scale from the fixpipe's quant register, which no API here sets.
    native, guest = engines.both(co1_copy("DEQF16"))
    for result in (native, guest):
        assert result.status is Status.RUNTIME_ERROR and "not modelled" in result.message, (
            result.message
        )


# The Matmul's callback parameter: the default (all nullptr) is the library's own copies, and the
# same product at the same latency; a DataCopyOut (C out of L0C by the kernel) is refused at compile
# time on both engines (CopyA1 / CopyB1 are modelled: test_matmul_user_copy.py).
MATMUL = "  Matmul<AType, AType, CType, BiasType, CFG_NORM> mm;\n"


def with_callbacks(callbacks: str) -> OperatorPackage:
    pkg = resolve("level1/matmul")
    kernel = pkg.files[pkg.kernel_path]
    assert MATMUL in kernel
    declared = (
        f"  Matmul<AType, AType, CType, BiasType, CFG_NORM, MatmulCallBackFunc<{callbacks}>> mm;\n"
    )
    return pkg.with_sources(kernel=kernel.replace(MATMUL, declared))


CALLBACK = (
    "__aicore__ inline void OwnCopyOut(const __gm__ void*, const LocalTensor<int8_t>&, const void*,\n"
    "                                  const uint64_t, const uint64_t) {}\n"
)


def test_a_matmul_with_the_default_callbacks_is_the_plain_matmul(engines):
    plain = engines.same("level1/matmul")
    default = engines.same(with_callbacks("nullptr, nullptr, nullptr"))
    assert default.latency_us == plain.latency_us


def test_a_matmul_data_copy_out_callback_is_refused_at_compile_time(engines):
    pkg = with_callbacks("OwnCopyOut")
    kernel = pkg.files[pkg.kernel_path]
    using = "using namespace AscendC;\n"
    pkg = pkg.with_sources(kernel=kernel.replace(using, using + CALLBACK, 1))
    for result in engines.both(pkg):
        assert result.status is Status.COMPILE_ERROR and "DataCopyOut" in result.message, (
            result.message
        )
