"""The offline generator on its development set (`tests/cannbench/data/gen_dev`, tasks written
here in cann-bench's layout from PyTorch's documentation of each op): the torch forms, scalar
attributes of every type, bfloat16- and int32-only case sets and views that broadcast a row or a
column, each generated, compiled and run on every case through `cann-bench run` (the daemon's
evaluation, the golden sandboxed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

DEV = Path(__file__).parent / "data" / "gen_dev"
CLI = [sys.executable, "-m", "ascend_gym.cli"]

# one task per extension: the gap it closed
TASKS = {
    "level1/add_alpha_bf16": 2,  # bfloat16 only, a float attribute scaling the second operand
    "level1/mul_int32": 2,  # int32 only: an int32 Mul, as torch computes it
    "level1/gelu_erf": 2,  # F.gelu without approximate: erf by Abramowitz-Stegun 7.1.26
    "level1/softplus": 2,  # beta and threshold as the kernel's scalars, the stable form
    "level1/muls_int_attr": 2,  # integer attributes: the case's values in the program
    "level2/row_scale_unsqueeze": 2,  # s.unsqueeze(-1): a value per row
    "level2/scale_bias_view": 2,  # view(1, -1) rows in fp16, one rounded op at a time as torch
    "level2/log_softmax": 2,  # an int `dim` attribute, a rows normalization
    "level2/mse_loss": 2,  # reduction='mean' (a string attribute): a total
}


def test_the_dev_set_is_in_cann_benchs_layout():
    tasks = sorted(p.parent for p in DEV.glob("level*/*/proto.yaml"))
    assert 20 <= len(tasks) <= 30
    for t in tasks:
        assert {"proto.yaml", "golden.py", "cases.yaml", "desc.md"} <= {f.name for f in t.iterdir()}


def test_generated_kernels_pass_every_case(tmp_path):
    for rel in TASKS:
        shutil.copytree(DEV / rel, tmp_path / "set" / rel)
    done = subprocess.run(
        [*CLI, "cann-bench", "run", str(tmp_path / "set"), "--name", "cb-gen-dev"],
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for rel, n in TASKS.items():
        assert f"{rel}: correct, {n}/{n} cases" in done.stdout, done.stdout
