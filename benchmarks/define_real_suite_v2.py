"""Write the definition of ascend-real-v2 (ascend_core/suite/ascend-real-v2.toml) from v1's.

    python benchmarks/define_real_suite_v2.py /work/corpus_src

v2 holds v1's operators at v1's pinned commits (their specs unchanged: v1 stays reproducible) and
adds, per operator:
- `provenance`, by where the operator lies: `production` in a vendor's shipped tree (hicann
  outside `experimental/`), `community` in `experimental/` folders and community repositories
  (cann-ops), `competition` for contest entries (Ascend C contest seasons: `Ascend_S3-main`,
  `AscendcS7`), `sample` for samples, tutorials and homework;
- `naive`, for a baseline slow by design: its kernel never reads its block index (one core does
  all the work, or every launched core does all of it), or it is a single-core sample whose
  multi-core sibling lies beside it;
- `[ops.bench]`, a bench case of the size the operator serves: LLaMA-7B's shapes for one
  512-token sequence (hidden 4096, FFN 11008, 32 heads of 128) where every argument has the
  bench case's one shape (the shape by rank: [2097152], [512, 4096], [1, 512, 4096],
  [1, 32, 512, 128]); otherwise the spec's bench case with its leading (token) axis scaled to
  about 2M elements in the first input, or a shape written below with its source.
The spec's own bench case stays as a correctness case; `suite materialise` times the new one and
reports each operator whose kernel body does not take most of it.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

from ascend_gym.corpus import OpSource, packaged, spec_for
from ascend_gym.corpus.defined import DefinedOp, checkout, load_definition

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "ascend_core" / "suite" / "ascend-real-v2.toml"
TARGET = 512 * 4096  # elements: one 512-token sequence of LLaMA-7B's hidden state
LLAMA = "LLaMA-7B, one 512-token sequence"
BY_RANK = {
    1: ([TARGET], f"{LLAMA}: hidden state 512 x 4096 flattened"),
    2: ([512, 4096], f"{LLAMA}: hidden state tokens x hidden 4096"),
    3: ([1, 512, 4096], f"{LLAMA}: batch x tokens x hidden 4096"),
    4: ([1, 32, 512, 128], f"{LLAMA}: batch x 32 heads x tokens x head dim 128"),
}
_BERT = "BERT-base, one 512-token sequence"
_FFN = f"{LLAMA}: gate and up projections 2 x FFN 11008"
# Shapes written by hand where the rules above do not fit: operator -> (shapes, attrs, source).
WRITTEN: dict[str, tuple[dict[str, list[int]], dict[str, object], str]] = {
    "swi_glu": ({"x": [512, 22016], "y": [512, 11008]}, {}, _FFN),
    "swi_glu_grad": (
        {"y_grad": [512, 11008], "x": [512, 22016], "x_grad": [512, 22016]},
        {},
        _FFN,
    ),
    # Its tiling refuses an N (the output's last dim) past one row of UB less 16 KiB (no
    # row-internal tiling): 32 B an element in bf16, at most 5624, so not the FFN's 11008.
    "swiglu_clamp": (
        {"x": [512, 8192], "y": [512, 4096]},
        {},
        f"{LLAMA} in bf16: gate and up projections 2 x hidden 4096, its single-row tiling's width",
    ),
    # Its tiling refuses a last dim past 1024: the hidden state's elements in rows of 1024.
    "silu_mul": (
        {"x": [2048, 1024], "y": [2048, 1024], "z": [2048, 1024]},
        {},
        f"{LLAMA}: the hidden state's {TARGET} elements in rows of 1024, the longest its tiling takes",
    ),
    # Its whole-slice kernel holds each core's share of x, y and z in UB twice over (8 cores).
    "sub_frameworklaunch": (
        {"x": [32, 4096], "y": [32, 4096], "z": [32, 4096]},
        {},
        f"{LLAMA}: 32 tokens x hidden 4096, the most its one-tile-a-core design holds in UB",
    ),
    # One WholeReduceSum over the whole input in UB: a row is one repeat (at most 128 fp16 lanes),
    # the rows its repeats (at most 255).
    "whole_reduce_sum_custom": (
        {"x": [255, 128], "y": [255]},
        {},
        "the most its one-instruction design takes: 255 rows (repeats) of 128 fp16 lanes",
    ),
    "ge_glu_v2": ({"x": [512, 22016], "y": [512, 11008], "gelu": [512, 11008]}, {}, _FFN),
    "ge_glu_v3": ({"x": [512, 22016], "y": [512, 11008], "gelu": [512, 11008]}, {}, _FFN),
    "ge_glu_grad_v2": (
        {"dy": [512, 11008], "x": [512, 22016], "gelu": [512, 11008], "dx": [512, 22016]},
        {},
        _FFN,
    ),
    "rms_norm": (
        {"x": [512, 4096], "gamma": [4096], "y": [512, 4096], "rstd": [512, 1]},
        {},
        f"{LLAMA}: RMSNorm over hidden 4096",
    ),
    "rms_norm_grad": (
        {
            "dy": [512, 4096],
            "x": [512, 4096],
            "rstd": [512, 1],
            "gamma": [4096],
            "dx": [512, 4096],
            "dgamma": [4096],
        },
        {},
        f"{LLAMA}: RMSNorm over hidden 4096",
    ),
    "fused_add_rms_norm": (
        {
            "x1": [512, 4096],
            "x2": [512, 4096],
            "gamma": [4096],
            "y": [512, 4096],
            "rstd": [512, 1],
            "x": [512, 4096],
        },
        {},
        f"{LLAMA}: residual add and RMSNorm over hidden 4096",
    ),
    "layer_norm_custom": (
        {"x": [512, 768], "gamma": [768], "beta": [768], "res_out": [512, 768]},
        {},
        f"{_BERT}: LayerNorm over hidden 768",
    ),
    # One Sort32 a row: at most 32 experts (its 32 / lastDim padding is 0 past that); a block's
    # rows are one WholeReduceSum's repeats, at most 255 (8192 tokens make 256 on 32 blocks).
    "moe_soft_max_topk": (
        {"x": [4096, 16], "y": [4096, 4], "indices": [4096, 4]},
        {"k": 4},
        "DBRX: 16 experts, top-4, 4096 tokens (8 sequences of 512)",
    ),
    "cross_entropy_grad": (
        {"logits": [512, 32000], "target": [512], "grad_input": [512, 32000]},
        {},
        f"{LLAMA}: logits over the 32000-token vocabulary",
    ),
    "nll_loss": (
        {"x": [512, 32000], "target": [512], "weight": [32000], "y": [1], "total_weight": [1]},
        {},
        f"{LLAMA}: log-probabilities over the 32000-token vocabulary",
    ),
    "nll_loss_grad": (
        {
            "x": [512, 32000],
            "y_grad": [1],
            "target": [512],
            "weight": [32000],
            "total_weight": [1],
            "x_grad": [512, 32000],
        },
        {},
        f"{LLAMA}: log-probabilities over the 32000-token vocabulary",
    ),
}
WRITTEN["cross"] = (
    {"x1": [524288, 3], "x2": [524288, 3], "y": [524288, 3]},
    {},
    f"524288 3-vectors: about the {TARGET} elements of {LLAMA}'s hidden state",
)
WRITTEN["transposev"] = (
    {"x": [512, 4096], "perm": [2], "out": [4096, 512]},
    {},
    f"{LLAMA}: hidden state tokens x hidden 4096, transposed",
)
WRITTEN["fill"] = ({"dims": [2], "value": [1], "y": [512, 4096]}, {}, BY_RANK[2][1])
_ATTENTION = f"8 matrices of tokens x tokens (512 x 512): about {LLAMA}'s {TARGET} elements"
for _name, _batch in (("eye", 8), ("eye_fp64", 8)):
    WRITTEN[_name] = (
        {"y": [_batch, 512, 512]},
        {"num_rows": 512, "num_columns": 512, "batch_shape": [_batch]},
        _ATTENTION,
    )
WRITTEN["as_strided"] = (
    {"x": [4096, 512], "size": [2], "stride": [2], "storage_offset": [1], "y": [2048, 512]},
    {},
    f"every other row of a 4096 x 512 tensor: about {LLAMA}'s {TARGET} elements",
)
_VIEW = {"dst": [TARGET], "src": [TARGET]} | {
    f"{side}_{what}": [n] for side in ("dst", "src") for what, n in (("size", 2), ("stride", 2))
}
WRITTEN["view_copy"] = (
    _VIEW | {"dst_storage_offset": [1], "src_storage_offset": [1]},
    {},
    f"{LLAMA}: hidden state 512 x 4096 as a contiguous view",
)
WRITTEN["arange"] = (
    {"start": [1], "end": [1], "step": [1], "out": [TARGET]},
    {},
    f"positions 0 .. {TARGET - 1}: {LLAMA}'s hidden-state element count",
)
# Operators whose documentation serves one shape: their spec's bench case is that shape.
ONE_SHAPE = {
    "add_sigmoid_mul_reduce_sum_d": "its README documents the one ND shape [40, 64, 32] (the spec's)",
}
# The dtype of a written case where the spec's bench dtype does not serve its shape.
DTYPES = {"swiglu_clamp": "bfloat16"}
# Explicit input values of the written cases (a shape the kernel reads from an input).
VALUES: dict[str, dict[str, list[float]]] = {
    "arange": {"start": [0.0], "end": [float(TARGET)], "step": [1.0]},
    "fill": {"dims": [512, 4096]},
    "as_strided": {"size": [2048, 512], "stride": [1024, 1], "storage_offset": [0]},
    "view_copy": {
        f"{side}_{what}": v
        for side in ("dst", "src")
        for what, v in (("size", [512, 4096]), ("stride", [4096, 1]), ("storage_offset", [0]))
    },
}
_MATMUL = f"{_BERT}: attention projection tokens 512 x hidden 768 x 768"
for _name in ("matmul_custom", "matmul_leakyrelu_custom"):
    WRITTEN[_name] = (
        {"a": [512, 768], "b": [768, 768], "bias": [768], "c": [512, 768]},
        {},
        _MATMUL,
    )
WRITTEN["matmad"] = (
    {"weight": [512, 768], "x": [768, 768], "bias": [768], "y": [512, 768]},
    {},
    _MATMUL,
)
# Kernels whose own code fixes the shape: their tiling's constant M, N, K, or the kernel's.
for _name in ("matmul_api_constant", "matmul_leakyrelu"):
    WRITTEN[_name] = (
        {"a": [1024, 256], "b": [256, 640], "bias": [640], "c": [1024, 640]},
        {},
        "its tiling fixes M 1024, N 640, K 256",
    )
WRITTEN["mmad"] = (
    {"a": [32, 32], "b": [32, 32], "bias": [32], "c": [32, 32]},
    {},
    "its kernel fixes m, k, n at 32",
)
# contest seasons' folders; samples and homework otherwise outside the vendors' and cann-ops
COMPETITION = ("Ascend_S3-main/", "ascendc-competition", "HWXROS/AscendcS7")
COMMUNITY_REPOS = ("Hayden727/cann-ops",)
# the definition's order (naive first within each), so that a partial materialisation covers
# every group early
ORDER = ("production", "competition", "sample", "community")
# Naive baselines' production siblings in the same checkouts, and why none replaces its baseline
# (each evaluated as `corpus run` does, on Ascend910B4, 2026-11-26).
_ARCH35 = "its production sibling in hicann/ops-math ({}) has only an arch35 kernel, none for A2"
NO_SIBLING = {
    "cross": _ARCH35.format("math/cross"),
    "tril": _ARCH35.format("conversion/tril"),
    "triu": _ARCH35.format("conversion/triu"),
    "xlogy": _ARCH35.format("math/xlogy"),
    "reshape": "its production sibling in hicann/ops-math (conversion/reshape) is an AI CPU kernel",
    "matmul_custom": "its multi-core sibling MatmulCustomMultiCore stops with RUNTIME_ERROR on the "
    "simulator (a mixed launch of 24 groups on 20 cube cores)",
}
_BLOCK_INDEX = re.compile(r"\b(GetBlockIdx|get_block_idx)\s*\(")


def provenance(op: DefinedOp) -> str:
    if op.repo.startswith("hicann/"):
        return "community" if op.path.startswith("experimental/") else "production"
    if op.repo in COMMUNITY_REPOS:
        return "community"
    if any(mark in f"{op.repo}/{op.path}" for mark in COMPETITION):
        return "competition"
    return "sample"


def naive_reason(op: DefinedOp, files: dict[str, str], root: Path) -> str:
    kernel = "\n".join(t for p, t in files.items() if p.startswith("op_kernel/"))
    if not _BLOCK_INDEX.search(kernel):
        why = "its kernel never reads its block index: one core, or every core, does all the work"
    elif "SingleCore" in root.name:
        why = "a single-core sample timed on a many-core part"
    else:
        return ""
    return "; ".join(filter(None, (why, NO_SIBLING.get(op.name, ""))))


def _elements(shape: list[int]) -> int:
    return math.prod(shape)


def _counts(attrs: dict[str, object], old: int, new: int) -> dict[str, object]:
    """The attrs that count the first argument's elements (an `n`, a `steps`), at the new count."""
    return {k: new for k, v in attrs.items() if type(v) is int and v == old}


def bench_shape(name: str, spec) -> tuple[dict[str, list[int]], dict[str, object], str]:
    """The shapes, attrs and source of an operator's bench case at the size it serves."""
    if name in WRITTEN:
        return WRITTEN[name]
    if name in ONE_SHAPE:
        return {}, {}, ""
    bench = spec.bench_case
    args = [a.name for a in (*spec.inputs, *spec.outputs)]
    shapes = {a: list(spec.arg_shape(bench, a)) for a in args}
    distinct = {tuple(s) for s in shapes.values()}
    first = shapes[args[0]]
    old = _elements(first)
    if len(distinct) == 1 and len(first) in BY_RANK:
        shape, source = BY_RANK[len(first)]
        return {a: shape for a in args}, _counts(bench.attrs, old, _elements(shape)), source
    lead = first[0]
    scale = 2 ** max(0, round(math.log2(TARGET / max(1, old))))
    if scale == 1 or lead == 1:
        return {}, {}, ""  # the spec's bench case is already the size, or nothing to scale
    scaled = {a: [s[0] * scale, *s[1:]] if s and s[0] == lead else s for a, s in shapes.items()}
    attrs = _counts(bench.attrs, old, old * scale)
    source = (
        f"the spec's bench case, its leading axis x{scale} to about {LLAMA}'s "
        f"{TARGET} hidden-state elements"
    )
    return scaled, attrs, source


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def _inline(table: dict[str, object]) -> str:
    return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in table.items()) + " }"


def entry(op: DefinedOp, src: Path) -> tuple[str, bool, list[str]]:
    """The operator's provenance, whether it is naive, and its lines of the definition."""
    root = checkout(src, op.repo) / op.path
    source = OpSource(op.source, root, op.path)
    spec = spec_for(source)
    files = packaged(source, spec)[0].files
    reason = naive_reason(op, files, root)
    lines = ["[[ops]]"] + [
        f"{k} = {_toml(v)}"
        for k, v in op.model_dump(
            include={"name", "level", "repo", "commit", "path", "source"}
        ).items()
    ]
    lines += [f"spec = {_toml(op.spec)}", f"provenance = {_toml(provenance(op))}"]
    if reason:
        lines += ["naive = true", f"naive_reason = {_toml(reason)}"]
    shapes, attrs, where = bench_shape(op.name, spec)
    if shapes:
        lines += ["[ops.bench]", f"source = {_toml(where)}"]
        if op.name in DTYPES:
            lines.append(f"dtype = {_toml(DTYPES[op.name])}")
        tables = {"shapes": shapes, "values": VALUES.get(op.name, {}), "attrs": attrs}
        lines += [f"{key} = {_inline(table)}" for key, table in tables.items() if table]
    return provenance(op), bool(reason), [*lines, ""]


def main(src: Path) -> None:
    lines = [
        "# ascend-real-v2: ascend-real-v1's operators at v1's commits, each with its provenance,",
        "# its naive-by-design mark and a bench case of the size it serves ([ops.bench]).",
        "# Written by benchmarks/define_real_suite_v2.py; materialised by",
        "# `ascend-gym suite materialise ascend-real-v2 --src DIR` (DIR/<owner>+<repo> checkouts).",
        'name = "ascend-real-v2"',
        'description = "real public AscendC operators at the sizes they serve, by provenance"',
        "",
    ]
    entries = [entry(op, src) for op in load_definition("ascend-real-v1").ops]
    for written in sorted(entries, key=lambda e: (ORDER.index(e[0]), not e[1], e[2][1])):
        lines += written[2]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: define_real_suite_v2.py SRC_DIR", file=sys.stderr)
        sys.exit(2)
    main(Path(sys.argv[1]))
