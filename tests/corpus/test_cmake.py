"""Build files read in general (ascend_gym/corpus/cmake.py): tests/corpus/own_root names its root
by a variable of its own, keeps its helpers as modules on CMAKE_MODULE_PATH, appends to an include
list under conditions, and gives the directories through a function the operator's CMakeLists
calls with cmake_parse_arguments; its operator sits in a directory named otherwise, with a host
file not named after it and the tiling struct in op_kernel/."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from ascend_core.package import OperatorSpec
from ascend_gym.corpus import build_package, cmake, find_ops, include_roots, packaged
from ascend_gym.corpus.runner import unfound_note

HERE = Path(__file__).parent
REPO = (HERE / "own_root").resolve()
OP = REPO / "kernels" / "vector" / "blend_impl"
SPEC = OperatorSpec.model_validate(
    tomllib.loads((HERE / "layout_specs.toml").read_text())["offset_blend"]
)


def test_the_build_files_give_the_include_directories_in_their_order():
    found = [d.relative_to(REPO).as_posix() for d in cmake.include_dirs(REPO, OP)]
    # framework/extra sits under a condition on a -D option (both branches taken), after the
    # list's first entry; framework/unused under one the build files decide (DEFINED of a
    # variable they never set); ut.cmake, a unit-test helper, is not entered.
    assert found == ["framework/tiling", "framework/extra", "kernels/shared_kernels"]


def test_the_runner_keeps_the_roots_and_carries_what_is_included_through_them():
    (source,) = find_ops(HERE / "own_root")
    assert (source.op, source.rel) == ("offset_blend", "kernels/vector/blend_impl")
    assert [d.relative_to(REPO).as_posix() for d in include_roots(source)] == [
        "framework/tiling",
        "framework/extra",
        "kernels/shared_kernels",
    ]
    pkg = build_package(source, SPEC)
    assert pkg.spec.host_file == "op_host/tiling_entry.cpp"
    assert pkg.spec.tiling_header == "op_kernel/offset_blend_tiling.h"
    assert pkg.spec.kernel_file == "op_kernel/offset_blend.cpp"
    assert pkg.spec.include_dirs == ["framework/tiling", "kernels/shared_kernels"]
    assert sorted(p for p in pkg.files if p.startswith("tree/")) == [
        "tree/framework/tiling/row_share.h",
        "tree/kernels/shared_kernels/blend_math.h",
    ]


def test_a_repository_without_git_in_a_directory_of_several_reads_its_build_from_its_own_root(
    tmp_path,
):
    # A repository unpacked from an archive has no .git: pointed at a directory holding several,
    # the runner took that directory for the repository, so a build naming its root by
    # CMAKE_SOURCE_DIR named the wrong one (five cann-ops operators lost their shared tiling
    # headers so). The outermost directory below it with a top-level CMakeLists.txt is the
    # repository now.
    shutil.copytree(REPO, tmp_path / "own_root")
    top = tmp_path / "own_root" / "CMakeLists.txt"
    top.write_text(top.read_text().replace("CMAKE_CURRENT_SOURCE_DIR", "CMAKE_SOURCE_DIR"))
    (tmp_path / "other").mkdir()
    (source,) = find_ops(tmp_path)
    assert source.rel == "own_root/kernels/vector/blend_impl"
    repo = (tmp_path / "own_root").resolve()
    assert [d.relative_to(repo).as_posix() for d in include_roots(source)] == [
        "framework/tiling",
        "framework/extra",
        "kernels/shared_kernels",
    ]


def _commands(text: str, tmp_path: Path) -> list[str]:
    (tmp_path / "CMakeLists.txt").write_text(text)
    op = tmp_path / "op"
    op.mkdir(exist_ok=True)
    return [d.relative_to(tmp_path).as_posix() for d in cmake.include_dirs(tmp_path, op)]


def test_variables_lists_and_macros_are_evaluated(tmp_path):
    text = """
    set(ROOT_OF_MINE "${CMAKE_CURRENT_SOURCE_DIR}")  # a quoted value, a comment
    set(PARTS a b)
    list(PREPEND PARTS first)
    list(APPEND PARTS "c;d")
    macro(add_parts prefix)
      foreach(p IN LISTS PARTS ITEMS last)
        include_directories(${ROOT_OF_MINE}/${prefix}/${p})
      endforeach()
    endmacro()
    add_parts(inc)
    set(NAME_OF_VAR PARTS)
    include_directories(${ROOT_OF_MINE}/${${NAME_OF_VAR}})
    """
    assert _commands(text, tmp_path) == [
        "inc/first",
        "inc/a",
        "inc/b",
        "inc/c",
        "inc/d",
        "inc/last",
        "first",
        "a",
        "b",
        "c",
        "d",
    ]


def test_decided_conditions_take_one_branch_and_undecided_ones_every_branch(tmp_path):
    text = """
    set(MODE fast)
    option(WITH_X "" ON)
    if(MODE STREQUAL "fast" AND WITH_X)
      include_directories(taken)
    elseif(MODE STREQUAL "slow")
      include_directories(not_taken)
    else()
      include_directories(not_taken_either)
    endif()
    if(NOT (MODE STREQUAL "fast"))
      include_directories(negated)
    endif()
    if(SOMETHING_FROM_THE_COMMAND_LINE)
      include_directories(maybe_a)
    else()
      include_directories(maybe_b)
    endif()
    """
    assert _commands(text, tmp_path) == ["taken", "maybe_a", "maybe_b"]


def test_a_function_sets_its_caller_s_variable_only_through_parent_scope(tmp_path):
    text = """
    function(pick out)
      set(LOCAL_ONLY local)
      set(${out} picked PARENT_SCOPE)
    endfunction()
    pick(CHOSEN)
    include_directories(${CHOSEN} x${LOCAL_ONLY})
    """
    assert _commands(text, tmp_path) == ["picked", "x"]


def test_the_sources_compiled_come_from_globs_lists_and_the_target_s_soc(tmp_path):
    # A build of our own: a glob filtered by a regex, a SoC table looked up by the toolkit's
    # compute unit (set for the A2 whatever the file's cache default says), a MATCHES condition,
    # and file() modes that are not globs left alone.
    op = tmp_path / "op"
    for name in ("op_host/a_tiling.cpp", "op_host/a_test.cpp", "op_host/soc2/b.cpp", "k/c.cpp"):
        (op / name).parent.mkdir(parents=True, exist_ok=True)
        (op / name).write_text("")
    (tmp_path / "CMakeLists.txt").write_text("""
    set(ASCEND_COMPUTE_UNIT ascend950 CACHE STRING "")
    set(UNITS ascend950 ascend910b)
    set(DIRS soc3 soc2)
    list(FIND UNITS "${ASCEND_COMPUTE_UNIT}" at)
    list(GET DIRS ${at} soc)
    list(LENGTH DIRS n)
    file(GLOB host ${CMAKE_SOURCE_DIR}/op/op_host/*.cpp)
    list(FILTER host EXCLUDE REGEX "_test[.]cpp$")
    file(GLOB_RECURSE soc_srcs RELATIVE ${CMAKE_SOURCE_DIR} op/op_host/${soc}/*.cpp)
    file(WRITE ${CMAKE_SOURCE_DIR}/written.txt "never")
    if("${soc}" MATCHES "^soc[0-9]$" AND n EQUAL 2)
      add_library(host_obj OBJECT ${host} ${soc_srcs})
    endif()
    target_sources(kernels PRIVATE $<BUILD_INTERFACE:op/k/c.cpp> op/k/c.cpp)
    add_library(imported_one SHARED IMPORTED)
    """)
    build = cmake.evaluate(tmp_path, op)
    assert [p.relative_to(tmp_path).as_posix() for p in build.sources] == [
        "op/op_host/a_tiling.cpp",
        "op/op_host/soc2/b.cpp",
        "op/k/c.cpp",
    ]
    assert not (tmp_path / "written.txt").exists()


def test_hostile_build_files_stay_bounded(tmp_path):
    # A file including itself and a function calling itself end at the depth bound; a huge
    # foreach at the item bound; an include outside the repository is not read.
    (tmp_path / "loop.cmake").write_text("include(loop.cmake)\ninclude_directories(looped)\n")
    text = """
    include(loop.cmake)
    function(again)
      again()
    endfunction()
    again()
    foreach(i RANGE 100000000)
    endforeach()
    file(GLOB_RECURSE everything /*)
    file(GLOB parent ${CMAKE_SOURCE_DIR}/../*)
    include(/etc/hostname)
    include_directories(${everything} ${parent})
    include_directories(done)
    """
    found = _commands(text, tmp_path)
    assert found[-1] == "done" and set(found) == {"looped", "done"}


def test_where_the_build_files_tell_nothing_the_gap_is_named_and_the_roots_can_be_given(tmp_path):
    repo = tmp_path / "own_root"
    shutil.copytree(REPO, repo)
    # The targets (and their include directories) come from a file the build generates.
    (repo / "build_rules" / "targets.cmake").write_text("include(${CMAKE_BINARY_DIR}/gen.cmake)\n")
    kernel = repo / "kernels" / "vector" / "blend_impl" / "op_kernel" / "offset_blend.cpp"
    # A toolkit header the simulator lacks is no file of the repository: not named as one.
    kernel.write_text('#include "toolkit_only/asc_extra.h"\n' + kernel.read_text())
    (source,) = find_ops(repo)
    pkg, unfound = packaged(source, SPEC)
    assert unfound == ("blend_math.h", "row_share.h")
    assert pkg.spec.include_dirs == []
    note = unfound_note(unfound)
    assert (
        '"blend_math.h", "row_share.h"' in note
        and "include_dirs" in note
        and "--include-dir" in note
    )
    assert "\n" not in note  # one line
    given = ["framework/tiling", "kernels/shared_kernels"]
    pkg, unfound = packaged(source, SPEC, given)
    assert unfound == ()
    assert pkg.spec.include_dirs == given
    # The spec's own include_dirs serve the same way.
    pkg, unfound = packaged(source, SPEC.model_copy(update={"include_dirs": given}))
    assert (unfound, pkg.spec.include_dirs) == ((), given)


def test_a_source_named_for_another_soc_is_not_the_a2_s(tmp_path):
    repo = tmp_path / "own_root"
    shutil.copytree(REPO, repo)
    host = repo / "kernels" / "vector" / "blend_impl" / "op_host"
    (host / "tiling_entry.cpp").rename(host / "tiling_entry_arch35.cpp")
    assert find_ops(repo) == []  # no tiling for the A2: not an operator of this build
    (host / "tiling_entry_arch35.cpp").rename(host / "tiling_entry_arch22.cpp")
    (source,) = find_ops(repo)
    assert build_package(source, SPEC).spec.host_file == "op_host/tiling_entry_arch22.cpp"


def test_a_target_s_include_directories_are_every_list_s_that_widens_it(tmp_path):
    """One library target of the whole package, built by a helper every module calls; a sibling
    module's list widens it with a shared directory (ops-nn's foreach tilings find their shared
    class header so): the operator's build sees it too. A target the operator's build never
    names gains nothing from it, nor do the unit tests' lists."""
    (tmp_path / "CMakeLists.txt").write_text(
        "set(PKG ops_pkg)\n"
        "function(add_module)\n  add_library(${PKG}_tiling OBJECT)\nendfunction()\n"
        "add_subdirectory(group/op)\n"
    )
    for d in ("group/op", "group/other", "group/shared/inc", "group/tests/ut", "elsewhere"):
        (tmp_path / d).mkdir(parents=True)
    (tmp_path / "group/op/CMakeLists.txt").write_text("add_module()\n")
    (tmp_path / "group/other/CMakeLists.txt").write_text(
        "get_filename_component(SHARED ${CMAKE_CURRENT_SOURCE_DIR}/../shared ABSOLUTE)\n"
        "target_include_directories(${PKG}_tiling PRIVATE ${SHARED}/inc)\n"
        "target_include_directories(${PKG}_graph PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/../../elsewhere)\n"
    )
    (tmp_path / "group/tests/ut/CMakeLists.txt").write_text(
        "target_include_directories(${PKG}_tiling PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})\n"
    )
    found = cmake.include_dirs(tmp_path, tmp_path / "group/op")
    assert [d.relative_to(tmp_path).as_posix() for d in found] == ["group/shared/inc"]


def test_the_tiling_target_s_definitions_come_with_its_libraries_usage_requirements():
    """own_root's tiling object gets a definition of its own and, through the log library it
    links, that library's INTERFACE definitions (set in a directory the evaluation does not
    enter); generator expressions on options the build does not set decide as CMake decides."""
    (source,) = find_ops(HERE / "own_root")
    pkg = build_package(source, SPEC)
    assert pkg.spec.host_defines == [
        'BLEND_LOG_NAME="OP_TILING"',
        "BLEND_FROM_BUILD",
        'BLEND_LOG_PACKAGE=""',
    ]


def test_definitions_follow_cmake_s_usage_requirements(tmp_path):
    """PRIVATE definitions stay with their target, INTERFACE ones go to the targets linking it
    (through INTERFACE/PUBLIC links), `-D` options count; a reserved name (the standard
    library's ABI switch) is not taken; sources built only into other targets are not the
    tiling's."""
    (tmp_path / "CMakeLists.txt").write_text(
        "set(OPEN ON)\n"
        "add_library(base INTERFACE)\n"
        "target_compile_definitions(base INTERFACE _GLIBCXX_USE_CXX11_ABI=0 BASE_ON)\n"
        "add_library(log INTERFACE)\n"
        "target_compile_definitions(log INTERFACE"
        ' PKG=$<IF:$<BOOL:${OPEN}>,"[Custom]",""> $<INSTALL_INTERFACE:INSTALLED>)\n'
        "target_link_libraries(log INTERFACE base)\n"
        "add_library(helper STATIC)\n"
        "target_compile_definitions(helper PRIVATE HELPER_ONLY PUBLIC HELPER_PUBLIC)\n"
        "add_subdirectory(op)\n"
    )
    (tmp_path / "op/op_host").mkdir(parents=True)
    (tmp_path / "op/CMakeLists.txt").write_text(
        "add_library(tiling OBJECT op_host/t.cpp)\n"
        "target_compile_options(tiling PRIVATE $<$<NOT:$<BOOL:${UT}>>:-DNO_UT> -fvisibility=hidden)\n"
        "target_link_libraries(tiling PRIVATE $<BUILD_INTERFACE:log> helper)\n"
        "add_library(api SHARED op_host/api.cpp)\n"
        "target_compile_definitions(api PRIVATE API_ONLY)\n"
    )
    build = cmake.evaluate(tmp_path, tmp_path / "op")
    tiling = tmp_path / "op/op_host/t.cpp"
    assert build.usage.targets_of(tiling) == {"tiling"}
    assert build.usage.targets_of(tmp_path / "op/op_host/api.cpp") == {"api"}
    assert build.usage.definitions_of([tiling]) == [
        "NO_UT",
        'PKG="[Custom]"',
        "HELPER_PUBLIC",
        "BASE_ON",
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("$<1:a>$<0:b>", "a"),
        ("$<$<BOOL:OFF>:x>", ""),
        ("$<$<NOT:$<BOOL:>>:x>", "x"),
        ("$<IF:$<AND:1,$<OR:0,1>>,yes,no>", "yes"),
        ("$<$<STREQUAL:a,b>:x>$<COMMA>", ","),
        ("$<BUILD_INTERFACE:inc>$<INSTALL_INTERFACE:lib>", "inc"),
        ("$<$<COMPILE_LANGUAGE:CXX>:-std=c++17>$<$<COMPILE_LANGUAGE:C>:-std=c11>", "-std=c++17"),
        ("$<$<TARGET_EXISTS:x>:y>", ""),  # undecided: dropped
    ],
)
def test_generator_expressions_evaluate_innermost_first(text, value):
    assert cmake._genex(text) == value
