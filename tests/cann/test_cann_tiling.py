"""The cann tiling runner reads the launch contract the sim harness reads (backends/common/launch.py,
ascendc_sim/launch_spec.h): every attribute kind reaches the TilingFunc. Real g++ builds, no device."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import AttrSpec, load_package
from ascend_core.protocol import DEFAULT_SOC
from npu_daemon.backends.cann import tiling

PACKAGE = Path(__file__).resolve().parents[1] / "sim" / "packages" / "scale_shift_attr"
# The tiling key encodes the list attributes: sum(weights) * 1000 + the mask's bits.
KEYED = """  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const auto* weights = attrs->GetListFloat(2);
  const auto* mask = attrs->GetListBool(3);
  float sum = 0;
  for (size_t i = 0; i < weights->GetSize(); ++i) sum += weights->GetData()[i];
  uint64_t bits = 0;
  for (size_t i = 0; i < mask->GetSize(); ++i) bits |= uint64_t(mask->GetData()[i]) << i;
  context->SetTilingKey(uint64_t(sum * 1000.0f + 0.5f) + bits);
"""


def test_list_float_and_list_bool_attrs_reach_the_tiling(tmp_path: Path) -> None:
    pkg = load_package(PACKAGE)
    host = pkg.files[pkg.host_path]
    marker = "  const gert::RuntimeAttrs* attrs = context->GetAttrs();\n"
    assert marker in host
    spec = pkg.spec.model_copy(
        update={
            "attrs": [
                *pkg.spec.attrs,
                AttrSpec(name="weights", type="list_float", default=[0.25, 1.5, 2.0]),
                AttrSpec(name="mask", type="list_bool", default=[True, False, True]),
            ]
        }
    )
    pkg = pkg.model_copy(
        update={"spec": spec, "files": {**pkg.files, pkg.host_path: host.replace(marker, KEYED)}}
    )
    work = pkg.write_tree(tmp_path / "pkg")  # the compilers run in the package directory
    tiling_so, rt = tiling.build_host(pkg, work, 120)
    case_dir = tmp_path / "case"
    case_dir.mkdir()
    result = tiling.run_tiling(pkg, spec.cases[0], DEFAULT_SOC, tiling_so, rt, case_dir, 60)
    assert result.tiling_key == 3750 + 0b101
