"""The launch contract: what a backend hands the C++ side for one shape case.

One typed spec, written as the line format that `ascendc_sim/launch_spec.h` (backends/common/host)
parses, for both the sim harness (tiling and kernel) and the cann tiling runner (tiling only).
Lines are `key value...`:

    op_type T | kernel NAME | tiling_so PATH | kernel_so PATH | kernel_type KERNEL_TYPE_...
    kernel_so_aic PATH   (the AIC cores' library when the kernel is built per core type; kernel_so:
                  every core's or the AIV cores')
    kernel_wasm PATH | kernel_wasm_aic PATH   (the guest engine's modules: every core's or the
                  AIV cores', and the AIC cores' when the kernel is built per core type)
    result PATH | result_fd N | tiling_out PATH | param K V | timing_only | sample_blocks
    l2_resident | launch_repeated   (timing protocol: L2 holds the launch before's data, else
                  flushed; a repeated launch's head, else a first launch's)
    trace_json PATH   (the model's chrome://tracing timeline) | noise_seed N (the model's noise)
    input|output NAME DTYPE NDIM D0.. PATH [alias IN] [noparam] [absent] [list NAME] [value_depend]
    (value_depend: the spec's mark, the only one the launcher answers the tiling's value requests by)
    attr NAME KIND VALUE...   (KIND int|float|bool|str|list_int|list_float|list_bool; list: N V1..VN)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from ascend_core.package import Case, OperatorSpec

AttrKind = Literal["int", "float", "bool", "str", "list_int", "list_float", "list_bool"]


class TensorArg(BaseModel):
    """One input or output: its GM bytes come from (inputs) or go to (outputs) `path`; "-" none."""

    name: str
    dtype: str
    shape: list[int]
    path: str = "-"
    alias: str = ""  # output: the input whose buffer it is (in-place ops)
    param: bool = True  # output with an alias: also passed to the kernel as its own parameter
    absent: bool = False  # input: an optional input left out (null GM address)
    member_of: str = ""  # a member of this dynamic (list) input or output
    value_depend: bool = False  # input: the tiling may read its values (the spec's mark)

    def words(self, kind: Literal["input", "output"]) -> list[str]:
        words = [
            kind,
            self.name,
            self.dtype,
            str(len(self.shape)),
            *map(str, self.shape),
            self.path,
        ]
        words += ["alias", self.alias] if self.alias else []
        words += [] if self.param else ["noparam"]
        words += ["absent"] if self.absent else []
        words += ["list", self.member_of] if self.member_of else []
        return words + (["value_depend"] if self.value_depend else [])


class Attr(BaseModel):
    name: str
    kind: AttrKind
    value: Any

    def words(self) -> list[str]:
        v = self.value
        if self.kind == "str" and (not str(v) or any(c.isspace() for c in str(v))):
            raise ValueError(f"string attr {self.name} must be one non-empty word")
        if self.kind == "list_int":
            values = [str(int(x)) for x in v]
        elif self.kind == "list_float":
            values = [repr(float(x)) for x in v]
        elif self.kind == "list_bool":
            values = [str(int(bool(x))) for x in v]
        else:
            return ["attr", self.name, self.kind, str(int(bool(v)) if self.kind == "bool" else v)]
        return ["attr", self.name, self.kind, str(len(values)), *values]


class LaunchSpec(BaseModel):
    op_type: str
    tiling_so: Path
    kernel: str = ""  # the kernel entry (empty: a tiling-only run)
    kernel_so: Path | None = None
    # The AIC cores' library when the kernel is built per core type (kernel_so: the AIV cores').
    kernel_so_aic: Path | None = None
    kernel_wasm: Path | None = None  # the guest engine's kernel module, in place of kernel_so
    # The AIC cores' module when the kernel is built per core type (kernel_wasm: the AIV cores').
    kernel_wasm_aic: Path | None = None
    kernel_type: str = ""  # KERNEL_TYPE_*: which cores run
    result_fd: int | None = None  # the result's destination: an inherited descriptor...
    result: Path | None = None  # ... or a file
    tiling_out: Path | None = None  # tiling-only: where the raw tiling bytes go
    params: dict[str, str] = {}  # SoC preset and model constants
    timing_only: bool = False  # no output is read: GM is mapped lazily
    sample_blocks: bool = False  # representative-block timing
    l2_resident: bool = False  # timing protocol (EvalRequest.timing_protocol): its data axis ...
    launch_repeated: bool = False  # ... and its launch axis
    trace_json: Path | None = None  # the performance model's timeline, for a look at one launch
    noise_seed: int = 0  # seeds the model's measurement noise (the SoC's noise_sigma, 0 by default)
    inputs: list[TensorArg] = []
    outputs: list[TensorArg] = []
    attrs: list[Attr] = []

    def text(self) -> str:
        lines = [f"op_type {self.op_type}"]
        lines += [f"kernel {self.kernel}"] if self.kernel else []
        lines.append(f"tiling_so {self.tiling_so}")
        lines += [f"kernel_so {self.kernel_so}"] if self.kernel_so else []
        lines += [f"kernel_so_aic {self.kernel_so_aic}"] if self.kernel_so_aic else []
        lines += [f"kernel_wasm {self.kernel_wasm}"] if self.kernel_wasm else []
        lines += [f"kernel_wasm_aic {self.kernel_wasm_aic}"] if self.kernel_wasm_aic else []
        lines += [f"kernel_type {self.kernel_type}"] if self.kernel_type else []
        lines += [f"tiling_out {self.tiling_out}"] if self.tiling_out else []
        lines += [f"result_fd {self.result_fd}"] if self.result_fd is not None else []
        lines += [f"result {self.result}"] if self.result else []
        lines += [f"param {k} {v}" for k, v in self.params.items()]
        lines += ["timing_only"] if self.timing_only else []
        lines += ["sample_blocks"] if self.sample_blocks else []
        lines += ["l2_resident"] if self.l2_resident else []
        lines += ["launch_repeated"] if self.launch_repeated else []
        lines += [f"trace_json {self.trace_json}"] if self.trace_json else []
        lines += [f"noise_seed {self.noise_seed}"] if self.noise_seed else []
        lines += [" ".join(t.words("input")) for t in self.inputs]
        lines += [" ".join(t.words("output")) for t in self.outputs]
        lines += [" ".join(a.words()) for a in self.attrs]
        return "\n".join(lines) + "\n"

    def write(self, path: Path) -> Path:
        path.write_text(self.text())
        return path


def case_tensors(
    spec: OperatorSpec,
    case: Case,
    input_path: Callable[[str], str] = lambda name: "-",
    output_path: Callable[[str], str] = lambda name: "-",
) -> tuple[list[TensorArg], list[TensorArg]]:
    """The operator's inputs and outputs at `case`, with the files their bytes live in."""

    def arg(name: str, path: str, **extra: Any) -> TensorArg:
        shape = spec.arg_shape(case, name)
        return TensorArg(
            name=name, dtype=spec.arg_dtype(case, name), shape=shape, path=path, **extra
        )

    inputs = [
        TensorArg(name=a.name, dtype=spec.arg_dtype(case, a.name), shape=[], absent=True)
        if a.name in case.absent
        else arg(a.name, input_path(a.name), member_of=a.dynamic, value_depend=a.value_depend)
        for a in spec.inputs
    ]
    outputs = [
        arg(
            o.name,
            output_path(o.name),
            alias=o.alias,
            param=o.param or not o.alias,
            member_of=o.dynamic,
        )
        for o in spec.outputs
    ]
    return inputs, outputs


def case_attrs(spec: OperatorSpec, case: Case) -> list[Attr]:
    values = spec.attr_values(case)
    return [Attr(name=a.name, kind=a.type, value=values[a.name]) for a in spec.attrs]
