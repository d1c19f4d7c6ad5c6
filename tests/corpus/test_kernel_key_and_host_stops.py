"""The template key header the kernel includes is the one its dispatcher reads (a 950 declaration
in arch35/ sorts first and declares other parameters), and the last round's host stops that are
packages outside the repository say so in one line (asc-devkit's C API); a header the repository
holds itself is left to the build files' note. The AOE tuning registry is no longer such a stop:
its headers are the host API's (tests/sim/test_api_host_tiling.py)."""

from __future__ import annotations

from ascend_gym.corpus.runner import package_note
from npu_daemon.backends.common import template_key
from tests.corpus.test_ops_math_layout import package

KEY = "op_kernel/scale_tpl_tiling_key.h"
OTHER_ARCH = "op_kernel/arch35/scale_tpl_apt_tiling_key.h"


def test_the_key_header_the_kernel_includes_wins_over_another_arch():
    pkg = package()
    assert f'"{KEY.removeprefix("op_kernel/")}"' in pkg.files[pkg.kernel_path]
    pkg.files[OTHER_ARCH] = (
        "ASCENDC_TPL_ARGS_DECL(scale_tpl, ASCENDC_TPL_UINT_DECL(A, ASCENDC_TPL_2_BW, "
        "ASCENDC_TPL_UI_LIST, 0, 1), ASCENDC_TPL_UINT_DECL(B, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 0));\n"
    )
    assert sorted([KEY, OTHER_ARCH])[0] == OTHER_ARCH  # by name alone the 950 one came first
    assert template_key.key_header(pkg) == KEY


C_API = "kernel: op_kernel/add.cpp:12:10: fatal error: 'c_api/asc_simd.h' file not found"


def test_the_c_api_is_named_in_one_line():
    assert package_note(C_API) == (
        "kernel: op_kernel/add.cpp:12:10: c_api/asc_simd.h is asc-devkit's C API (the asc_* "
        "intrinsics of c_api/asc_simd.h; the simulator emulates the C++ API), not provided by "
        "the simulator"
    )


def test_a_header_the_repository_holds_is_not_called_a_package():
    assert package_note(C_API, unfound=["c_api/asc_simd.h"]) == ""
