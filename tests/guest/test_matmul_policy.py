"""The Matmul library's kernel-side forms official cube operators reach (issue 52), on both
engines: ToMatmulConfig (the MatmulConfig of a Matmul's MM_CFG, a config or a constant tiling), and
the Matmul's seventh template parameter, its policy (asc-devkit page MatmulPolicy): NBuffer33 gives
the MDL template's C at its latency and holds its documented constraints at compile time; the
triangular policies, which skip half of C's base blocks, are refused rather than computed whole."""

from __future__ import annotations

from ascend_core.package import OperatorPackage
from ascend_core.protocol import Status
from ascend_core.suite import resolve
from tests.guest.test_toolkit_view_gaps import checked

# A constant tiling holding the MDL config, and the NORM config itself: ToMatmulConfig gives each
# one's MatmulConfig, whose switches a kernel tests in `if constexpr`.
CONFIG_VALUES = checked(
    "kMdlSeen && !AscendC::ToMatmulConfig(AscendC::CFG_NORM).doMultiDataLoad && "
    "AscendC::ToMatmulConfig(AscendC::CFG_NORM).doNorm && GetBlockIdx() < 1024",
    head=(
        '#include "lib/matmul_intf.h"\n'
        "constexpr AscendC::MatmulApiStaticTiling MdlStatic() {\n"
        "  AscendC::MatmulApiStaticTiling t;\n"
        "  t.cfg = AscendC::CFG_MDL;\n"
        "  return t;\n"
        "}\n"
        "constexpr AscendC::MatmulApiStaticTiling kStatic = MdlStatic();\n"
        "constexpr bool kMdlSeen = [] {\n"
        "  if constexpr (AscendC::ToMatmulConfig(kStatic).doMultiDataLoad) return true;\n"
        "  return false;\n"
        "}();\n"
    ),
)


def test_to_matmul_config_reads_a_config_or_a_constant_tiling_on_both_engines(engines):
    engines.same(resolve("level1/add").with_sources(kernel=CONFIG_VALUES))


MATMUL = "  Matmul<AType, AType, CType, BiasType, CFG_NORM> mm;\n"


def with_matmul(declared: str, edit: tuple[str, str] | None = None) -> OperatorPackage:
    """level1/matmul (IterateAll per core) with its Matmul object declared as `declared`."""
    pkg = resolve("level1/matmul")
    kernel = pkg.files[pkg.kernel_path]
    assert MATMUL in kernel
    kernel = kernel.replace(MATMUL, f"  {declared} mm;\n")
    if edit is not None:
        assert edit[0] in kernel
        kernel = kernel.replace(*edit)
    return pkg.with_sources(kernel=kernel)


def policy(name: str, cfg: str = "CFG_MDL") -> str:
    return (
        f"MatmulImpl<AType, AType, CType, BiasType, {cfg}, MatmulCallBackFunc<nullptr, nullptr, "
        f"nullptr>, AscendC::Impl::Detail::{name}>"
    )


def test_nbuffer33_is_the_mdl_matmul_on_both_engines(engines):
    mdl = engines.same(with_matmul("Matmul<AType, AType, CType, BiasType, CFG_MDL>"))
    nbuffer = engines.same(with_matmul(policy("NBuffer33MatmulPolicy")))
    default = engines.same(with_matmul(policy("MatmulPolicy")))
    assert all(c.passed for c in nbuffer.cases)
    assert nbuffer.latency_us == mdl.latency_us == default.latency_us


ITERATE_ALL = "  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n"
ITERATE = (
    "  mm.Iterate();\n  mm.GetTensorC(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n"
)


def test_the_documented_policy_constraints_and_the_triangular_policies_stop_the_compile(engines):
    refused = {
        "supports only the MDL": with_matmul(policy("NBuffer33MatmulPolicy", "CFG_NORM")),
        "IterateAll only": with_matmul(policy("NBuffer33MatmulPolicy"), (ITERATE_ALL, ITERATE)),
        "TrianUpperMatmulPolicy": with_matmul(policy("TrianUpperMatmulPolicy")),
        "TrianLowerMatmulPolicy": with_matmul(policy("TrianLowerMatmulPolicy")),
    }
    for why, pkg in refused.items():
        for result in engines.both(pkg):
            assert result.status is Status.COMPILE_ERROR and why in result.message, result.message
