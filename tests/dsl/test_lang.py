"""The DSL front end and lowering without the simulator: checks point at the program's line,
lowering is deterministic and the host tiling carries the schedule as @tune markers."""

from __future__ import annotations

import pytest

from ascend_core import suite, tune
from ascend_gym.dsl.generate import build, load_program, spec_only
from ascend_gym.dsl.lang import DslError

GOOD = """\
from ascend_gym.dsl import Kernel, exp

k = Kernel("sigmoid")
x = k.input("x")
y = k.output("y")
with k.tiles() as t:
    v = t.load(x).float()
    t.store(y, 1 / (1 + exp(-v)))
k.schedule(tile_length=4096, buffer_num=2, block_dim=24)
"""


def _error(source: str) -> DslError:
    with pytest.raises(DslError) as e:
        build(spec_only(suite.resolve("level1/sigmoid")), source)
    return e.value


@pytest.mark.parametrize(
    ("line", "bad", "says"),
    [
        (8, "    t.store(y, 1 / (1 + exp(-t.load(x))) + v)", "dtypes"),
        (7, "    v = t.load(y).float()", "input tensor"),
        (9, "k.schedule(tile_length=3)", "tile_length"),
        (8, "    t.store(y, v.sum())", "rows() loop"),
        (8, "    t.store(y, 1 / (1 + exp(-w)))", "NameError"),
        (4, 'x = k.input("q")', "not in the spec"),
        (7, '    v = t.load(k.input("w", "channels")).float()', "use a rows() loop"),
        (6, "with k.rows(row_axes=0) as t:", "a number of trailing axes"),
        (8, "    t.store(y, t.triu(v))", "takes a row of this rows() loop"),
        (8, "    t.store(y, t.lanes() + v)", "the index along the row of a rows() loop"),
        (8, "    t.store(y, v.argmax())", "rows() loop"),
        (8, "    t.store(y, t.cumprod(v))", "columns() loop"),
        (8, "    t.store(y, t.argmax(v))", "columns() loop"),
        (8, "    t.store(y, t.mean(v, count=v))", "a total of row values of a rows() loop"),
    ],
)
def test_errors_name_the_program_line(line, bad, says):
    lines = GOOD.splitlines()
    lines[line - 1] = bad
    err = _error("\n".join(lines) + "\n")
    assert err.where == f"<dsl:sigmoid>:{line}" and says in str(err)


def test_a_missing_store_and_a_mask_store_are_errors():
    err = _error(GOOD.replace("    t.store(y, 1 / (1 + exp(-v)))\n", "    v\n"))
    assert "stores nothing" in str(err) and err.where.endswith(":6")
    two = (
        'from ascend_gym.dsl import Kernel\nk = Kernel("add_layer_norm")\n'
        'x1, x2 = k.input("x1"), k.input("x2")\ngamma, beta = k.input("gamma", "cols"), '
        'k.input("beta", "cols")\ny, x = k.output("y"), k.output("x")\n'
        "with k.rows() as r:\n    r.store(x, r.load(x1) + r.load(x2))\n"
    )
    with pytest.raises(DslError, match="output 'y' is never stored") as e:
        build(spec_only(suite.resolve("level2/add_layer_norm")), two)
    assert e.value.where == "<dsl:add_layer_norm>:5"
    err = _error(GOOD.replace("t.store(y, 1 / (1 + exp(-v)))", "t.store(y, v > 0)"))
    assert "mask" in str(err) and err.where.endswith(":8")


def test_lowering_is_deterministic_and_the_schedule_is_tunable():
    src = spec_only(suite.resolve("level1/sigmoid"))
    a, b = build(src, GOOD), build(src, GOOD)
    assert a.content_hash() == b.content_hash()
    knobs = {t.name: t.value for t in tune.find_tunables(a.tiling_source)}
    assert knobs == {"block_dim": 24, "tile_length": 4096}
    assert "BUFFER_NUM = 2" in a.kernel_source and "DataCopyPad" in a.kernel_source
    assert a.files["dsl/sigmoid.py"] == GOOD and "reference.py" in a.files


def test_program_runs_once_and_rejects_two_kernels():
    with pytest.raises(DslError, match="2 Kernels"):
        load_program(GOOD + 'k2 = Kernel("other")\n', "<dsl:two>")


POOL = """\
from ascend_gym.dsl import Kernel

k = Kernel("sigmoid")
x = k.input("x")
y = k.output("y")
k.pool(y, x, "max", kernel=(3, 3), stride=(2, 2), padding=(1, 1))
"""


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ('k.pool(y, x, "sum", kernel=(2,))', "kind max or avg"),
        ('k.pool(y, x, "max", kernel=(2, 2, 2))', "1 or 2 axes"),
        ('k.pool(y, x, "avg", kernel=(2,), padding=(2,))', "at most half the kernel"),
        ('k.pool(y, x, "max", kernel=(2,), divisor=3)', "for avg"),
        ('k.pool(y, x, "avg", adaptive=1, stride=(2,))', "as wide as its stride"),
        ('k.pool(y, x, "avg", kernel=(2, 2), stride=(1,))', "2 values each"),
        ('k.pool(x, y, "avg", kernel=(2,))', "full tensors, the output first"),
    ],
)
def test_a_pool_is_checked_at_its_line(bad, says):
    err = _error(POOL.replace(POOL.splitlines()[-1], bad))
    assert err.where == "<dsl:sigmoid>:6" and says in str(err)


def test_a_pool_lowers_to_a_gather_per_tap_with_the_window_as_tiling_data():
    one_axis = POOL.replace(
        "kernel=(3, 3), stride=(2, 2), padding=(1, 1)", "kernel=(3,), stride=(2,), padding=(1,)"
    )
    pkg = build(spec_only(suite.resolve("level1/sigmoid")), one_axis)  # 1-d cases: one plane
    kernel, host = pkg.kernel_source, pkg.tiling_source
    assert "Gather(tap" in kernel and "Max(acc, acc, tap, wo)" in kernel
    assert "SetFlag<HardEvent::S_V>" in kernel  # the scalar unit's offsets, then the Gathers
    assert "kh = 1, kw = 3, sh = 1, sw = 2, ph = 0, pw = 1" in host
    adaptive = build(
        spec_only(suite.resolve("level1/sigmoid")),
        one_axis.replace("kernel=(3,), stride=(2,), padding=(1,)", "adaptive=1"),
    )
    assert "kh = h / ho, kw = w / wo" in adaptive.tiling_source
    assert {t.name for t in tune.find_tunables(host)} == {"block_dim"}
    err = _error(POOL)  # sigmoid's cases are 1-d: a 2-d window does not fit them
    assert err.where == "<dsl:sigmoid>:6" and "fewer axes than the window's" in str(err)


def test_a_shared_row_cast_up_is_not_overwritten_in_place():
    """For fp32 a cast of a `cols` row is that row itself, which every later row reads again:
    an instruction with it first (w * x) writes a temporary, not the shared row."""
    import re

    from ascend_core.package import OperatorSpec
    from ascend_gym.dsl.lowerings import lower

    source = (
        'from ascend_gym.dsl import Kernel\nk = Kernel("wsum")\nx = k.input("x")\n'
        'w = k.input("w", "cols")\ny = k.output("y", "rows")\nwith k.rows() as r:\n'
        "    r.store(y, (r.load(w).float() * r.load(x).float()).sum())\n"
    )
    spec = OperatorSpec.model_validate(
        {
            "name": "wsum",
            "inputs": [{"name": "x", "dtypes": ["float32"]}, {"name": "w", "dtypes": ["float32"]}],
            "outputs": [{"name": "y", "dtypes": ["float32"]}],
            "cases": [
                {
                    "name": "c",
                    "dtype": "float32",
                    "shapes": {"x": [4, 10], "w": [10], "y": [4, 1]},
                    "bench": True,
                }
            ],
            "reference": "reference:wsum",
        }
    )
    pkg = lower(load_program(source, "<dsl:wsum>"), spec)
    kernel = next(t for p, t in pkg.files.items() if p.startswith("op_kernel/"))
    (shared,) = re.findall(r"LocalTensor<float> (v\d+) = AsFloat\(w,", kernel)
    assert f"Mul({shared}, " not in kernel, kernel
