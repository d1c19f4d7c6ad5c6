"""Experience from real histories: a repository of our own whose commits put double buffering and
precise waits into a kernel, mined into bank experiences with the real hunks as their diffs."""

import subprocess

from agents.ascendoptimizer.history import mine, motif_of_hunk


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def test_hunks_that_put_a_motif_in_are_mined(tmp_path):
    kernel = tmp_path / "math" / "scale" / "op_kernel" / "scale.cpp"
    kernel.parent.mkdir(parents=True)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "t@t")
    _git(tmp_path, "config", "user.name", "t")
    body = "constexpr int32_t BUFFER_NUM = 1;\nvoid Compute() {\n  Muls(y, x, 2.0f, n);\n  PipeBarrier<PIPE_ALL>();\n  Adds(y, y, 1.0f, n);\n}\n"
    for text, message in (
        (body, "scale"),
        (body.replace("BUFFER_NUM = 1", "BUFFER_NUM = 2"), "perf: double buffer"),
        (
            body.replace("BUFFER_NUM = 1", "BUFFER_NUM = 2").replace("PIPE_ALL", "PIPE_V"),
            "perf: precise barrier",
        ),
        ("// rewritten\n", "rewrite without motifs"),
    ):
        kernel.write_text(text)
        _git(tmp_path, "add", "-A")
        _git(tmp_path, "commit", "-q", "-m", message)
    found = mine(tmp_path, "us/ops")
    assert [(e.motif, e.variant.split(": ", 1)[1]) for e in found] == [
        ("no_pipe_all_barrier", "perf: precise barrier"),
        ("double_buffering", "perf: double buffer"),
    ]
    assert all(e.operator == "us/ops:math/scale/op_kernel/scale.cpp" for e in found)
    assert "-  PipeBarrier<PIPE_ALL>();\n+  PipeBarrier<PIPE_V>();" in found[0].code_diff
    assert motif_of_hunk(["x = 1;"], ["x = 2;"]) is None
