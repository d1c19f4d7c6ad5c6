"""The hicann/ops-math operator layout and template tiling keys, on an operator of our own
(tests/corpus/ops_math/math/scale_tpl): op_host/<op>_tiling.cpp + <op>_def.cpp, the tiling data
struct and the template key in op_kernel/, a kernel entry templated on (mode, negate)."""

import shutil
import tomllib
from pathlib import Path

import pytest

from ascend_core.cpp import device_branch
from ascend_core.package import OperatorSpec
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.corpus import build_package, find_ops
from npu_daemon.backends.common import kernel_view, template_key

OPS_MATH = Path(__file__).parent / "ops_math"
SPEC = OperatorSpec.model_validate(tomllib.loads((OPS_MATH / "scale_tpl.toml").read_text()))


def package(cases=None):
    (source,) = find_ops(OPS_MATH)
    spec = SPEC if cases is None else SPEC.model_copy(update={"cases": cases})
    pkg = build_package(source, spec)
    pkg.files["reference.py"] = (OPS_MATH / "reference.py").read_text()
    return pkg


def evaluate(pkg, tmp_path):
    from npu_daemon.backends.sim import SimBackend

    request = EvalRequest(
        run_id="t", package=pkg, soc="Ascend910B4", stages=[Stage.COMPILE, Stage.CHECK]
    )
    return SimBackend().evaluate(request, tmp_path)


def test_the_runner_reads_the_layout_and_leaves_other_folders_out():
    (source,) = find_ops(OPS_MATH)
    assert (source.op, source.rel) == ("scale_tpl", "math/scale_tpl")
    pkg = package()
    spec = pkg.spec
    assert spec.host_file == "op_host/scale_tpl_tiling.cpp"
    assert spec.host_sources == ["op_host/scale_tpl_def.cpp"]  # not the graph-mode infershape
    assert spec.tiling_header == "op_kernel/scale_tpl_tiling_data.h"
    assert spec.kernel_file == "op_kernel/scale_tpl.cpp"
    assert (spec.op_type, spec.kernel) == ("ScaleTpl", "scale_tpl")
    assert not any(p.startswith(("tests/", "op_api/")) for p in pkg.files)
    assert kernel_view.kernel_type(pkg) == "KERNEL_TYPE_AIV_ONLY"


def test_key_encoding_follows_the_declaration_bit_layout():
    # The key header as the ASCENDC_TPL_PRE preprocessing leaves it (macros expanded).
    pre = (
        "@@ASCENDC_TPL_ARGS_DECL_ScaleTpl@@ = {@@ASCENDC_TPL_UINT_DECL_mode@@ = {2, 2, 1, 1, 2, 7},"
        " @@ASCENDC_TPL_BOOL_DECL_negate@@ = {0, 1}};"
        "@@ASCENDC_TPL_LISTS@@ = {@@{@@ASCENDC_TPL_UINT_SEL_mode@@ = {1, 1, 7},"
        " @@ASCENDC_TPL_BOOL_SEL_negate@@ = {0, 1}},"
        " @@{@@ASCENDC_TPL_UINT_SEL_mode@@ = {0, 1, 2, 2}, @@ASCENDC_TPL_BOOL_SEL_negate@@ = {0}}, };"
    )
    declared, built = template_key.instances(pre)
    assert [(p.kind, p.name, p.bits, p.values) for p in declared] == [
        ("UINT", "mode", 2, (1, 2, 7)),
        ("BOOL", "negate", 1, (0, 1)),
    ]
    # mode takes bits 0-1 (its index among 1, 2, 7), negate bit 2.
    assert {i.values: i.key for i in built} == {
        (1, 0): 0,
        (1, 1): 4,
        (7, 0): 2,
        (7, 1): 6,
        (2, 0): 1,
    }


def test_each_key_runs_its_own_instance(tmp_path):
    result = evaluate(package(), tmp_path)
    assert result.status == Status.OK, result.message
    assert [c.passed for c in result.cases] == [True, True, True]  # x*1, x*-7, x*2


@pytest.mark.parametrize(
    ("attrs", "status", "text"),
    [
        # Declared, not selected: (mode 2, negate) is key 1 | 1 << 2 = 5, which the host encodes
        # (the release toolkit's host compiles no selection) and no kernel instance serves.
        ({"mode": 2, "negate": True}, Status.RUNTIME_ERROR, "tiling key 5 has no kernel instance"),
        (
            {"mode": 3},
            Status.TILING_ERROR,
            "value 3 of mode is not among its ASCENDC_TPL_UINT_DECL values",
        ),
        ({"raw_key": 3}, Status.RUNTIME_ERROR, "tiling key 3 has no kernel instance"),
    ],
)
def test_a_key_outside_the_selection_fails_cleanly(tmp_path, attrs, status, text):
    case = SPEC.cases[0].model_copy(update={"attrs": attrs})
    result = evaluate(package([case]), tmp_path)
    assert result.status == status
    assert text in result.message


def test_a_kernel_that_also_defines_the_plain_entry_gets_no_dispatcher():
    pkg = package()
    assert template_key.key_header(pkg) == "op_kernel/scale_tpl_tiling_key.h"
    plain = '\nextern "C" __global__ __aicore__ void scale_tpl(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n'
    pkg.files[pkg.kernel_path] += plain
    assert template_key.key_header(pkg) is None


def test_a_tiling_header_in_op_host_or_an_arch22_suffix_keeps_the_layout(tmp_path):
    root = tmp_path / "math" / "scale_tpl"
    shutil.copytree(OPS_MATH / "math" / "scale_tpl", root)
    (root / "op_host" / "scale_tpl_tiling.h").write_text("#pragma once\n")  # no op_host/<op>.cpp
    (source,) = find_ops(tmp_path)
    assert build_package(source, SPEC).spec.kernel_file == "op_kernel/scale_tpl.cpp"
    (root / "op_kernel" / "scale_tpl.cpp").rename(root / "op_kernel" / "scale_tpl_arch22.cpp")
    (root / "op_kernel" / "scale_tpl.cpp").write_text("// the Ascend 950 entry\n")
    (source,) = find_ops(tmp_path)
    assert build_package(source, SPEC).spec.kernel_file == "op_kernel/scale_tpl_arch22.cpp"


def test_a_tiling_struct_in_op_kernel_named_op_tiling_is_the_tiling_header(tmp_path):
    # ops-math real keeps its struct in op_kernel/real_tiling.h
    root = tmp_path / "math" / "scale_tpl"
    shutil.copytree(OPS_MATH / "math" / "scale_tpl", root)
    data = root / "op_kernel" / "scale_tpl_tiling_data.h"
    data.rename(root / "op_kernel" / "scale_tpl_tiling.h")
    (source,) = find_ops(tmp_path)
    assert build_package(source, SPEC).spec.tiling_header == "op_kernel/scale_tpl_tiling.h"


def test_a_kernel_entry_without_c_linkage_is_found(tmp_path):
    pkg = package()
    entry = pkg.files[pkg.kernel_path]
    assert 'extern "C"' not in entry  # the templated entry: the dispatcher gives it C linkage
    plain = "__global__ __aicore__ void scale_plain(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}"
    pkg.files[pkg.kernel_path] = plain
    pkg.spec.kernel = "scale_plain"
    assert kernel_view.c_linkage(pkg) == [
        'extern "C" __global__ __aicore__ void scale_plain(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t);'
    ]
    pkg.files[pkg.kernel_path] = 'extern "C" ' + plain
    assert kernel_view.c_linkage(pkg) == []


def test_entry_discovery_follows_the_device_branch(tmp_path):
    # The CPU unit-test build's plain entry under __CCE_KT_TEST__, the templated one on the
    # device's branch: the device compile (the macro undefined) sees only the template.
    pkg = package()
    entry = pkg.files[pkg.kernel_path]
    head, template = entry.split("template <uint32_t mode", 1)
    test_build = 'extern "C" __global__ __aicore__ void scale_tpl(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n'
    pkg.files[pkg.kernel_path] = (
        f"{head}#ifdef __CCE_KT_TEST__\n{test_build}#else\ntemplate <uint32_t mode{template}#endif\n"
    )
    assert template_key.key_header(pkg) == "op_kernel/scale_tpl_tiling_key.h"
    assert kernel_view.c_linkage(pkg) == []  # the dispatcher gives the entry C linkage
    result = evaluate(pkg, tmp_path)
    assert result.status == Status.OK, result.message
    assert [c.passed for c in result.cases] == [True, True, True]


def test_device_branch_drops_only_the_test_builds_branches():
    source = "\n".join(
        [
            "#ifdef __CCE_KT_TEST__",
            "host_a",
            "#else",
            "device_a",
            "#endif",
            "#if !defined(__CCE_KT_TEST__)",
            "device_b",
            "#endif",
            "#ifndef __CCE_KT_TEST__",
            "device_c",
            "#else",
            "#if FOO",
            "host_b",
            "#endif",
            "#endif",
            "#if FOO",
            "either",
            "#endif",
        ]
    )
    kept = [line for line in device_branch(source).split("\n") if line]
    assert kept == ["device_a", "device_b", "device_c", "#if FOO", "either", "#endif"]
    assert device_branch(source).count("\n") == source.count("\n")  # positions kept


def test_the_sources_the_build_compiles_for_the_a2_give_the_tiling_directory(tmp_path):
    # ops-nn relu_v2's layout: the A2 tiling in a SoC subdirectory of op_host/ beside the 950's
    # arch35/, the build pairing SoCs with tiling directories; the directory is named otherwise
    # than the op (ops-nn sigmoid_v2). The CMake below is this test's own: a helper that globs
    # the tiling sources of the target's directory into a library, whatever it is called.
    root = tmp_path / "activation" / "scale_tpl_v2"
    shutil.copytree(OPS_MATH / "math" / "scale_tpl", root)
    host = root / "op_host"
    for soc in ("ascend910b", "arch32", "arch35"):
        (host / soc).mkdir()
    tiling = (host / "scale_tpl_tiling.cpp").read_text()
    (host / "scale_tpl_tiling.cpp").unlink()
    # The block count comes from a second tiling file of the A2 directory, as CMake globs them all.
    a2_tiling = (
        tiling.replace('"../op_kernel/', '"../../op_kernel/')
        .replace("namespace optiling {", "namespace optiling {\nuint32_t ScaleTplBlocks();", 1)
        .replace("SetBlockDim(1)", "SetBlockDim(ScaleTplBlocks())")
    )
    (host / "ascend910b" / "scale_tpl_tiling.cpp").write_text(a2_tiling)
    (host / "ascend910b" / "scale_tpl_tiling_blocks.cpp").write_text(
        "#include <cstdint>\nnamespace optiling {\nuint32_t ScaleTplBlocks() { return 1; }\n}\n"
    )
    for soc in ("arch32", "arch35"):
        (host / soc / f"scale_tpl_tiling_{soc}.cpp").write_text('#error "not this build"\n')
    # Without build files the operator is still found, by its kernel, and its tiling in the
    # A2's SoC directory.
    (source,) = find_ops(tmp_path)
    assert build_package(source, SPEC).spec.host_file == "op_host/ascend910b/scale_tpl_tiling.cpp"
    # A build that compiles arch32/ for the A2 (and arch35/ for the 950): its choice is taken.
    (tmp_path / "CMakeLists.txt").write_text(
        "function(soc_tiling units dirs)\n"
        "  list(FIND units ${ASCEND_COMPUTE_UNIT} at)\n"
        "  if(NOT at EQUAL -1)\n"
        "    list(GET dirs ${at} dir)\n"
        "    file(GLOB srcs ${CMAKE_CURRENT_SOURCE_DIR}/op_host/${dir}/*_tiling*.cpp)\n"
        "    add_library(tiling_${dir} OBJECT ${srcs})\n"
        "  endif()\n"
        "endfunction()\n"
        'set(ASCEND_COMPUTE_UNIT "ascend950" CACHE STRING "the SoC built")\n'
        "add_subdirectory(activation/scale_tpl_v2)\n"
    )
    (root / "CMakeLists.txt").write_text(
        'soc_tiling("ascend950;ascend910b" "arch35;arch32")\n'
        "file(GLOB defs RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} op_host/*_def.cpp)\n"
        "target_sources(op_defs PRIVATE ${defs})\n"
    )
    (host / "arch32" / "scale_tpl_tiling_arch32.cpp").write_text(a2_tiling)
    (source,) = find_ops(tmp_path)
    assert (
        build_package(source, SPEC).spec.host_file == "op_host/arch32/scale_tpl_tiling_arch32.cpp"
    )
    # The A2's sources where the build names its SoC directory so: ascend910b/.
    (root / "CMakeLists.txt").write_text(
        'soc_tiling("ascend950;ascend910b;ascend910_93" "arch35;ascend910b;ascend910b")\n'
    )
    (source,) = find_ops(tmp_path)
    assert (source.op, source.rel) == ("scale_tpl", "activation/scale_tpl_v2")
    pkg = build_package(source, SPEC)
    pkg.files["reference.py"] = (OPS_MATH / "reference.py").read_text()
    assert pkg.spec.host_file == "op_host/ascend910b/scale_tpl_tiling.cpp"
    assert pkg.spec.host_sources == [
        "op_host/ascend910b/scale_tpl_tiling_blocks.cpp",
        "op_host/scale_tpl_def.cpp",
    ]
    result = evaluate(pkg, tmp_path / "run")
    assert result.status == Status.OK, result.message
    assert [c.passed for c in result.cases] == [True, True, True]


def test_a_struct_header_declaring_the_key_is_the_tiling_and_key_header(tmp_path):
    # ops-math is_finite: op_kernel/<op>_struct.h holds the tiling struct and the key declaration,
    # while op_kernel/arch35/ declares the 950 kernel's own key.
    root = tmp_path / "math" / "scale_tpl"
    shutil.copytree(OPS_MATH / "math" / "scale_tpl", root)
    kernel_dir = root / "op_kernel"
    key = (kernel_dir / "scale_tpl_tiling_key.h").read_text()
    data = (kernel_dir / "scale_tpl_tiling_data.h").read_text()
    (kernel_dir / "scale_tpl_struct.h").write_text(key + data)
    (kernel_dir / "arch35").mkdir()
    (kernel_dir / "arch35" / "scale_tpl_struct_arch35.h").write_text(key)
    for name in ("scale_tpl_tiling_key.h", "scale_tpl_tiling_data.h"):
        (kernel_dir / name).unlink()
    for path in (kernel_dir / "scale_tpl.cpp", root / "op_host" / "scale_tpl_tiling.cpp"):
        text = path.read_text().replace("scale_tpl_tiling_data.h", "scale_tpl_struct.h")
        path.write_text(
            text.replace('#include "../op_kernel/scale_tpl_tiling_key.h"\n', "").replace(
                '#include "scale_tpl_tiling_key.h"\n', ""
            )
        )
    (source,) = find_ops(tmp_path)
    pkg = build_package(source, SPEC)
    pkg.files["reference.py"] = (OPS_MATH / "reference.py").read_text()
    assert pkg.spec.tiling_header == "op_kernel/scale_tpl_struct.h"
    assert template_key.key_header(pkg) == "op_kernel/scale_tpl_struct.h"
    result = evaluate(pkg, tmp_path / "run")
    assert result.status == Status.OK, result.message
    assert [c.passed for c in result.cases] == [True, True, True]


def test_a_kernel_file_named_otherwise_gives_the_operator_its_entry_s_name(tmp_path):
    # hicann/cann-bench's examples: op_kernel/<op>_kernel.cpp defines the entry `<op>`, the
    # name the toolkit binds the OpDef to; the operator is found under that name with that file.
    root = tmp_path / "ops" / "scale"
    shutil.copytree(OPS_MATH / "math" / "scale_tpl", root)
    (root / "op_kernel" / "scale_tpl.cpp").rename(root / "op_kernel" / "scale_tpl_kernel.cpp")
    (source,) = find_ops(tmp_path)
    assert (source.op, source.stem) == ("scale_tpl", "scale_tpl_kernel")
    pkg = build_package(source, SPEC)
    assert pkg.spec.kernel_file == "op_kernel/scale_tpl_kernel.cpp"
    assert pkg.spec.host_file == "op_host/scale_tpl_tiling.cpp"
    assert pkg.spec.tiling_header == "op_kernel/scale_tpl_tiling_data.h"
    assert pkg.spec.kernel == "scale_tpl"
    pkg.files["reference.py"] = (OPS_MATH / "reference.py").read_text()
    result = evaluate(pkg, tmp_path / "run")
    assert result.status == Status.OK, result.message
    assert all(c.passed for c in result.cases)


def test_a_project_of_several_operators_gives_each_its_own_package(tmp_path):
    # asc-devkit's acl_based custom_op: one op_host/ and op_kernel/ holding a subdirectory per
    # operator; each is found with its own files alone (another's sources stay out).
    project = tmp_path / "custom_op"
    source_dir = OPS_MATH / "math" / "scale_tpl"
    for name in ("scale_tpl", "other"):
        host, kernel = project / "op_host" / name, project / "op_kernel" / name
        shutil.copytree(source_dir / "op_kernel", kernel)
        host.mkdir(parents=True)
        for p in (source_dir / "op_host").glob("*.cpp"):
            text = p.read_text().replace('"../op_kernel/', f'"../../op_kernel/{name}/')
            (host / p.name).write_text(text)
    (project / "op_kernel" / "other" / "scale_tpl.cpp").rename(
        project / "op_kernel" / "other" / "other_kernel.cpp"
    )
    # The other's tiling is the device registry's (a tiling sink), its input a tiling value-depend.
    tiling = project / "op_host" / "other" / "scale_tpl_tiling.cpp"
    tiling.write_text(
        tiling.read_text()
        .replace("register/op_impl_registry.h", "register/device_op_impl_registry.h")
        .replace("IMPL_OP_OPTILING(", "DEVICE_IMPL_OP_OPTILING(")
    )
    opdef = project / "op_host" / "other" / "scale_tpl_def.cpp"
    opdef.write_text(
        opdef.read_text().replace(
            ".ParamType(REQUIRED)",
            ".ParamType(REQUIRED).ValueDepend(OPTIONAL, DependScope::TILING)",
            1,
        )
    )
    (project / "op_kernel" / "docs").mkdir()  # no op_host/docs: no operator
    found = find_ops(tmp_path)
    assert [(s.op, s.sub, s.stem) for s in found] == [
        ("scale_tpl", "other", "other_kernel"),
        ("scale_tpl", "scale_tpl", ""),
    ]
    pkg = build_package(found[0], SPEC)
    pkg.files["reference.py"] = (OPS_MATH / "reference.py").read_text()
    result = evaluate(pkg, tmp_path / "run_other")
    assert result.status == Status.OK, result.message
    pkg = build_package(found[1], SPEC)
    assert pkg.spec.kernel_file == "op_kernel/scale_tpl/scale_tpl.cpp"
    assert pkg.spec.host_file == "op_host/scale_tpl/scale_tpl_tiling.cpp"
    assert pkg.spec.host_sources == ["op_host/scale_tpl/scale_tpl_def.cpp"]
    assert not any("/other/" in p for p in pkg.files)
    pkg.files["reference.py"] = (OPS_MATH / "reference.py").read_text()
    result = evaluate(pkg, tmp_path / "run")
    assert result.status == Status.OK, result.message
    assert all(c.passed for c in result.cases)
