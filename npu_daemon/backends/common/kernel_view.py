"""How a kernel sees its op: the pieces the real toolchain generates around a kernel compile.

A custom-op build of the real toolchain gives the kernel the TilingData structs of the host tiling
header (and nothing else of it), compiles one kernel per tiling key with that key's registered
TilingData, and defines DTYPE_<ARG> / ORIG_DTYPE_<ARG> / FORMAT_<ARG> with ge::DataType and
ge::Format values. Both backends reproduce these: the sim backend for its g++ compile, the cann
backend for the kernel-launch project (which has no msopgen step to generate them). The last
section holds what a single host g++ compile against the emulation headers adds to them.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

from ascend_core.cpp import code_view, device_branch
from ascend_core.package import OperatorPackage
from npu_daemon.backends.common import template_key
from npu_daemon.backends.common.includes import INCLUDE, reachable, resolve_include

# ge::DataType / ge::Format values, spelled once in the simulator's kernel header.
GE_ENUMS_HEADER = (
    Path(__file__).resolve().parents[1] / "sim" / "include" / "ascendc_sim" / "kernel_enums.h"
)
TILING_NAMESPACE = "ascend_gym_tiling"
_TILING_STRUCT = re.compile(r"BEGIN_TILING_DATA_DEF\(\s*(\w+)\s*\)")
_REGISTRATION = re.compile(r"REGISTER_TILING_DATA_CLASS\(\s*(\w+)\s*,\s*([\w:]+)\s*\)")
_KEYED_OP = re.compile(r"(\w+?)_(\d+)")


def ge_enum_defines() -> list[str]:
    """`#define DT_FLOAT 0`... guarded, for a compile where the toolchain may already define them."""
    found = re.findall(r"^#define ((?:DT|FORMAT)_\w+) (\d+)$", GE_ENUMS_HEADER.read_text(), re.M)
    return [f"#ifndef {name}\n#define {name} {value}\n#endif" for name, value in found]


def includes_tiling_header(pkg: OperatorPackage) -> bool:
    """The kernel includes the tiling header itself (the standard C++ struct form): it sees it as
    written. An include of another file of the same name (a kernel header named like the host's
    tiling header) is not it."""
    header = pkg.tiling_header_path
    return any(
        resolve_include(pkg, p, spelled) == header
        for p, t in pkg.files.items()
        if p.startswith("op_kernel/")
        for spelled in INCLUDE.findall(t)
    )


def tiling_headers(pkg: OperatorPackage) -> list[str]:
    """The tiling header and the package headers it includes, wherever they sit (cann-ops
    gelu_quant keeps its TilingData in a `<op>_tiling_def.h` that `<op>_tiling.h` includes; an
    ops-nn A2 tiling header includes its struct from `../../op_kernel/arch35/`)."""
    return reachable(pkg, pkg.tiling_header_path)


def view_sources(pkg: OperatorPackage) -> list[list[str]]:
    """(path, text) digest parts of the files the kernel's tiling view is derived from
    (`tiling_headers`, followed by their text: an include the compile skips, under `#if 0`,
    still names a struct the view exports)."""
    return [[p, pkg.files[p]] for p in tiling_headers(pkg)]


def tiling_header_text(pkg: OperatorPackage) -> str:
    """The text of `tiling_headers`, joined."""
    return "\n".join(pkg.files[p] for p in tiling_headers(pkg))


def spelling(pkg: OperatorPackage, path: str) -> str:
    """How a compile in a build directory of the operator's (`build.build_dir`) names the package
    file `path`: by its package path, or for a tree/ file by its path up from there to the tree's
    root, where the package wrote it."""
    if not path.startswith("tree/"):
        return path
    up = "../" * (1 + len(Path(pkg.spec.tree_path).parts))
    return up + path.removeprefix("tree/")


def tiling_view(pkg: OperatorPackage, header: list[str]) -> list[str]:
    """Lines that give the kernel the tiling structs and nothing else of the host header.

    `header` is the header's text (or an include of it) as this compile can take it. It goes into
    a namespace of its own and only the TilingData names are re-exported, so other host
    declarations (constants, helper structs) never reach the kernel, which may reuse their names.
    """
    if includes_tiling_header(pkg):
        return []
    text = tiling_header_text(pkg)
    own = "\n".join(pkg.files[p] for p in kernel_own_headers(pkg))  # at global scope
    structs = sorted(set(_TILING_STRUCT.findall(text)) - set(_TILING_STRUCT.findall(own)))
    ns = TILING_NAMESPACE
    # A namespace the wrapped headers open (ops-nn's `Ops`, and `Ops::NN` inside it) hides the
    # global one of that name, which the toolkit's headers declare, from their names inside the
    # wrapper (`Ops::NN::Optiling::...`, `ge::` enumerators): the wrapped one, at every level of
    # the nesting, also looks into the global one.
    opened = [n for n in opened_namespaces(text) if n.partition("::")[0] != "optiling"]
    return [
        *(f"namespace {n} {{}}" for n in opened),
        f"namespace {ns} {{",
        *(f"namespace {n} {{ using namespace ::{n}; }}" for n in opened),
        *host_definitions(pkg, header),
        "namespace optiling {}",
        "using namespace optiling;",
        "}",
        f"namespace optiling {{ using namespace ::{ns}::optiling; }}",
        *(f"using {ns}::{s};" for s in structs),
        *(f"#undef {guard}" for guard in shared_guards(pkg)),
    ]


def opened_namespaces(text: str) -> list[str]:
    """The full paths (`Ops`, `Ops::NN`) of the named namespaces `text` opens, nested by blocks
    (`namespace Ops { namespace NN {`) or by name (`namespace Ops::NN {`), outer before inner."""
    enclosing, found = [""], set()
    for m in _NAMESPACE_OR_BRACE.finditer(code_view(text)):
        if m[0] == "}":
            enclosing = enclosing[:-1] or [""]
            continue
        path = enclosing[-1]
        for name in m[1].split("::") if m[1] else []:
            path = f"{path}::{name.strip()}" if path else name.strip()
            found.add(path)
        enclosing.append(path)
    return sorted(found, key=lambda p: (p.count("::"), p))


_NAMESPACE_OR_BRACE = re.compile(r"\bnamespace\s+(\w+(?:\s*::\s*\w+)*)\s*\{|[{}]")


def host_definitions(pkg: OperatorPackage, lines: list[str]) -> list[str]:
    """`lines` under the definitions the repository's build gives the host tiling compile
    (spec.host_defines: its headers' log macros, ...), each as `-D` sets it, the kernel's own
    macro of that name saved before and restored after."""
    names = [d.partition("=")[0] for d in pkg.spec.host_defines]
    values = [v if eq else "1" for _, eq, v in (d.partition("=") for d in pkg.spec.host_defines)]
    return [
        *(f'#pragma push_macro("{n}")\n#undef {n}\n#define {n} {v}' for n, v in zip(names, values)),
        *lines,
        *(f'#undef {n}\n#pragma pop_macro("{n}")' for n in reversed(names)),
    ]


_GUARD = re.compile(r"^[ \t]*#[ \t]*ifndef[ \t]+(\w+)[ \t]*\n[ \t]*#[ \t]*define[ \t]+\1\b", re.M)


def shared_guards(pkg: OperatorPackage) -> list[str]:
    """Include guards of the tiling view's headers that a kernel-side header uses too (cann-ops
    ctc_loss_v3_grad's op_host/ and op_kernel/ headers both guard with CTC_LOSS_V3_GRAD_H_): the
    device build never shows the kernel the host header, so the guard must not hide the kernel's."""
    headers = tiling_headers(pkg)
    kernel_side = {
        g
        for p, t in pkg.files.items()
        if p not in headers and not p.startswith("op_host/")
        for g in _GUARD.findall(t)
    }
    return sorted({g for p in headers for g in _GUARD.findall(pkg.files[p])} & kernel_side)


def registered_tiling(pkg: OperatorPackage) -> tuple[str | None, dict[int, str]]:
    """The TilingData registered for the op (REGISTER_TILING_DATA_CLASS(Op, S)) and per tiling key (Op_k)."""
    default, keyed = None, {}
    for op, cls in _REGISTRATION.findall(tiling_header_text(pkg)):
        if op == pkg.spec.op_type:
            default = cls
        elif (m := _KEYED_OP.fullmatch(op)) and m[1] == pkg.spec.op_type:
            keyed[int(m[2])] = cls
    return default, keyed


_KEY_BRANCH = re.compile(
    r"\bif\s*(?:constexpr\s*)?\(((?:\s*(?:\|\|)?\s*TILING_KEY_IS\(\s*\d+\s*\))+)\s*\)\s*\{"
)
_KEY_NUMBER = re.compile(r"TILING_KEY_IS\(\s*(\d+)")
_GET_TILING_DATA = re.compile(r"\bGET_TILING_DATA\s*\(")


def _block_end(text: str, open_brace: int) -> int:
    """Index of the `}` closing the block that opens at `open_brace` (strings and comments skipped)."""
    depth, i, n = 0, open_brace, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 1
        elif c in "\"'":
            i += 1
            while i < n and text[i] != c:
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


def bind_keyed_tiling(source: str, structs: dict[int, str]) -> str:
    """Inside `if (TILING_KEY_IS(k)) {...}`, make GET_TILING_DATA read the struct registered for key k.

    The real toolchain compiles one kernel per tiling key, so in the branch of key k the generated
    GET_TILING_DATA yields `REGISTER_TILING_DATA_CLASS(Op_k, S)`'s S. Line numbers are unchanged.
    """
    out, pos = [], 0
    for m in _KEY_BRANCH.finditer(source):
        if m.start() < pos:
            continue  # inside a branch already rewritten
        end = _block_end(source, m.end() - 1)
        chosen = {structs.get(int(k)) for k in _KEY_NUMBER.findall(m.group(1))}
        body = source[m.end() : end]
        if len(chosen) == 1 and None not in chosen:
            body = _GET_TILING_DATA.sub(f"GET_TILING_DATA_WITH_STRUCT({chosen.pop()}, ", body)
        out += [source[pos : m.end()], body]
        pos = end
    return "".join(out) + source[pos:]


_LAUNCH = re.compile(r"\b(\w+(?:\s*<[^<>;]*>)?)\s*<<<[^;]*?>>>\s*\(")


def without_launches(source: str, launch: str = r"\1(") -> str:
    """The source with its host launch statements (`op<<<blockDim, l2ctrl, stream>>>(args)`, in
    the `op_do` wrappers kernel files carry for the kernel-launch flow) made plain calls (or
    `launch`, the replacement of `op<<<...>>>(`): the device compiler parses the chevrons, g++
    does not, and the harness never calls the wrappers."""
    return _LAUNCH.sub(launch, source)


def keyed_tiling_source(
    pkg: OperatorPackage, workdir: Path, tag: str, host_gxx: bool = False, launch: str = r"\1("
) -> str:
    """The kernel file to compile: the package's own, or a copy with per-key TilingData bound
    (and, for a host compile, host launch statements made calls, or `launch`).

    The copy sits beside the original (so relative includes resolve alike) under a name carrying
    `tag`, so that concurrent compiles of the same package never share it."""
    structs = registered_tiling(pkg)[1]
    source = pkg.files[pkg.kernel_path]
    bound = bind_keyed_tiling(source, structs) if structs else source
    bound = without_launches(bound, launch) if host_gxx else bound
    if bound == source:
        return pkg.kernel_path
    path = Path(pkg.kernel_path)
    keyed = path.with_name(f"{path.stem}.keyed-{tag}{path.suffix}")
    (workdir / keyed).write_text(f'#line 1 "{pkg.kernel_path}"\n' + bound)
    return keyed.as_posix()


# -- The host g++ compile (the simulator's kernels, and the host tiling of both backends) --------


# Global names of the emulation headers a kernel entry may share: CANN's `namespace matmul =
# AscendC` of lib/matmul_intf.h (ascendc_sim/matmul.h leaves the alias out when `matmul` is a macro).
EMULATION_GLOBALS = frozenset({"matmul"})


def entry_renames(entry: str) -> tuple[list[str], list[str]]:
    """Prelude lines and link flags that keep a kernel entry named like a C library function, or
    like a global name of the emulation headers (EMULATION_GLOBALS), working.

    Real ops are often named after math functions (atanh, exp, abs, select); on the host g++ those
    names are already extern "C" declarations from libc, so the entry is compiled under another
    name and exported under its own with a linker alias, which is what the harness looks up.
    """
    if entry not in EMULATION_GLOBALS and not hasattr(ctypes.CDLL(None), entry):
        return [], []
    inner = f"ascendc_sim_entry_{entry}"
    return [f"#define {entry} {inner}"], [f"-Wl,--defsym,{entry}={inner}"]


_ENTRY_DEF = re.compile(
    r'(extern\s+"C"\s+|template\s*<[^<>]*>\s*)?__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(([^)]*)\)'
)


def entry_definition(pkg: OperatorPackage) -> tuple[bool, str] | None:
    """The kernel entry's definition: whether `extern "C"` or a template head precedes it, and
    its parameter list (None when the source defines no entry of the op's name)."""
    for m in _ENTRY_DEF.finditer(device_branch(pkg.files[pkg.kernel_path])):
        if m[2] == pkg.spec.kernel:
            return bool(m[1]), m[3]
    return None


def c_linkage(pkg: OperatorPackage) -> list[str]:
    """A prelude line giving a C++-linkage kernel entry C linkage, so the harness finds it by name.

    The device toolchain launches an entry whatever its linkage; some kernels define it without
    `extern "C"`. A first declaration with C linkage makes the later definition inherit it.
    """
    entry = entry_definition(pkg)
    if entry is None or entry[0]:
        return []
    return [f'extern "C" __global__ __aicore__ void {pkg.spec.kernel}({entry[1]});']


# Headers a host tiling header may include; pulled in before the wrapping namespace (and
# precompiled with kernel_operator.h, so a kernel compile does not parse them again).
TILING_HEADER_DEPS = [
    "cstdint",
    "cstddef",
    "cstring",
    "cmath",
    "algorithm",
    "array",
    "string",
    "vector",
    "map",
    "register/tilingdata_base.h",
    "tiling/tiling_api.h",
    "tiling/platform/platform_ascendc.h",  # host structs beside the TilingData name SocVersion
]


def host_tiling_view(pkg: OperatorPackage) -> list[str]:
    """The tiling view over the host header as the simulator's headers compile it."""
    view = tiling_view(pkg, [f'#include "{spelling(pkg, pkg.tiling_header_path)}"'])
    if not view:
        return []
    # Host code of a tiling class may size buffers with the high-level APIs' helpers, or declare
    # members taking the Matmul tiling's host types (matmul_tiling::DataType, MatmulApiTiling):
    # the kernel compile parses those declarations, so it sees these host headers too.
    text = tiling_header_text(pkg)
    helpers = [
        f'#include "ascendc_sim/{header}"'
        for header, used in (
            ("host_tiling_api.h", _TMP_SIZE.search(pkg.files[pkg.tiling_header_path])),
            ("host_matmul_tiling.h", _MATMUL_TILING.search(text)),
        )
        if used
    ]
    own = [f'#include "{spelling(pkg, p)}"' for p in kernel_own_headers(pkg)]
    return [*tiling_header_includes(), *helpers, *toolkit_includes(pkg), *own, *view]


def kernel_own_headers(pkg: OperatorPackage) -> list[str]:
    """The headers of the view that the kernel's sources include themselves (a plain struct
    header in op_kernel/ that the host's tiling header includes too): parsed at global scope
    first, as the kernel sees them, so the view's namespace does not take them from it."""
    kernel = {
        found
        for p, t in pkg.files.items()
        if p.startswith("op_kernel/")
        for spelled in INCLUDE.findall(t)
        if (found := resolve_include(pkg, p, spelled))
    }
    return [p for p in tiling_headers(pkg)[1:] if p in kernel]


_TMP_SIZE = re.compile(r"\bGet\w*TmpSize\b")
_MATMUL_TILING = re.compile(r"\bmatmul_tiling::")


def tiling_header_includes() -> list[str]:
    return [f"#include <{h}>" if "/" not in h else f'#include "{h}"' for h in TILING_HEADER_DEPS]


def toolkit_includes(pkg: OperatorPackage) -> list[str]:
    """The includes of toolkit and system headers beyond TILING_HEADER_DEPS of the host header
    and of the package headers it includes, so that they too are parsed at global scope, not
    inside the wrapping namespace (a package file it includes stays inside: it may hold more
    TilingData)."""
    known = set(tiling_header_includes())
    found = []
    for path in tiling_headers(pkg):
        for spelled in INCLUDE.findall(pkg.files[path]):
            line = f"#include {spelled}"
            if line not in known and line not in found and not resolve_include(pkg, path, spelled):
                found.append(line)
    return found


_KERNEL_TYPE = re.compile(r"KERNEL_TASK_TYPE_DEFAULT\s*\(\s*(KERNEL_TYPE_\w+)\s*\)")
_MIX_HINTS = re.compile(r"\bASCEND_IS_AIC\b|\bREGIST_MATMUL_OBJ\b|\bCrossCore(Set|Wait)Flag\b")
_CUBE_HINTS = re.compile(r"\b(Mmad|Fixpipe|LoadData)\s*[<(]|TPosition::(A1|A2|B1|B2|CO1)\b")
# A Matmul object of the high-level API (its class or the implementation's name, MatmulImpl).
_MATMUL_OBJECT = re.compile(r"\bMatmul(Impl)?\s*<")


def kernel_type(pkg: OperatorPackage) -> str:
    """Which cores the launch starts, as the real toolchain decides from the kernel source.

    `KERNEL_TASK_TYPE_DEFAULT(type)` wins, then a template tiling key's ASCENDC_TPL_KERNEL_TYPE_SEL.
    Without either the compiler infers the type from the code:
    cube and vector code together (or the AIC/AIV split, the Matmul service, cross-core flags) make
    a mixed 1:2 kernel unless ASCENDC_CUBE_ONLY is defined; cube code alone an AIC-only kernel. A
    Matmul object with none of these is the Matmul API's default, a mixed kernel (asc-devkit's
    Matmul pages: MIX mode unless ASCENDC_CUBE_ONLY is defined), so its AIC computes: cann-ops
    gemm_v2 returns on its AIVs and drives its Matmul on the AIC, and launched on AIVs alone it
    wrote nothing.
    """
    text = "\n".join(t for p, t in pkg.files.items() if p.startswith("op_kernel/"))
    declared = _KERNEL_TYPE.search(text)
    if declared:
        return declared.group(1)
    if selected := template_key.kernel_type(pkg):
        return selected
    cube_only = "ASCENDC_CUBE_ONLY" in text
    if _MIX_HINTS.search(text):
        return "KERNEL_TYPE_AIC_ONLY" if cube_only else "KERNEL_TYPE_MIX_AIC_1_2"
    if _CUBE_HINTS.search(text):
        return "KERNEL_TYPE_AIC_ONLY"
    if _MATMUL_OBJECT.search(text):
        return "KERNEL_TYPE_AIC_ONLY" if cube_only else "KERNEL_TYPE_MIX_AIC_1_2"
    return "KERNEL_TYPE_AIV_ONLY"


# What the device compiler defines for each core type's compile of an A2 kernel (asc-devkit's
# op compiler: `--cce-aicore-arch=dav-c220-cube` / `dav-c220-vec`, its ascend910b config naming
# the two macros; its generated code tests the generic `__DAV_CUBE__` / `__DAV_VEC__` with them).
CORE_TYPE_MACROS = {
    "aic": {"__DAV_C220_CUBE__": "1", "__DAV_CUBE__": "1"},
    "aiv": {"__DAV_C220_VEC__": "1", "__DAV_VEC__": "1"},
}
_CORE_TYPE_TEST = re.compile(r"\b__DAV_(?:C220_)?(?:CUBE|VEC)__\b")


def launch_core_types(kernel_type: str) -> list[str]:
    """The core types a launch of this kernel type starts (the launcher's LaunchCores)."""
    if kernel_type in ("KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2"):
        return ["aic", "aiv"]
    if kernel_type in ("KERNEL_TYPE_AIC_ONLY", "KERNEL_TYPE_MIX_AIC_1_0"):
        return ["aic"]
    return ["aiv"]


def core_builds(pkg: OperatorPackage) -> dict[str, dict[str, str]]:
    """The kernel builds a launch needs, by the core type each serves, with that type's macros:
    the device compiles a kernel once per core type it runs on. A kernel whose sources test none
    of the macros is the same for both, so it builds once for every core ("") as before."""
    tested = any(
        _CORE_TYPE_TEST.search(text)
        for path, text in pkg.files.items()
        if "/" in path and not path.startswith("op_host/")
    )
    if not tested:
        return {"": {}}
    return {core: CORE_TYPE_MACROS[core] for core in launch_core_types(kernel_type(pkg))}
