"""PyTorch goldens (cann-bench's golden.py): called with CPU tensors, answered as numpy values.

A torch golden computes in its arguments' dtypes (fp16 stays fp16, bfloat16 is a real bfloat16
tensor), so it is handed tensors of each case dtype, not the float32 views a numpy reference
gets. List arguments (an OpDef's dynamic input, cann-bench's TensorList) are handed as Python
lists of their members. Only the sandboxed child calls this (`references`), and torch is imported
on first use: the daemon-only install has no torch and needs none for numpy references.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from ascend_core.package import Case, OperatorPackage, OperatorSpec

# Our dtype names are torch's attribute names, except complex64's pair of float32s and these:
# torch spells the E8M0 scale float8_e8m0fnu and has no HiFloat8, whose values a golden gets as
# float32 (cann-bench's goldens quantise them themselves, through en_dtypes).
TORCH_NAMES = {"float8_e8m0": "float8_e8m0fnu", "hifloat8": "float32"}
NAMES = (
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "bool",
    "complex64",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e8m0",
)


def torch_dtype(dtype: str) -> Any:
    import torch

    return getattr(torch, TORCH_NAMES.get(dtype, dtype))


def dtype_name(dtype: Any) -> str:
    """Our name of a torch dtype (ValueError for one the simulator cannot hold)."""
    name = str(dtype).removeprefix("torch.").replace("float8_e8m0fnu", "float8_e8m0")
    if name not in NAMES:
        raise ValueError(f"the golden returns {name}, which no spec dtype holds")
    return name


def _tensor(values: np.ndarray, dtype: str, device: str = "cpu") -> Any:
    import torch

    if device == "meta":
        return torch.empty(values.shape, dtype=torch_dtype(dtype), device="meta")
    tensor = torch.from_numpy(np.ascontiguousarray(values))
    return tensor.to(torch_dtype(dtype)) if tensor.dtype == torch.float32 else tensor


def _values(out: Any) -> np.ndarray:
    """A golden's output as the values a numpy reference returns (bfloat16 and float8 as float32)."""
    import torch

    if not isinstance(out, torch.Tensor):
        out = np.asarray(out)  # an ml_dtypes / en_dtypes array: its float32 values
        return out.astype(np.float32) if out.dtype.kind == "V" else out
    out = out.detach()
    if out.dtype in (torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e8m0fnu):
        out = out.float()
    return out.contiguous().numpy()


def _arguments(spec: OperatorSpec, case: Case, values: list, device: str) -> list[Any]:
    """The golden's positional tensors: one per OpDef parameter, a list parameter as a list."""
    by_name = {a.name: v for a, v in zip(spec.inputs, values)}
    args: list[Any] = []
    for _, members in spec.params(spec.inputs):
        tensors = [
            None
            if by_name[m.name] is None
            else _tensor(by_name[m.name], spec.arg_dtype(case, m.name), device)
            for m in members
        ]
        args.append(tensors if members[0].dynamic else tensors[0])
    return args


def _flat(result: Any) -> list[Any]:
    """The golden's outputs in order, list outputs unpacked into their members."""
    results = list(result) if isinstance(result, tuple | list) else [result]
    flat: list[Any] = []
    for r in results:
        flat.extend(r if isinstance(r, tuple | list) else [r])
    return flat


def accepted(fn: Callable[..., Any], attrs: dict[str, Any]) -> dict[str, Any]:
    """The attributes `fn` takes: cases also carry descriptive ones (batch_size, n_heads) that
    a golden without **kwargs does not declare."""
    params = inspect.signature(fn).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return attrs
    names = {p.name for p in params}
    return {k: v for k, v in attrs.items() if k in names}


def _call(fn: Callable[..., Any], spec: OperatorSpec, case: Case, args: list) -> list[Any]:
    """The golden called as cann-bench calls it: inputs by their proto names (a golden may list
    attributes between them), positionally where the golden names them otherwise."""
    import torch

    torch.set_num_threads(1)  # one core's worth, like a numpy reference
    names = [name for name, _ in spec.params(spec.inputs)]
    attrs = accepted(fn, spec.attr_values(case))
    with torch.no_grad():
        if set(names) <= set(accepted(fn, dict.fromkeys(names))):
            return _flat(fn(**dict(zip(names, args)), **attrs))
        return _flat(fn(*args, **attrs))


def function(pkg: OperatorPackage, name: str) -> Callable[..., Any] | None:
    """Another function of the golden's module (its `get_input`), or None."""
    module_name = pkg.spec.reference.split(":")[0]
    scope: dict[str, Any] = {"__name__": f"cann_bench_golden_{pkg.spec.name}"}
    path = module_name.replace(".", "/") + ".py"
    exec(compile(pkg.files[path], path, "exec"), scope)
    found = scope.get(name)
    return found if callable(found) else None


def tensor_parameters(fn: Callable[..., Any]) -> list[str]:
    """The golden's parameters annotated as tensors (a tensor list too), in its order: where
    cann-bench's evaluator puts what a `get_input` answers, one each, by position."""
    return [
        p.name for p in inspect.signature(fn).parameters.values() if "Tensor" in str(p.annotation)
    ]


def prepared_inputs(
    hook: Callable[..., Any],
    golden: Callable[..., Any],
    spec: OperatorSpec,
    case: Case,
    values: list,
) -> list[np.ndarray | None]:
    """cann-bench's `get_input`: the golden's own preparation of the drawn inputs (boxes put in
    order, a sparsity pattern), which replaces them for the golden and the candidate alike. It
    takes the inputs by their proto names and the attributes, and answers the golden's tensor
    parameters in the golden's order (the proto's order where the golden annotates none); an
    input it does not answer keeps its drawn values. One value per spec input comes back, of
    each input's dtype."""
    import torch

    torch.set_num_threads(1)
    args = _arguments(spec, case, values, "cpu")
    params = spec.params(spec.inputs)
    named = {name: a for (name, _), a in zip(params, args)}
    with torch.no_grad():
        answer = hook(**named, **accepted(hook, spec.attr_values(case)))
    answer = list(answer) if isinstance(answer, tuple | list) else [answer]
    slots = tensor_parameters(golden) or [name for name, _ in params]
    if any(isinstance(a, torch.Tensor) for a in answer[len(slots) :]):
        raise ValueError(f"get_input returned {len(answer)} tensors; the golden takes {len(slots)}")
    answer = answer[: len(slots)]  # attributes it echoes after them are not read, as cann-bench's
    by_name = dict(zip(slots, answer))
    out: list[np.ndarray | None] = []
    for (name, members), drawn in zip(params, args):
        given = by_name.get(name, drawn)
        for m, v in zip(members, given if members[0].dynamic else [given]):
            out.append(
                None if v is None else _values(v.to(torch_dtype(spec.arg_dtype(case, m.name))))
            )
    return out


def call(fn: Callable[..., Any], spec: OperatorSpec, case: Case, values: list) -> list[np.ndarray]:
    """The golden's outputs for the input values (one per spec input, None where absent)."""
    return [_values(o) for o in _call(fn, spec, case, _arguments(spec, case, values, "cpu"))]


def output_signature(
    fn: Callable[..., Any], spec: OperatorSpec, case: Case, values: Callable[[], list]
) -> list[tuple[list[int], str]]:
    """(shape, dtype) of each output of the golden on the case: traced on meta tensors (no
    arithmetic), or, where the golden reads values (`.item()`, a CPU tensor mixed in), run on
    the case's inputs, `values()`."""
    import torch

    try:
        outs = _call(fn, spec, case, _arguments(spec, case, values(meta=True), "meta"))
    except Exception:  # noqa: BLE001 - the golden needs real values: run it
        outs = _call(fn, spec, case, _arguments(spec, case, values(meta=False), "cpu"))
    if not all(isinstance(o, torch.Tensor) for o in outs):
        raise ValueError("the golden returns something other than tensors")
    return [(list(o.shape), dtype_name(o.dtype)) for o in outs]
