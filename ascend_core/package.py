"""The operator package (docs/design.md 3.1): a spec plus the source files of a cann-ops style directory.

An `OperatorPackage` is the state everything passes around: the env holds one, policies rewrite
its tiling or kernel text, the daemon builds it. Its content hash identifies a candidate.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import tomllib
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ascend_core import identity

DType = Literal[
    "float16",
    "float32",
    "bfloat16",
    "int8",
    "uint8",
    "int16",
    "int32",
    "int64",
    "bool",
    "float64",
    "complex64",
    "uint16",
    "uint32",
    "uint64",
    # The one-byte floats of Ascend 950 (npu_daemon/float8.py): OCP float8, the MX scale, HiFloat8.
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e8m0",
    "hifloat8",
]

# Bytes an element of each dtype takes in GM.
DTYPE_BYTES = {
    "float16": 2,
    "bfloat16": 2,
    "float32": 4,
    "float64": 8,
    "complex64": 8,
    "int8": 1,
    "uint8": 1,
    "bool": 1,
    "int16": 2,
    "uint16": 2,
    "int32": 4,
    "uint32": 4,
    "int64": 8,
    "uint64": 8,
    "float8_e4m3fn": 1,
    "float8_e5m2": 1,
    "float8_e8m0": 1,
    "hifloat8": 1,
}

# AscendC spelling of each dtype, for the DTYPE_<ARG> macros.
ASCENDC_TYPES: dict[str, str] = {
    "float16": "half",
    "float32": "float",
    "bfloat16": "bfloat16_t",
    "int8": "int8_t",
    "uint8": "uint8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "bool": "bool",
    "float64": "double",
    "complex64": "complex64",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float8_e4m3fn": "fp8_e4m3fn_t",
    "float8_e5m2": "fp8_e5m2_t",
    "float8_e8m0": "fp8_e8m0_t",
    "hifloat8": "hifloat8_t",
}

# ge::DataType spelling of each dtype: ORIG_DTYPE_<ARG> is this enumerator (kernels test it with
# `#if ORIG_DTYPE_X == DT_BF16`), while DTYPE_<ARG> is the C type.
GE_DTYPES: dict[str, str] = {
    "float16": "DT_FLOAT16",
    "float32": "DT_FLOAT",
    "bfloat16": "DT_BF16",
    "int8": "DT_INT8",
    "uint8": "DT_UINT8",
    "int16": "DT_INT16",
    "int32": "DT_INT32",
    "int64": "DT_INT64",
    "bool": "DT_BOOL",
    "float64": "DT_DOUBLE",
    "complex64": "DT_COMPLEX64",
    "uint16": "DT_UINT16",
    "uint32": "DT_UINT32",
    "uint64": "DT_UINT64",
    "float8_e4m3fn": "DT_FLOAT8_E4M3FN",
    "float8_e5m2": "DT_FLOAT8_E5M2",
    "float8_e8m0": "DT_FLOAT8_E8M0",
    "hifloat8": "DT_HIFLOAT8",
}

# C++ a build may include whatever the suffix (the daemon's acceptance check reads every file
# the preprocessor enters), the reference and the spec.
SOURCE_SUFFIXES = (
    ".cpp", ".h", ".hpp", ".cc", ".cxx", ".c", ".hh", ".hxx", ".inl", ".tpp", ".ipp", ".inc",
    ".py", ".toml",
)  # fmt: skip


class Tolerance(BaseModel):
    """|out - ref| <= atol + rtol * |ref| must hold except for a fraction of outliers."""

    atol: float = Field(ge=0)
    rtol: float = Field(ge=0)
    max_outlier_fraction: float = Field(0.0, ge=0, le=1)


# The suite default follows CANN's precision standard: a dtype's relative threshold doubles as
# the outlier budget ("double thousandth" for fp16, "double ten-thousandth" for fp32).
SUITE_TOLERANCE: dict[str, Tolerance] = {
    "float16": Tolerance(atol=1e-3, rtol=1e-3, max_outlier_fraction=1e-3),
    "bfloat16": Tolerance(atol=4e-3, rtol=4e-3, max_outlier_fraction=4e-3),
    "float32": Tolerance(atol=1e-4, rtol=1e-4, max_outlier_fraction=1e-4),
    "complex64": Tolerance(atol=1e-4, rtol=1e-4, max_outlier_fraction=1e-4),  # per component
    "float64": Tolerance(atol=1e-8, rtol=1e-8, max_outlier_fraction=0.0),
}
EXACT = Tolerance(atol=0, rtol=0, max_outlier_fraction=0)


class ArgSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    dtypes: list[DType]
    range: tuple[float, float] = (-1.0, 1.0)  # inputs are drawn uniformly from this range
    # Outputs only. `alias`: the input whose memory the output is (in-place / ref ops): read back
    # from that input's buffer after the run. `param`: whether the kernel entry has a parameter
    # for it (an OpDef Output of the same name; false for ops whose only output is the input).
    alias: str = ""
    param: bool = True
    # Consecutive arguments with the same `dynamic` are the members, in order, of one dynamic (list)
    # input or output of that name (an OpDef `ParamType(DYNAMIC)`): the kernel gets one parameter,
    # the address of a tensor-list descriptor; the host tiling sees the members as its instances.
    dynamic: str = Field("", pattern=r"^([A-Za-z_][A-Za-z0-9_]*)?$")
    # Inputs only: the host tiling may read this input's values (an OpDef `ValueDepend`: axes,
    # paddings, sizes). The spec decides, not the candidate's OpDef, so a tiling program never sees
    # the data it could compute the operator from.
    value_depend: bool = False


class AttrSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    type: Literal["int", "float", "bool", "str", "list_int", "list_float", "list_bool"]
    default: Any


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    dtype: DType
    shapes: dict[str, list[int]]
    dtypes: dict[str, DType] = {}  # per-argument overrides of `dtype`
    attrs: dict[str, Any] = {}
    bench: bool = False
    # Explicit input values, tiled over the input's shape ("inf", "-inf", "nan" allowed), and
    # per-case draw ranges (e.g. indices into another input's leading axis).
    values: dict[str, list[float | str]] = {}
    ranges: dict[str, tuple[float, float]] = {}
    # Values set at flat indices (negative from the end) over the drawn or explicit ones: an
    # extreme put where a kernel's split of the work could lose it (the last core's share, a tail
    # handed to core 0), which a uniform draw reaches only by chance.
    points: dict[str, list[tuple[int, float | str]]] = {}
    absent: list[str] = []  # optional inputs left out: the kernel gets a null GM address
    # Inputs constant along the given axes (what an aclnn layer's BroadcastTo hands the kernel):
    # drawn for the input's shape with those axes 1, then repeated along them.
    broadcast: dict[str, list[int]] = {}
    # Inputs drawn at another shape than the one the kernel gets (`shapes`): the golden's input
    # preparation (cann-bench's `get_input`) makes the kernel's from the drawn one, as its int4
    # cases pack the values drawn as int32 [.., 8 n] eight to an int32, [.., n].
    drawn: dict[str, list[int]] = {}

    @field_validator("shapes", "drawn")
    @classmethod
    def _dims(cls, shapes: dict[str, list[int]]) -> dict[str, list[int]]:
        # A zero dim is an empty tensor (a zero-byte GM buffer): a real case of cann-bench's.
        for name, shape in shapes.items():
            if not shape or any(d < 0 for d in shape):
                raise ValueError(
                    f"shape of {name} must be non-empty with non-negative dims, got {shape}"
                )
        return shapes

    @field_validator("broadcast")
    @classmethod
    def _axes(cls, broadcast: dict[str, list[int]]) -> dict[str, list[int]]:
        for name, axes in broadcast.items():
            if not axes or min(axes) < 0 or len(set(axes)) != len(axes):
                raise ValueError(
                    f"broadcast axes of {name} must be distinct non-negative axes, got {axes}"
                )
        return broadcast


_DEFINE = re.compile(r"[A-Za-z_]\w*(=[^\n]*)?")


def _going_down(what: str, path: str) -> None:
    """A path inside the package: relative, and no `..` (nor empty or `.` parts)."""
    if path.startswith("/") or any(p in ("", ".", "..") for p in path.split("/")):
        raise ValueError(f"{what} must be a relative path going down, got {path!r}")


class OperatorSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    op_type: str = ""  # OpDef type name; defaults to the CamelCase of `name`
    kernel: str = ""  # kernel entry symbol; defaults to `name`
    level: int = Field(1, ge=1, le=5)  # our suites use 1-3; cann-bench's sets go to 5
    category: str = ""
    description: str = ""
    inputs: list[ArgSpec]
    outputs: list[ArgSpec]
    attrs: list[AttrSpec] = []
    reference: str = Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
    # "torch": a PyTorch golden (cann-bench's golden.py), called with CPU tensors of each
    # argument's dtype (npu_daemon/torch_golden.py); it always runs in the sandbox.
    reference_kind: Literal["numpy", "torch"] = "numpy"
    tolerance: Literal["suite-default"] | dict[str, Tolerance] = "suite-default"
    cases: list[Case]
    host_file: str = ""  # paths inside the package; default op_host/<name>.cpp etc.
    tiling_header: str = ""
    kernel_file: str = ""
    host_sources: list[str] = []  # further host translation units (e.g. op_host/<name>_def.cpp)
    # Files of the source tree outside the operator's directory that its sources include by a
    # relative path (`#include "../../other_op/op_host/x.h"`) are in the package under tree/, at
    # their path from the tree's root; `tree_path` is the operator directory's path from there.
    tree_path: str = ""
    # The repository build's include roots (its CMake include directories) that the sources find
    # headers through (`#include "foo.h"` from `-I<repo>/common/include`), in the build's order,
    # as paths from the package's top: the tree's root where the package has tree/ files (the
    # headers under them are tree/ files at their path), else the operator's directory.
    include_dirs: list[str] = []
    # The macro definitions the repository's build gives the tiling source's target (its CMake
    # compile definitions and usage requirements), `NAME` or `NAME=value`, passed as -D to the
    # host tiling program's compile.
    host_defines: list[str] = []

    @field_validator("host_defines")
    @classmethod
    def _definitions(cls, defines: list[str]) -> list[str]:
        for d in defines:
            if not _DEFINE.fullmatch(d):
                raise ValueError(f"a host definition must be NAME or NAME=value, got {d!r}")
        return defines

    @field_validator("tree_path")
    @classmethod
    def _inside(cls, path: str) -> str:
        if path:
            _going_down("tree_path", path)
        return path

    @field_validator("include_dirs")
    @classmethod
    def _roots_inside(cls, paths: list[str]) -> list[str]:
        for path in paths:
            if path != ".":  # (the top itself)
                _going_down("an include root", path)
        if len(set(paths)) != len(paths):
            raise ValueError(f"an include root is listed twice: {paths}")
        return paths

    @model_validator(mode="after")
    def _check(self) -> OperatorSpec:
        if not self.op_type:
            self.op_type = "".join(part.capitalize() for part in self.name.split("_"))
        if not self.kernel:
            self.kernel = self.name
        if sum(c.bench for c in self.cases) != 1:
            raise ValueError(f"{self.name}: exactly one case must have bench = true")
        if len({c.name for c in self.cases}) != len(self.cases):
            raise ValueError(f"{self.name}: case names must be unique")
        if any(a.name == "dtypes" for a in self.attrs):  # the reference's keyword (checker.py)
            raise ValueError(f"{self.name}: an attr may not be named dtypes")
        args = {a.name for a in self.inputs}
        for out in self.outputs:
            if out.alias and out.alias not in args:
                raise ValueError(
                    f"{self.name}: output {out.name} aliases unknown input {out.alias}"
                )
        for group in (self.inputs, self.outputs):
            names = [a.dynamic for a in group]
            runs = [n for i, n in enumerate(names) if n and (i == 0 or names[i - 1] != n)]
            if len(runs) != len(set(runs)):
                raise ValueError(f"{self.name}: the members of a list must be consecutive")
            if set(runs) & (args | {o.name for o in self.outputs}):
                raise ValueError(f"{self.name}: a list is named like an argument")
        if any(o.dynamic and (o.alias or not o.param) for o in self.outputs):
            raise ValueError(f"{self.name}: a list output member cannot alias an input")
        if any(o.value_depend for o in self.outputs):
            raise ValueError(f"{self.name}: only an input can be value_depend")
        for case in self.cases:
            named = (
                set(case.values)
                | set(case.ranges)
                | set(case.points)
                | set(case.absent)
                | set(case.broadcast)
            )
            unknown = named - args
            if unknown:
                raise ValueError(
                    f"{self.name}: case {case.name} names unknown inputs {sorted(unknown)}"
                )
            if any(a.dynamic for a in self.inputs if a.name in case.absent):
                raise ValueError(f"{self.name}: case {case.name} leaves out a list member")
            missing = args - set(case.absent) - set(case.shapes)
            if missing:
                raise ValueError(
                    f"{self.name}: case {case.name} has no shape for {sorted(missing)}"
                )
            for arg in self.inputs + self.outputs:  # a dtype no kernel build was declared for
                dtype = self.arg_dtype(case, arg.name)
                if arg.name not in case.absent and dtype not in arg.dtypes:
                    raise ValueError(
                        f"{self.name}: case {case.name} gives {arg.name} dtype {dtype}, which "
                        f"the spec does not declare for it ({', '.join(arg.dtypes)})"
                    )
            for name, points in case.points.items():
                if name in case.absent or name in case.broadcast:
                    raise ValueError(
                        f"{self.name}: case {case.name} sets points of {name}, which is "
                        + ("absent" if name in case.absent else "broadcast")
                    )
                size = math.prod(case.shapes[name])
                if any(not -size <= i < size for i, _ in points):
                    raise ValueError(
                        f"{self.name}: case {case.name} sets points of {name} outside its "
                        f"{size} elements"
                    )
            for name, axes in case.broadcast.items():
                if name in case.absent or name in case.values:
                    raise ValueError(
                        f"{self.name}: case {case.name} broadcasts {name}, which is "
                        + ("absent" if name in case.absent else "given explicit values")
                    )
                rank = len(case.shapes[name])
                if max(axes) >= rank:
                    raise ValueError(
                        f"{self.name}: case {case.name} broadcasts {name} along axes {axes}, "
                        f"but its shape has {rank} axes"
                    )
        return self

    @property
    def bench_case(self) -> Case:
        return next(c for c in self.cases if c.bench)

    def case(self, name: str) -> Case:
        for c in self.cases:
            if c.name == name:
                return c
        raise KeyError(f"{self.name} has no case {name!r}; cases: {[c.name for c in self.cases]}")

    def tolerance_for(self, dtype: str) -> Tolerance:
        if isinstance(self.tolerance, dict) and dtype in self.tolerance:
            return self.tolerance[dtype]
        return SUITE_TOLERANCE.get(dtype, EXACT)

    def arg_dtype(self, case: Case, arg: str) -> str:
        return case.dtypes.get(arg, case.dtype)

    def arg_shape(self, case: Case, arg: str) -> list[int]:
        """Outputs without an explicit shape take their aliased input's, else the first input's."""
        if arg in case.shapes:  # (operators without inputs, or with absent ones, name theirs)
            return case.shapes[arg]
        alias = next((o.alias for o in self.outputs if o.name == arg and o.alias), "")
        return case.shapes[alias or self.inputs[0].name]

    def draw_shape(self, case: Case, arg: str) -> list[int]:
        """The shape an input is drawn at: its `drawn` one where its preparation reshapes it."""
        return case.drawn.get(arg) or self.arg_shape(case, arg)

    def params(self, group: list[ArgSpec]) -> list[tuple[str, list[ArgSpec]]]:
        """The OpDef's inputs or outputs: (name, members) per parameter, a plain argument being
        its own single member."""
        found: list[tuple[str, list[ArgSpec]]] = []
        for arg in group:
            if arg.dynamic and found and found[-1][0] == arg.dynamic:
                found[-1][1].append(arg)
            else:
                found.append((arg.dynamic or arg.name, [arg]))
        return found

    def attr_values(self, case: Case) -> dict[str, Any]:
        return {a.name: case.attrs.get(a.name, a.default) for a in self.attrs}

    def output_bytes(self, case: Case) -> int:
        return sum(
            math.prod(self.arg_shape(case, a.name)) * DTYPE_BYTES[self.arg_dtype(case, a.name)]
            for a in self.outputs
        )

    def elementwise(self, case: Case) -> bool:
        """Whether its reference can be computed a piece of the case at a time: an element-wise
        operator whose inputs and outputs all have one shape in the case (nothing broadcast or
        reduced), so the reference of any flat range of the inputs is that range of its outputs."""
        args = [a.name for a in [*self.inputs, *self.outputs] if a.name not in case.absent]
        return (
            self.category == "elementwise"
            and len({tuple(self.arg_shape(case, a)) for a in args}) == 1
        )


class OperatorPackage(BaseModel):
    """A spec plus source files (path relative to the package root -> text)."""

    spec: OperatorSpec
    files: dict[str, str]
    uri: str = ""  # where it came from, e.g. op://ascend-ops-v1/level1/add

    @property
    def host_path(self) -> str:
        return self.spec.host_file or self._find("op_host", f"{self.spec.name}.cpp", ".cpp")

    @property
    def tiling_header_path(self) -> str:
        return self.spec.tiling_header or self._find(
            "op_host", f"{self.spec.name}_tiling.h", "_tiling.h"
        )

    @property
    def kernel_path(self) -> str:
        return self.spec.kernel_file or self._find("op_kernel", f"{self.spec.name}.cpp", ".cpp")

    @property
    def tiling_source(self) -> str:
        return self.files[self.host_path]

    @property
    def kernel_source(self) -> str:
        return self.files[self.kernel_path]

    def _find(self, folder: str, preferred: str, suffix: str) -> str:
        exact = f"{folder}/{preferred}"
        if exact in self.files:
            return exact
        found = sorted(p for p in self.files if p.startswith(folder + "/") and p.endswith(suffix))
        if len(found) != 1:
            raise ValueError(
                f"{self.spec.name}: cannot tell which {folder}/*{suffix} to use: {found}"
            )
        return found[0]

    def with_sources(
        self, tiling: str | None = None, kernel: str | None = None, tiling_header: str | None = None
    ) -> OperatorPackage:
        """A new package with the host tiling program, kernel and/or tiling header replaced
        (empty = keep)."""
        files = dict(self.files)
        if tiling:
            files[self.host_path] = tiling
        if kernel:
            files[self.kernel_path] = kernel
        if tiling_header:
            files[self.tiling_header_path] = tiling_header
        return self.model_copy(update={"files": files})

    def content_hash(self) -> str:
        """sha256 over the canonical spec and the sources: identifies a candidate everywhere."""
        return identity.digest(
            "package",
            json.dumps(_identity(self.spec.model_dump(mode="json")), sort_keys=True),
            [[path, self.files[path]] for path in sorted(self.files)],
        )

    def write_tree(self, workdir: Path) -> Path:
        """Write the package for a build and return the operator's directory: `workdir` itself,
        or, for a package with tree/ files, `workdir/<tree_path>` with the tree/ files around it
        at their places in the source tree, so the relative includes resolve as in the tree."""
        if not self.spec.tree_path:
            self.write_to(workdir)
            return workdir
        tree = {p.removeprefix("tree/"): t for p, t in self.files.items() if p.startswith("tree/")}
        own = {p: t for p, t in self.files.items() if not p.startswith("tree/")}
        root = workdir / self.spec.tree_path
        self.model_copy(update={"files": tree}).write_to(workdir)
        self.model_copy(update={"files": own}).write_to(root)
        return root

    def write_to(self, root: Path) -> None:
        for rel, text in self.files.items():
            target = (root / rel).resolve()
            if not target.is_relative_to(root.resolve()):
                raise ValueError(f"package path {rel!r} escapes the package directory")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)

    def reference(self) -> Callable[..., Any]:
        """The numpy reference function, loaded from the package's own module when it has one."""
        module_name, func = self.spec.reference.split(":")
        source_path = module_name.replace(".", "/") + ".py"
        if source_path in self.files:
            module = types.ModuleType(f"ascend_gym_ref_{self.spec.name}")
            module.__dict__["np"] = np
            exec(compile(self.files[source_path], source_path, "exec"), module.__dict__)
        else:
            module = importlib.import_module(module_name)
        return getattr(module, func)


# Fields added to the format after packages were first hashed: left out of the hash while at
# their default, so every earlier package keeps its identity (and its cached results).
_LATER_SPEC_FIELDS = {
    "host_sources": [],
    "tree_path": "",
    "include_dirs": [],
    "host_defines": [],
    "reference_kind": "numpy",
}
_LATER_ARG_FIELDS = {"alias": "", "param": True, "dynamic": "", "value_depend": False}
_LATER_CASE_FIELDS = {"values": {}, "ranges": {}, "points": {}, "absent": [], "broadcast": {}}


def _drop(d: dict[str, Any], later: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if later.get(k, object()) != v}


def _identity(spec: dict[str, Any]) -> dict[str, Any]:
    spec = _drop(spec, _LATER_SPEC_FIELDS)
    for group in ("inputs", "outputs"):
        spec[group] = [_drop(a, _LATER_ARG_FIELDS) for a in spec[group]]
    spec["cases"] = [_drop(c, _LATER_CASE_FIELDS) for c in spec["cases"]]
    return spec


class OutsidePackage(ValueError):
    """A file of a package directory whose real path lies outside the directory (a link)."""


def package_text(path: Path, within: Path) -> str:
    """The text of `path`, a file of the package directory `within` (a real path), read through
    its real path: a link leading out of the directory would carry that file's text to the
    daemon, whose compile messages quote what a kernel includes."""
    real = path.resolve()
    if not real.is_relative_to(within):
        raise OutsidePackage(f"{path}: its real path {real} is outside the package {within}")
    return real.read_text(errors="replace")


def load_package(
    path: str | Path, spec_file: str | Path | None = None, uri: str = ""
) -> OperatorPackage:
    """Read an operator directory (op.toml, op_host/, op_kernel/, reference.py) into memory."""
    root = Path(path)
    spec_path = Path(spec_file) if spec_file else root / "op.toml"
    if not spec_path.is_file():
        raise FileNotFoundError(f"no op spec at {spec_path}")
    spec = OperatorSpec.model_validate(tomllib.loads(spec_path.read_text()))
    within = root.resolve()
    files = {
        p.relative_to(root).as_posix(): package_text(p, within)
        for p in sorted(root.rglob("*"))
        if p.is_file()
        and p.suffix in SOURCE_SUFFIXES
        and p.name != "op.toml"
        and "__pycache__" not in p.parts
        and p.relative_to(root).parts[0]
        != "expert"  # a suite op's expert overlay is not part of its baseline
    }
    return OperatorPackage(spec=spec, files=files, uri=uri or str(root))


_IDENT = re.compile(r"[^A-Za-z0-9_]")


def dtype_macros(spec: OperatorSpec, case: Case) -> dict[str, str]:
    """DTYPE_<ARG> / ORIG_DTYPE_<ARG> / FORMAT_<ARG> macros of one case (a list's are its first
    member's)."""
    macros: dict[str, str] = {}
    for arg in [*spec.inputs, *spec.outputs]:
        dtype = spec.arg_dtype(case, arg.name)
        for name in (arg.name, arg.dynamic) if arg.dynamic else (arg.name,):
            upper = _IDENT.sub("_", name).upper()
            macros.setdefault(f"DTYPE_{upper}", ASCENDC_TYPES[dtype])
            macros.setdefault(f"ORIG_DTYPE_{upper}", GE_DTYPES[dtype])
            macros.setdefault(f"FORMAT_{upper}", "FORMAT_ND")
    return macros
