"""Per-tensor dtypes in the tile DSL: a kernel typed per argument (`T`, `T1`, ... instantiated
from each group's DTYPE_<ARG>), one-byte and int32 masks beside float data, an fp32 output of
bfloat16 inputs, int8/uint8 outputs (narrowed through half) and int64 tensors; generated or
hand-written, each OK on every case through a real daemon."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_core.protocol import EvalRequest, Stage
from ascend_gym.dsl.generate import build, generate_offline
from ascend_gym.dsl.lang import DslError

MASK_MUL = """\
import numpy as np


def mask_mul(x, mask):
    return x * mask.astype(x.dtype)
"""
WIDEN_MUL = """\
import numpy as np


def widen_mul(x, y):
    return x.astype(np.float32) * y.astype(np.float32) + 1
"""
MASKED_SCALE = """\
import numpy as np


def masked_scale(x, mask):
    return np.where(mask != 0, x * 2, 0).astype(x.dtype)
"""
RMS_SCALE = """\
import numpy as np


def rms_scale(x, gamma):
    x = x.astype(np.float32)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * gamma
"""
SUM_MID = """\
import numpy as np


def sum_mid(x):
    return x.astype(np.float32).sum(axis=1, keepdims=True)
"""
QUANTIZE = """\
import numpy as np


def quantize(x):
    return np.clip(np.rint(x.astype(np.float32) * 8), -128, 127).astype(np.int8)
"""
QUANTIZE_U8 = """\
import numpy as np


def quantize(x):
    return np.clip(np.rint(x.astype(np.float32) * 8) + 128, 0, 255).astype(np.uint8)
"""
BUCKET = """\
import numpy as np


def bucket(x, offset):
    return (x.astype(np.float32) * 4).astype(np.int64) + offset
"""
DYNAMIC_QUANT = """\
import numpy as np


def dynamic_quant(x):
    x = x.astype(np.float32)
    return np.rint(x * (127.0 / np.abs(x).max(-1, keepdims=True))).astype(np.int8)
"""
DEQUANT = """\
import numpy as np


def dequant(x, scale, offset):
    return ((x.astype(np.float32) + offset) * scale).astype(np.float16)
"""
RMS_SCALAR = """\
import numpy as np


def rms_scalar(x, scale):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * scale
"""
MASKED_SCALE_DSL = """\
from ascend_gym.dsl import Kernel, where

k = Kernel("masked_scale")
x = k.input("x")
mask = k.input("mask")
y = k.output("y")
with k.tiles() as t:
    m = t.load(mask).float()  # int32 -> fp32; the compare is on the cast values
    t.store(y, where(m != 0, t.load(x).float() * 2, 0))
k.schedule(tile_length=4096, buffer_num=2, block_dim=8)
"""


def _op(
    name: str, reference: str, inputs: dict, outputs: list[str], cases: list
) -> OperatorPackage:
    spec = OperatorSpec.model_validate(
        {
            "name": name,
            "level": 1,
            "category": "elementwise",
            "description": name,
            "inputs": [{"name": n, "dtypes": d} for n, d in inputs.items()],
            "outputs": [{"name": "y", "dtypes": outputs}],
            "reference": f"reference:{name}",
            "cases": cases,
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": reference})


def _case(dtype: str, shape: list[int], second: str, dtypes: dict, bench: bool = False) -> dict:
    return {
        "name": f"{dtype}_{'x'.join(map(str, shape))}",
        "dtype": dtype,
        "shapes": {"x": shape, second: shape},
        "dtypes": dtypes,
        "ranges": {"mask": (0, 1)} if second == "mask" else {},
        "bench": bench,
    }


def mask_mul(mask: str = "int8") -> OperatorPackage:
    """x * mask: a one-byte mask beside fp16 or fp32 data (it widens through half)."""
    one_byte = {"mask": mask}
    cases = [
        _case("float16", [3, 1000], "mask", one_byte),
        _case("float32", [77, 129], "mask", one_byte),
        _case("float16", [512, 1024], "mask", one_byte, bench=True),
    ]
    floats = ["float16", "float32"]
    return _op("mask_mul", MASK_MUL, {"x": floats, "mask": [mask]}, floats, cases)


def widen_mul() -> OperatorPackage:
    """An fp32 output of bfloat16 inputs."""
    fp32 = {"y": "float32"}
    cases = [
        _case("bfloat16", [5, 333], "w", fp32),
        _case("bfloat16", [256, 1024], "w", fp32, True),
    ]
    return _op("widen_mul", WIDEN_MUL, {"x": ["bfloat16"], "w": ["bfloat16"]}, ["float32"], cases)


def rms_scale() -> OperatorPackage:
    """A rows normalization: bfloat16 rows, an fp32 weight shared by every row, an fp32 output."""
    cases = [
        {
            "name": name,
            "dtype": "bfloat16",
            "shapes": {"x": [rows, cols], "gamma": [cols]},
            "dtypes": {"gamma": "float32", "y": "float32"},
            "bench": name == "bench",
        }
        for name, rows, cols in (("tail", 7, 333), ("bench", 256, 1024))
    ]
    pkg = _op("rms_scale", RMS_SCALE, {"x": ["bfloat16"], "gamma": ["float32"]}, ["float32"], cases)
    return pkg.model_copy(
        update={"spec": pkg.spec.model_copy(update={"category": "normalization"})}
    )


def sum_mid() -> OperatorPackage:
    """A columns reduction along axis 1: bfloat16 in, fp32 totals out."""
    cases = [
        {
            "name": name,
            "dtype": "bfloat16",
            "shapes": {"x": shape, "y": [shape[0], 1, shape[2]]},
            "dtypes": {"y": "float32"},
            "bench": name == "bench",
        }
        for name, shape in (("tail", [3, 17, 45]), ("bench", [8, 64, 512]))
    ]
    pkg = _op("sum_mid", SUM_MID, {"x": ["bfloat16"]}, ["float32"], cases)
    return pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"category": "reduction"})})


def masked_scale() -> OperatorPackage:
    """where(mask != 0, 2x, 0): an int32 mask beside fp16 or fp32 data."""
    int32 = {"mask": "int32"}
    cases = [
        _case("float16", [300, 70], "mask", int32, True),
        _case("float32", [300, 70], "mask", int32),
    ]
    floats = ["float16", "float32"]
    return _op("masked_scale", MASKED_SCALE, {"x": floats, "mask": ["int32"]}, floats, cases)


def quantize(out: str = "int8") -> OperatorPackage:
    """An int8 (or uint8) output of fp16/fp32 data: rint, clip, convert."""
    cases = [
        {"name": "f16", "dtype": "float16", "shapes": {"x": [64, 1000]}, "bench": True},
        {"name": "f32", "dtype": "float32", "shapes": {"x": [77, 129]}, "ranges": {"x": (-30, 30)}},
    ]
    for c in cases:
        c["dtypes"] = {"y": out}
    reference = QUANTIZE if out == "int8" else QUANTIZE_U8
    return _op("quantize", reference, {"x": ["float16", "float32"]}, [out], cases)


def bucket() -> OperatorPackage:
    """An int64 output of fp32 data plus an int64 tensor; the conversion goes toward zero."""
    int64 = {"offset": "int64", "y": "int64"}
    cases = [
        {**_case("float32", [128, 512], "offset", int64, True), "ranges": {"offset": (-999, 999)}},
        {**_case("float32", [33, 97], "offset", int64), "ranges": {"x": (-9, 9)}},
    ]
    return _op("bucket", BUCKET, {"x": ["float32"], "offset": ["int64"]}, ["int64"], cases)


def dynamic_quant() -> OperatorPackage:
    """A rows loop into int8: each row scaled by 127 over its largest magnitude."""
    cases = [
        {"name": name, "dtype": dtype, "shapes": {"x": shape}, "dtypes": {"y": "int8"}}
        for name, dtype, shape in (("tail", "float16", [7, 333]), ("bench", "float32", [96, 1024]))
    ]
    cases[1]["bench"] = True
    pkg = _op("dynamic_quant", DYNAMIC_QUANT, {"x": ["float16", "float32"]}, ["int8"], cases)
    # x * (127 / amax) rounds once more or less than numpy's order: a quantisation's +-1
    one = {"int8": {"atol": 1.0, "rtol": 0.0}}
    data = {**pkg.spec.model_dump(), "category": "normalization", "tolerance": one}
    return pkg.model_copy(update={"spec": OperatorSpec.model_validate(data)})


def dequant() -> OperatorPackage:
    """An int8 tensor, fp32 scale and offset of shape [1] (one value for the whole tensor)."""
    cases = [
        {
            "name": name,
            "dtype": "int8",
            "shapes": {"x": shape, "scale": [1], "offset": [1]},
            "dtypes": {"scale": "float32", "offset": "float32", "y": "float16"},
            "ranges": {"scale": (0.01, 0.1)},
            "bench": name == "bench",
        }
        for name, shape in (("tail", [7, 333]), ("bench", [256, 1024]))
    ]
    one = ["float32"]
    inputs = {"x": ["int8"], "scale": one, "offset": one}
    return _op("dequant", DEQUANT, inputs, ["float16"], cases)


def rms_scalar() -> OperatorPackage:
    """A rows normalisation scaled by one fp32 value of shape [1]."""
    cases = [
        {
            "name": name,
            "dtype": "float32",
            "shapes": {"x": shape, "scale": [1]},
            "bench": name == "bench",
        }
        for name, shape in (("tail", [5, 77]), ("bench", [64, 1024]))
    ]
    pkg = _op(
        "rms_scalar", RMS_SCALAR, {"x": ["float32"], "scale": ["float32"]}, ["float32"], cases
    )
    return pkg.model_copy(
        update={"spec": pkg.spec.model_copy(update={"category": "normalization"})}
    )


def _ok(client, pkg: OperatorPackage) -> None:
    result = client.evaluate(
        EvalRequest(run_id="dsl-dtypes", package=pkg, stages=[Stage.COMPILE, Stage.CHECK])
    )
    assert result.status.value == "OK", result.message
    assert len(result.cases) == len(pkg.spec.cases)


def test_a_kernel_is_typed_per_tensor_group():
    pkg, draft = generate_offline(mask_mul())
    kernel = pkg.files["op_kernel/mask_mul.cpp"]
    assert "template <typename T, typename T1>" in kernel
    assert "KernelMaskMul<DTYPE_X, DTYPE_MASK> op;" in kernel
    assert "LocalTensor<T1> mask = inQueue1.DeQue<T1>();" in kernel
    assert "AsFloat(mask, tmpBuf" in kernel and "Get<half>()" in kernel  # int8 through half
    assert ".load(mask).float()" in draft.source
    host = pkg.files["op_host/mask_mul.cpp"]
    assert "typeSize = std::min(typeSize, size);" in host and "* ioSize" in host


def test_generated_mixed_dtype_kernels_pass_every_case(client):
    _ok(client, generate_offline(mask_mul())[0])
    _ok(client, generate_offline(mask_mul("bool"))[0])  # bool bytes read as uint8
    pkg, _ = generate_offline(widen_mul())
    assert "KernelWidenMul<DTYPE_X, DTYPE_Y> op;" in pkg.files["op_kernel/widen_mul.cpp"]
    _ok(client, pkg)


def test_a_rows_kernel_of_bf16_rows_and_fp32_weights_passes(client):
    pkg, draft = generate_offline(rms_scale())
    kernel = pkg.files["op_kernel/rms_scale.cpp"]
    assert draft.category == "normalization"
    assert "KernelRmsScale<DTYPE_X, DTYPE_GAMMA> op;" in kernel
    assert "LocalTensor<T1> colsLocal;" in kernel and "GlobalTensor<T1> gammaGm, yGm;" in kernel
    _ok(client, pkg)


def test_a_columns_reduction_of_bf16_into_fp32_passes(client):
    pkg, draft = generate_offline(sum_mid())
    kernel = pkg.files["op_kernel/sum_mid.cpp"]
    assert "c.sum(" in draft.source and "KernelSumMid<DTYPE_X, DTYPE_Y> op;" in kernel
    assert "LocalTensor<T1> y = totalQueue0.AllocTensor<T1>();" in kernel
    _ok(client, pkg)


def test_one_byte_and_int64_outputs_pass_every_case(client):
    pkg, _ = generate_offline(quantize())
    kernel = pkg.files["op_kernel/quantize.cpp"]
    assert "KernelQuantize<DTYPE_X, DTYPE_Y> op;" in kernel
    assert (
        "Cast(dst.template ReinterpretCast<B>(), via, RoundMode::CAST_RINT, n);" in kernel
    )  # via half
    _ok(client, pkg)
    _ok(client, generate_offline(quantize("uint8"))[0])
    pkg, draft = generate_offline(bucket())
    assert "trunc(" in draft.source  # astype(np.int64) goes toward zero
    _ok(client, pkg)
    pkg, draft = generate_offline(dynamic_quant())
    assert draft.category == "normalization"
    _ok(client, pkg)


def test_a_one_element_scale_is_read_once_as_a_scalar(client):
    pkg, draft = generate_offline(dequant())
    assert 'scale = k.input("scale", "scalar")' in draft.source, draft.source
    kernel = pkg.files["op_kernel/dequant.cpp"]
    assert "scaleValue = static_cast<float>(scaleGm.GetValue(0));" in kernel
    _ok(client, pkg)
    pkg, draft = generate_offline(rms_scalar())  # in a rows loop
    assert 'k.input("scale", "scalar")' in draft.source and "with k.rows()" in draft.source
    _ok(client, pkg)


def test_a_total_into_a_one_byte_tensor_narrows_through_half():
    # a tiles loop's total (block 0 reduces the partials) is cast to int8 through half, as a
    # columns loop's is
    source = """\
from ascend_gym.dsl import Kernel

k = Kernel("quantize")
x = k.input("x")
y = k.output("y")
with k.tiles() as t:
    t.store(y, t.sum(t.load(x).float()))
"""
    assert (
        "CopyFloat(y, stat, work.ReinterpretCast<half>(), 1);"
        in build(quantize(), source).kernel_source
    )


def test_a_hand_written_compare_of_an_int32_mask_passes(client):
    _ok(client, build(masked_scale(), MASKED_SCALE_DSL))


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("t.store(y, t.load(x) * t.load(mask))", "operands of different dtypes (those of mask, x)"),
        ("t.store(y, t.load(mask))", "y has another dtype: store v.float()"),
    ],
)
def test_mixing_dtypes_without_a_cast_names_the_line(bad, says):
    source = MASKED_SCALE_DSL.replace(
        "    t.store(y, where(m != 0, t.load(x).float() * 2, 0))", f"    {bad}"
    )
    with pytest.raises(DslError) as e:
        build(masked_scale(), source)
    assert says in str(e.value) and e.value.where == "<dsl:masked_scale>:9"


def test_an_output_is_never_a_scalar():
    source = MASKED_SCALE_DSL.replace('y = k.output("y")', 'y = k.output("y", "scalar")')
    with pytest.raises(DslError) as e:
        build(masked_scale(), source)
    assert "an output is full or rows" in str(e.value)


def test_a_tensor_list_input_is_its_descriptor_and_a_list_output_is_refused():
    data = mask_mul().spec.model_dump()
    data["inputs"][0]["dynamic"] = "xs"  # one GM address for the list, its members read from it
    pkg = mask_mul().model_copy(update={"spec": OperatorSpec.model_validate(data)})
    made, _ = generate_offline(pkg)
    kernel = next(t for p, t in made.files.items() if p.startswith("op_kernel/"))
    assert "void mask_mul(GM_ADDR xs, GM_ADDR " in kernel
    assert "GM_ADDR x = (GM_ADDR)xsList.GetDataPtr<uint8_t>(0);" in kernel
    host = made.files["op_host/mask_mul.cpp"]
    assert 'this->Input("xs").ParamType(DYNAMIC)' in host
    # the plain tensors are declared as ever, each once
    assert host.count('this->Input("mask").ParamType(REQUIRED)') == 1
    assert host.count('this->Output("y").ParamType(REQUIRED)') == 1
    data["outputs"][0]["dynamic"] = "ys"
    pkg = mask_mul().model_copy(update={"spec": OperatorSpec.model_validate(data)})
    with pytest.raises(DslError) as e:
        generate_offline(pkg)
    assert "TensorList outputs (y) are not lowered" in str(e.value)
