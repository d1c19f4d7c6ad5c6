"""LoadData 2D with a GM source (asc-devkit Load2D: GM -> A1 / B1 / A2 / B2), on both engines:
packages/cube_from_gm loads A's fractals straight into L0A (startIndex, srcStride and dstGap at
work) and B's into L1 through `LoadData2dParams` (the struct's other name), and the product is
bit-exact; the copy is an MTE2 DMA the timing model charges, and a source past its buffer stops
the kernel. The same package with its entry named like the import LoadData calls builds on the
guest engine too."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import Status

CUBE_FROM_GM = Path(__file__).parent / "packages" / "cube_from_gm"


def test_fractals_loaded_from_gm_give_the_product_on_both_engines(engines):
    guest = engines.same(load_package(CUBE_FROM_GM))
    assert all(c.passed and c.max_abs_error == 0.0 for c in guest.cases)
    # The two inputs, 2 KiB each, read by the loads: each is a charged MTE2 DMA.
    assert guest.profile.gm_read_bytes >= 2 * 2048


def test_a_load_past_the_gm_buffer_stops_the_kernel_on_both_engines(engines):
    pkg = load_package(CUBE_FROM_GM)
    kernel = pkg.files["op_kernel/cube_from_gm.cpp"]
    whole = "LoadData2dParams whole(0, fractals, 1, 0, 0, true, 0);"
    assert whole in kernel
    # Fractals 1 to 4 of B's four.
    pkg = pkg.with_sources(
        kernel=kernel.replace(whole, whole.replace("(0, fractals", "(1, fractals"))
    )
    for result in engines.both(pkg):
        assert (
            result.status is Status.RUNTIME_ERROR and "outside every GM buffer" in result.message
        ), result.message


def test_an_entry_named_like_a_guest_import_builds_on_both_engines(engines, tmp_path):
    # The package as cube_load_gm, the name of the import the guest's LoadData from GM calls: the
    # imports are C++ declarations of namespace ascendc_guest, so the kernel's extern "C" entry of
    # that name is another symbol (it was "conflicting types" while they were extern "C").
    named = tmp_path / "cube_load_gm"
    for src in sorted(p for p in CUBE_FROM_GM.rglob("*") if p.is_file()):
        dst = named / str(src.relative_to(CUBE_FROM_GM)).replace("cube_from_gm", "cube_load_gm")
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = src.read_text().replace("cube_from_gm", "cube_load_gm")
        dst.write_text(text.replace("CubeFromGm", "CubeLoadGm"))
    pkg = load_package(named)
    assert pkg.spec.kernel == "cube_load_gm"
    guest = engines.same(pkg)
    assert guest.cases and all(c.passed and c.max_abs_error == 0.0 for c in guest.cases)
