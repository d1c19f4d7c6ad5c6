"""Code extraction from model replies: labelled fences, SEARCH/REPLACE edits, whole files."""

from __future__ import annotations

from agents.llm import extract_parts, extract_source

TILING = "constexpr uint32_t TILE = 4096;  // @tune tile in [256, 16384] pow2\nint f() {\n    return TILE;\n}\n"
KERNEL = '#include "kernel_operator.h"\nvoid k() {\n  Add(z, x, y, n);\n}\n'


def test_labelled_fences_give_each_part():
    reply = "Bigger tiles and a tidier kernel.\n```cpp tiling\nnew tiling\n```\nKernel:\n```cpp\nnew kernel\n```\n"
    assert extract_parts(reply, {"tiling": TILING, "kernel": KERNEL}) == {
        "tiling": "new tiling\n",
        "kernel": "new kernel\n",
    }


def test_search_replace_applies_to_the_part_that_holds_the_text_even_with_other_indentation():
    reply = (
        "Halve the tile.\n<<<<<<< SEARCH\nconstexpr uint32_t TILE = 4096;  // @tune tile in [256, 16384] pow2\n"
        "=======\nconstexpr uint32_t TILE = 2048;  // @tune tile in [256, 16384] pow2\n>>>>>>> REPLACE\n"
        "<<<<<<< SEARCH\n  return TILE;\n=======\n    return TILE + 0;\n>>>>>>> REPLACE\n"
    )
    out = extract_parts(reply, {"tiling": TILING, "kernel": KERNEL})
    assert set(out) == {"tiling"}
    assert "TILE = 2048;" in out["tiling"] and "return TILE + 0;" in out["tiling"]


def test_search_text_that_is_nowhere_changes_nothing():
    reply = "<<<<<<< SEARCH\nnot in the file\n=======\nx\n>>>>>>> REPLACE\n"
    assert extract_source(reply, TILING, "tiling") is None


def test_one_unlabelled_fence_or_a_bare_file_is_the_whole_part():
    assert (
        extract_source("Here:\n```\n#include <x>\nint k;\n```", KERNEL, "kernel")
        == "#include <x>\nint k;\n"
    )
    assert extract_source(
        '#include "kernel_operator.h"\nextern "C" void k() {}', KERNEL, "kernel"
    ).startswith("#include")
    assert extract_source("I cannot help with that.", KERNEL, "kernel") is None
    assert (
        extract_source(f"```cpp kernel\n{KERNEL}```", KERNEL, "kernel") is None
    )  # unchanged is no proposal
