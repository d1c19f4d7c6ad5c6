"""The offline generator on its development set (`tests/cannbench/data/gen_dev`, tasks written
here in cann-bench's layout from PyTorch's documentation of each op): the torch forms, scalar
attributes of every type, bfloat16- and int32-only case sets, int8 and int64 outputs, [1]
scales, views that broadcast a row or a column, matmuls with transposed operands and
element-wise epilogues, transposes, concatenations, slices and
gathers along the last axis, index reductions, running products, pooling of a plane and by
windows, einsum, norms over trailing axes, any/all into bool outputs (with and without dim),
convolutions (conv1d / conv2d: groups, stride, padding, dilation, bias), cross_entropy with class
probabilities or label smoothing, var / std / logsumexp along a middle axis, nll_loss and cross_entropy with class weights
and ignore_index (their mean too), instance_norm, attention (two matmuls and a softmax; causal and
input masks, scaled_dot_product_attention), group_norm of several channels a group, each
generated, compiled and run on every case
through `cann-bench run` (the daemon's evaluation, the golden sandboxed)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
    "level1/where_compare": 2,  # torch.where with a condition computed from the inputs
    "level1/clamp_tensor": 2,  # clamp with tensor bounds
    "level2/bias_3d": 2,  # a [S, C] operand broadcast over the batch of [B, S, C]
    "level1/masked_scale": 2,  # an int32 mask beside fp16/fp32 data, compared with != 0
    "level1/mask_mul_int8": 2,  # an int8 mask cast to the data's dtype (widened through half)
    "level2/softmax_mid": 2,  # softmax over dim=1 of [B, S, C]: three walks along the axis
    "level2/log_softmax_mid": 2,  # log_softmax likewise
    "level1/quantize_int8": 2,  # an int8 output: round, clamp, .to(torch.int8) (through half)
    "level1/bucket_int64": 2,  # int64 in and out: .long() goes toward zero
    "level1/dequant_scale": 2,  # a scale and an offset of shape [1]: scalar operands
    "level1/stack_max_mean": 2,  # torch.stack reduced over its new axis: folds of the members
    "level1/matmul_2d": 2,  # torch.matmul of two matrices on the cube (fp16 and fp32)
    "level1/linear_t": 2,  # x @ torch.t(w): a batch of rows against one transposed weight
    "level2/bmm_scores": 2,  # torch.bmm(q, k.transpose(1, 2)), an input named k
    "level2/matmul_permute": 2,  # x.permute(0, 2, 1) @ y: the first operand transposed
    "level1/transpose_last2": 3,  # torch.transpose(x, -1, -2): tiles gathered into columns
    "level1/cat_mid": 2,  # torch.cat((x, y), dim=1): rows copied into the output's rows
    "level1/slice_parts": 2,  # x[..., 1:-1] and torch.split's first piece: two outputs
    "level1/gather_last": 2,  # torch.gather along the last axis, an int64 and an int32 index
    "level2/index_select_last": 2,  # torch.index_select: one index row for every row
    "level2/linear_bias": 2,  # F.linear with a bias: the cube's initial C (fp16, fp32)
    "level2/linear_relu": 2,  # relu(F.linear(...)): an epilogue on the vector cores (cube loop)
    "level2/bmm_gelu_pair": 2,  # torch.bmm and F.gelu of it: two outputs of one epilogue
    "level1/remainder_fmod": 2,  # torch.remainder and fmod: a - floor / trunc(a / b) * b
    "level1/permute_heads": 3,  # permute(0, 2, 1, 3): rows of the last axis copied into place
    "level1/permute_rotate": 2,  # movedim(x, 0, -1): two axis groups swapped by a Gather
    "level2/channel_affine": 2,  # x * w.view(1, -1, 1, 1) + b...: per-channel rows of H x W
    "level1/repeat_interleave_mid": 3,  # repeat_interleave(x, 3, dim=1): copies of rows
    "level1/zeros_place": 2,  # torch.zeros, then two inputs written by slice: places and fills
    "level1/triu_tril": 3,  # torch.triu / tril: each row's first lanes zeroed (Duplicate)
    "level2/transpose_gelu": 2,  # gelu(x.transpose(-1, -2) * scale): work on x's tiles, gathered
    "level2/batch_norm_prelu": 2,  # F.batch_norm (inference) and F.prelu: five channel operands
    "level1/argmax_mid": 2,  # argmax / argmin along dim 1: Compare + Select per step (columns)
    "level1/min_indices": 2,  # torch.min(x, dim): values and int64 indices (ReduceMin, calIndex)
    "level1/cumprod_mid": 2,  # torch.cumprod along a middle axis: a running Mul
    "level2/adaptive_avg_pool": 2,  # F.adaptive_avg_pool2d(x, 1): rows of H x W (row_axes=2)
    "level1/copy_empty_like": 2,  # empty_like + copy_, copy.deepcopy + mul_: two outputs
    "level2/cross_entropy_mean": 2,  # a row's element at its target (lanes); a mean over rows
}


# the forms added after the default tier's time was spent: pooling windows, einsum, norms over
# trailing axes, any/all, convolutions, cross_entropy with probabilities or smoothing, totals
# with work after them along a middle axis (the slow tier)
SLOW_TASKS = {
    "level1/max_pool2d_pad": 2,  # F.max_pool2d, padding 1: a Gather per tap, -inf pad lanes
    "level1/avg_pool1d_stride": 2,  # F.avg_pool1d, stride 2, padding counted (bf16 too)
    "level1/max_pool1d_dilated": 2,  # taps 2 apart
    "level1/avg_pool2d": 2,  # nn.AvgPool2d(2) of an odd plane: the last row and column dropped
    "level1/adaptive_avg_pool1d": 2,  # adaptive to 8: the window from the shapes (64/8, 96/8)
    "level1/einsum_scores": 2,  # einsum('bhqd,bhkd->bhqk'): a batched matmul, k transposed
    "level2/einsum_gelu": 2,  # gelu(einsum('bsd,df->bsf')): a shared weight, an epilogue
    "level2/layer_norm_hw": 2,  # F.layer_norm over [H, W], a weight of that shape
    "level1/any_dim": 2,  # torch.any(x > t, dim): a Compare per row, its max stored as a bool
    "level1/all_mid": 2,  # torch.all along a middle axis: a columns loop's min into a bool
    "level1/any_all_whole": 2,  # any / all without dim: a tiles loop's max / min into a bool
    "level1/conv1d_depthwise": 2,  # F.conv1d, groups = channels, a bias: a Gather + Axpy per tap
    "level1/conv1d_same_groups": 2,  # padding='same', dilation 2, two groups, an unbatched case
    "level2/conv2d_bias_stride": 2,  # F.conv2d 3 x 3, stride 2, padding 1, a bias
    "level2/cross_entropy_probs": 2,  # class probabilities: sum(p * (logsumexp - x)) a row
    "level2/cross_entropy_smooth": 2,  # label_smoothing 0.1: the uniform term mixed in
    "level2/var_std_mid": 2,  # var / std along dim 1 (correction 0 and 1): Muls, Sqrt in Finish
    "level2/logsumexp_mid": 2,  # logsumexp along dim 1: Ln(sum) + max in Finish, a 4-D case
    "level2/nll_loss_weighted": 2,  # class weights (a shared row, one-hot picked), ignore_index
    "level2/instance_norm_affine": 2,  # F.instance_norm: rows of H x W, a channel weight and bias
    "level2/loss_weighted_mean": 2,  # their mean: sum(w[t] * l) / sum(w[t]), a total with a count
    "level2/attention_gqa": 2,  # softmax(q @ k^T / sqrt(E)) @ v, repeat_interleave'd k / v heads
    "level2/attention_scaled": 2,  # einsum, a fixed scale, expand'ed k / v, nn.Module and Dropout(0)
    "level2/attention_causal": 2,  # masked_fill(tril(ones) == 0, -inf), a scale from tensor.sqrt()
    "level2/attention_bool_mask": 2,  # masked_fill(~mask.to(bool), -inf): rows masked whole NaN
    "level2/sdpa_bool_mask": 2,  # F.scaled_dot_product_attention, a bool attn_mask: such rows 0
    "level2/sdpa_causal": 2,  # F.scaled_dot_product_attention(is_causal=True, scale=0.3)
    "level2/group_norm": 2,  # F.group_norm by 8 and 3 groups of 4 channels, a channel affine
    "level2/l1_loss_modes": 4,  # reduction mean / sum / none by case: one program a tiling key
    "level2/log_softmax_dim": 3,  # dim -1, 1, 2: a rows and a columns program under two keys
    "level2/dequant_optional_offset": 4,  # offset given or not, scale of 1 or C: four keys
    "level1/clamped_gate_rows": 2,  # rows from torch.prod(torch.tensor(shape)), -limit, cat of []
    "level2/add_list_rms_norm": 2,  # a TensorList input: one parameter, its descriptor decoded
}


def test_the_dev_set_is_in_cann_benchs_layout():
    tasks = sorted(p.parent for p in DEV.glob("level*/*/proto.yaml"))
    assert len(tasks) >= 30
    for t in tasks:
        assert {"proto.yaml", "golden.py", "cases.yaml", "desc.md"} <= {f.name for f in t.iterdir()}


# The default tier's longest test (one task per extension, each compiled and run on every case).
# The default tier keeps the generator end to end through `cann-bench run`
# (test_reshapes_and_math_functions_generate_element_wise_kernels), each form's program against
# torch (test_torch_trace.py) and the DSL's kernels compiled and run (tests/dsl/test_dtypes.py,
# test_epilogue.py, test_walks.py, test_generate.py).
@pytest.mark.slow
def test_generated_kernels_pass_every_case(tmp_path):
    _all_correct(TASKS, tmp_path, "cb-gen-dev")


@pytest.mark.slow
def test_pooling_einsum_plane_norms_any_all_convolutions_and_losses_pass_every_case(tmp_path):
    _all_correct(SLOW_TASKS, tmp_path, "cb-gen-dev-slow")


def test_a_row_wider_than_ub_is_taken_in_segments(tmp_path):
    """dequant_wide_rows' case 1: rows of 20001 lanes (int8 in, two bf16 shared rows, bf16 out)
    do not fit UB whole; every lane is computed from its own lane, so the rows loop takes each
    row in segments, the shared rows' segment with them. Case 2's rows fit and are taken whole."""
    _all_correct({"level2/dequant_wide_rows": 2}, tmp_path, "cb-gen-wide")


def _all_correct(tasks: dict[str, int], tmp_path: Path, name: str) -> None:
    """The tasks, copied into a set of their own, each generated and correct on every case."""
    for rel in tasks:
        shutil.copytree(DEV / rel, tmp_path / "set" / rel)
    out = _run(tmp_path / "set", name)
    for rel, n in tasks.items():
        assert f"{rel}: correct, {n}/{n} cases" in out, out


def _run(set_dir: Path, name: str) -> str:
    """`cann-bench run` on a set: generate, evaluate every case, print a line per task. The
    imported suite is kept beside the set, not in the user's data directory."""
    done = subprocess.run(
        [*CLI, "cann-bench", "run", str(set_dir), "--name", name],
        capture_output=True,
        text=True,
        timeout=1500,
        env={**os.environ, "ASCEND_GYM_DATA": str(set_dir.parent / "data")},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


FLAT_PROTO = """\
operator:
  name: FlatScale
  difficulty: L1
  attrs: []
  inputs:
  - name: x
    dtype: [float16, float32]
  - name: y
    dtype: [float16, float32]
  outputs:
  - name: z
    dtype: [float16, float32]
  schema: flat_scale(Tensor x, Tensor y) -> Tensor z
"""
FLAT_GOLDEN = """\
import torch


def flat_scale(x, y):
    # a flatten and a reshape to another layout of the same elements: element-wise throughout
    return (torch.relu(x.reshape(-1)) * 2 - y.flatten()).view(x.shape[0] * 2, -1)
"""
FLAT_CASES = """\
cases:
- {operator: FlatScale, case_id: 1, input_shape: [[64, 96], [96, 64]], dtype: [float16, float16],
   attrs: {}, value_range: [[-2, 2], [-2, 2]]}
- {operator: FlatScale, case_id: 2, input_shape: [[30, 70], [70, 30]], dtype: [float32, float32],
   attrs: {}, value_range: [[-2, 2], [-2, 2]]}
"""


MATH_PROTO = FLAT_PROTO.replace("FlatScale", "TrigFloor").replace("flat_scale", "trig_floor")
MATH_GOLDEN = """\
import torch


def trig_floor(x, y):
    # the math API's functions (Sin, Cos, Floor, Round, Atan), kept away from zero: fp16
    # rounds each op, the kernel once, and near a cancellation only the rounding differs
    return (torch.sin(x) * torch.cos(y) + 2) * (torch.floor(x * 4) + torch.round(y) + 12) + torch.atan(y)
"""
MATH_CASES = (
    FLAT_CASES.replace("FlatScale", "TrigFloor")
    .replace("[[30, 70], [70, 30]]", "[[30, 70], [30, 70]]")
    .replace("[[64, 96], [96, 64]]", "[[64, 96], [64, 96]]")
)


def test_reshapes_and_math_functions_generate_element_wise_kernels(tmp_path):
    for name, files in {
        "flat_scale": (FLAT_PROTO, FLAT_GOLDEN, FLAT_CASES),
        "trig_floor": (MATH_PROTO, MATH_GOLDEN, MATH_CASES),
    }.items():
        task = tmp_path / "set" / "level1" / name
        task.mkdir(parents=True)
        for file, text in zip(("proto.yaml", "golden.py", "cases.yaml"), files, strict=True):
            (task / file).write_text(text)
        (task / "desc.md").write_text(f"{name}: element-wise\n")
    out = _run(tmp_path / "set", "cb-gen-flat")
    for name in ("flat_scale", "trig_floor"):
        assert f"level1/{name}: correct, 2/2 cases, score n/a (offline elementwise" in out, out
