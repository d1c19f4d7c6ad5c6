"""OpenEvolve's program text (baselines/openevolve/program.py) alone: no openevolve, no Ray."""

from __future__ import annotations

import pytest

from ascend_core import suite
from baselines.openevolve import program as program_io


@pytest.mark.parametrize("ending", ["", "\n\n"])
def test_a_file_round_trips_whatever_it_ends_with(ending):
    # The baseline must come back byte for byte, or evaluating it costs a budgeted evaluation.
    base = suite.resolve("level1/add")
    files = {**base.files, base.kernel_path: base.kernel_source.rstrip("\n") + ending}
    odd = base.model_copy(update={"files": files})
    program = program_io.compose(odd)
    assert program_io.split(program, odd).files == odd.files
    edited = program.replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 2048;")
    program_io.check_blocks(program, edited)
    candidate = program_io.split(edited, odd)  # a tiling edit leaves the kernel as it was
    assert candidate.kernel_source == odd.kernel_source and "2048" in candidate.tiling_source
