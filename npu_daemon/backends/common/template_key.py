"""Template tiling keys: the kernel instantiations the toolchain generates from a key header.

An op in the hicann/ops-math layout declares its kernel's template parameters in
`op_kernel/<op>_tiling_key.h` (ASCENDC_TPL_ARGS_DECL) and the combinations to build
(ASCENDC_TPL_SEL); its entry is `template <...> __global__ __aicore__ void op(...)`. The toolchain
preprocesses the header with ASCENDC_TPL_PRE (the macros turn into `@@...@@` text), builds one
kernel per selected combination and launches the one the tiling key names. Here the same text
becomes an extern "C" dispatcher, appended to the kernel source, that switches on the launch's
tiling key. The encoding follows asc-devkit's include/utils/tiling/template_argument.h (the host
side of it is in backends/common/host/include/ascendc/host_api/tiling/template_argument.h):
declared parameters in order, each taking its bit width of the key from bit 0; a UINT encodes
its index among the declared values, the other kinds their value.
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
import re
from dataclasses import dataclass

from ascend_core.cpp import code_view, device_branch
from ascend_core.package import OperatorPackage
from npu_daemon.backends.common.includes import reachable

DECL = re.compile(r"\bASCENDC_TPL_ARGS_DECL\s*\(")
_C_TYPES = {  # graph/c_types.h, numbered as ge::DataType
    "FLOAT": 0, "FLOAT16": 1, "INT8": 2, "INT32": 3, "UINT8": 4, "INT16": 6, "UINT16": 7,
    "UINT32": 8, "INT64": 9, "UINT64": 10, "DOUBLE": 11, "BOOL": 12, "COMPLEX64": 16, "BF16": 27,
    "HIFLOAT8": 34, "FLOAT8_E5M2": 35, "FLOAT8_E4M3FN": 36, "FLOAT8_E8M0": 37,
}  # fmt: skip
# The kernel-side C++ type of a dtype value, for `typename` template parameters.
_CPP_TYPES = {
    0: "float", 1: "half", 2: "int8_t", 3: "int32_t", 4: "uint8_t", 6: "int16_t", 7: "uint16_t",
    8: "uint32_t", 9: "int64_t", 10: "uint64_t", 11: "double", 12: "bool", 27: "bfloat16_t",
    34: "hifloat8_t", 35: "fp8_e5m2_t", 36: "fp8_e4m3fn_t", 37: "fp8_e8m0_t",
}  # fmt: skip
_KERNEL_TYPES = {
    0: "KERNEL_TYPE_AIV_ONLY", 1: "KERNEL_TYPE_AIC_ONLY", 4: "KERNEL_TYPE_MIX_AIV_1_0",
    5: "KERNEL_TYPE_MIX_AIC_1_0", 6: "KERNEL_TYPE_MIX_AIC_1_1", 7: "KERNEL_TYPE_MIX_AIC_1_2",
    8: "KERNEL_TYPE_AICORE", 9: "KERNEL_TYPE_VECTORCORE", 10: "KERNEL_TYPE_MIX_AICORE",
    11: "KERNEL_TYPE_MIX_VECTOR_CORE",
}  # fmt: skip
_INPUT_BIAS = 100000000  # ASCENDC_TPL_INPUT(x) / OUTPUT(x): resolved by the toolchain, not a value
# What the header may ask of the daemon's worker, which reads it in process: values of 64 bits
# (`1 << (1 << 40)` would take terabytes), and at most this many values of a UINT or instances.
_MAX_VALUES = 1 << 16
_UI_RANGE, _UI_LIST, _UI_MIX = 0, 1, 2
_ITEM = re.compile(r"@@ASCENDC_TPL_(DTYPE|DATATYPE|FORMAT|UINT|BOOL)_(DECL|SEL)_(\w+?)@@\s*=\s*\{")
_KERNEL_TYPE_SEL = re.compile(r"@@ASCENDC_TPL_KERNEL_TYPE_SEL@@\s*=\s*\{")
_TEMPLATE_ENTRY = re.compile(
    r"template\s*<([^<>]*)>\s*__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(([^)]*)\)"
)


class TemplateKeyError(ValueError):
    """The key header or the entry is not one the generator understands (a compile error)."""


@dataclass(frozen=True)
class Param:
    kind: str  # DTYPE, DATATYPE, FORMAT, UINT or BOOL
    name: str
    bits: int
    values: tuple[int, ...]  # a UINT's expanded, in declaration order (its codes are the indices)


@dataclass(frozen=True)
class Instance:
    key: int
    values: tuple[int, ...]  # one per declared parameter
    kernel_type: str | None


def _closing(text: str, open_brace: int) -> int:
    depth = 0
    for i in range(open_brace, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i
    raise TemplateKeyError("unbalanced braces in the preprocessed tiling key header")


def _split(body: str) -> list[str]:
    """Top-level comma-separated items (empty ones, from trailing commas, dropped)."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(body):
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            items.append(body[start:i])
            start = i + 1
    items.append(body[start:])
    return [s.strip() for s in items if s.strip()]


_OPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.USub: operator.neg,
}  # fmt: skip


def _value(spelled: str) -> int:
    """An integer constant expression as the preprocessor leaves it (C_DT_* names, casts, suffixes)."""
    text = re.sub(
        r"\b(?:static_cast|uint\d+_t|int\d+_t)\s*<[^<>]*>|\((?:u?int\d+_t|unsigned)\)", "", spelled
    )
    text = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", text)
    text = re.sub(r"\bC_DT_(\w+)\b", lambda m: str(_C_TYPES.get(m[1], m[0])), text)
    text = re.sub(r"\btrue\b", "1", re.sub(r"\bfalse\b", "0", text)).replace("/", "//")

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            value = node.value
        elif isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, (ast.LShift, ast.RShift)) and not 0 <= right < 64:
                raise TemplateKeyError(f"template key value '{spelled}' shifts by {right}")
            value = _OPS[type(node.op)](left, right)
        elif isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            value = _OPS[type(node.op)](ev(node.operand))
        else:
            raise TemplateKeyError(f"template key value '{spelled}' is not an integer constant")
        if not -(1 << 63) <= value < 1 << 64:
            raise TemplateKeyError(f"template key value '{spelled}' does not fit in 64 bits")
        return value

    try:
        return ev(ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, RecursionError, ZeroDivisionError):
        raise TemplateKeyError(
            f"template key value '{spelled}' is not an integer constant"
        ) from None


def _uint_values(spelled: list[int]) -> tuple[int, ...]:
    """{flag, ...} of a UINT: UI_LIST values; UI_RANGE {n, lo1, hi1, ...}; UI_MIX ranges then a list."""
    if not spelled:
        return ()
    if spelled[0] == _UI_LIST:
        return tuple(spelled[1:])
    if len(spelled) < 2 or len(spelled) < 2 + 2 * spelled[1]:
        raise TemplateKeyError("a UINT range without its count or its bounds")
    n, out = spelled[1], []
    for lo, hi in zip(spelled[2 : 2 + 2 * n : 2], spelled[3 : 3 + 2 * n : 2]):
        if len(out) + hi + 1 - lo > _MAX_VALUES:
            raise TemplateKeyError(f"a UINT of more than {_MAX_VALUES} values")
        out += range(lo, hi + 1)
    return tuple(out + (spelled[2 + 2 * n :] if spelled[0] == _UI_MIX else []))


def _params(body: str, part: str) -> dict[str, Param]:
    found = {}
    for m in _ITEM.finditer(body):
        if m[2] != part:
            continue
        values = [_value(v) for v in _split(body[m.end() : _closing(body, m.end() - 1)])]
        kind, name = m[1], m[3]
        if kind == "UINT":
            bits = values.pop(0) if part == "DECL" else 0
            found[name] = Param(kind, name, bits, _uint_values(values))
        else:
            kept = tuple(v for v in values if v < _INPUT_BIAS)
            found[name] = Param(kind, name, 1 if kind == "BOOL" else 8, kept)
    return found


def encode(declared: list[Param], values: tuple[int, ...]) -> int:
    key, shift = 0, 0
    for p, v in zip(declared, values):
        key |= (p.values.index(v) if p.kind == "UINT" else v) << shift
        shift += p.bits
    return key


def instances(preprocessed: str) -> tuple[list[Param], list[Instance]]:
    """The declared parameters and every selected combination with its key, from the header as
    the ASCENDC_TPL_PRE preprocessing leaves it."""
    decl = re.search(r"@@ASCENDC_TPL_ARGS_DECL_\w+@@\s*=\s*\{", preprocessed)
    if decl is None:
        raise TemplateKeyError("the tiling key header has no ASCENDC_TPL_ARGS_DECL")
    declared = list(
        _params(preprocessed[decl.end() : _closing(preprocessed, decl.end() - 1)], "DECL").values()
    )
    sel = re.search(r"@@ASCENDC_TPL_LISTS@@\s*=\s*\{", preprocessed)
    groups = []
    if sel is not None:
        body = preprocessed[sel.end() : _closing(preprocessed, sel.end() - 1)]
        for m in re.finditer(r"@@\{", body):
            groups.append(body[m.end() : _closing(body, m.end() - 1)])
    found: dict[int, Instance] = {}
    for group in groups or [""]:
        chosen = _params(group, "SEL")
        kt = _KERNEL_TYPE_SEL.search(group)
        kernel_type = (
            _KERNEL_TYPES.get(_value(_split(group[kt.end() : _closing(group, kt.end() - 1)])[0]))
            if kt
            else None
        )
        axes = [chosen[p.name].values if p.name in chosen else p.values for p in declared]
        if math.prod(map(len, axes)) > _MAX_VALUES:
            raise TemplateKeyError(f"ASCENDC_TPL_SEL selects more than {_MAX_VALUES} instances")
        for combo in itertools.product(*axes):
            for p, v in zip(declared, combo):
                if v not in p.values:
                    raise TemplateKeyError(
                        f"ASCENDC_TPL_SEL selects {p.name}={v}, which is not declared"
                    )
            key = encode(declared, combo)
            found.setdefault(key, Instance(key, combo, kernel_type))
    return declared, list(found.values())


def key_header(pkg: OperatorPackage) -> str | None:
    """The package header declaring the template tiling key, if the kernel entry is a template
    (and not also defined as a plain extern "C" function)."""
    kernel = device_branch(pkg.files[pkg.kernel_path])
    m = _TEMPLATE_ENTRY.search(kernel)
    # A kernel that also defines the plain extern "C" entry (hicann/ops-math roll) launches that.
    if m is None or re.search(
        rf'extern\s+"C"\s+__global__\s+(?:__aicore__\s+)?void\s+{m[2]}\s*\(', kernel
    ):
        return None
    # The one the kernel file includes, as the toolkit's build reads it, wherever it sits (ops-nn's
    # quant_batch_matmul_v3 also declares the 950 kernel's key in arch35/; gemm_v2 includes
    # mat_mul_v3's); else an op_kernel header, a key header by name first, else the package's
    # tiling header (ops-math is_finite declares its key beside the struct).
    included = sorted(p for p in reachable(pkg, pkg.kernel_path) if _declares(pkg, p))
    headers = included or [
        p for p in sorted(pkg.files) if p.startswith("op_kernel/") and _declares(pkg, p)
    ]
    preferred = [p for p in headers if p.endswith("_tiling_key.h")] or [
        p for p in headers if p == pkg.spec.tiling_header
    ]
    return (preferred or headers or [None])[0]


def _declares(pkg: OperatorPackage, path: str) -> bool:
    return path.endswith(".h") and bool(DECL.search(pkg.files[path]))


def dispatcher(pkg: OperatorPackage, preprocessed: str) -> str:
    """extern "C" `op(args)` calling `op<v...>(args)` for the instance the launch's key names; a
    key with no instance is a RUNTIME_ERROR naming it."""
    m = _TEMPLATE_ENTRY.search(device_branch(pkg.files[pkg.kernel_path]))
    assert m is not None
    tparams, entry, params = _split(m[1]), m[2], m[3]
    declared, built = instances(preprocessed)
    if len(tparams) != len(declared):
        raise TemplateKeyError(
            f"kernel {entry} has {len(tparams)} template parameters, ASCENDC_TPL_ARGS_DECL declares {len(declared)}"
        )
    names = [re.findall(r"\w+", p)[-1] for p in _split(params)]

    def spell(tparam: str, p: Param, v: int) -> str:
        if re.match(r"(typename|class)\b", tparam):
            if v not in _CPP_TYPES:
                raise TemplateKeyError(f"{p.name}: no kernel type for dtype {v}")
            return _CPP_TYPES[v]
        return ("true" if v else "false") if p.kind == "BOOL" else str(v)

    cases = [
        f"    case {i.key}ULL: {entry}<{', '.join(spell(t, p, v) for t, p, v in zip(tparams, declared, i.values))}>"
        f"({', '.join(names)}); return;"
        for i in built
    ]
    keys = ", ".join(str(i.key) for i in built)
    return "\n".join(
        [
            f'extern "C" __global__ __aicore__ void {entry}({params}) {{',
            "  const unsigned long long key = TILING_KEY_VAR;",
            "  switch (key) {",
            *cases,
            "    default:",
            f'      ASCENDC_TPL_NO_INSTANCE(key, "{keys}");',
            "  }",
            "}",
            "",
        ]
    )


def kernel_type(pkg: OperatorPackage) -> str | None:
    """The kernel type ASCENDC_TPL_KERNEL_TYPE_SEL gives (the first selection's), read from the
    key header as written: it takes ASCENDC_TPL_<TYPE> names."""
    # Each header's comments blanked by the shared scanner, linear in its text: a lazy
    # `/\*.*?\*/` here tried each unclosed `/*` again over the rest (15,000: 9 s of the worker).
    text = "\n".join(
        code_view(t)
        for p, t in pkg.files.items()
        if p.startswith("op_kernel/") and p.endswith(".h")
    )
    m = re.search(r"\bASCENDC_TPL_KERNEL_TYPE_SEL\s*\(\s*ASCENDC_TPL_(\w+)\s*\)", text)
    return f"KERNEL_TYPE_{m[1]}" if m else None
