"""A torch golden read by the DSL tracer: the golden's source run against a stand-in `torch`.

The offline generator traces a numpy reference on symbolic arrays (`dsl/trace.py`). A cann-bench
golden calls torch instead, so it is run here with `import torch` answered by `TorchShim`, whose
functions and tensor methods forward to the same symbolic arithmetic (`Tensor` wraps a `Sym`).
What the shim lacks is the tracer's `Unsupported`: the offline templates then do not reach the
operator, as for a numpy reference they cannot read. The golden's own module is executed in the
caller's process, as the offline generator executes a numpy reference: the user's checkout.
"""

from __future__ import annotations

import builtins
import inspect
import math
import types
from collections.abc import Callable
from typing import Any

from ascend_core.package import OperatorPackage
from ascend_gym.dsl import trace as sym
from ascend_gym.dsl.trace import Sym, Unsupported


class DType:
    """A torch dtype in the trace: the lowering picks the compute dtype, so only its name."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def is_floating_point(self) -> bool:
        return "float" in self.name


def _sym(x: Any) -> Any:
    return x.sym if isinstance(x, Tensor) else x


def _shape_arg(shape: tuple[Any, ...]) -> list[int]:
    """`view(2, 3)`, `view((2, 3))` and `view(torch.Size)` alike."""
    if len(shape) == 1 and isinstance(shape[0], list | tuple):
        shape = tuple(shape[0])
    return [int(d) for d in shape]


def _wrap(x: Any) -> Any:
    return Tensor(x) if isinstance(x, Sym) else x


def _dim(dim: Any) -> Any:
    if isinstance(dim, list | tuple):
        if len(dim) != 1:
            raise Unsupported("a reduction over several dims")
        return dim[0]
    return dim


class Tensor:
    """A symbolic torch tensor: torch's operators and methods over a `Sym`."""

    def __init__(self, s: Sym) -> None:
        self.sym = s

    dtype = DType("float32")
    device = "cpu"

    @property
    def shape(self) -> tuple[int, ...]:
        return self.sym.shape

    def size(self, d: int | None = None) -> Any:
        return self.shape if d is None else self.shape[d]

    def dim(self) -> int:
        return len(self.shape)

    ndim = property(dim)

    def numel(self) -> int:
        return math.prod(self.shape)

    # casts: the lowering decides the compute dtype, as for numpy's astype
    def float(self) -> Tensor:
        return self

    half = bfloat16 = double = contiguous = clone = detach = float

    def to(self, *a: Any, **k: Any) -> Tensor:
        return self

    def type_as(self, other: Any) -> Tensor:
        return self

    # views that add or drop axes of one: broadcasts of a row or a column
    def view(self, *shape: Any) -> Tensor:
        return Tensor(sym.reshape(self.sym, _shape_arg(shape)))

    reshape = view

    def unsqueeze(self, dim: int) -> Tensor:
        shape = list(self.shape)
        shape.insert(dim % (len(shape) + 1), 1)
        return self.view(shape)

    def squeeze(self, dim: Any = None) -> Tensor:
        axes = range(self.ndim) if dim is None else [_dim(dim) % max(self.ndim, 1)]
        return self.view([d for i, d in enumerate(self.shape) if not (i in axes and d == 1)])

    def expand(self, *shape: Any) -> Tensor:
        # the binary operation that reads it broadcasts it as numpy does
        want = _shape_arg(shape)
        pad = [1] * (len(want) - self.ndim) + list(self.shape)
        want = [o if n == -1 else n for n, o in zip(want, pad, strict=True)]
        if sym._shape(self.sym, Sym("const", tuple(want))) != tuple(want):
            raise Unsupported(f"expand of {list(self.shape)} to {want}")
        return self

    def expand_as(self, other: Tensor) -> Tensor:
        return self.expand(other.shape)

    def view_as(self, other: Tensor) -> Tensor:
        return self.view(other.shape)

    def __getattr__(self, name: str) -> Any:
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise Unsupported(f"Tensor.{name}")
        return lambda *a, **k: fn(self, *a, **k)

    def __bool__(self) -> bool:
        raise Unsupported("a tensor used as a condition")


def _binary(op: str) -> Callable[..., Any]:
    def method(self: Tensor, other: Any) -> Any:
        return _wrap(getattr(self.sym, op)(_sym(other)))

    return method


for _op in (
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __pow__ "
    "__rpow__ __gt__ __ge__ __lt__ __le__"
).split():
    setattr(Tensor, _op, _binary(_op))
Tensor.__neg__ = lambda self: Tensor(-self.sym)  # type: ignore[method-assign]
Tensor.__abs__ = lambda self: Tensor(abs(self.sym))  # type: ignore[method-assign]


def _is_one(x: Any) -> bool:
    """A literal 1 (an attribute, traced, is never one: it stays in the program)."""
    return isinstance(x, int | float) and float(x) == 1


def _lift(x: Any) -> Sym:
    return sym.lift(_sym(x))


def _unary(fn: str) -> Callable[..., Tensor]:
    return lambda x, *a, **k: Tensor(sym.unary(fn, _lift(x)))


def _binop(fn: str) -> Callable[..., Tensor]:
    def op(a: Any, b: Any, *, alpha: Any = 1, **k: Any) -> Tensor:
        b = _lift(b) if _is_one(alpha) else sym.binary("mul", _lift(b), _lift(alpha))
        return Tensor(sym.binary(fn, _lift(a), b))

    return op


def _sigmoid(x: Any, *a: Any, **k: Any) -> Tensor:
    s = _lift(x)
    return Tensor(
        sym.binary(
            "div",
            sym.lift(1.0),
            sym.binary("add", sym.lift(1.0), sym.unary("exp", sym.unary("neg", s))),
        )
    )


def _clamp(x: Any, min: Any = None, max: Any = None, **k: Any) -> Tensor:
    return Tensor(
        sym.clip(_lift(x), None if min is None else _lift(min), None if max is None else _lift(max))
    )


def _reduce(fn: str) -> Callable[..., Tensor]:
    def op(x: Any, dim: Any = None, keepdim: bool = False, **k: Any) -> Tensor:
        if k.get("dtype") is not None:
            raise Unsupported(f"{fn} with dtype")
        return Tensor(sym.reduce(fn, _lift(x), _dim(dim), keepdim, {}))

    return op


def _tensor(value: Any, *a: Any, **k: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value  # a scalar made a tensor: the same constant (or attribute)
    raise Unsupported("torch.tensor of data")


def _gelu_tanh(x: Any) -> Tensor:
    v = _lift(x)
    inner = sym.binary(
        "mul",
        sym.lift(0.7978845608028654),
        sym.binary(
            "add",
            v,
            sym.binary("mul", sym.lift(0.044715), sym.binary("mul", v, sym.binary("mul", v, v))),
        ),
    )
    half = sym.binary("mul", sym.lift(0.5), v)
    return Tensor(
        sym.binary("mul", half, sym.binary("add", sym.lift(1.0), sym.unary("tanh", inner)))
    )


def _relu(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.binary("max", _lift(x), sym.lift(0.0)))


def _silu(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.binary("mul", _lift(x), _sigmoid(x).sym))


def _where(c: Any, a: Any, b: Any) -> Tensor:
    return Tensor(sym.where(_lift(c), _lift(a), _lift(b)))


def _rsqrt(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.unary("reciprocal", sym.unary("sqrt", _lift(x))))


# Elementwise compositions, written over Sym so the template sees the arithmetic.
def _b(fn: str, a: Any, b: Any) -> Sym:
    return sym.binary(fn, sym.lift(a), sym.lift(b))


def _u(fn: str, a: Any) -> Sym:
    return sym.unary(fn, sym.lift(a))


def _log1p_exp(v: Sym) -> Sym:
    """log(1 + e^v) as max(v, 0) + log(1 + e^-|v|): no overflow for large v."""
    tail = _u("log", _b("add", 1.0, _u("exp", _u("neg", _u("abs", v)))))
    return _b("add", _b("max", v, 0.0), tail)


def _softplus(x: Any, beta: Any = 1.0, threshold: Any = 20.0, **k: Any) -> Tensor:
    v = _lift(x)
    bx = v if _is_one(beta) else _b("mul", v, beta)
    soft = _log1p_exp(bx) if _is_one(beta) else _b("div", _log1p_exp(bx), beta)
    return Tensor(sym.where(sym.compare("gt", bx, sym.lift(threshold)), v, soft))


def _erf_abs(z: Sym) -> Sym:
    """erf(z) for z >= 0 by Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7)."""
    t = _b("div", 1.0, _b("add", 1.0, _b("mul", 0.3275911, z)))
    poly = sym.lift(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly = _b("add", _b("mul", poly, t), c)
    poly = _b("mul", poly, t)
    return _b("sub", 1.0, _b("mul", poly, _u("exp", _u("neg", _b("mul", z, z)))))


def _erf(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    e = _erf_abs(_u("abs", v))
    return Tensor(sym.where(sym.compare("lt", v, sym.lift(0.0)), _u("neg", e), e))


def _gelu(x: Any, approximate: str = "none", **k: Any) -> Tensor:
    if approximate == "tanh":
        return _gelu_tanh(x)
    # x Phi(x) = (x + |x| erf(|x| / sqrt 2)) / 2: erf is odd, so no select is needed
    v = _lift(x)
    a = _u("abs", v)
    e = _erf_abs(_b("mul", a, 0.7071067811865476))
    return Tensor(_b("mul", 0.5, _b("add", v, _b("mul", a, e))))


def _leaky_relu(x: Any, negative_slope: Any = 0.01, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(sym.where(sym.compare("gt", v, sym.lift(0.0)), v, _b("mul", v, negative_slope)))


def _elu(x: Any, alpha: Any = 1.0, *a: Any, scale: Any = 1.0, **k: Any) -> Tensor:
    v = _lift(x)
    neg = _b("mul", alpha, _b("sub", _u("exp", v), 1.0))
    out = sym.where(sym.compare("gt", v, sym.lift(0.0)), v, neg)
    return Tensor(out if _is_one(scale) else _b("mul", out, scale))


def _selu(x: Any, *a: Any, **k: Any) -> Tensor:
    return _elu(x, 1.6732632423543772, scale=1.0507009873554805)


def _hardtanh(x: Any, min_val: Any = -1.0, max_val: Any = 1.0, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.clip(_lift(x), sym.lift(min_val), sym.lift(max_val)))


def _hardsigmoid(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.clip(_b("add", _b("div", _lift(x), 6.0), 0.5), 0.0, 1.0))


def _hardswish(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(_b("mul", v, _b("div", sym.clip(_b("add", v, 3.0), 0.0, 6.0), 6.0)))


def _mish(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(_b("mul", v, _u("tanh", _log1p_exp(v))))


def _logsigmoid(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(_u("neg", _log1p_exp(_u("neg", _lift(x)))))


def _softsign(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(_b("div", v, _b("add", 1.0, _u("abs", v))))


# Row operations: reductions along `dim` fed back into the row.
def _softmax(x: Any, dim: Any = None, *a: Any, dtype: Any = None, **k: Any) -> Tensor:
    v, d = _lift(x), _dim(-1 if dim is None else dim)
    e = _u("exp", _b("sub", v, sym.reduce("max", v, d, True, {})))
    return Tensor(_b("div", e, sym.reduce("sum", e, d, True, {})))


def _log_softmax(x: Any, dim: Any = None, *a: Any, dtype: Any = None, **k: Any) -> Tensor:
    v, d = _lift(x), _dim(-1 if dim is None else dim)
    shifted = _b("sub", v, sym.reduce("max", v, d, True, {}))
    total = sym.reduce("sum", _u("exp", shifted), d, True, {})
    return Tensor(_b("sub", shifted, _u("log", total)))


def _last(x: Sym, normalized_shape: Any) -> None:
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if [int(d) for d in shape] != [x.shape[-1]]:
        raise Unsupported("a norm over more than the last axis")


def _layer_norm(
    x: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: Any = 1e-5
) -> Tensor:
    v = _lift(x)
    _last(v, normalized_shape)
    d = _b("sub", v, sym.reduce("mean", v, -1, True, {}))
    var = sym.reduce("mean", _b("mul", d, d), -1, True, {})
    out = _b("mul", d, _u("reciprocal", _u("sqrt", _b("add", var, eps))))
    if weight is not None:
        out = _b("mul", out, _lift(weight))
    if bias is not None:
        out = _b("add", out, _lift(bias))
    return Tensor(out)


def _rms_norm(x: Any, normalized_shape: Any, weight: Any = None, eps: Any = None) -> Tensor:
    if eps is None:
        raise Unsupported("rms_norm with eps=None (the dtype's machine epsilon)")
    v = _lift(x)
    _last(v, normalized_shape)
    ms = sym.reduce("mean", _b("mul", v, v), -1, True, {})
    out = _b("mul", v, _u("reciprocal", _u("sqrt", _b("add", ms, eps))))
    return Tensor(out if weight is None else _b("mul", out, _lift(weight)))


# Losses: element-wise terms, then `reduction` over every element.
def _reduced(term: Sym, reduction: str) -> Tensor:
    if reduction == "none":
        return Tensor(term)
    if reduction not in ("mean", "sum"):
        raise Unsupported(f"reduction={reduction!r}")
    return Tensor(sym.reduce(reduction, term, None, False, {}))


def _mse_loss(a: Any, b: Any, *args: Any, reduction: str = "mean", **k: Any) -> Tensor:
    d = _b("sub", _lift(a), _lift(b))
    return _reduced(_b("mul", d, d), reduction)


def _l1_loss(a: Any, b: Any, *args: Any, reduction: str = "mean", **k: Any) -> Tensor:
    return _reduced(_u("abs", _b("sub", _lift(a), _lift(b))), reduction)


def _smooth_l1_loss(
    a: Any, b: Any, *args: Any, reduction: str = "mean", beta: Any = 1.0, **k: Any
) -> Tensor:
    d = _u("abs", _b("sub", _lift(a), _lift(b)))
    quad = _b("div", _b("mul", 0.5, _b("mul", d, d)), beta)
    lin = _b("sub", d, _b("mul", 0.5, beta))
    return _reduced(sym.where(sym.compare("lt", d, sym.lift(beta)), quad, lin), reduction)


def _huber_loss(a: Any, b: Any, reduction: str = "mean", delta: Any = 1.0, **k: Any) -> Tensor:
    d = _u("abs", _b("sub", _lift(a), _lift(b)))
    quad = _b("mul", 0.5, _b("mul", d, d))
    lin = _b("mul", delta, _b("sub", d, _b("mul", 0.5, delta)))
    return _reduced(sym.where(sym.compare("lt", d, sym.lift(delta)), quad, lin), reduction)


def _cumsum(x: Any, dim: Any, *a: Any, dtype: Any = None, **k: Any) -> Tensor:
    if dtype is not None:
        raise Unsupported("cumsum with dtype")
    return Tensor(sym.scan("sum", _lift(x), _dim(dim)))


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "add": _binop("add"),
    "sub": _binop("sub"),
    "subtract": _binop("sub"),
    "mul": lambda a, b, **k: Tensor(sym.binary("mul", _lift(a), _lift(b))),
    "multiply": lambda a, b, **k: Tensor(sym.binary("mul", _lift(a), _lift(b))),
    "div": lambda a, b, **k: Tensor(sym.binary("div", _lift(a), _lift(b))),
    "true_divide": lambda a, b, **k: Tensor(sym.binary("div", _lift(a), _lift(b))),
    "maximum": lambda a, b, **k: Tensor(sym.binary("max", _lift(a), _lift(b))),
    "minimum": lambda a, b, **k: Tensor(sym.binary("min", _lift(a), _lift(b))),
    "pow": lambda a, b, **k: Tensor(sym.power(_lift(a), _lift(b))),
    "exp": _unary("exp"),
    "log": _unary("log"),
    "sqrt": _unary("sqrt"),
    "rsqrt": _rsqrt,
    "tanh": _unary("tanh"),
    "abs": _unary("abs"),
    "neg": _unary("neg"),
    "negative": _unary("neg"),
    "reciprocal": _unary("reciprocal"),
    "square": lambda x, **k: Tensor(sym.binary("mul", _lift(x), _lift(x))),
    "sigmoid": _sigmoid,
    "relu": _relu,
    "relu6": lambda x, *a, **k: _hardtanh(x, 0.0, 6.0),
    "silu": _silu,
    "gelu": _gelu,
    "erf": _erf,
    "softplus": _softplus,
    "leaky_relu": _leaky_relu,
    "elu": _elu,
    "selu": _selu,
    "hardtanh": _hardtanh,
    "hardsigmoid": _hardsigmoid,
    "hardswish": _hardswish,
    "mish": _mish,
    "logsigmoid": _logsigmoid,
    "softsign": _softsign,
    "log1p": lambda x, **k: Tensor(_u("log", _b("add", 1.0, _lift(x)))),
    "expm1": lambda x, **k: Tensor(_b("sub", _u("exp", _lift(x)), 1.0)),
    "softmax": _softmax,
    "log_softmax": _log_softmax,
    "layer_norm": _layer_norm,
    "rms_norm": _rms_norm,
    "mse_loss": _mse_loss,
    "l1_loss": _l1_loss,
    "smooth_l1_loss": _smooth_l1_loss,
    "huber_loss": _huber_loss,
    "cumsum": _cumsum,
    "clamp": _clamp,
    "clip": _clamp,
    "where": _where,
    "sum": _reduce("sum"),
    "mean": _reduce("mean"),
    "amax": _reduce("max"),
    "amin": _reduce("min"),
    "tensor": _tensor,
    "as_tensor": _tensor,
}


def shim() -> types.ModuleType:
    """The stand-in `torch` (with `torch.nn.functional`) a golden imports during the trace."""
    torch = types.ModuleType("torch")
    torch.__dict__.update(FUNCTIONS)
    for name in ("float16", "bfloat16", "float32", "float64", "half", "float", "int32", "int64"):
        setattr(torch, name, DType(name))
    torch.Tensor = Tensor
    functional = types.ModuleType("torch.nn.functional")
    functional.__dict__.update(FUNCTIONS)
    torch.nn = types.SimpleNamespace(functional=functional)
    torch.no_grad = lambda: _Nothing()
    return torch


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *a: Any) -> None:
        return None


def numpy_view(pkg: OperatorPackage) -> Callable[..., Any]:
    """The golden as the tracer calls a numpy reference: `Sym`s in, `Sym`s out."""
    module_name, func = pkg.spec.reference.split(":")
    source = pkg.files[module_name.replace(".", "/") + ".py"]
    torch = shim()

    def importer(
        name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        if name != "torch" and not name.startswith("torch."):
            return builtins.__import__(name, globals, locals, fromlist, level)
        found: Any = torch  # `import torch.x as y` takes the top; `from torch.x import y`, x
        for part in name.split(".")[1:] if fromlist else ():
            found = getattr(found, part)
        return found

    scope: dict[str, Any] = {
        "__name__": f"cann_bench_golden_{pkg.spec.name}",
        "__builtins__": {**builtins.__dict__, "__import__": importer},
    }
    exec(compile(source, f"{module_name}.py", "exec"), scope)
    golden = scope[func]

    params = inspect.signature(golden).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())

    def traced(*args: Any, **attrs: Any) -> Any:
        attrs = {k: v for k, v in attrs.items() if takes_any or k in params}
        out = golden(*(_wrap(a) for a in args), **attrs)
        return tuple(_sym(o) for o in out) if isinstance(out, tuple | list) else _sym(out)

    return traced
