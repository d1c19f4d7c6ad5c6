"""A header of a CANN package that a repository's build files find outside it (the op base
package's atvoss templates, HCCL) and the simulator does not provide: `corpus run` / `corpus
compile` say so in one line, naming the package, for either compiler's message."""

from __future__ import annotations

from ascend_gym.corpus.runner import package_note

GCC = (
    "host tiling program: op_host/x.cpp:19:10: fatal error: tiling/hccl/hccl_tiling.h: "
    "No such file or directory\n   19 | #include ...\ncompilation terminated."
)
CLANG = "kernel: op_kernel/x.cpp:3:10: fatal error: 'atvoss/reduce/reduce_sch.h' file not found"


def test_a_missing_package_header_is_one_line_naming_the_package():
    note = package_note(GCC)
    assert note.startswith("host tiling program: op_host/x.cpp:19:10: tiling/hccl/hccl_tiling.h is")
    assert "HCCL" in note and "\n" not in note
    note = package_note(CLANG)
    assert note.startswith("kernel: op_kernel/x.cpp:3:10: atvoss/reduce/reduce_sch.h is")
    assert "op base package" in note


def test_other_messages_are_left_alone():
    assert (
        package_note("kernel: op_kernel/x.cpp:3:10: fatal error: 'own/header.h' file not found")
        == ""
    )
    assert (
        package_note("host tiling program: op_host/x.cpp:4:1: error: 'Tensor' does not name a type")
        == ""
    )
    assert package_note("") == ""
