"""The stand-in torch's forms against real torch: each golden is traced (`torch_trace`), the
graph evaluated with numpy in float64 and compared with torch's own answer, so every
composition the templates receive (erf, the stable softplus, norms, losses...) is the op torch
documents, before any kernel is generated from it."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.cannbench.torch_trace import numpy_view
from ascend_gym.dsl import trace as sym
from ascend_gym.dsl.generate import build, generate_offline, offline_draft
from ascend_gym.dsl.lang import DslError

torch = pytest.importorskip("torch")

UNARY = {
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "tanh": np.tanh,
    "abs": np.abs,
    "neg": np.negative,
    "reciprocal": np.reciprocal,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "atan": np.arctan,
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.rint,
    "trunc": np.trunc,
}
BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "max": np.maximum,
    "min": np.minimum,
    "pow": np.power,
}
COMPARE = {
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
    "eq": np.equal,
    "ne": np.not_equal,
}
REDUCE = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}
REDUCE |= {"argmax": np.argmax, "argmin": np.argmin}  # the first extreme's index
SCAN = {"sum": np.cumsum, "prod": np.cumprod}


def evaluate(s: sym.Sym, values: dict, attrs: dict) -> np.ndarray:
    """A traced graph's value in float64, as the generated kernel is to compute it."""
    a = [evaluate(x, values, attrs) for x in s.args]
    if s.op == "input":
        return values[s.name].reshape(s.shape)
    if s.op == "const":
        return np.float64(s.value)
    if s.op == "attr":
        return np.float64(attrs[s.name])
    if s.op == "view":
        return a[0].reshape(s.shape)
    if s.op == "part":
        return np.split(values[s.args[0].name], s.part[1], axis=-1)[s.part[0]]
    if s.op == "unary":
        return UNARY[s.fn](a[0])
    if s.op == "binary":
        return BINARY[s.fn](a[0], a[1])
    if s.op == "compare":
        return COMPARE[s.fn](a[0], a[1])
    if s.op == "select":
        return np.where(*a)
    if s.op == "reduce":
        n = s.meta.get("row_axes", 1)  # a reduction over the last n axes
        axis = tuple(range(a[0].ndim - n, a[0].ndim)) if n > 1 else s.axis
        return REDUCE[s.fn](a[0], axis=axis, keepdims=s.keepdims).astype(np.float64)
    if s.op == "total" and len(a) > 1:  # a mean whose count is a second total
        return (a[0].sum() / a[1].sum()).reshape(s.shape)
    if s.op == "total":
        return REDUCE[s.fn](a[0]).reshape(s.shape)
    if s.op == "scan":
        return SCAN[s.fn](a[0], axis=s.axis)
    if s.op == "transpose":
        return np.swapaxes(a[0], -1, -2)
    if s.op == "band":
        k = int(s.value)
        return np.triu(a[0], k) if s.fn == "triu" else np.tril(a[0], k)
    if s.op == "lanes":
        return np.arange(s.shape[0], dtype=np.float64)
    if s.op == "fill":
        return np.full(s.shape, s.value)
    if s.op == "write":
        out = a[0].copy()
        start = s.meta["start"]
        region = [slice(None)] * out.ndim
        region[s.axis] = slice(start, start + a[1].shape[s.axis])
        out[tuple(region)] = a[1]
        return out
    if s.op == "repeat":
        times, axis = s.meta["times"], s.axis
        if s.meta["interleave"]:
            return np.repeat(a[0], times, axis=axis)
        return np.concatenate([a[0]] * times, axis=axis)
    if s.op == "permute":
        p, q, e = s.meta["groups"]
        n = a[0].ndim
        return np.transpose(a[0], [*range(p), *range(q, e), *range(p, q), *range(e, n)])
    if s.op == "matmul":
        return np.matmul(a[0], a[1])
    if s.op == "cat":
        return np.concatenate(a, axis=s.axis)
    if s.op == "gather":
        index = a[1].astype(np.int64)
        if s.meta["shared"]:
            return np.take(a[0], index, axis=-1)
        return np.take_along_axis(a[0], index, axis=-1)
    if s.op == "slice":
        start = s.meta["start"]
        return np.take(a[0], range(start, start + s.shape[s.axis]), axis=s.axis)
    if s.op == "pool":
        return _pooled(a[0], s.meta, s.shape)
    if s.op == "conv":
        return _conved(a, s.meta, s.shape)
    raise AssertionError(s.op)


def _conved(a: list[np.ndarray], m: dict, shape: tuple[int, ...]) -> np.ndarray:
    """A convolution by its definition: per output channel, its group's input channels' taps
    (strided slices of the input, zeros before and after it) times their weights, plus the bias."""
    x, w = a[0], a[1]
    n = w.ndim - 2
    cin, cout = x.shape[-n - 1], w.shape[0]
    groups, out = cin // w.shape[1], np.zeros(shape)
    widths = [(0, 0)] * (x.ndim - n) + [
        (p, 2 * k * d) for p, k, d in zip(m["padding"], w.shape[2:], m["dilation"])
    ]
    padded = np.pad(x, widths)
    for o in range(cout):
        g = o // (cout // groups)
        for c in range(w.shape[1]):
            for tap in np.ndindex(*w.shape[2:]):
                region = [slice(None)] * (x.ndim - n - 1) + [g * w.shape[1] + c]
                for t, d, st, on in zip(tap, m["dilation"], m["stride"], shape[-n:], strict=True):
                    region.append(slice(t * d, t * d + st * (on - 1) + 1, st))
                out[(..., o) + (slice(None),) * n] += w[(o, c, *tap)] * padded[tuple(region)]
    if len(a) == 3:
        out += a[2].reshape(cout, *(1,) * n)
    return out


def _pooled(x: np.ndarray, m: dict, shape: tuple[int, ...]) -> np.ndarray:
    """Pooling by its definition: each tap's strided slice of the padded input, folded."""
    n = len(m["kernel"])
    fill = -np.inf if m["kind"] == "max" else 0.0
    widths = [(0, 0)] * (x.ndim - n) + [(p, p) for p in m["padding"]]
    padded = np.pad(x, widths, constant_values=fill)
    taps = []
    for tap in np.ndindex(*m["kernel"]):
        region = [slice(None)] * (x.ndim - n)
        for t, d, st, o in zip(tap, m["dilation"], m["stride"], shape[-n:], strict=True):
            region.append(slice(t * d, t * d + st * (o - 1) + 1, st))
        taps.append(padded[tuple(region)])
    if m["kind"] == "max":
        return np.max(taps, axis=0)
    return np.sum(taps, axis=0) / (m["divisor"] or math.prod(m["kernel"]))


GOLDENS = [
    ("F.gelu(x)", {}),
    ("F.gelu(x, approximate='tanh')", {}),
    ("torch.erf(x)", {}),
    ("F.softplus(x, beta=beta, threshold=threshold)", {"beta": 2.0, "threshold": 3.0}),
    ("F.leaky_relu(x, beta)", {"beta": 0.2}),
    ("F.elu(x, alpha=beta)", {"beta": 0.7}),
    ("F.selu(x)", {}),
    ("F.celu(x, beta)", {"beta": 1.5}),
    ("F.hardswish(x)", {}),
    ("F.hardsigmoid(x)", {}),
    ("F.hardtanh(x, -0.5, beta)", {"beta": 0.8}),
    ("F.relu6(x * 4)", {}),
    ("F.mish(x)", {}),
    ("F.logsigmoid(x)", {}),
    ("F.softsign(x)", {}),
    ("F.threshold(x, beta, 0.5)", {"beta": 0.1}),
    ("F.hardshrink(x, beta)", {"beta": 0.5}),
    ("F.softshrink(x, beta)", {"beta": 0.5}),
    ("torch.sign(x)", {}),
    ("torch.sin(x) * torch.cos(y) + torch.atan(x) - torch.tan(y / 3)", {}),
    ("torch.floor(x) + x.ceil() * 2 + torch.round(x * 2) + torch.trunc(y)", {}),
    # conversions to integers go toward zero
    ("torch.round(x * 4).to(torch.int8) + (y * 3).long() + (x * 2).to(dtype=torch.int32)", {}),
    ("(x * 5).int() - (y * 7).to(torch.int64)", {}),
    # a stack's members: element-wise per member, folded over the stacked axis
    ("torch.stack([x, y, x * y]).sum(0) + torch.stack((x, y), dim=0).amax(dim=0)", {}),
    ("torch.stack([x, y]).mean(dim=0) - torch.max(torch.stack([x, -y]), dim=0).values", {}),
    ("torch.sum(torch.exp(torch.stack([x, y]) - x.unsqueeze(0)).float() * 2, dim=0)", {}),
    (
        "torch.stack([x, y]).sum(dim=-1, keepdim=True).amax(0)"
        " + (torch.stack([x, y]).unsqueeze(2) * 3).sum(0).squeeze(1)",
        {},
    ),
    ("torch.log2(x.abs() + 1) + torch.log10(x.abs() + 1) + torch.exp2(x)", {}),
    ("torch.addcmul(x, y, y, value=beta) + torch.lerp(x, y, 0.3)", {"beta": 0.5}),
    ("torch.clamp_min(x, beta) + torch.clamp_max(x, beta)", {"beta": 0.1}),
    ("torch.where(x > 0, x, torch.zeros_like(x))", {}),
    ("torch.where(x != 0, x, y) + (y == x) * 2", {}),
    ("torch.sinh(x) + torch.cosh(y) + torch.erfc(x) + torch.frac(y * 3)", {}),
    # modulo: remainder and % take the divisor's sign, fmod the dividend's
    ("torch.remainder(x * 5, y.abs() + 0.5) + torch.fmod(x * 5, y.abs() + 0.5) + (x * 7) % 2", {}),
    ("(y * 9) // 4 + torch.floor_divide(x * 9, -4) + 3 % (y.abs() + 1)", {}),
    ("torch.rsub(x, y, alpha=beta) + torch.divide(x, y.abs() + 1)", {"beta": 0.5}),
    ("x.norm(dim=-1, keepdim=True) + torch.norm(y, 2, -1, True)", {}),
    ("x.clone().mul_(y).add_(beta).cpu()", {"beta": 0.5}),
    ("x.masked_fill(y > 0.5, -1.0) + F.prelu(x, w[:1]) + F.tanhshrink(y) + torch.hypot(x, y)", {}),
    ("torch.xlogy(x, y.abs() + 1) + F.softmin(x, -1) + F.dropout(y, 0.3, training=False)", {}),
    (
        "F.batch_norm(z, z.mean(-1)[0], z.mean(-1)[1].abs() + 1, z.amax(-1)[2], z.amin(-1)[0], eps=beta)",
        {"beta": 1e-5},
    ),
    ("F.prelu(z, z.mean(-1)[0])", {}),
    ("x.clone().copy_(y * 2) + x + x.float().mul_(3).to(x.dtype) - x.detach()", {}),
    ("F.softmax(x, dim=-1)", {}),
    ("x.log_softmax(-1)", {}),
    ("torch.softmax(z, dim=1)", {}),
    ("torch.logsumexp(x, dim=-1)", {}),
    # along a middle axis: totals with work after them (a correction, log(sum) + max)
    ("torch.var(z, dim=1, correction=0) + z.std(1, keepdim=True).squeeze(1)", {}),
    ("torch.logsumexp(z, dim=1) - torch.var(z, 1, False, True).squeeze(1) * 2", {}),
    ("x.var(-1, keepdim=True) + x.std(dim=-1, unbiased=False, keepdim=True)", {}),
    ("F.normalize(x, dim=-1)", {}),
    ("F.layer_norm(x, (x.shape[-1],), w, w * 0.5, beta)", {"beta": 1e-5}),
    ("F.rms_norm(x, [x.shape[-1]], w, beta)", {"beta": 1e-6}),
    ("F.glu(x, dim=-1)", {}),
    ("x.chunk(2, dim=-1)[0] * x.chunk(2, dim=-1)[1]", {}),
    ("x * w.view(1, -1) + w.unsqueeze(0).expand(x.shape[0], -1)", {}),
    ("x.sum(dim=(0, 1), keepdim=True) + x.mean()", {}),
    ("(torch.flatten(x) * 2 + y.reshape(-1)).view(16, 6)", {}),
    ("torch.reshape(z.flatten(1) * 3, (5, 24))", {}),
    ("torch.cumsum(z, dim=1)", {}),
    ("F.mse_loss(x, y) + F.l1_loss(x, y, reduction='sum')", {}),
    ("F.smooth_l1_loss(x, y, beta=beta) + F.huber_loss(x, y, delta=beta)", {"beta": 0.5}),
    ("F.smooth_l1_loss(x, y, reduction='none', beta=beta)", {"beta": 0.5}),
    ("F.binary_cross_entropy(torch.sigmoid(x), torch.sigmoid(y))", {}),
    ("F.binary_cross_entropy_with_logits(x, torch.sigmoid(y), reduction='sum')", {}),
    (
        "F.kl_div(F.log_softmax(x, -1), F.log_softmax(y, -1), reduction='batchmean', log_target=True)",
        {},
    ),
    ("torch.nn.Softmax(dim=-1)(x) + torch.nn.GELU(approximate='tanh')(y)", {}),
    ("torch.nn.LeakyReLU(beta)(x) + torch.nn.MSELoss(reduction='sum')(x, y)", {"beta": 0.1}),
    ("x * y[:, None, 0] + w[None, :] - w[None, ..., None].squeeze(-1)", {}),
    ("torch.triu(x, 1) + torch.tril(y, diagonal=-2) * 3 - z.triu(-1).sum()", {}),
    ("x - x.max(dim=-1, keepdim=True).values + torch.max(x, y) - torch.min(z, 1)[0].sum()", {}),
    # index reductions: the first extreme's index, as a value
    ("torch.argmax(x, dim=-1) + x.argmin(-1) * 100 + torch.max(x, 1).indices * 1000", {}),
    ("torch.min(x, dim=-1, keepdim=True)[1] + torch.argmax(z, dim=1).sum()", {}),
    ("torch.cumprod(z, dim=1) + x.cumprod(-1).sum()", {}),
    # vector norms: p = 1, 2, inf, -inf
    ("torch.norm(x, p=1, dim=-1) + torch.linalg.vector_norm(y, ord=float('inf'), dim=-1)", {}),
    ("torch.linalg.norm(x, dim=-1) + torch.linalg.vector_norm(y, -math.inf, -1)", {}),
    # ~ on a mask, a scalar's item(), empty_like then copy_, deepcopy
    ("torch.where(~(x > 0.5), x, y) + (~(y <= x)) * 2 + torch.logical_not(x == y) * 3", {}),
    ("x * w[:1].item() + torch.empty_like(y).copy_(y * 2) + copy.deepcopy(x)", {}),
    # arange along the last axis; a row's element picked by an index (one_hot, nll_loss)
    ("x * torch.arange(16) + torch.arange(1, 33, 2) - torch.arange(0.5, 8.5, 0.5)", {}),
    ("F.one_hot((y[:, 2].abs() * 4).long(), 16) * x", {}),
    ("F.cross_entropy(x, (y[:, 0].abs() * 4).long(), reduction='none')", {}),
    ("F.nll_loss(F.log_softmax(x, -1), (y[:, 1].abs() * 5).long(), reduction='none')", {}),
    (
        "F.cross_entropy(x, (y[:, 0].abs() * 4).long()) + F.nll_loss(x, (y[:, 3].abs() * 4).long())",
        {},
    ),
    ("F.cross_entropy(x, (y[:, 0].abs() * 4).long(), reduction='sum')", {}),
    # class weights and an ignore_index that is a class: the target's weight, 0 where ignored
    (
        "F.nll_loss(x, (y[:, 1].abs() * 5).long(), w.abs(), reduction='none')"
        " + F.cross_entropy(x, (y[:, 0].abs() * 4).long(), w.abs(), ignore_index=2, reduction='sum')",
        {},
    ),
    ("F.nll_loss(x, (y[:, 2].abs() * 4).long(), ignore_index=3, reduction='none')", {}),
    # their mean: sum(w[t] * l) / sum(w[t]) over the rows not ignored (a total with a count)
    (
        "F.nll_loss(x, (y[:, 1].abs() * 5).long(), w.abs())"
        " + F.cross_entropy(x, (y[:, 0].abs() * 4).long(), w.abs() + 0.5, ignore_index=2)",
        {},
    ),
    # class probabilities (a target of x's shape) and label smoothing
    ("F.cross_entropy(x, y.softmax(-1), reduction='none') + F.cross_entropy(x, y.abs())", {}),
    ("F.cross_entropy(x, (y[:, 0].abs() * 4).long(), label_smoothing=0.1, reduction='none')", {}),
    ("F.cross_entropy(x, y.abs(), label_smoothing=0.2, reduction='sum')", {}),
    # pooling of a whole plane, reductions over the trailing axes
    ("F.adaptive_avg_pool2d(v, 1) + F.adaptive_max_pool2d(v, (1, 1)) * 2", {}),
    ("v - v.mean(dim=(-2, -1), keepdim=True) + torch.amax(v, (2, 3), True)", {}),
    # norms over several trailing axes (a row of them)
    (
        "F.layer_norm(v, v.shape[-2:], eps=beta) + F.rms_norm(v, (3, 4, 5), None, beta)",
        {"beta": 1e-5},
    ),
    # instance_norm (a group per channel: a value per row for the affine); one group, no affine
    (
        "F.instance_norm(v, weight=v.mean(-1).mean(-1)[0], bias=v.amax(-1).amin(-1)[1], eps=beta)"
        " + F.group_norm(v, 1)",
        {"beta": 1e-5},
    ),
    ("F.group_norm(z, 5, z.mean(-1)[0], None, beta)", {"beta": 1e-5}),
    # any / all along an axis: the mask's max / min as 1 and 0
    ("torch.any(x > 1, dim=-1, keepdim=True) * y + torch.all(y > -2, 0) * x", {}),
    ("(z != 0).all(dim=1).sum(-1, keepdim=True) + torch.any(z < -1, 1, True).sum(1)", {}),
    # without dim: one value over every element; max / min of every element likewise
    ("torch.any(x > 1) * 2 + (y > -2).all() + x.max() - torch.amin(y, (0, 1))", {}),
    # sizes computed from torch.tensor of the shape's sizes (a number again), and numbers of it
    (
        "z.reshape(int(torch.prod(torch.tensor(z.shape[:-1])).item()), -1)"
        " * torch.tensor([[2.0, 0.5], [1.5, 1.0]]).sum(0).prod().item()"
        " + torch.tensor((1, 2, 3))[1:].prod() + len(torch.tensor([4, 5]))",
        {},
    ),
    # arithmetic on a float attribute: a scalar of the kernel (clamp's symmetric bounds)
    (
        "x.clamp(min=-beta, max=beta) * (2 * beta) - y / (1 + beta) + abs(-beta) - beta / 4",
        {"beta": 0.5},
    ),
    # an empty slice (no rows left), made zeros and joined: torch.cat adds nothing
    ("torch.cat((x[:6] * 2, torch.zeros_like(x[6:, :16]), torch.ones_like(y[:, 16:][0])), 0)", {}),
]


def _golden(expr: str, attrs: dict, shapes: dict, dtype: str = "float32") -> OperatorPackage:
    params = "".join(f", {a}=1.0" for a in attrs)
    golden = (
        "import copy\nimport math\n\nimport torch\nimport torch.nn.functional as F\n\n\n"
        f"def g({', '.join(shapes)}{params}):\n    return {expr}\n"
    )
    spec = OperatorSpec.model_validate(
        {
            "name": "g",
            "op_type": "G",
            "inputs": [{"name": n, "dtypes": [dtype]} for n in shapes],
            "outputs": [{"name": "out", "dtypes": [dtype]}],
            "attrs": [{"name": a, "type": "float", "default": 1.0} for a in attrs],
            "cases": [{"name": "c", "dtype": dtype, "shapes": shapes, "bench": True}],
            "reference": "golden:g",
            "reference_kind": "torch",
        }
    )
    return OperatorPackage(spec=spec, files={"golden.py": golden})


@pytest.mark.parametrize(("expr", "attrs"), GOLDENS, ids=[g[0] for g in GOLDENS])
def test_a_traced_golden_computes_what_torch_does(expr, attrs):
    shapes = {"x": [6, 16], "y": [6, 16], "w": [16], "z": [3, 5, 8], "v": [2, 3, 4, 5]}
    pkg = _golden(expr, attrs, shapes)
    rng = np.random.default_rng(0)
    values = {n: rng.uniform(-3, 3, s) for n, s in shapes.items()}
    (root,) = sym.trace(numpy_view(pkg), {n: tuple(s) for n, s in shapes.items()}, list(attrs))
    got = evaluate(root, values, attrs)
    scope: dict = {}
    exec(pkg.files["golden.py"], scope)
    want = scope["g"](*(torch.from_numpy(v) for v in values.values()), **attrs).numpy()
    assert got.size == want.size
    np.testing.assert_allclose(got.reshape(want.shape), want, rtol=2e-6, atol=2e-7)
    assert math.isfinite(float(np.abs(got).max()))


MATMULS = [
    "torch.matmul(a, b)",
    "a @ m",  # a batch of rows against one matrix
    "torch.bmm(a, a.transpose(1, 2))",
    "torch.matmul(b.permute(0, 2, 1), a.mT)",
    "torch.mm(n, m) + n.t().T.sum(-1, keepdim=True) * 0",
    "F.linear(a, n)",
    "n.T @ n",
    "torch.transpose(a, -1, -2).swapaxes(1, 2) @ b",
    "torch.matmul(a.float(), b.unsqueeze(0).permute(0, 1, 2, 3).squeeze(0).float()).double()",
    # joins along an axis
    "torch.cat([a, a * 2], dim=1) + torch.concat((a, -a), 1)",
    "torch.stack([n, n * 3], dim=1) + torch.cat([n.unsqueeze(-2), n.unsqueeze(1)], dim=-2)",
    "torch.cat([torch.stack([n, n])], 0)[: len(n)]",
    # basic indexing along one axis
    "a[..., 2:5] * 2 + a[:, :, 1:4] + torch.narrow(a, 2, 0, 3) + a.split(3, dim=-1)[1]",
    "a[:, 2] + a[-1][:3] + a[:, 1:3].sum(1) + n[:3, :8] + n[:, :4].unsqueeze(0)[0][:3][..., :1]",
    # einsum of a (batched) matrix product: batch letters, one summed, one free in each
    "torch.einsum('bij,bjk->bik', a, b) + torch.einsum('bik,bjk->bij', a, a).sum(-1, keepdim=True)",
    "torch.einsum('...ij,jk->...ik', a, m) + torch.einsum('ij,bjk->bik', n, b).sum(-1).unsqueeze(-1)",
    "torch.einsum('bij,bjk->bki', a, b) + torch.einsum('kj,ik->ij', m, n).sum()",
]


@pytest.mark.parametrize("expr", MATMULS)
def test_matmuls_and_transposes_compute_what_torch_does(expr):
    shapes = {"a": [3, 5, 8], "b": [3, 8, 4], "m": [8, 6], "n": [5, 8]}
    pkg = _golden(expr, {}, shapes)
    rng = np.random.default_rng(3)
    values = {n: rng.uniform(-3, 3, s) for n, s in shapes.items()}
    (root,) = sym.trace(numpy_view(pkg), {n: tuple(s) for n, s in shapes.items()}, [])
    scope: dict = {}
    exec(pkg.files["golden.py"], scope)
    want = scope["g"](*(torch.from_numpy(v) for v in values.values())).double().numpy()
    np.testing.assert_allclose(evaluate(root, values, {}), want, rtol=1e-5, atol=1e-6)


POOLS = [
    (
        "F.max_pool2d(v, 3, stride=2, padding=1)",
        'k.pool(out, v, "max", kernel=(3, 3), stride=(2, 2), padding=(1, 1))',
    ),
    ("F.avg_pool2d(v, 2)", 'k.pool(out, v, "avg", kernel=(2, 2), stride=(2, 2))'),
    ("torch.nn.AvgPool2d((2, 3), 1, 1, divisor_override=4)(v)", "divisor=4)"),
    ("F.max_pool2d(v, (2, 3), (1, 2), 0, 2)", "dilation=(2, 2)"),
    ("F.max_pool1d(z, 3, 1, 1, 2, True)", "dilation=(2,)"),  # ceil_mode changing nothing
    ("F.avg_pool1d(z, 4, 3, 2)", 'k.pool(out, z, "avg", kernel=(4,), stride=(3,), padding=(2,))'),
    ("torch.nn.AvgPool1d(2)(z)", "kernel=(2,), stride=(2,)"),
    ("F.adaptive_avg_pool1d(z, 4)", 'k.pool(out, z, "avg", adaptive=1)'),
    ("torch.nn.AdaptiveMaxPool2d((2, 5))(v)", 'k.pool(out, v, "max", adaptive=2)'),
    ("F.adaptive_avg_pool2d(v, (None, 2))", 'k.pool(out, v, "avg", adaptive=2)'),
]


@pytest.mark.parametrize(("expr", "line"), POOLS, ids=[p[0] for p in POOLS])
def test_pooling_windows_compute_what_torch_does_and_are_a_pool_program(expr, line):
    shapes = {"z": [3, 5, 16], "v": [2, 3, 8, 10]}
    name = "z" if "(z" in expr else "v"
    pkg = _golden(expr, {}, {name: shapes[name]})
    values = {name: np.random.default_rng(5).uniform(-3, 3, shapes[name])}
    (root,) = sym.trace(numpy_view(pkg), {name: tuple(shapes[name])}, [])
    scope: dict = {}
    exec(pkg.files["golden.py"], scope)
    want = scope["g"](torch.from_numpy(values[name])).numpy()
    np.testing.assert_allclose(evaluate(root, values, {}), want, rtol=1e-6, atol=1e-7)
    assert line in offline_draft(pkg).source


CONVS = [
    (
        "F.conv1d(z, w1, b, padding=2, groups=5)",
        "k.conv(out, z, w1, bias=b, stride=(1,), padding=(2,))",
    ),
    ("torch.conv1d(z, w3, stride=2, dilation=2)", "k.conv(out, z, w3, stride=(2,), dilation=(2,))"),
    ("F.conv1d(z, w3, padding='same', dilation=3)", "padding=(3,), dilation=(3,))"),
    ("F.conv2d(v, w2, None, (2, 1), 1)", "k.conv(out, v, w2, stride=(2, 1), padding=(1, 1))"),
    ("F.conv2d(v, w2, padding='valid')", "k.conv(out, v, w2, stride=(1, 1))"),
]


@pytest.mark.parametrize(("expr", "line"), CONVS, ids=[c[0] for c in CONVS])
def test_convolutions_compute_what_torch_does_and_are_a_conv_program(expr, line):
    shapes = {"z": [3, 5, 16], "v": [2, 3, 8, 10], "w1": [5, 1, 4], "w3": [4, 5, 3]}
    shapes |= {"w2": [6, 3, 3, 2], "b": [5]}
    names = [n for n in shapes if re.search(rf"\b{n}\b", expr)]
    pkg = _golden(expr, {}, {n: shapes[n] for n in names})
    rng = np.random.default_rng(7)
    values = {n: rng.uniform(-2, 2, shapes[n]) for n in names}
    (root,) = sym.trace(numpy_view(pkg), {n: tuple(shapes[n]) for n in names}, [])
    scope: dict = {}
    exec(pkg.files["golden.py"], scope)
    want = scope["g"](*(torch.from_numpy(values[n]) for n in names)).numpy()
    np.testing.assert_allclose(evaluate(root, values, {}), want, rtol=1e-6, atol=1e-7)
    assert line in offline_draft(pkg).source


def test_a_convolution_with_other_work_is_refused_with_its_reason():
    pkg = _golden("F.relu(F.conv1d(z, w))", {}, {"z": [3, 5, 16], "w": [4, 5, 3]})
    with pytest.raises(sym.Unsupported, match="a convolution with other work"):
        offline_draft(pkg)


@pytest.mark.parametrize(
    ("expr", "why"),
    [
        ("F.conv1d(z, w3, padding='same', stride=2)", "padding='same' and a stride"),
        ("F.conv1d(z, w3, groups=5)", "in 5 groups"),
        ("F.avg_pool2d(v, 3, 2, 1, count_include_pad=False)", "count_include_pad=False"),
        ("F.max_pool2d(v, 3, 2, 0, 1, True)", "ceil_mode=True keeping a partial window"),
        ("F.adaptive_avg_pool2d(v, 3)", r"adaptive pooling of \[8, 10\] to \[3, 3\]"),
        ("F.max_pool2d(v, 2, return_indices=True)", "with indices"),
        ("F.avg_pool1d(v, 20)", "a pooling window larger than"),
        ("torch.einsum('bii,bij->bj', q, q)", "a diagonal"),
        ("torch.einsum('ij,jk,kl->il', p, p, p)", "of other than two operands"),
        ("torch.einsum('ij,ij->ij', p, p)", "not a product of matrices"),
    ],
)
def test_pooling_conv_and_einsum_beyond_the_forms_are_unsupported(expr, why):
    shapes = {"v": [2, 3, 8, 10], "p": [8, 8], "q": [3, 8, 8], "z": [3, 5, 16], "w3": [4, 5, 3]}
    pkg = _golden(expr, {}, shapes)
    with pytest.raises(sym.Unsupported, match=why):
        sym.trace(numpy_view(pkg), {n: tuple(s) for n, s in shapes.items()}, [])


@pytest.mark.parametrize(
    ("expr", "why"),
    [
        ("x.permute(2, 1, 0)", r"a permutation \[2, 1, 0\]"),  # not a swap of two axis groups
        ("x.transpose(0, 2).sum(-1)", r"a permutation \[2, 1, 0\]"),
        ("torch.matmul(x, y[[0, 1]])", "indexing other than by slices"),
        ("torch.stack([y, y]).transpose(1, 2)", "torch.transpose of a stack"),
        # several channels a group: its weight and bias are inputs of a value a channel
        ("F.group_norm(y.unsqueeze(0), 1, y[:, 0])", r"other than \[C\] inputs"),
        ("torch.argmax(x)", "over every element"),
        # a list made a tensor is known while tracing: a number of it, not an array of data
        ("x * torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])", "torch.tensor of a list as an operand"),
        ("torch.prod(x, -1)", "torch.prod of a computed tensor"),
        ("x[..., ::2]", "a slice with a step"),
    ],
)
def test_reorders_the_templates_cannot_take_are_unsupported(expr, why):
    pkg = _golden(expr, {}, {"x": [3, 4, 5], "y": [3, 5, 2]})
    with pytest.raises(sym.Unsupported, match=why):
        sym.trace(numpy_view(pkg), {"x": (3, 4, 5), "y": (3, 5, 2)}, [])


@pytest.mark.parametrize(
    ("expr", "lines"),
    [
        ("torch.var(z, dim=1)", ["v4 = c.mean(v3)", "v5 = v4 * 1.25", "c.store(out, v5)"]),
        ("torch.std(z, 1, correction=0, keepdim=True)", ["v5 = sqrt(v4)", "c.store(out, v5)"]),
        ("torch.logsumexp(z, dim=1)", ["v1 = c.max(v0)", "v5 = log(v4)", "v6 = v5 + v1"]),
    ],
)
def test_work_on_totals_along_a_middle_axis_is_a_columns_reduction(expr, lines):
    draft = offline_draft(_golden(expr, {}, {"z": [3, 5, 8]}))
    assert draft.category == "reduction"
    assert "with k.columns(axis=1) as c:" in draft.source
    assert all(line in draft.source for line in lines), draft.source


@pytest.mark.parametrize(
    ("expr", "shapes", "line"),
    [
        ("a @ b", {"a": [4, 32, 16], "b": [4, 16, 48]}, "k.matmul(out, a, b)"),
        (
            "torch.bmm(a, b.transpose(1, 2))",
            {"a": [4, 32, 16], "b": [4, 48, 16]},
            "b, trans_b=True)",
        ),
        ("a.mT @ b", {"a": [16, 32], "b": [16, 48]}, "k.matmul(out, a, b, trans_a=True)"),
        ("F.linear(a, b)", {"a": [2, 8, 16], "b": [24, 16]}, "trans_b=True"),
        ("a.reshape(-1, 16) @ b", {"a": [2, 8, 16], "b": [16, 24]}, "k.matmul(out, a, b)"),
        (
            "F.linear(a, b, c)",
            {"a": [2, 8, 16], "b": [24, 16], "c": [24]},
            "trans_b=True, bias=c_)",
        ),
        ("torch.addmm(s, a, b)", {"s": [24], "a": [8, 16], "b": [16, 24]}, "a, b, bias=s)"),
        ("a @ b.t() + s.unsqueeze(0)", {"a": [8, 16], "b": [24, 16], "s": [24]}, "bias=s)"),
    ],
)
def test_a_plain_matmul_is_a_cube_program(expr, shapes, line):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert line in source, source


@pytest.mark.parametrize(
    ("expr", "shapes", "lines"),
    [
        (
            "torch.relu(a @ b)",
            {"a": [32, 16], "b": [16, 48]},
            ["k.cube(a, b) as m:", "maximum(p, 0.0)"],
        ),
        (
            "F.gelu(F.linear(a, b, c)) * 2",
            {"a": [4, 8, 16], "b": [24, 16], "c": [24]},
            ["k.cube(a, b, trans_b=True, bias=c_) as m:", "m.store(out, "],
        ),
        (
            "(a.float() @ b.float() + c.float()).half()",
            {"a": [8, 16], "b": [16, 24], "c": [8, 24]},
            ["k.cube(a, b, c_float=True) as m:", "m.load(c_)"],
        ),
    ],
)
def test_element_wise_work_on_a_matmul_is_its_epilogue(expr, shapes, lines):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert all(line in source for line in lines), source


@pytest.mark.parametrize(
    ("expr", "shapes", "why"),
    [
        ("torch.relu(a @ b).sum(-1)", {"a": [32, 16], "b": [16, 48]}, "with reduce work after"),
        ("a.t() * 2", {"a": [32, 16], "b": [16, 32]}, "a transpose outside a matmul"),
        ("(a * 2) @ b", {"a": [32, 16], "b": [16, 48]}, "a computed operand"),
        ("a @ b", {"a": [2, 1, 8, 16], "b": [1, 3, 16, 4]}, "batch axes broadcast"),
        ("a @ b + c", {"a": [8, 16], "b": [16, 24], "c": [8, 1]}, r"input c \[8, 1\] beside"),
        ("torch.where(a @ b > 0, a @ b, 0)", {"a": [8, 16], "b": [16, 24]}, "2 matmuls"),
        # an MLP block: the product of one matmul an operand of the next
        ("(a @ b) @ c", {"a": [8, 16], "b": [16, 24], "c": [24, 32]}, "two matmuls in one"),
        (
            "F.linear(F.relu(F.linear(a, b, d)), c, e)",
            {"a": [8, 16], "b": [24, 16], "d": [24], "c": [32, 24], "e": [32]},
            "two matmuls in one",
        ),
    ],
)
def test_matmuls_beyond_a_plain_product_are_unsupported(expr, shapes, why):
    with pytest.raises(sym.Unsupported, match=why):
        offline_draft(_golden(expr, {}, shapes, "float16"))


QKV = {"q": [2, 4, 16, 32], "k": [2, 4, 24, 32], "v": [2, 4, 24, 32]}
SHARED_KV = {"q": [2, 4, 16, 32], "k": [2, 2, 24, 32], "v": [2, 2, 24, 32]}


@pytest.mark.parametrize(
    ("expr", "shapes", "line"),
    [
        # torch's default scale 1 / sqrt(E): the host's, from the shapes
        (
            "F.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v",
            QKV,
            "k.attention(out, q, k_, v)",
        ),
        (
            "torch.einsum('bhsk,bhkd->bhsd', torch.einsum('bhsd,bhkd->bhsk', q, k).mul(0.5)"
            ".softmax(-1), v)",
            QKV,
            "k.attention(out, q, k_, v, scale=0.5)",
        ),
        (
            "torch.matmul(torch.softmax(torch.matmul(q, k.repeat_interleave(2, dim=1).mT), -1),"
            " v.repeat_interleave(2, 1))",
            SHARED_KV,
            "k.attention(out, q, k_, v, scale=1.0)",
        ),
        (
            "F.softmax(q @ k.expand(-1, 4, -1, -1).transpose(2, 3) * 0.125, -1)"
            " @ v.expand(-1, 4, -1, -1)",
            {"q": [2, 4, 16, 32], "k": [2, 1, 24, 32], "v": [2, 1, 24, 32]},
            "k.attention(out, q, k_, v, scale=0.125)",
        ),
        # q scaled before the product, a position bias [H, S, L] over the batch
        (
            "F.softmax((q * 0.5) @ k.transpose(-2, -1) + b.unsqueeze(0), dim=-1) @ v",
            {**QKV, "b": [4, 16, 24]},
            "k.attention(out, q, k_, v, scale=0.5, bias=b)",
        ),
    ],
)
def test_softmax_between_two_matmuls_is_an_attention_program(expr, shapes, line):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert line in source, source


MASKED = {**QKV, "mask": [2, 1, 16, 24]}
TRIL = "torch.tril(torch.ones(16, 24))"


@pytest.mark.parametrize(
    ("expr", "shapes", "line"),
    [
        # a causal triangle of ones, by masked_fill of ~ or of == 0, tril or triu
        (
            f"F.softmax((q @ k.mT * 0.5).masked_fill(~{TRIL}.bool(), -math.inf), -1) @ v",
            QKV,
            "k.attention(out, q, k_, v, scale=0.5, causal=0)",
        ),
        (
            "torch.softmax((q @ k.mT).masked_fill(torch.triu(torch.ones(16, 24), diagonal=2) == 1,"
            " float('-inf')) * 0.5, -1) @ v",
            QKV,
            "k.attention(out, q, k_, v, scale=0.5, causal=1)",
        ),
        # the scale a tensor's sqrt; torch.where keeping the lanes of a mask input
        (
            "F.softmax(torch.where(mask != 0, q @ k.mT * torch.tensor(1 / 32).sqrt(), -torch.inf),"
            " -1) @ v",
            MASKED,
            "k.attention(out, q, k_, v, keep=mask)",
        ),
        (
            "F.softmax((q @ k.mT * 0.5).masked_fill(mask.to(torch.bool), float('-inf')), -1) @ v",
            MASKED,
            "k.attention(out, q, k_, v, scale=0.5, drop=mask)",
        ),
        # scaled_dot_product_attention's reference: a mask made a bias, zeros filled with -inf
        (
            "F.softmax(q @ k.mT * 0.5 + torch.zeros(16, 24).masked_fill(mask == 0, -math.inf), -1)"
            " @ v",
            MASKED,
            "k.attention(out, q, k_, v, scale=0.5, keep=mask)",
        ),
        (
            "F.scaled_dot_product_attention(q, k, v, is_causal=True)",
            QKV,
            "k.attention(out, q, k_, v, causal=0, zero_rows=True)",
        ),
        (
            "F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.5)",
            MASKED,
            "k.attention(out, q, k_, v, scale=0.5, bias=mask, zero_rows=True)",
        ),
    ],
)
def test_masked_scores_are_an_attention_program(expr, shapes, line):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert line in source, source


def test_a_bool_attn_mask_of_scaled_dot_product_attention_keeps_its_true_lanes():
    pkg = _golden("F.scaled_dot_product_attention(q, k, v, attn_mask=mask)", {}, MASKED, "float16")
    inputs = [
        a.model_copy(update={"dtypes": ["bool"]}) if a.name == "mask" else a
        for a in pkg.spec.inputs
    ]
    cases = [c.model_copy(update={"dtypes": {"mask": "bool"}}) for c in pkg.spec.cases]
    spec = pkg.spec.model_copy(update={"inputs": inputs, "cases": cases})
    source = offline_draft(pkg.model_copy(update={"spec": spec})).source
    assert "k.attention(out, q, k_, v, keep=mask, zero_rows=True)" in source, source


@pytest.mark.parametrize(
    ("expr", "why"),
    [
        # the keys before each query masked out: not a causal mask
        (f"F.softmax((q @ k.mT).masked_fill({TRIL} == 1, -math.inf), -1) @ v", "upper triangle"),
        ("F.softmax((q @ k.mT).masked_fill(mask > 0.5, -math.inf), -1) @ v", "other than an input"),
        (
            "F.softmax((q @ k.mT).masked_fill(mask == 0, -math.inf).masked_fill(other == 0, -math.inf),"
            " -1) @ v",
            "more than one mask",
        ),
        # a mask outside an attention: -inf is no constant of the other templates
        ("mask.masked_fill(mask == 0, -math.inf)", "the constant -inf"),
    ],
)
def test_masks_beyond_the_form_are_refused_with_the_reason(expr, why):
    with pytest.raises(sym.Unsupported, match=why):
        offline_draft(_golden(expr, {}, {**MASKED, "other": [2, 1, 16, 24]}, "float16"))


GROUP_NORM = """\
import torch.nn.functional as F


def g(x, weight, bias, num_groups=4, eps=1e-5):
    return F.group_norm(x, num_groups, weight, bias, eps)
"""


def test_a_group_norm_of_several_channels_a_group_reads_its_count_from_the_attribute():
    # two cases of other group counts: one program, the count by the int attribute's name
    spec = OperatorSpec.model_validate(
        {
            "name": "g",
            "op_type": "G",
            "inputs": [{"name": n, "dtypes": ["float16"]} for n in ("x", "weight", "bias")],
            "outputs": [{"name": "out", "dtypes": ["float16"]}],
            "attrs": [
                {"name": "num_groups", "type": "int", "default": 4},
                {"name": "eps", "type": "float", "default": 1e-5},
            ],
            "cases": [
                {
                    "name": f"c{g}",
                    "dtype": "float16",
                    "shapes": {"x": [2, 12, 5, 7], "weight": [12], "bias": [12]},
                    "attrs": {"num_groups": g},
                    "bench": g == 3,
                }
                for g in (3, 4)
            ],
            "reference": "golden:g",
            "reference_kind": "torch",
        }
    )
    pkg = OperatorPackage(spec=spec, files={"golden.py": GROUP_NORM})
    source = offline_draft(pkg).source
    line = 'k.group_norm(out, x, groups="num_groups", eps=eps, weight=weight, bias=bias)'
    assert line in source, source
    literal = pkg.model_copy(
        update={"files": {"golden.py": GROUP_NORM.replace("x, num_groups,", "x, 2,")}}
    )
    assert "k.group_norm(out, x, groups=2, eps=eps, weight=weight" in offline_draft(literal).source


def test_an_optional_bias_absent_in_some_cases_keeps_one_attention_program():
    golden = (
        "import torch.nn.functional as F\n\n\n"
        "def g(q, k, v, b=None):\n"
        "    s = q @ k.transpose(-2, -1) * 0.5\n"
        "    if b is not None:\n"
        "        s = s + b\n"
        "    return F.softmax(s, dim=-1) @ v\n"
    )
    shapes = {"q": [2, 4, 16, 32], "k": [2, 4, 24, 32], "v": [2, 4, 24, 32]}
    spec = OperatorSpec.model_validate(
        {
            "name": "g",
            "op_type": "G",
            "inputs": [{"name": n, "dtypes": ["float16"]} for n in ("q", "k", "v", "b")],
            "outputs": [{"name": "out", "dtypes": ["float16"]}],
            "cases": [
                {"name": "c0", "dtype": "float16", "shapes": {**shapes, "b": [4, 16, 24]}},
                {
                    "name": "c1",
                    "dtype": "float16",
                    "shapes": shapes,
                    "absent": ["b"],
                    "bench": True,
                },
            ],
            "reference": "golden:g",
            "reference_kind": "torch",
        }
    )
    source = offline_draft(OperatorPackage(spec=spec, files={"golden.py": golden})).source
    assert "k.attention(out, q, k_, v, scale=0.5, bias=b)" in source, source


@pytest.mark.parametrize(
    ("expr", "shapes", "why"),
    [
        # tiled heads (Tensor.repeat): q's head h would read k's h % 2, not h / 2
        (
            "F.softmax(q @ k.repeat(1, 2, 1, 1).mT, -1) @ v.repeat(1, 2, 1, 1)",
            SHARED_KV,
            "other than by repeat_interleave",
        ),
        ("F.softmax(q @ v.mT, -1) @ k", QKV, "reads q, k, v"),
        # block-local attention: the sequence split into blocks by a view
        (
            "(F.softmax(q.view(2, 4, 2, 8, 32) @ k.view(2, 4, 2, 8, 32).mT, -1)"
            " @ v.view(2, 4, 2, 8, 32)).view(2, 4, 16, 32)",
            {"q": [2, 4, 16, 32], "k": [2, 4, 16, 32], "v": [2, 4, 16, 32]},
            "viewed into other matrices",
        ),
        # a bias along the keys alone is not one of the scores' shape
        ("F.softmax(q @ k.mT + b, -1) @ v", {**QKV, "b": [24]}, r"an attention bias \[24\]"),
        (
            "F.softmax(k @ q.mT, -1) @ v",
            {"q": [2, 4, 24, 32], "k": [2, 4, 16, 32], "v": [2, 4, 24, 32]},
            "in that order",
        ),
        # a softmax along the queries is not the form: two matmuls
        (
            "F.softmax(q @ k.mT, dim=-2).mT @ v",
            {"q": [2, 4, 24, 32], "k": [2, 4, 24, 32], "v": [2, 4, 24, 32]},
            "two matmuls in one",
        ),
    ],
)
def test_attentions_beyond_the_form_are_unsupported(expr, shapes, why):
    with pytest.raises(sym.Unsupported, match=why):
        offline_draft(_golden(expr, {}, shapes, "float16"))


@pytest.mark.parametrize(
    ("expr", "shape"),
    [
        ("x.t()", [32, 48]),
        ("x.permute(0, 2, 1)", [3, 32, 48]),
        ("x.mT.contiguous()", [2, 3, 32, 48]),
        ("torch.transpose(x.float(), 1, 2).unsqueeze(0).to(x.dtype)", [3, 32, 48]),
    ],
)
def test_a_transpose_of_the_last_two_axes_is_a_transpose_program(expr, shape):
    source = offline_draft(_golden(expr, {}, {"x": shape}, "float16")).source
    assert "k.transpose(out, x)" in source, source


@pytest.mark.parametrize(
    ("expr", "line"),
    [
        (
            "torch.repeat_interleave(x, 3, dim=1)",
            "k.repeat(out, x, axis=1, times=3, interleave=True)",
        ),
        ("x.repeat_interleave(2, -1)", "k.repeat(out, x, axis=2, times=2, interleave=True)"),
        ("x.repeat(1, 4, 1)", "k.repeat(out, x, axis=1, times=4, interleave=False)"),
    ],
)
def test_a_repeat_along_an_axis_is_a_repeat_program(expr, line):
    shape = (2, 3, 5)
    pkg = _golden(expr, {}, {"x": list(shape)}, "float16")
    source = offline_draft(pkg).source
    assert line in source, source
    (root,) = sym.trace(numpy_view(pkg), {"x": shape}, [])
    x = np.arange(math.prod(shape), dtype=np.float64).reshape(shape)
    want = eval(expr, {"torch": torch, "x": torch.from_numpy(x)}).numpy()
    np.testing.assert_array_equal(evaluate(root, {"x": x}, {}), want)


@pytest.mark.parametrize(
    ("expr", "lines"),
    [
        ("F.pad(x, (1, 2))", ["k.place(out, x, axis=2, start=1, fill=0.0)"]),
        ("F.pad(x, (0, 0, 3, 0), value=-1.5)", ["k.place(out, x, axis=1, end=0, fill=-1.5)"]),
    ],
)
def test_a_constant_pad_is_a_place_in_a_fill(expr, lines):
    shape = (2, 3, 5)
    pkg = _golden(expr, {}, {"x": list(shape)}, "float16")
    source = offline_draft(pkg).source
    assert all(line in source for line in lines), source
    (root,) = sym.trace(numpy_view(pkg), {"x": shape}, [])
    x = np.arange(math.prod(shape), dtype=np.float64).reshape(shape)
    want = eval(expr, {"F": torch.nn.functional, "x": torch.from_numpy(x)}).numpy()
    np.testing.assert_array_equal(evaluate(root, {"x": x}, {}), want)


def test_element_wise_work_around_a_transpose_is_a_transposed_loop():
    source = offline_draft(_golden("torch.relu(x.mT) * 2", {}, {"x": [3, 8, 6]}, "float16")).source
    assert "with k.transposed(out, x) as t:" in source, source
    source = offline_draft(_golden("(x * 3).permute(1, 2, 0)", {}, {"x": [3, 8, 6]})).source
    assert "with k.transposed(out, x, (0, 1, 3)) as t:" in source, source
    for expr, why in [
        ("x.mT + x", "a transpose with other work"),
        ("x.mT.sum(-1, keepdim=True) * 2", "with reduce work"),
        ("torch.transpose(x, 0, 1) * 2", "a transpose that moves rows"),
    ]:
        with pytest.raises(sym.Unsupported, match=why):
            offline_draft(_golden(expr, {}, {"x": [3, 8, 8]}, "float16"))


def test_repeats_the_copies_cannot_take_are_unsupported():
    for expr, why in [
        ("x.repeat(2, 2, 1)", "repeat along more than one axis"),
        ("x.repeat_interleave(x.sum().long(), 0)", "a tensor of repeats"),
        ("x.repeat(1, 2, 1) * 2", "a repeat with other work"),
    ]:
        with pytest.raises(sym.Unsupported, match=why):
            offline_draft(_golden(expr, {}, {"x": [2, 3, 5]}, "float16"))


@pytest.mark.parametrize(
    ("expr", "shapes", "lines"),
    [
        (
            "x * w.view(1, -1, 1, 1) + b.view(1, -1, 1, 1)",
            {"x": [2, 8, 5, 6], "w": [8], "b": [8]},
            ['w = k.input("w", "channels")', "k.rows(row_axes=2) as r:"],
        ),
        ("x + w.unsqueeze(-1)", {"x": [4, 8, 6], "w": [8]}, ["k.rows(row_axes=1) as r:"]),
        ("x - w", {"x": [4, 8, 6], "w": [8, 1]}, ['w = k.input("w", "channels")']),
    ],
)
def test_an_operand_along_a_middle_axis_is_a_channels_operand(expr, shapes, lines):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert all(line in source for line in lines), source


@pytest.mark.parametrize(
    ("expr", "shape", "groups"),
    [
        ("x.permute(0, 2, 1, 3)", [2, 8, 4, 16], "(1, 2, 3)"),
        ("torch.transpose(x, 0, 1)", [8, 4, 16], "(0, 1, 2)"),
        ("torch.movedim(x, 0, -1)", [8, 4, 16], "(0, 1, 3)"),
        ("x.moveaxis(-1, 1)", [2, 8, 4, 16], "(1, 3, 4)"),
    ],
)
def test_a_swap_of_two_axis_groups_is_a_transpose_program(expr, shape, groups):
    pkg = _golden(expr, {}, {"x": shape}, "float16")
    source = offline_draft(pkg).source
    assert f"k.transpose(out, x, {groups})" in source, source
    (root,) = sym.trace(numpy_view(pkg), {"x": tuple(shape)}, [])
    x = np.arange(math.prod(shape), dtype=np.float64).reshape(shape)
    want = eval(expr, {"torch": torch, "x": torch.from_numpy(x)}).numpy()
    np.testing.assert_array_equal(evaluate(root, {"x": x}, {}), want)


@pytest.mark.parametrize(
    ("expr", "shapes", "line"),
    [
        ("torch.cat((x, y), dim=1)", {"x": [4, 3, 8], "y": [4, 5, 8]}, "[x, y], axis=1)"),
        ("torch.cat([y, x], -1)", {"x": [4, 3], "y": [4, 5]}, "[y, x], axis=1)"),
        ("torch.stack([x, y], dim=2)", {"x": [4, 3], "y": [4, 3]}, "[x, y], axis=2)"),
        ("torch.stack([x, y])", {"x": [4, 3], "y": [4, 3]}, "[x, y], axis=0)"),
    ],
)
def test_inputs_joined_whole_are_a_concat_program(expr, shapes, line):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert f"k.concat(out, {line}" in source, source


@pytest.mark.parametrize(
    ("expr", "shapes", "lines"),
    [
        ("x[..., 2:5]", {"x": [4, 8]}, ["k.slice(out, x, axis=1, start=2)"]),
        ("x[:, x.shape[1] // 2 :]", {"x": [4, 8]}, ["k.slice(out, x, axis=1, end=0)"]),
        ("torch.narrow(x, 0, 1, 2)", {"x": [4, 8]}, ["k.slice(out, x, axis=0, start=1)"]),
        ("x[:, 1]", {"x": [4, 8, 3]}, ["k.slice(out, x, axis=1, start=1)"]),
    ],
)
def test_slices_of_an_input_are_a_slice_program(expr, shapes, lines):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert all(line in source for line in lines), source


@pytest.mark.parametrize(
    ("expr", "why"),
    [
        ("x[:, 1:3, :2]", "more than one axis"),
        ("x[..., ::2]", "a slice with a step"),
        ("x[..., 1:3] * 2", "a slice with other work"),
    ],
)
def test_indexing_the_copies_do_not_take_is_unsupported(expr, why):
    with pytest.raises(sym.Unsupported, match=why):
        offline_draft(_golden(expr, {}, {"x": [4, 8, 6]}, "float16"))


@pytest.mark.parametrize(
    ("expr", "shapes", "line"),
    [
        ("torch.gather(x, -1, i.long())", {"x": [4, 8], "i": [4, 3]}, "k.gather(out, x, i)"),
        ("torch.index_select(x, 1, i)", {"x": [4, 8], "i": [5]}, "x, i, shared=True)"),
        ("x[..., i]", {"x": [2, 4, 8], "i": [5]}, "x, i, shared=True)"),
        ("x.take_along_dim(i, dim=2)", {"x": [2, 4, 8], "i": [2, 4, 3]}, "k.gather(out, x, i)"),
    ],
)
def test_picks_by_an_index_along_the_last_axis_are_a_gather_program(expr, shapes, line):
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert line in source, source


def test_gathers_compute_what_torch_does():
    rng = np.random.default_rng(4)
    values = {
        "x": rng.uniform(-3, 3, (3, 4, 8)),
        "i": rng.integers(0, 8, (3, 4, 5)),
        "j": rng.integers(0, 8, (6,)),
    }
    shapes = {n: list(v.shape) for n, v in values.items()}
    expr = "torch.gather(x, -1, i) * 2 + torch.index_select(x, -1, j)[..., :5] + x[..., j][..., 1:]"
    pkg = _golden(expr, {}, shapes)
    (root,) = sym.trace(numpy_view(pkg), {n: tuple(s) for n, s in shapes.items()}, [])
    scope: dict = {}
    exec(pkg.files["golden.py"], scope)
    want = scope["g"](*(torch.from_numpy(v) for v in values.values())).numpy()
    np.testing.assert_allclose(evaluate(root, values, {}), want, rtol=1e-12)


@pytest.mark.parametrize(
    ("expr", "why"),
    [
        ("torch.gather(x, 1, i)", "a gather along other than the last axis"),
        ("torch.gather(x, -1, i) * 2", "a gather with other work"),
    ],
)
def test_gathers_beyond_the_last_axis_are_unsupported(expr, why):
    shapes = {"x": [4, 8, 6], "i": [4, 8, 3]}
    with pytest.raises(sym.Unsupported, match=why):
        offline_draft(_golden(expr, {}, shapes, "float16"))


def test_the_lowering_refuses_a_matmul_the_cube_does_not_take():
    pkg = _golden("a.mT @ b", {}, {"a": [16, 32], "b": [16, 48]})  # fp32 A read transposed
    with pytest.raises(DslError, match="an fp32 A is taken as stored"):
        generate_offline(pkg)
    pkg = _golden("F.linear(a, b, c)", {}, {"a": [16, 32], "b": [48, 32], "c": [48]}, "bfloat16")
    with pytest.raises(DslError, match="a bias of bfloat16"):  # not in the guest engine's API
        generate_offline(pkg)
    pkg = _golden("a @ b * 0 + a @ b", {}, {"a": [16, 32], "b": [32, 48]})
    with pytest.raises(sym.Unsupported, match="a matmul with other work"):
        generate_offline(pkg)


@pytest.mark.parametrize(
    ("expr", "per_op"),
    [
        ("x * w.view(1, -1) + w", True),  # fp16 ops one at a time, as the golden rounds them
        ("torch.maximum(x, y) * 2 - y", True),
        ("(x.float() * w + w).half()", False),  # the golden casts up: one fp32 rounding
        ("x.to(torch.float32) * y + y", False),
        ("torch.add(x, y, alpha=0.5) * y", False),  # add with alpha is one fused op in torch
        ("torch.exp(x) * y", False),  # exp is not correctly rounded on the vector unit
    ],
)
def test_fp16_goldens_that_round_each_op_are_computed_in_fp16(expr, per_op):
    shapes = {"x": [64, 16], "y": [64, 16], "w": [16]}
    source = offline_draft(_golden(expr, {}, shapes, "float16")).source
    assert (".float()" not in source) is per_op, source


def test_a_tensor_list_reaches_the_golden_as_one_list():
    shapes = {"xs_0": [6, 16], "xs_1": [6, 16], "y": [6, 16]}
    pkg = _golden("xs[0] * y + xs[1]", {}, shapes)
    golden = pkg.files["golden.py"].replace("def g(xs_0, xs_1, y)", "def g(xs, y)")
    inputs = [{"name": n, "dtypes": ["float32"], "dynamic": n[:2]} for n in ("xs_0", "xs_1")]
    data = pkg.spec.model_dump()
    data["inputs"] = [*inputs, data["inputs"][2]]
    pkg = OperatorPackage(spec=OperatorSpec.model_validate(data), files={"golden.py": golden})
    rng = np.random.default_rng(1)
    values = {n: rng.uniform(-3, 3, s) for n, s in shapes.items()}
    (root,) = sym.trace(numpy_view(pkg), {n: tuple(s) for n, s in shapes.items()}, [])
    np.testing.assert_allclose(
        evaluate(root, values, {}), values["xs_0"] * values["y"] + values["xs_1"], rtol=1e-12
    )


def test_a_golden_whose_attributes_come_first_takes_its_tensors_by_name():
    shapes = {"x": [6, 16], "y": [6, 16]}
    pkg = _golden("x * beta - y", {"beta": 2.0}, shapes)
    golden = pkg.files["golden.py"].replace("def g(x, y, beta=1.0)", "def g(beta: float, x, y)")
    pkg = pkg.model_copy(update={"files": {"golden.py": golden}})
    rng = np.random.default_rng(2)
    values = {n: rng.uniform(-3, 3, s) for n, s in shapes.items()}
    (root,) = sym.trace(numpy_view(pkg), {n: tuple(s) for n, s in shapes.items()}, ["beta"])
    got = evaluate(root, values, {"beta": 2.0})
    np.testing.assert_allclose(got, values["x"] * 2.0 - values["y"], rtol=1e-12)


def test_a_golden_module_the_stand_in_cannot_run_is_unsupported():
    pkg = _golden("x * 2", {}, {"x": [6, 16]})
    text = "import torch\n\nMASK = {bool: torch.complex32}\n\n\n" + pkg.files["golden.py"]
    pkg = pkg.model_copy(update={"files": {"golden.py": text}})
    with pytest.raises(sym.Unsupported, match="AttributeError"):
        numpy_view(pkg)
    # a conversion to bool is the comparison torch makes (`!= 0`), a mask: as a value it is
    # refused by the DSL's check, with its program line
    pkg = _golden("(x - 1).to(torch.bool) * 2", {}, {"x": [6, 16]})
    with pytest.raises(DslError, match="a mask is only an operand of where"):
        build(pkg, offline_draft(pkg).source)


def test_a_graph_deeper_than_the_recursion_limit_is_a_refusal_not_a_crash():
    from ascend_gym.cannbench.run import generate

    pkg = _golden("sum([x * i for i in range(1, 3000)], x)", {}, {"x": [4, 8]})
    assert generate(pkg, "Ascend910B2") == (
        None,
        "the golden's expression graph is too deep to generate from",
    )


def test_an_optional_input_a_case_leaves_out_is_not_the_programs():
    """Left out (None to the golden), it has no shape of its own (the first input's stands in):
    a program that reads nothing of it does not classify it against its rows."""
    golden = (
        "import torch\n\n\ndef g(x, b=None):\n"
        "    y = x.view(1, -1).softmax(-1)\n    return y if b is None else y + b\n"
    )
    spec = OperatorSpec.model_validate(
        {
            "name": "g",
            "op_type": "G",
            "inputs": [{"name": "x", "dtypes": ["float32"]}, {"name": "b", "dtypes": ["float32"]}],
            "outputs": [{"name": "out", "dtypes": ["float32"]}],
            "cases": [
                {
                    "name": "c",
                    "dtype": "float32",
                    "shapes": {"x": [64]},
                    "absent": ["b"],
                    "bench": True,
                },
            ],
            "reference": "golden:g",
            "reference_kind": "torch",
        }
    )
    draft = offline_draft(OperatorPackage(spec=spec, files={"golden.py": golden}))
    assert "r.load(x)" in draft.source and 'k.input("b"' not in draft.source
