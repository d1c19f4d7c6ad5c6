"""The kernel-launch project we would hand to a real CANN toolkit: the kernel view a custom-op build
generates is in it, and nothing that only our g++ stand-in needs."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import dtype_macros, load_package
from npu_daemon.backends.cann import project

PACKAGES = Path(__file__).resolve().parents[1] / "sim" / "packages"


def entry(name: str, tiling_key: int, tmp_path: Path) -> str:
    pkg = load_package(PACKAGES / name)
    project.write_project(pkg, dtype_macros(pkg.spec, pkg.spec.cases[0]), tiling_key, tmp_path)
    return (tmp_path / "kernel_entry.cpp").read_text()


def test_per_key_tiling_data_and_default_struct(tmp_path: Path) -> None:
    text = entry("keyed_tiling", 2, tmp_path)
    assert "using AscendGymTilingDefault = KeyedTilingData;" in text
    assert "using ascend_gym_tiling::KeyedScaleTilingData;" in text
    kernel = text.rsplit('#include "', 1)[1].split('"')[0]
    assert (
        kernel != "op_kernel/keyed_tiling.cpp"
    )  # a copy whose key-2 branch reads the key-2 struct
    assert (
        "GET_TILING_DATA_WITH_STRUCT(KeyedScaleTilingData, t, tiling)"
        in (tmp_path / kernel).read_text()
    )


def test_host_only_declarations_stay_in_the_view_namespace(tmp_path: Path) -> None:
    text = entry("expand_rows", 0, tmp_path)
    inside = text.split("namespace ascend_gym_tiling {", 1)[1].split(
        '#line 1 "<ascend_gym tiling view>"', 1
    )[0]
    assert "constexpr uint32_t MAX_DIMS" in inside and "struct RowSplit" in inside
    assert (
        '#line 1 "op_host/expand_rows_tiling.h"' in inside
    )  # diagnostics name the header's own lines
    assert (
        "register/tilingdata_base.h" not in text
    )  # a host header: the entry defines the kernel-side macros
    assert (
        "using ascend_gym_tiling::ExpandRowsTilingData;" in text
        and "using ascend_gym_tiling::RowSplit" not in text
    )


def test_ge_values_defined_and_the_libc_named_entry_kept(tmp_path: Path) -> None:
    text = entry("expm1", 0, tmp_path)
    assert "#ifndef DT_BF16\n#define DT_BF16 27\n#endif" in text and "#define FORMAT_ND 2" in text
    assert (
        "#define expm1" not in text and "entry_expm1" not in text
    )  # no rename: the device compiler has no libc


def test_a_kernel_including_its_tiling_header_sees_it_as_written(tmp_path: Path) -> None:
    text = entry("softsign_struct", 0, tmp_path)
    assert (
        "namespace ascend_gym_tiling" not in text and "\nusing AscendGymTilingDefault" not in text
    )
    assert "#define REGISTER_TILING_DEFAULT(type) using AscendGymTilingDefault = type" in text
