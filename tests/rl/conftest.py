"""Candidates for the reward tests: real suite packages and variants of their tiling."""

from __future__ import annotations

import re

import pytest

from ascend_core import suite
from ascend_core.package import OperatorPackage


def block_dim_variant(address: str, block_dim: int) -> OperatorPackage:
    """The operator's baseline with another block dim (a distinct, correct candidate)."""
    base = suite.resolve(address)
    tiling = re.sub(r"BLOCK_DIM = \d+;", f"BLOCK_DIM = {block_dim};", base.tiling_source)
    return base.with_sources(tiling=tiling)


def fenced(package: OperatorPackage, path: str) -> str:
    return f"Here is my kernel.\n```cpp {path}\n{package.files[path]}```\n"


@pytest.fixture(scope="session")
def add_expert_completion() -> str:
    return fenced(suite.load_expert("level1/add"), "op_kernel/add.cpp")
