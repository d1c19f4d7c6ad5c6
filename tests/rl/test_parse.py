"""Completions into packages: every form trainers pass, and a clear error for the rest."""

from __future__ import annotations

import json

import pytest

from ascend_core import suite
from ascend_gym.rl.parse import FormatError, parse_completion

BASE = suite.resolve("level1/add")
KERNEL = suite.load_expert("level1/add").files["op_kernel/add.cpp"]


@pytest.mark.parametrize(
    "completion",
    [
        f"```cpp op_kernel/add.cpp\n{KERNEL}```",
        f"Plan: vectorise.\n```cpp kernel\n{KERNEL}```",
        f"```cpp path=op_kernel/add.cpp\n{KERNEL}```",
        f"```cpp\n{KERNEL}```",  # one unlabelled block with an __aicore__ entry
        {"kernel": KERNEL},
        {"files": {"op_kernel/add.cpp": KERNEL}},
        [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": f"```cpp kernel\n{KERNEL}```"},
        ],
        [
            {
                "role": "assistant",
                "tool_calls": [
                    {"function": {"name": "submit", "arguments": json.dumps({"kernel": KERNEL})}}
                ],
            }
        ],
    ],
)
def test_every_form_gives_the_new_kernel(completion):
    package = parse_completion(completion, BASE)
    assert package.kernel_source == KERNEL
    assert package.tiling_source == BASE.tiling_source
    assert package.uri == BASE.uri  # judged by the suite's own spec and reference


def test_tiling_and_kernel_together():
    tiling = BASE.tiling_source.replace("BLOCK_DIM = 40", "BLOCK_DIM = 20")
    text = f"```cpp tiling\n{tiling}```\nand\n```cpp op_kernel/add.cpp\n{KERNEL}```"
    package = parse_completion(text, BASE)
    assert (package.tiling_source, package.kernel_source) == (tiling, KERNEL)


@pytest.mark.parametrize(
    "completion, says",
    [
        ("I would vectorise the loop.", "no source block"),
        ("```cpp op_kernel/add.cpp\nint x;", "not closed"),
        ("```cpp op.toml\nname = 'x'\n```", "not a source of this operator"),
        ("```python reference.py\ndef add(x, y): return x\n```", "not a source of this operator"),
        ("```cpp op_kernel/other.cpp\nint x;\n```", "not a source of this operator"),
        ("```cpp kernel\nint a;\n```\n```cpp op_kernel/add.cpp\nint b;\n```", "two blocks"),
        ("```cpp\nint a;\n```\n```cpp\nint b;\n```", "names no file"),
        ("```cpp kernel\n   \n```", "empty"),
        ({"kernel": KERNEL, "reference": "x"}, "unknown arguments"),
        ([{"role": "user", "content": "go"}], "no assistant"),
    ],
)
def test_format_errors_say_what_to_fix(completion, says):
    with pytest.raises(FormatError, match=says):
        parse_completion(completion, BASE)
