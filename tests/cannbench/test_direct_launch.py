"""cann-bench's direct-launch layout through the one evaluation entry: the project's plugin and
tiling function as the host tiling, its kernel launched as its plugin launches it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ascend_gym.cannbench import direct_launch

from .conftest import DIRECT_KERNEL, DIRECT_PLUGIN, direct_project

CLI = [sys.executable, "-m", "ascend_gym.cli"]


def test_the_host_part_keeps_the_tiling_and_records_the_launches():
    host = direct_launch.host_part(DIRECT_KERNEL)
    assert host.count("\n") == DIRECT_KERNEL.count("\n")  # diagnostics keep the project's lines
    assert "__aicore__" not in host and "AscendC::" not in host and "kernel_operator.h" not in host
    assert "scaled_add_tiling(int64_t total, int64_t elemBytes)" in host
    assert "::cann_bench_direct::Launch(0, blocks, nullptr, stream)(x1, x2, y," in host
    assert "::cann_bench_direct::Launch(1, blocks, nullptr, stream)(x1, x2, y," in host
    kernels = direct_launch.launched_kernels(DIRECT_KERNEL)
    assert kernels == ["scaled_add_kernel<half>", "scaled_add_kernel<float>"]


def _score(op_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, "cann-bench", "score", str(op_dir), "--suite", "cb-direct"],
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_a_direct_launch_submission_is_evaluated_as_it_is(bench_set, tmp_path):
    subprocess.run(
        [*CLI, "cann-bench", "import", str(bench_set), "--name", "cb-direct"],
        check=True,
        timeout=300,
    )
    op_dir = direct_project(tmp_path)
    score = _score(op_dir)
    assert score.returncode == 0, score.stdout + score.stderr
    assert "| case_1 | 1 | OK" in score.stdout and "| case_2 | 2 | OK" in score.stdout  # alpha 0.5
    # a dtype the plugin launches nothing for leaves its output unwritten, as on the NPU
    plugin = op_dir / "op_plugin" / "scaled_add_plugin.cpp"
    plugin.write_text(DIRECT_PLUGIN.replace("torch::kFloat32", "torch::kBFloat16"))
    partial = _score(op_dir)
    assert partial.returncode == 1, partial.stdout + partial.stderr
    assert "| case_1 | 1 | OK" in partial.stdout
    assert "| case_2 | 2 | WRONG_ANSWER |" in partial.stdout
    # a plugin whose output is not the task's is a runtime error that says so
    plugin.write_text(
        DIRECT_PLUGIN.replace("torch::empty_like(x1)", "torch::empty({7}, x1.options())")
    )
    wrong = _score(op_dir)
    assert wrong.returncode == 1 and "| case_1 | 1 | RUNTIME_ERROR |" in wrong.stdout, wrong.stdout
