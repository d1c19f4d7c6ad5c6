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


def _lift(x: Any) -> Sym:
    return sym.lift(_sym(x))


def _unary(fn: str) -> Callable[..., Tensor]:
    return lambda x, *a, **k: Tensor(sym.unary(fn, _lift(x)))


def _binop(fn: str) -> Callable[..., Tensor]:
    def op(a: Any, b: Any, *, alpha: Any = 1, **k: Any) -> Tensor:
        b = _lift(b) if alpha == 1 else sym.binary("mul", _lift(b), _lift(alpha))
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


def _gelu(x: Any, approximate: str = "none", **k: Any) -> Tensor:
    if approximate != "tanh":
        raise Unsupported("gelu with erf")
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
    "silu": _silu,
    "gelu": _gelu,
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

    def traced(*args: Any, **attrs: Any) -> Any:
        out = golden(*(_wrap(a) for a in args), **attrs)
        return tuple(_sym(o) for o in out) if isinstance(out, tuple | list) else _sym(out)

    return traced
