"""Offline generation end to end on the simulator: spec + reference -> DSL -> package that passes
every case (which includes the race checker), for each template category and the DSL examples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym.cli import main
from ascend_gym.dsl.generate import build, generate_offline, offline_draft, spec_only
from ascend_gym.dsl.model import EXAMPLES
from ascend_gym.dsl.trace import Unsupported
from ascend_gym.suite_validate import evaluate

DOC = Path(__file__).resolve().parents[2] / "docs" / "generate.md"
SOC = DEFAULT_SOC


@pytest.mark.parametrize(
    ("op", "category", "shape"),
    [
        ("level1/leaky_relu", "elementwise", "where("),  # Compare + Select
        ("level1/square", "elementwise", "t.load(x) * t.load(x)"),  # exact in fp16: no upcast
        ("level2/broadcast_add_col", "broadcast", '"rows"'),  # one value per row
        ("level2/geglu", "broadcast", "parts=2"),  # column slices
        ("level2/foreach_mul", "elementwise", "with k.tiles() as t:\n    v0 = t.load(x1)"),
        ("level2/reduce_max_last", "reduction", ".max()"),
        ("level2/add_layer_norm", "normalization", '"cols"'),  # two outputs
        ("level2/reduce_min_mid", "reduction", "c.min(v0)"),  # along the middle axis
        ("level2/cumsum", "scan", "c.cumsum(v0)"),
        ("level2/mse_loss", "total", "t.mean(v3)"),  # partials, SyncAll, block 0 finishes
    ],
)
def test_offline_generation_passes_every_case(op, category, shape):
    pkg, draft = generate_offline(suite.resolve(op))
    assert draft.category == category
    assert shape.replace("t.load(x) * t.load(x)", "v0 * v0") in draft.source
    out = evaluate(pkg, SOC)
    assert out.ok, (out.status, out.message, out.failed_cases)


def test_generation_uses_only_the_spec_and_the_reference():
    base = suite.resolve("level1/relu")
    stripped = spec_only(base)
    assert set(stripped.files) == {"reference.py"}
    assert offline_draft(stripped).source == offline_draft(base).source


@pytest.mark.parametrize("op", ["level2/cross_entropy", "level3/rotary_embedding"])
def test_references_outside_the_templates_say_why(op):
    with pytest.raises(Unsupported) as e:
        offline_draft(suite.resolve(op))
    assert str(e.value)


@pytest.mark.parametrize("example", sorted(p.stem for p in EXAMPLES.glob("*.py")))
def test_each_doc_example_is_the_file_and_passes(example):
    source = (EXAMPLES / f"{example}.py").read_text()
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert source in blocks, f"docs/generate.md does not show examples/{example}.py verbatim"
    name = re.search(r'Kernel\("(\w+)"\)', source).group(1)
    uri = next(u for u in suite.op_uris() if u.endswith(f"/{name}"))
    out = evaluate(build(spec_only(suite.resolve(uri)), source), SOC)
    assert out.ok, (out.status, out.message, out.failed_cases)


def test_cli_writes_a_loadable_package_and_user_mistakes_exit_2(tmp_path, capsys):
    assert main(["generate", "level1/hard_swish", "--out", str(tmp_path / "hs")]) == 0
    from ascend_core.package import load_package

    pkg = load_package(tmp_path / "hs")
    assert pkg.spec == suite.resolve("level1/hard_swish").spec
    assert (tmp_path / "hs" / "dsl" / "hard_swish.py").is_file()
    assert main(["generate", "level2/cross_entropy", "--out", str(tmp_path / "c")]) == 2
    assert main(["generate", "level9/nothing"]) == 2
    bad = tmp_path / "bad.py"
    bad.write_text(
        'from ascend_gym.dsl import Kernel\nk = Kernel("relu")\nx = k.input("x")\n'
        'y = k.output("y")\nwith k.tiles() as t:\n    t.store(y, t.load(y))\n'
    )
    assert main(["generate", "level1/relu", "--dsl", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "<dsl:relu>:6: load() takes an input tensor" in err
    assert "cross_entropy: outside the offline templates" in err and '"no operator' not in err


def test_a_new_operator_from_its_op_toml_and_reference(tmp_path, capsys):
    """The user story: an operator no suite has, given as op.toml + reference.py."""
    (tmp_path / "op.toml").write_text(
        """name = "scaled_softsign"
category = "activation"
description = "y = scale * x / (1 + |x|)"
reference = "reference:scaled_softsign"
inputs = [{ name = "x", dtypes = ["float16", "float32"], range = [-4.0, 4.0] }]
outputs = [{ name = "y", dtypes = ["float16", "float32"] }]
attrs = [{ name = "scale", type = "float", default = 1.5 }]

[[cases]]
name = "tail_fp16"
dtype = "float16"
shapes = { x = [3, 1000] }

[[cases]]
name = "bench_fp32"
dtype = "float32"
shapes = { x = [77, 129] }
attrs = { scale = -0.25 }
bench = true
"""
    )
    (tmp_path / "reference.py").write_text(
        "import numpy as np\n\n\ndef scaled_softsign(x, scale=1.5):\n"
        "    x = x.astype(np.float64)\n    return scale * x / (1 + np.abs(x))\n"
    )
    out = tmp_path / "gen"
    assert main(["generate", str(tmp_path / "op.toml"), "--out", str(out), "--check"]) == 0
    assert "OK on every case" in capsys.readouterr().out
    assert 'scale = k.attr("scale")' in (out / "dsl" / "scaled_softsign.py").read_text()


def test_a_2d_operand_broadcast_over_a_3d_batch_is_a_shared_row(tmp_path, capsys):
    """y = x + b with x [B, S, C] and b [S, C]: the trailing axes are the row b is shared by
    (read once per block), however S and C fall; a batch of none launches and writes nothing."""
    (tmp_path / "op.toml").write_text(
        """name = "batch_bias"
category = "broadcast"
description = "y = x + b, b [S, C] added to every batch of x [B, S, C]"
reference = "reference:batch_bias"
inputs = [{ name = "x", dtypes = ["float16", "float32"] }, { name = "b", dtypes = ["float16", "float32"] }]
outputs = [{ name = "y", dtypes = ["float16", "float32"] }]
attrs = []

[[cases]]
name = "odd_fp16"
dtype = "float16"
shapes = { x = [3, 7, 33], b = [7, 33] }

[[cases]]
name = "empty_batch"
dtype = "float32"
shapes = { x = [0, 24, 40], b = [24, 40] }

[[cases]]
name = "bench_fp32"
dtype = "float32"
shapes = { x = [8, 24, 40], b = [24, 40] }
bench = true
"""
    )
    (tmp_path / "reference.py").write_text(
        "import numpy as np\n\n\ndef batch_bias(x, b):\n    return x.astype(np.float64) + b\n"
    )
    out = tmp_path / "gen"
    assert main(["generate", str(tmp_path / "op.toml"), "--out", str(out), "--check"]) == 0
    assert "OK on every case" in capsys.readouterr().out
    program = (out / "dsl" / "batch_bias.py").read_text()
    assert 'b = k.input("b", "cols")' in program and "with k.rows() as r:" in program
