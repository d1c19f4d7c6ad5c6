"""Lowering: a checked DSL `Kernel` plus the operator spec -> a complete operator package.

The kernel is a class in the style of the suite's baselines: TPipe, one TQue per copied tensor
(depth `buffer_num`), CopyIn / Compute / CopyOut stages, DataCopyPad for rows and tails, the
big/small-block split of the work. Only queues order the pipes (EnQue/DeQue on MTE2 -> V -> MTE3)
plus one MTE2 -> S flag before the scalar unit reads copied values, so kernels are race-free by
construction. The host tiling computes the split and the tile from the UB budget, with `@tune`
markers on every schedule knob.
"""

from __future__ import annotations

from collections.abc import Iterable

from ascend_core.package import GE_DTYPES, Case, OperatorPackage, OperatorSpec
from ascend_gym.dsl import int4
from ascend_gym.dsl.columns import ColumnsMixin
from ascend_gym.dsl.compute import ComputeMixin, float_literal
from ascend_gym.dsl.lang import DslError, Kernel, Pool, Repeat, Transpose
from ascend_gym.dsl.rows import RowsMixin
from ascend_gym.dsl.spec_toml import spec_toml
from ascend_gym.dsl.tiles import TilesMixin

# Generated kernels round up with the library's AscendC::AlignUp: a helper of the same name and
# signature here would make every call ambiguous under `using namespace AscendC`, on the device too.
HELPERS = """\
// fp32 view of a tile of T: the tile itself when T is float, else `buf` after a Cast up
// (half, bfloat16_t and int32_t convert exactly; int64_t rounds to nearest beyond 2^24).
template <typename T>
__aicore__ inline LocalTensor<float> AsFloat(const LocalTensor<T>& src, const LocalTensor<float>& buf, uint32_t n) {
  if constexpr (std::is_same<T, float>::value) {
    return src.template ReinterpretCast<float>();
  } else {
    Cast(buf, src, RoundMode::CAST_NONE, n);
    return buf;
  }
}

// Where an fp32 result bound for a tile of T is computed: in the tile itself when T is float.
template <typename T>
__aicore__ inline LocalTensor<float> FloatOut(const LocalTensor<T>& dst, const LocalTensor<float>& buf) {
  if constexpr (std::is_same<T, float>::value) {
    return dst.template ReinterpretCast<float>();
  } else {
    return buf;
  }
}

// Finish a result made by FloatOut: Cast down (round to nearest even) unless T is float.
template <typename T>
__aicore__ inline void FromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n) {
  if constexpr (!std::is_same<T, float>::value) {
    Cast(dst, src, RoundMode::CAST_RINT, n);
  }
}

// Write an fp32 value computed elsewhere into a tile of T.
template <typename T>
__aicore__ inline void CopyFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n) {
  if constexpr (std::is_same<T, float>::value) {
    Adds(dst.template ReinterpretCast<float>(), src, 0.0f, n);
  } else {
    Cast(dst, src, RoundMode::CAST_RINT, n);
  }
}
"""


# fp32 view of a tile that may be one byte wide: Atlas A2 casts int8/uint8 to half only, so the
# widening goes through `via` (a bool tile is read as its uint8 bytes).
VIA_HELPER = """\
template <typename T>
__aicore__ inline LocalTensor<float> AsFloat(const LocalTensor<T>& src, const LocalTensor<half>& via,
                                             const LocalTensor<float>& buf, uint32_t n) {
  if constexpr (sizeof(T) == 1) {
    using B = typename std::conditional<std::is_same<T, bool>::value, uint8_t, T>::type;
    Cast(via, src.template ReinterpretCast<B>(), RoundMode::CAST_NONE, n);
    Cast(buf, via, RoundMode::CAST_NONE, n);
    return buf;
  } else {
    return AsFloat(src, buf, n);
  }
}

// Write an fp32 value into a tile that may be one byte wide: Atlas A2 casts int8/uint8 from half
// only, so the narrowing goes through `via` (exact for integral values; int8/uint8 saturate; a
// bool tile is written as its uint8 bytes, the 0 and 1 of a mask).
template <typename T>
__aicore__ inline void CopyFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src,
                                 const LocalTensor<half>& via, uint32_t n) {
  if constexpr (sizeof(T) == 1) {
    using B = typename std::conditional<std::is_same<T, bool>::value, uint8_t, T>::type;
    Cast(via, src, RoundMode::CAST_NONE, n);
    Cast(dst.template ReinterpretCast<B>(), via, RoundMode::CAST_RINT, n);
  } else {
    CopyFloat(dst, src, n);
  }
}
"""

# What a kernel's tensors may hold: bfloat16 and the integers compute through fp32 (the templates
# upcast them); one-byte integers and bool (its bytes, 0 or 1) widen and narrow through half.
DTYPES = ("float16", "float32", "bfloat16", "int32", "int64")
NARROW = ("int8", "uint8", "bool")


def check_operands(
    spec: OperatorSpec, inputs: list[str], output: str, where: str, message: str
) -> None:
    """A kernel that reads the spec's inputs, `inputs` in order, into its one output `output`."""
    if [a.name for a in spec.inputs] != inputs or [o.name for o in spec.outputs] != [output]:
        raise DslError(where, message)


def check_one_to_one(spec: OperatorSpec, job: Transpose | Repeat | Pool, what: str) -> None:
    """A kernel that reads the spec's one input, `job.x`, into its one output, `job.out`."""
    message = f"a {what} kernel has the spec's one input and one output"
    check_operands(spec, [job.x.name], job.out.name, job.where, message)


def check_same_dtype(
    spec: OperatorSpec, case: Case, job: Transpose | Repeat | Pool, what: str, dtypes: Iterable[str]
) -> None:
    """Such a kernel's case moves one of `dtypes` into the same dtype."""
    dx, dy = spec.arg_dtype(case, job.x.name), spec.arg_dtype(case, job.out.name)
    if dx != dy or dx not in dtypes:
        raise DslError(job.where, f"case {case.name}: a {what} of {dx} into {dy}")


def check_one_dtype(
    spec: OperatorSpec,
    case: Case,
    names: Iterable[str],
    where: str,
    what: str,
    dtypes: Iterable[str],
) -> None:
    """Such a kernel's tensors `names` share one of `dtypes` in the case."""
    found = {spec.arg_dtype(case, n) for n in names}
    if len(found) != 1 or not found <= set(dtypes):
        raise DslError(where, f"case {case.name}: {what} of {sorted(found)}")


def camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_"))


class Lowering(ComputeMixin, TilesMixin, RowsMixin, ColumnsMixin):
    """Kernel + spec -> package files."""

    # int attributes the host reads at run time (registered in the OpDef beside the floats)
    int_attrs: frozenset[str] = frozenset()

    def __init__(self, kernel: Kernel, spec: OperatorSpec):
        self.k = kernel
        self.spec = spec
        self.cls = f"Kernel{camel(spec.name)}"
        self.tiling = f"{camel(spec.name)}TilingData"
        self.sched = kernel.sched
        self._check()
        self._type_tensors()
        self.words = int4.check(kernel, spec, self.kind, self.types, self.narrow)

    # -- checks -----------------------------------------------------------------------------
    def _check(self) -> None:
        k, spec = self.k, self.spec
        if not k.loops:
            raise DslError(k.where, "the kernel has no loop")
        kinds = {lp.kind for lp in k.loops}
        if len(kinds) > 1:
            raise DslError(
                k.loops[-1].where,
                "a kernel is either tiles() loops, one rows() loop or one columns() loop",
            )
        self.kind = kinds.pop()
        totals = [n for lp in k.loops for s in lp.stores if (n := s.value).op == "total"]
        if totals and len(k.loops) > 1:
            raise DslError(totals[0].where, "a kernel with totals has one tiles() loop")
        if listed := [a.name for a in spec.outputs if a.dynamic]:
            raise DslError(k.where, f"TensorList outputs ({', '.join(listed)}) are not lowered")
        listed = [a.name for a in spec.inputs if a.dynamic]
        if listed and self.kind not in ("tiles", "rows", "columns"):
            raise DslError(
                k.where, f"TensorList inputs ({', '.join(listed)}) in a {self.kind}() kernel"
            )
        names_in = [a.name for a in spec.inputs]
        names_out = [a.name for a in spec.outputs]
        for t in k.tensors.values():
            pool = names_out if t.is_output else names_in
            if t.name not in pool:
                raise DslError(
                    t.where,
                    f"{'output' if t.is_output else 'input'} {t.name!r} is not in the spec "
                    f"({', '.join(pool)})",
                )
        # an input every case leaves out (one program of several: variants.py) is read nowhere
        left_out = {n for n in names_in if all(n in c.absent for c in spec.cases)}
        missing = [n for n in names_in + names_out if n not in k.tensors and n not in left_out]
        if missing:
            raise DslError(k.where, f"the spec's tensors {missing} are not declared")
        stored = {s.tensor.name for lp in k.loops for s in lp.stores}
        for name in names_out:
            if name not in stored:
                raise DslError(k.tensors[name].where, f"output {name!r} is never stored")
        attrs = {a.name: a for a in spec.attrs}
        for name in k.attrs:
            if name not in attrs or attrs[name].type != "float":
                raise DslError(k.where, f"attr {name!r} is not a float attribute of the spec")
        for a, allowed in [
            *((a, DTYPES + NARROW) for a in spec.inputs),
            *((a, DTYPES + NARROW) for a in spec.outputs),
        ]:
            if bad := [d for d in a.dtypes if d not in allowed]:
                raise DslError(
                    k.where, f"{a.name}: dtype {bad[0]} is not one of {'/'.join(allowed)}"
                )
        if self.kind == "rows":
            full = [t for t in k.tensors.values() if t.layout == "full" and not t.is_output]
            if not full and not any(t.layout == "full" for t in k.tensors.values() if t.is_output):
                raise DslError(k.where, "a rows() loop needs a full tensor to give the row length")

    def _type_tensors(self) -> None:
        """One kernel type per group of tensors whose dtypes agree in every case: `T` for the
        first input's group, `T1`, `T2`, ... for the others, each instantiated from a member's
        DTYPE_<ARG>. A kernel whose tensors agree has `T` alone, as before per-tensor dtypes."""
        spec = self.spec
        args = [*spec.inputs, *spec.outputs]
        groups: dict[tuple[str, ...], str] = {}
        self.types: dict[str, str] = {}
        self.type_args: list[str] = []  # the DTYPE_<ARG> macro of each type, in order
        for a in args:
            sig = tuple(spec.arg_dtype(c, a.name) for c in spec.cases) or tuple(a.dtypes)
            if sig not in groups:
                groups[sig] = f"T{len(groups)}" if groups else "T"
                # a list's members share its DTYPE_<LIST>
                self.type_args.append(f"DTYPE_{(a.dynamic or a.name).upper()}")
            self.types[a.name] = groups[sig]
        self.narrow = frozenset(
            self.types[a.name] for a in args if any(d in NARROW for d in a.dtypes)
        )

    def ty(self, name: str) -> str:
        """A tensor's C type in the kernel class."""
        return self.types[name]

    def _template(self) -> str:
        return (
            f"template <{', '.join(f'typename {t}' for t in dict.fromkeys(self.types.values()))}>"
        )

    def _type_sizes(self) -> list[str]:
        """Host lines setting `typeSize` (the element whose 32 B units align every tensor) and
        `ioSize` (the widest, for the UB budget)."""
        if len(self.type_args) == 1:
            return [
                "  uint32_t typeSize = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);",
                "  if (typeSize == 0) return ge::GRAPH_FAILED;",
            ]
        descs = [f"context->GetInputDesc({i})" for i in range(len(self.spec.inputs))]
        descs += [f"context->GetOutputDesc({i})" for i in range(len(self.spec.outputs))]
        return [
            "  // Tensors of several dtypes: 32 B units of the narrowest keep every tensor's offsets",
            "  // aligned; UB is budgeted at the widest.",
            "  uint32_t typeSize = 32, ioSize = 0;",
            f"  for (const auto* desc : {{{', '.join(descs)}}}) {{",
            "    if (desc == nullptr) continue;  // an optional input left out",
            "    uint32_t size = 0;",
            "    ge::TypeUtils::GetDataTypeLength(desc->GetDataType(), size);",
            "    if (size == 0) return ge::GRAPH_FAILED;",
            "    typeSize = std::min(typeSize, size);",
            "    ioSize = std::max(ioSize, size);",
            "  }",
        ]

    def _by_type(self, names: list[str]) -> dict[str, list[str]]:
        """Tensors grouped by their C type, in order."""
        out: dict[str, list[str]] = {}
        for n in names:
            out.setdefault(self.ty(n), []).append(n)
        return out

    def _sizeof(self, names: list[str], widest: bool = True) -> str:
        """sizeof the widest (or narrowest) of the tensors' types, as a C++ constant."""
        types = list(dict.fromkeys(self.ty(n) for n in names)) or ["T"]
        text = f"sizeof({types[0]})"
        for t in types[1:]:
            cmp = ">" if widest else "<"
            text = f"(sizeof({t}) {cmp} {text} ? sizeof({t}) : {text})"
        return text

    def _narrowest(self) -> str:
        """The narrowest tensor type: its 32 B units keep every tensor's tiles aligned."""
        return self._sizeof(list(self.types), widest=False)

    def io_size(self) -> str:
        """The host's element size for queued tiles in the UB budget."""
        return "typeSize" if len(self.type_args) == 1 else "ioSize"

    # -- package ----------------------------------------------------------------------------
    def package(
        self, dsl_source: str = "", reference: dict[str, str] | None = None
    ) -> OperatorPackage:
        """The package files; `reference` holds the spec's reference module(s), path -> text."""
        name = self.spec.name
        kernel = self.kernel_source()
        files = {
            f"op_host/{name}_tiling.h": self.tiling_header(),
            f"op_host/{name}.cpp": self.host_source(),
            f"op_kernel/{name}.cpp": kernel,
            "op.toml": spec_toml(self.spec),
        }
        if dsl_source:
            files[f"dsl/{name}.py"] = dsl_source
        files.update(reference or {})
        return OperatorPackage(spec=self.spec, files=files, uri=f"generated:{name}")

    # -- tiling data --------------------------------------------------------------------------
    def fields(self) -> list[tuple[str, str, str]]:
        out: list[tuple[str, str, str]] = []
        if self.kind == "tiles":
            out.append(("uint32_t", "tileLength", "elements per UB tile"))
            for g in range(len(self.k.loops)):
                out += [
                    ("uint32_t", f"totalLength{g}", f"elements of loop {g}'s tensors"),
                    ("uint32_t", f"formerNum{g}", "blocks that take one 32 B unit more"),
                    ("uint32_t", f"formerLength{g}", "elements per former block"),
                    ("uint32_t", f"tailLength{g}", "elements per remaining block"),
                ]
        elif self.kind == "columns":
            out += [
                ("uint32_t", "outer", "columns before the axis"),
                ("uint32_t", "axisLen", "steps along the axis"),
                ("uint32_t", "inner", "elements after the axis"),
                ("uint32_t", "chunk", "lanes of a column tile"),
                ("uint32_t", "chunks", "column tiles across inner"),
                ("uint32_t", "formerNum", "blocks that take one column tile more"),
                ("uint32_t", "formerUnits", "column tiles per former block"),
                ("uint32_t", "tailUnits", "column tiles per remaining block"),
                ("uint32_t", "rowsPerTile", "axis steps per UB tile"),
            ]
        else:
            out += [
                ("uint32_t", "cols", "elements per row"),
                ("uint32_t", "formerNum", "blocks that take one row more"),
                ("uint32_t", "formerRows", "rows per former block"),
                ("uint32_t", "tailRows", "rows per remaining block"),
                ("uint32_t", "rowsPerTile", "rows per UB tile"),
            ]
            if self.row_split():
                out.append(("uint32_t", "seg", "lanes of a row's segment (rows wider than UB)"))
            out += [
                ("uint32_t", f"{n}Len", f"values of {n}, taken in turn by the rows")
                for n in self.channels()
            ]
            if self.k.banded:
                out.append(("uint32_t", "bandRows", "rows of each matrix (triu / tril)"))
        out += [("float", a, "attr") for a in self.k.attrs]
        return out

    def tiling_header(self) -> str:
        guard = f"{self.spec.name.upper()}_TILING_H"
        width = max(len(f"TILING_DATA_FIELD_DEF({t}, {n});") for t, n, _ in self.fields())
        rows = [
            f"{f'TILING_DATA_FIELD_DEF({t}, {n});':<{width}}  // {c}" for t, n, c in self.fields()
        ]
        return "\n".join(
            [
                f"#ifndef {guard}",
                f"#define {guard}",
                "",
                '#include "register/tilingdata_base.h"',
                "",
                "namespace optiling {",
                f"BEGIN_TILING_DATA_DEF({self.tiling})",
                *rows,
                "END_TILING_DATA_DEF;",
                "",
                f"REGISTER_TILING_DATA_CLASS({self.spec.op_type}, {self.tiling})",
                "}  // namespace optiling",
                "",
                f"#endif  // {guard}",
                "",
            ]
        )

    # -- kernel -------------------------------------------------------------------------------
    def kernel_source(self) -> str:
        if self.kind == "tiles":
            body = self._tiles_kernel()
        else:
            body = self._rows_kernel() if self.kind == "rows" else self._columns_kernel()
        return "\n".join(
            [
                *self.prelude(),
                HELPERS,
                *([VIA_HELPER] if self.narrow else []),
                *([int4.HELPER] if self.words else []),
                *body,
                "",
            ]
        )

    def prelude(self) -> list[str]:
        """The kernel file's first lines: the API (and its tensor-list descriptor where an input
        is a list) and the queue depth."""
        lists = any(a.dynamic for a in self.spec.inputs)
        return [
            '#include "kernel_operator.h"',
            *(['#include "kernel_operator_list_tensor_intf.h"'] if lists else []),
            "",
            "using namespace AscendC;",
            "",
            f"constexpr int32_t BUFFER_NUM = {self.sched.buffer_num};",
            "",
        ]

    def _gm_args(self) -> list[str]:
        return [a.name for a in [*self.spec.inputs, *self.spec.outputs]]

    def _entry(self, init_args: list[str], workspace: bool = False) -> list[str]:
        # a TensorList input is one parameter, its descriptor's address; its members' addresses
        # are read from the descriptor and passed on as the tensors the class takes
        params = dict.fromkeys(a.dynamic or a.name for a in [*self.spec.inputs, *self.spec.outputs])
        gm = ", ".join(f"GM_ADDR {n}" for n in params)
        ws = ["workspace"] if workspace else []
        call = ", ".join([*self._gm_args(), *ws, *[f"tilingData.{a}" for a in init_args]])
        lists, members = {a.dynamic for a in self.spec.inputs if a.dynamic}, []
        for name in sorted(lists):
            members.append(f"  ListTensorDesc {name}List((__gm__ void*){name});")
            listed = [a.name for a in self.spec.inputs if a.dynamic == name]
            members += [
                f"  GM_ADDR {m} = (GM_ADDR){name}List.GetDataPtr<uint8_t>({i});"
                for i, m in enumerate(listed)
            ]
        return [
            f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
            "GM_ADDR tiling) {",
            "  GET_TILING_DATA(tilingData, tiling);",
            *members,
            f"  {self.cls}<{', '.join(self._instances())}> op;",
            f"  op.Init({call});",
            "  op.Process();",
            "}",
        ]

    def _instances(self) -> list[str]:
        """The kernel types' instantiations: each DTYPE_<ARG>, an int4 input's through Int4Words."""
        words = {f"DTYPE_{w.upper()}" for w in getattr(self, "words", ())}
        return [f"Int4Words<{t}>" if t in words else t for t in self.type_args]

    def bytes_of(self, ty: str, n: str) -> str:
        """C++ bytes of `n` elements of kernel type `ty` (half a byte each for int4 words)."""
        if any(self.types[w] == ty for w in getattr(self, "words", ())):
            return f"BytesOf<{ty}>({n})"
        return f"{n} * sizeof({ty})"

    def _l2(self, name: str) -> list[str]:
        if name in self.sched.l2_disable:
            return [f"    {name}Gm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // read once"]
        return []

    def channels(self) -> list[str]:
        """Inputs of the channels layout a loop reads."""
        read = {n.name for lp in self.k.loops for n in lp.loads}
        return [
            t.name for t in self.k.tensors.values() if t.layout == "channels" and t.name in read
        ]

    def _param(self, f: str) -> str:
        return f"float {f}" if f in self.k.attrs else f"uint32_t {f}"

    def _members(self, fields: list[str]) -> list[str]:
        ints = [f for f in fields if f not in self.k.attrs]
        out = [f"  uint32_t {', '.join(ints)};"]
        if self.k.attrs:
            out.append(f"  float {', '.join(self.k.attrs)};")
        for n in self.k.scalars:
            out += [f"  GlobalTensor<{self.ty(n)}> {n}Gm;", f"  float {n}Value;"]
        return out

    def _scalar_init(self) -> list[str]:
        """Init lines reading each one-element input once (a scalar GM read) into an fp32 member."""
        out = []
        for n in self.k.scalars:
            out += [
                f"    {n}Gm.SetGlobalBuffer((__gm__ {self.ty(n)}*){n}, 1);",
                f"    {n}Value = static_cast<float>({n}Gm.GetValue(0));",
            ]
        return out

    # -- host ----------------------------------------------------------------------------------
    def host_source(self) -> str:
        s = self.sched
        if not hasattr(self, "ub_tensors"):
            self.kernel_source()
        knobs = [
            f"constexpr uint32_t BLOCK_DIM = {s.block_dim};  // @tune block_dim in [1, 48] step 1",
        ]
        if self.kind == "tiles":
            n_io, n_tmp, n_mask = self.ub_tensors
            knobs += [
                f"constexpr uint32_t TILE_LENGTH = {s.tile_length};  "
                "// @tune tile_length in [256, 32768] step 256",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                f"constexpr uint32_t UB_IO = {n_io};  // queued tensors of the widest loop",
                f"constexpr uint32_t UB_TMP = {n_tmp};  // fp32 temporaries",
                f"constexpr uint32_t UB_MASK = {n_mask};  // Compare masks (one bit a lane)",
            ]
            body = self._tiles_host()
        elif self.kind == "columns":
            n_steps, n_once, n_tmp = self.columns_shape
            knobs += [
                f"constexpr uint32_t CHUNK = {s.tile_length};  "
                "// @tune chunk in [256, 16384] step 256",
                f"constexpr uint32_t ROWS_PER_TILE = {s.rows_per_tile};  "
                "// @tune rows_per_tile in [1, 512] step 1",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                f"constexpr uint32_t UB_STEP_IO = {n_steps};  // queued tensors of every step",
                f"constexpr uint32_t UB_COLUMN_IO = {n_once};  // queued results of a column",
                f"constexpr uint32_t UB_TMP = {n_tmp};  // fp32 temporaries and accumulators",
            ]
            body = self._columns_host()
        else:
            n_full, n_rowv, n_cols, n_tmp, n_slots = self.rows_shape
            knobs += [
                f"constexpr uint32_t ROWS_PER_TILE = {s.rows_per_tile};  "
                "// @tune rows_per_tile in [1, 512] step 1",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                f"constexpr uint32_t UB_ROW_IO = {n_full};  // queued tensors of a whole row",
                f"constexpr uint32_t UB_ONE_IO = {n_rowv};  // queued tensors of one value a row",
                f"constexpr uint32_t UB_COLS = {n_cols};  // tensors shared by every row",
                f"constexpr uint32_t UB_TMP = {n_tmp};  // fp32 row temporaries",
                f"constexpr uint32_t UB_SLOTS = {n_slots};  // 32 B per-row values",
            ]
            body = self._rows_host()
        attrs = self._attr_host()
        return "\n".join(
            [
                *self.host_prelude(),
                "// Generated from the tile DSL: the schedule's knobs, and what the kernel keeps in UB.",
                *knobs,
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  uint64_t ubSize = 0;",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                *self._type_sizes(),
                *body,
                *attrs,
                "",
                "  context->SetBlockDim(blockDim);",
                *self.host_end(self._workspace()),
            ]
        )

    def _attr_host(self, indent: str = "  ") -> list[str]:
        """Host lines passing the program's float attributes in the tiling data (a case's
        null keeps the spec's default)."""
        out = []
        for i, a in enumerate(self.spec.attrs):
            if a.name in self.k.attrs:
                out += [
                    f"{indent}const float* {a.name} = context->GetAttrs()->GetFloat({i});",
                    f"{indent}tiling.set_{a.name}({a.name} == nullptr ? {float_literal(a.default)} : *{a.name});",
                ]
        return out

    def host_prelude(self) -> list[str]:
        """The host file's first lines: its tiling data, the registries and the platform."""
        return [
            f'#include "{self.spec.name}_tiling.h"',
            '#include "graph/utils/type_utils.h"',
            '#include "register/op_def_registry.h"',
            '#include "tiling/platform/platform_ascendc.h"',
            "",
            "namespace optiling {",
            "",
        ]

    def host_end(self, workspace: list[str]) -> list[str]:
        """The tiling function's end (the tiling data saved, the workspace sized) and the OpDef."""
        return [
            "  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), "
            "context->GetRawTilingData()->GetCapacity());",
            "  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());",
            *workspace,
            "  return ge::GRAPH_SUCCESS;",
            "}",
            "",
            "}  // namespace optiling",
            "",
            *self._opdef(),
        ]

    def _opdef(self) -> list[str]:
        """The OpDef registration: the spec's tensors, dtypes and float attributes."""
        spec = self.spec
        opdef = []
        optional = {n for c in spec.cases for n in c.absent}
        declared: set[str] = set()
        for kind, args in (("Input", spec.inputs), ("Output", spec.outputs)):
            for a in args:
                if a.dynamic and a.dynamic in declared:
                    continue  # a list's members are one IR parameter, declared once
                declared.add(a.dynamic)
                dts = ", ".join(f"ge::{GE_DTYPES[d]}" for d in a.dtypes)
                fmts = ", ".join("ge::FORMAT_ND" for _ in a.dtypes)
                param = "DYNAMIC" if a.dynamic else "OPTIONAL" if a.name in optional else "REQUIRED"
                opdef.append(
                    f'    this->{kind}("{a.dynamic or a.name}").ParamType({param})'
                    f".DataType({{{dts}}}).Format({{{fmts}}});"
                )
        for a in spec.attrs:
            if a.type == "float":
                opdef.append(
                    f'    this->Attr("{a.name}").AttrType(OPTIONAL).Float({float_literal(a.default)});'
                )
            elif a.name in self.int_attrs:
                opdef.append(
                    f'    this->Attr("{a.name}").AttrType(OPTIONAL).Int({int(a.default)});'
                )
        return [
            "namespace ops {",
            f"class {spec.op_type} : public OpDef {{",
            " public:",
            f"  explicit {spec.op_type}(const char* name) : OpDef(name) {{",
            *opdef,
            "    this->AICore().SetTiling(optiling::TilingFunc);",
            '    this->AICore().AddConfig("ascend910b");',
            "  }",
            "};",
            f"OP_ADD({spec.op_type});",
            "}  // namespace ops",
            "",
        ]

    def _workspace(self) -> list[str]:
        if not getattr(self, "n_totals", 0):
            return ["  context->GetWorkspaceSizes(1)[0] = 0;"]
        return [
            "  // One fp32 partial per block and total, after the library's workspace.",
            "  context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize() + "
            f"({self.n_totals} * blockDim * sizeof(float) + 31) / 32 * 32;",
        ]

    def _arg_index(self, name: str) -> tuple[str, int]:
        names_in = [a.name for a in self.spec.inputs]
        if name in names_in:
            return "Input", names_in.index(name)
        return "Output", [a.name for a in self.spec.outputs].index(name)
