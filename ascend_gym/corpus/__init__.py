"""Real custom operators from a directory the user points at, paired with specs written by us.

A custom-op directory holds `op_host/<op>.cpp` (tiling + OpDef), `op_host/<op>_tiling.h`,
optionally `op_host/<op>_def.cpp` and other host translation units, and `op_kernel/<op>.cpp`;
an hicann/ops-math operator `op_host/<op>_tiling.cpp` and `<op>_def.cpp`, and `op_kernel/<op>.cpp`
with the tiling data struct (`<op>_tiling_data.h`) and template tiling key (`<op>_tiling_key.h`)
beside it. Only op_host/ and op_kernel/ enter a package (not op_api/, op_graph/, tests/, ...).
Its spec and numpy reference live here, one folder per operator (`ops/<op>/op.toml`,
`ops/<op>/reference.py`), as the suite's do: they are ours, the sources never enter the repository. One spec serves every implementation of an operator: its
arguments and attributes are positional, renamed to the names the implementation's OpDef uses.
"""

from __future__ import annotations

import functools
import hashlib
import os
import posixpath
import re
import tomllib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ascend_core.cpp import device_branch
from ascend_core.package import GE_DTYPES, SOURCE_SUFFIXES, OperatorPackage, OperatorSpec
from ascend_gym.corpus import cmake, registry, symbols
from npu_daemon.backends.common import kernel_view

OPS = Path(__file__).resolve().parent / "ops"
# An operator of one's own brings its spec and reference beside op_host/ (the suite's layout):
# they are taken before ours, whatever the operator is called.
OWN_SPEC, OWN_REFERENCE = "op.toml", "reference.py"
OWN_FILES = (OWN_SPEC, OWN_REFERENCE)

_OP_ADD = re.compile(r"\bOP_ADD\(\s*(\w+)")
_ARG = re.compile(r"\bthis->(Input|Output)\(\s*\"(\w+)\"\s*\)")
_ATTR = re.compile(r"\bthis->Attr\(\s*\"(\w+)\"\s*\)")
_DTYPES = re.compile(
    r"\bthis->(?:Input|Output)\(\s*\"\w+\"\s*\)[^;]*?\.DataType\(\s*\{([^}]*)\}", re.S
)
_TILING_DATA = re.compile(r"\bBEGIN_TILING_DATA_DEF\s*\(")
_KERNEL_TILING_STRUCT = re.compile(
    r"\b(?:REGISTER_TILING_DEFAULT\s*\(|REGISTER_TILING_FOR_TILINGKEY\s*\([^,;]*,"
    r"|GET_TILING_DATA(?:_PTR)?_WITH_STRUCT\s*\()\s*(\w+)"
)
_STRUCT_DEFINED = re.compile(
    r"\b(?:struct|class)\s+(?:alignas\s*\(\s*\d+\s*\)\s*)?(\w+)\s*(?:final\s*)?[{:]"
)
_ENTRY = re.compile(r"__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(")
# Host files that are not the tiling: graph-mode inference and protos, the aclnn / l0 API layers.
_HOST_SKIP = ("_infershape", "_infer_shape", "_infer_datatype", "_proto", "aclnn_", "_l0.")


@dataclass(frozen=True)
class OpSource:
    """One custom-op directory found under the corpus root."""

    op: str  # snake_case name: op_host/<op>.cpp
    root: Path  # the directory holding op_host/ and op_kernel/
    rel: str  # root relative to the corpus directory, for tables
    # The name its files go by where that is not the operator's: the toolkit binds an OpDef to
    # the kernel entry of its snake_case name, whatever the kernel's file is called
    # (op_kernel/add_kernel.cpp defining `add`).
    stem: str = ""
    # The operator's own subdirectory of op_host/ and op_kernel/ where one project holds several
    # (op_host/<op>/ and op_kernel/<op>/, the toolkit's multi-operator project).
    sub: str = ""

    def folders(self) -> tuple[Path, Path]:
        """Its op_host and op_kernel directories."""
        return self.root / "op_host" / self.sub, self.root / "op_kernel" / self.sub


class OutsideCheckout(ValueError):
    """A file an operator's package or spec would take whose real path leaves its checkout: a
    link (or a relative include) out of a hostile checkout would carry a file of the user's into
    the package, whose compile messages quote what they fail on."""


def checkout(source: OpSource) -> Path:
    """The real path of the checkout holding an operator: the nearest directory at or above it
    holding `.git`, else the directory the runner was pointed at."""
    root = Path(os.path.abspath(source.root))
    held = next((d for d in (root, *root.parents) if (d / ".git").exists()), None)
    return (held or repository_root(source)).resolve()


def checkout_text(path: Path, within: Path) -> str:
    """The text of `path`, a file of the checkout `within` (a real path), read through its real
    path: a link whose target leaves the checkout is refused, whatever it points to."""
    real = path.resolve()
    if not real.is_relative_to(within):
        raise OutsideCheckout(f"{path}: its real path {real} is outside the checkout {within}")
    return real.read_text(errors="replace")


def find_ops(src: Path) -> list[OpSource]:
    """Every custom-op directory under `src`, in path order; a byte-identical copy of one found
    earlier (repositories vendor each other's operators) is left out.

    Named layouts first: the custom-op project's `op_host/<op>_tiling.h` + `op_host/<op>.cpp` +
    `op_kernel/<op>.cpp`, and hicann/ops-math's `<op>/op_host/` (`<op>_tiling.cpp`,
    `<op>_def.cpp`) + `<op>/op_kernel/<op>.cpp` (possibly under `arch22/`, the A2 build), <op>
    being the directory's name or one the build compiles host sources of. Then any other directory
    holding an `op_host/` and an `op_kernel/` (outside unit tests): its operator is named by its
    kernel's source, whatever the directory is called and wherever its tiling struct lives
    (`layout`). Each declares an OpDef or registers a tiling in its op_host
    (`_declares_custom_op`): a kernel-launch extension named like a project is not one."""
    candidates = []
    for tiling in src.rglob("op_host/*_tiling.h"):
        op, root = tiling.name.removesuffix("_tiling.h"), tiling.parent.parent
        if (root / "op_host" / f"{op}.cpp").is_file() and (
            root / "op_kernel" / f"{op}.cpp"
        ).is_file():
            candidates.append(OpSource(op, root, root.relative_to(src).as_posix() or "."))
    for kernel in [*src.rglob("op_kernel/*.cpp"), *src.rglob("op_kernel/arch22/*.cpp")]:
        root = kernel.parents[2] if kernel.parent.name == "arch22" else kernel.parent.parent
        op, repo = kernel.stem, _repository(root, src)
        if not _a2_or_shared(root.relative_to(src)):  # unit tests' operators, another SoC's
            continue
        # The directory's name, or the operator the build compiles host sources of where that
        # differs (ops-nn sigmoid_v2 builds sigmoid).
        if _split_tiling_files(root, op, repo) and (op == root.name or _builds(root, op, repo)):
            candidates.append(OpSource(op, root, root.relative_to(src).as_posix() or "."))
    named = {c.root for c in candidates}
    for host in sorted(src.rglob("op_host")):
        root = host.parent
        if root in named or not (root / "op_kernel").is_dir() or not host.is_dir():
            continue
        if _a2_or_shared(root.relative_to(src)) and (by_kernel := _kernel_op(root, src)):
            op, stem = by_kernel
            rel = root.relative_to(src).as_posix() or "."
            candidates.append(OpSource(op, root, rel, "" if stem == op else stem))
        elif _a2_or_shared(root.relative_to(src)):  # a project of several operators
            rel = root.relative_to(src).as_posix() or "."
            subs = (d.name for d in (root / "op_kernel").iterdir() if d.is_dir())
            for sub in sorted(d for d in subs if not _SOC_DIR.match(d) and d not in _UNBUILT_DIRS):
                if (host / sub).is_dir() and (by_kernel := _kernel_op(root, src, sub)):
                    op, stem = by_kernel
                    candidates.append(OpSource(op, root, rel, "" if stem == op else stem, sub))
    found, seen, roots, top = [], set(), set(), src.resolve()
    for source in sorted(candidates, key=lambda s: (s.rel, s.sub, s.op)):
        if (source.root, source.sub) in roots or not _declares_custom_op(source, top):
            continue
        roots.add((source.root, source.sub))
        digest = hashlib.sha256()
        files = [source.root / f for f in OWN_FILES]  # other own specs: another operator
        for folder in source.folders():
            files += sorted(folder.rglob("*"))
        for p in filter(Path.is_file, files):
            rel = p.relative_to(source.root).as_posix().encode()
            # A link out of the directory: its target's name, never the bytes of a file outside.
            real = p.resolve()
            text = p.read_bytes() if real.is_relative_to(top) else os.fsencode(real)
            digest.update(rel + b"\0" + text)
        if digest.digest() not in seen:
            seen.add(digest.digest())
            found.append(source)
    return found


_GLOBAL = re.compile(r"__global__")
# A source named for another SoC's build (`<op>_tiling_arch35.cpp`): not the A2's.
_OTHER_SOC_FILE = re.compile(r"_arch(?!22\b)\d+\b")
# What registers a host tiling: the OpDef's SetTiling, or the tiling registry's entry (the
# device registry's too: a tiling sink's tiling runs on the host in a simulated launch).
_TILING_REGISTRATION = re.compile(r"\b(?:DEVICE_)?IMPL_OP_OPTILING\s*\(|\.SetTiling\s*\(")
_DECLARED = re.compile(rf"{_OP_ADD.pattern}|{_TILING_REGISTRATION.pattern}")


def _declares_custom_op(source: OpSource, top: Path) -> bool:
    """Whether the op_host of `source` declares an OpDef (`OP_ADD`) or registers a tiling: what
    the toolkit's custom-op build takes. A library's kernel-launch extension can name its files
    as a custom-op project does (`op_host/<op>_tiling.h`, `op_host/<op>.cpp`, `op_kernel/<op>.cpp`)
    while its host code launches the kernel itself from a framework's tensors (an OpDef and a
    tiling context of its own making, no registration): no package of it would build."""
    host = source.folders()[0]
    return any(
        _DECLARED.search(_read(p))
        for p in sorted(host.rglob("*"))
        if p.suffix in SOURCE_SUFFIXES and p.is_file() and p.resolve().is_relative_to(top)
    )


def _kernel_op(root: Path, src: Path, sub: str = "") -> tuple[str, str] | None:
    """The operator of a directory outside the named layouts and the stem its files go by: the
    stem of the op_kernel source (at its top or in the A2's subdirectory) that defines a kernel
    entry and for which `layout` finds a host tiling, the directory's own name first where
    several do; the operator is the kernel's one entry where the stem names none. `sub`: the
    operator's subdirectory of op_host/ and op_kernel/ in a project of several."""
    kernel_dir = root / "op_kernel" / sub
    kernels = [
        p
        for folder in (kernel_dir, *(kernel_dir / d for d in sorted(_A2_DIRS)))
        for p in sorted(folder.glob("*.cpp"))
        if not _OTHER_SOC_FILE.search(p.stem) and _GLOBAL.search(_read(p))
    ]
    stems = sorted({p.stem for p in kernels}, key=lambda s: (s != root.name, s))
    repo = _repository(root, src)
    stem = next((s for s in stems if layout(root, s, repo, sub)), None)
    if stem is None:
        return None
    entries = {
        e for p in kernels if p.stem == stem for e in _ENTRY.findall(device_branch(_read(p)))
    }
    return (entries.pop() if len(entries) == 1 and stem not in entries else stem), stem


def layout(root: Path, op: str, repo: Path, sub: str = "") -> dict[str, str] | None:
    """host_file, tiling_header and kernel_file of the operator `op` in `root`: the split
    tiling layout's (`_split_tiling_files`), else the kernel `op_kernel/<op>.cpp` (or under the A2's
    subdirectory) with the op_host source that registers the tiling (`op_host/<op>.cpp` first)
    and the tiling struct's header, wherever the host includes it from (`op_host/<op>_tiling.h`,
    `op_kernel/<op>_tiling.h`, ...); None where there is no kernel or no registered tiling.
    In a project of several operators, the same within op_host/<sub>/ and op_kernel/<sub>/."""
    if not sub and (found := _split_tiling_files(root, op, repo)):
        return found
    host_dir, kernel_dir = (
        posixpath.normpath(posixpath.join(d, sub)) for d in ("op_host", "op_kernel")
    )
    kernel = _first(
        root, f"{kernel_dir}/{op}.cpp", *(f"{kernel_dir}/{d}/{op}.cpp" for d in _A2_DIRS)
    )
    # The tiling may sit in the project's conventional op_tiling/ folder of op_host/ too.
    host_dirs = (host_dir, f"{host_dir}/{_TILING_DIR}")
    hosts = [
        p.relative_to(root).as_posix()
        for top in host_dirs
        for folder in (top, *(f"{top}/{d}" for d in sorted(_A2_DIRS)))
        for p in sorted((root / folder).glob("*.cpp"))
        if not any(k in p.name for k in _HOST_SKIP)
        and not _OTHER_SOC_FILE.search(p.stem)
        and _TILING_REGISTRATION.search(_read(p))
    ]
    hosts.sort(key=lambda h: (Path(h).stem != op, op not in h, h))
    if kernel is not None and not hosts:  # its type's tiling registered by another operator
        hosts = _registered_elsewhere(root, op, repo, host_dir)
    if kernel is None or not hosts:
        return None
    return {
        "host_file": hosts[0],
        "tiling_header": _tiling_header(root, op, hosts[0]),
        "kernel_file": kernel,
    }


def _registered_elsewhere(root: Path, op: str, repo: Path, host_dir: str) -> list[str]:
    """The tiling sources outside `root` that register the operator's type, as paths from
    `root` (`../<other>/op_host/...`): where its op_host holds its OpDef and no tiling, the
    repository's one tiling library serves it from another operator's source
    (`registry.registering`). Its type is the one its OpDef adds (`OP_ADD`), the one named for
    `op` where it adds several; the A2's or shared sources only."""
    text = "\n".join(_read(p) for p in sorted((root / host_dir).glob("*.cpp")))
    types = _OP_ADD.findall(text)
    named = [t for t in types if _snake(t) == op]
    if not named and len(set(types)) != 1:
        return []
    inside, op_type = Path(os.path.abspath(root)), (named or types)[0]
    return [
        posixpath.relpath(p.as_posix(), inside.as_posix())
        for p in registry.registering(Path(os.path.abspath(repo)), op_type)
        if not p.is_relative_to(inside)
        and _a2_or_shared(p.relative_to(os.path.abspath(repo)).parent)
        and not any(k in p.name for k in _HOST_SKIP)
        and not _OTHER_SOC_FILE.search(p.stem)
        and not _adds_type(_operator_dir(p), op_type)
    ]


def _adds_type(operator: Path, op_type: str) -> bool:
    """Whether the operator directory's own OpDef adds `op_type`: it is another implementation
    of the same operator (an experimental/ copy), whose tiling is its own, not one shared."""
    host = operator / "op_host"
    return host.is_dir() and any(
        op_type in _OP_ADD.findall(_read(p)) for p in sorted(host.rglob("*.cpp"))
    )


def _snake(camel: str) -> str:
    """An operator type's snake_case name (`GemmaRmsNorm` -> `gemma_rms_norm`)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", camel).lower()


def _tiling_header(root: Path, op: str, host: str) -> str:
    """The header holding the tiling struct: `<op>_tiling.h` beside the host or the kernel, else
    the first header of the directory the host source includes that defines tiling data
    (BEGIN_TILING_DATA_DEF, or a struct in a header named for tiling)."""
    if named := _first(root, f"op_host/{op}_tiling.h", f"op_kernel/{op}_tiling.h"):
        return named
    host_path = root / host
    for spelled in _QUOTED_INCLUDE.findall(_read(host_path)):
        target = Path(os.path.normpath(host_path.parent / spelled))
        if not target.is_file() or not target.is_relative_to(root):
            continue
        text = _read(target)
        if "BEGIN_TILING_DATA_DEF" in text or ("tiling" in target.name and "struct" in text):
            return target.relative_to(root).as_posix()
    return ""


def _built_host(root: Path, repo: Path) -> list[str]:
    """The op_host sources of the operator directory `root` that the build files of `repo`
    compile for the A2 (`cmake.evaluate`: the targets' sources after evaluation, the SoC
    conditions decided for it), as paths from `root`."""
    root, repo = Path(os.path.abspath(root)), Path(os.path.abspath(repo))
    host = root / "op_host"
    return [
        p.relative_to(root).as_posix()
        for p in cmake.evaluate(repo, root).sources
        if p.is_relative_to(host) and p.is_file()
    ]


def _builds(root: Path, op: str, repo: Path) -> bool:
    """Whether the build compiles a host source of `root` named for the operator `op`."""
    return any(
        (stem := Path(p).stem) == op or stem.startswith(f"{op}_") for p in _built_host(root, repo)
    )


def _host_dirs(root: Path, repo: Path) -> list[str]:
    """The op_host subdirectories the build compiles sources of; the A2's SoC directories where
    the build files compile none (no build files, or none they could be read from)."""
    built = sorted({posixpath.dirname(p) for p in _built_host(root, repo)} - {"op_host"})
    return built or [f"op_host/{d}" for d in sorted(_A2_DIRS)]


def _first(root: Path, *names: str) -> str | None:
    return next((n for n in names if (root / n).is_file()), None)


def _split_tiling_files(root: Path, op: str, repo: Path) -> dict[str, str] | None:
    """host_file, tiling_header and kernel_file of an operator whose tiling has a file of its own
    (`op_host/<op>_tiling.cpp`, its OpDef in `<op>_def.cpp`), or None if `root` is not one: the A2
    sources at the top of op_host/ and op_kernel/, or under the op_host
    subdirectory the build compiles (`_host_dirs`) and op_kernel's arch22/."""
    # An operator built for several architectures names its A2 files with an _arch22 suffix.
    kernel = _first(
        root, f"op_kernel/{op}_arch22.cpp", f"op_kernel/{op}.cpp", f"op_kernel/arch22/{op}.cpp"
    )
    host = _first(root, f"op_host/{op}_tiling.cpp")
    if host is None and any((root / "op_host").glob(f"*/{op}_tiling*.cpp")):
        dirs = _host_dirs(root, repo)  # the build files read only where a subdirectory has one
        host = _first(
            root,
            *(f"{d}/{op}_tiling.cpp" for d in dirs),
            *(f"{d}/{op}_tiling_{posixpath.basename(d)}.cpp" for d in dirs),
        )
    if host is None:
        others = sorted((root / "op_host").glob("*_tiling.cpp"))
        host = others[0].relative_to(root).as_posix() if len(others) == 1 else None
    custom_op_project = (root / "op_host" / f"{op}.cpp").is_file()  # the other layout
    if kernel is None or host is None or custom_op_project:
        return None
    # Where the build takes another directory's tiling for the A2 (ops-nn smooth_l1_loss builds
    # op_host/arch35/ for it), the struct is in op_kernel/'s directory of that name.
    sub = posixpath.basename(posixpath.dirname(host))
    header = _first(
        root,
        f"op_kernel/{op}_tiling_data.h",
        f"op_kernel/arch22/{op}_tiling_data.h",
        f"op_kernel/arch22/{op}_tiling_data_arch22.h",
        f"op_kernel/{op}_tilingdata.h",
        f"op_kernel/{op}_tiling.h",
        f"op_host/{op}_tiling.h",
        f"op_host/arch22/{op}_tiling.h",
        f"op_kernel/{op}_struct.h",
        f"op_host/{op}_tiling_def.h",
        *(f"op_kernel/{sub}/{op}_{n}.h" for n in ("tiling_data", "tilingdata") if sub != "op_host"),
    )
    if header is None:  # named after another op (cast_v3's cast_tiling_data.h), or in a subfolder
        data = sorted(
            p
            for p in (root / kernel).parent.rglob("*_tiling_data.h")
            if _a2_or_shared(p.relative_to(root))
        )
        header = data[0].relative_to(root).as_posix() if len(data) == 1 else None
    return {"host_file": host, "tiling_header": header or "", "kernel_file": kernel}


def host_sources_text(files: dict[str, str]) -> str:
    """The op_host files of a package, joined: where the OpDef and the tiling are read from."""
    return "\n".join(t for p, t in files.items() if p.startswith("op_host/"))


def spec_names() -> list[str]:
    """Every spec, a variant as `<op>.<variant>`."""
    return sorted(
        p.parent.name + p.name.removeprefix("op").removesuffix(".toml")
        for p in OPS.glob("*/op*.toml")
    )


def load_spec(op: str) -> OperatorSpec | None:
    """The spec in `ops/<op>/op.toml`; `op` may name a variant, `<op>.<variant>`
    (`ops/<op>/op.<variant>.toml`)."""
    name, _, variant = op.partition(".")
    path = OPS / name / (f"op.{variant}.toml" if variant else "op.toml")
    return _spec(tomllib.loads(path.read_text())) if path.is_file() else None


def _spec(fields: dict) -> OperatorSpec:
    """A spec file's fields as a spec: its `serves` list is the runner's choice of variant, not
    part of the package."""
    return OperatorSpec.model_validate({k: v for k, v in fields.items() if k != "serves"})


def spec_for(source: OpSource) -> OperatorSpec | None:
    """The spec of one implementation: its own op.toml beside op_host/ where it has one, else
    ours. Implementations of one operator may declare different
    arguments (one OpDef has an output another lacks): a variant `ops/<op>/op.<variant>.toml` is
    written for those, and the spec whose input and output counts match the OpDef is taken (the
    plain `<op>.toml` where none or several do). Where the arguments agree but their meaning does
    not (one tree's kernel takes the tensors its aclnn layer broadcast), a variant names the paths
    it serves: `serves = ["<owner>+<repo>/<path to the op directory>"]`, matched against the
    trailing components of the source's directory, and is taken for those alone.

    None where the spec has an attr the OpDef does not declare (`this->Attr("...")`): CANN's
    `Exp(base, scale, shift)` is another operator than an Exp without attrs. An OpDef that declares
    no attrs while its tiling reads them (`GetAttrs()`) takes them from the aclnn layer, which
    passes them itself (hicann/ops-math experimental cross reads its `dim` that way)."""
    own = source.root / OWN_SPEC
    if own.is_file():
        return OperatorSpec.model_validate(tomllib.loads(checkout_text(own, checkout(source))))
    host_text = op_host_text(source)
    spec = _chosen_spec(source, host_text)
    if spec is None or not _ARG.search(host_text):  # no OpDef to compare with
        return spec
    declared = set(_ATTR.findall(host_text))
    if not declared and "GetAttrs(" in host_text:  # attrs the aclnn layer passes
        return spec
    return spec if all(a.name in declared for a in spec.attrs) else None


def op_host_text(source: OpSource) -> str:
    """Every source of the operator's op_host folder, where its OpDef is."""
    within = checkout(source)
    return "\n".join(
        checkout_text(p, within)
        for p in sorted(source.folders()[0].rglob("*"))
        if p.is_file() and p.suffix in SOURCE_SUFFIXES
    )


def _chosen_spec(source: OpSource, host_text: str) -> OperatorSpec | None:
    """`spec_for`'s choice among the spec and its variants, by path, then by argument counts."""
    base = load_spec(source.op)
    variants = [tomllib.loads(p.read_text()) for p in sorted((OPS / source.op).glob("op.*.toml"))]
    if base is None or not variants:
        return base
    for fields in variants:
        served = [Path(s).parts for s in fields.get("serves", [])]
        if any(source.root.parts[-len(parts) :] == parts for parts in served):
            return _spec(fields)
    by_counts = [_spec(fields) for fields in variants if not fields.get("serves")]
    if not by_counts:
        return base
    args = _ARG.findall(host_text)
    counts = (sum(k == "Input" for k, _ in args), sum(k == "Output" for k, _ in args))
    matching = [
        spec for spec in (base, *by_counts) if (len(spec.inputs), len(spec.outputs)) == counts
    ]
    return matching[0] if len(matching) == 1 else base


def _read(path: Path) -> str:
    return path.read_text(errors="replace")


_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
_ANY_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)', re.M)
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(\w+)[ \t]*(.*)$")


def _guarded_includes(text: str) -> set[str]:
    """The spellings `text` includes inside an `#if` / `#ifdef` / `#ifndef` block (a header's own
    include guard, an `#ifndef X` followed by `#define X`, is no condition): what a build
    compiles only where its condition holds, for one SoC or another."""
    guarded: set[str] = set()
    lines = text.splitlines()
    opened: list[bool] = []  # per open block: whether it is a condition (not an include guard)
    for k, line in enumerate(lines):
        m = _DIRECTIVE.match(line)
        if m is None:
            continue
        word, rest = m.groups()
        if word in ("if", "ifdef", "ifndef"):
            name = rest.split()[0] if rest.split() else ""
            after = _DIRECTIVE.match(lines[k + 1]) if k + 1 < len(lines) else None
            guard = (
                word == "ifndef"
                and after is not None
                and after.group(1) == "define"
                and after.group(2).split()[:1] == [name]
            )
            opened.append(not guard)
        elif word == "endif" and opened:
            opened.pop()
        elif word == "include" and any(opened):
            inc = _ANY_INCLUDE.match(line)
            if inc is not None:
                guarded.add(inc.group(1) or inc.group(2))
    return guarded


@dataclass(frozen=True)
class Tree:
    """What of the source tree around an operator directory its sources include: tree/ files at
    their path from `base`, the operator directory's path from there, and the include roots the
    includes were found through (paths from `base`, in the build's order)."""

    files: dict[str, str]
    tree_path: str
    include_dirs: list[str]
    missing: tuple[str, ...] = ()  # quoted includes of built sources found nowhere
    # Files of the operator directory outside op_host/ and op_kernel/ that they include
    # (`../op_graph/<op>_proto.h`), at their path from it.
    own: dict[str, str] = field(default_factory=dict)
    # The sources beside headers of other directories that the build compiles with the tiling
    # (`tree_files`' `companion`): tree/ paths, translation units of the tiling program.
    sources: list[str] = field(default_factory=list)
    # Each of those sources' tree/ path by its real path.
    units: dict[Path, str] = field(default_factory=dict)
    # The files of the operator directory compiled with a built source (they or a header they
    # include), at their path from it: where the program's text is read (`_defining_units`).
    reached: tuple[str, ...] = ()


# The C++ sources a header's declarations may be defined in, beside it under its name.
_UNIT_SUFFIXES = (".cpp", ".cc", ".cxx")


def tree_files(
    root: Path,
    files: dict[str, str],
    within: Path,
    roots: tuple[Path, ...] = (),
    companion: Callable[[Path, bool], bool] = lambda _unit, _guarded: False,
    units: Sequence[Path] = (),
    built: Collection[str] = (),
) -> Tree:
    """The files outside the operator directory `root` that its sources include by a relative
    path or through one of the build's include roots `roots`, and what those include in turn the
    same way (a quoted include is looked up beside the including file first, then in the roots
    in order, as the compiler does), as package tree/ files at their path from the nearest
    directory holding them and `root`. They are the user's files, even where they lie past the
    directory the runner was pointed at, but never outside the checkout `within`
    (`checkout_text`). Files of `root` outside `files` that they include (its op_graph/
    prototypes) come as the tree's `own`. A header outside `root` that a built file includes
    brings the C++ source of its name beside it (.cpp, .cc or .cxx) where `companion` says the
    build compiles that with the tiling (a class declared there, defined in its source: another
    operator's base tiling, a repository's shared tiling utilities), as one of the tree's
    `sources`, its includes followed alike; `companion` is also told whether the include sits
    under a preprocessor condition. `units`: sources outside `root` that are translation units of
    the tiling program whatever includes them (another operator's source registering this one's
    tiling), brought and followed alike. `built`: files of `root` the tiling program compiles
    though `_built` leaves them out (another SoC's source defining a class it constructs), their
    includes followed as a built file's."""
    found = {unit: checkout_text(unit, within) for unit in units}
    sources = list(units)
    own: dict[str, str] = {}
    used: set[Path] = set()
    missing: set[str] = set()
    # A header a built source includes is built with it, wherever it sits (an A2 tiling that
    # includes its arch35/ sibling compiles that too); what only unbuilt sources reach is not.
    todo = [
        (root / rel, text, rel in built or _built(root / rel, root)) for rel, text in files.items()
    ]
    todo += [(unit, text, True) for unit, text in found.items()]
    walked = {path: built for path, _, built in todo}  # each file once, again once built
    while todo:
        path, text, built = todo.pop()
        guarded = _guarded_includes(text) if built else set()
        for quoted, angled in _ANY_INCLUDE.findall(text):
            beside = [Path(os.path.normpath(path.parent / quoted))] if quoted else []
            places = [(None, p) for p in beside if p.is_file()]
            spelled = quoted or angled
            # The build's own include path (-I. -Iop_kernel -Iop_host) and the toolkit's come
            # before the roots.
            elsewhere = quoted and any((d / quoted).is_file() for d in _own_dirs(root))
            elsewhere = elsewhere or any((d / spelled).is_file() for d in TOOLKIT_HEADERS)
            if not places and not elsewhere and built:
                places = [(r, r / spelled) for r in roots if (r / spelled).is_file()][:1]
                if not places and quoted and not _in_package(path, root, quoted, files):
                    missing.add(quoted)
            for through, target in places:
                target = Path(os.path.normpath(target))
                if target.suffix not in SOURCE_SUFFIXES:
                    continue
                if through is not None:
                    used.add(through)
                if target.is_relative_to(root):
                    rel = target.relative_to(root).as_posix()
                    if rel not in files and rel not in own:
                        own[rel] = checkout_text(target, within)
                    text_of = files.get(rel, own.get(rel, ""))
                else:
                    if target not in found:
                        found[target] = checkout_text(target, within)
                    text_of = found[target]
                if target not in walked or (built and not walked[target]):
                    walked[target] = built
                    todo.append((target, text_of, built))
                if not built or target.suffix not in (".h", ".hpp"):
                    continue
                for unit in (target.with_suffix(s) for s in _UNIT_SUFFIXES):
                    if (
                        unit not in walked
                        and not unit.is_relative_to(root)
                        and unit.is_file()
                        and companion(unit, spelled in guarded)
                    ):
                        found[unit] = checkout_text(unit, within)
                        sources.append(unit)
                        walked[unit] = True
                        todo.append((unit, found[unit], True))
    reached = tuple(
        sorted(
            p.relative_to(root).as_posix()
            for p, b in walked.items()
            if b and p.is_relative_to(root)
        )
    )
    if not found:
        return Tree({}, "", [], tuple(sorted(missing)), own, reached=reached)
    order = [r for r in roots if r in used]
    base = Path(os.path.commonpath([root, *found, *order]))
    placed = {p: f"tree/{p.relative_to(base).as_posix()}" for p in sources}
    return Tree(
        {f"tree/{p.relative_to(base).as_posix()}": t for p, t in sorted(found.items())},
        root.relative_to(base).as_posix(),
        [r.relative_to(base).as_posix() for r in order],
        tuple(sorted(missing)),
        own,
        sorted(placed.values()),
        placed,
        reached,
    )


def _in_package(path: Path, root: Path, spelled: str, files: dict[str, str]) -> bool:
    """Whether a package file the runner brought (inc/ shared headers) answers the include."""
    here = posixpath.dirname(path.relative_to(root).as_posix()) if path.is_relative_to(root) else ""
    places = (here, "op_kernel", "op_host")
    return any(posixpath.normpath(posixpath.join(d, spelled)) in files for d in places)


# The toolkit's headers (CANN and the Ops base libraries, as the daemon's backends provide them):
# a repository's build names the toolkit's include directories before its own
# (ops-nn's OP_TILING_INCLUDE: ${OPBASE_INC_DIRS} ... ${OPS_NN_DIR}/common/inc), so an include
# they resolve is not looked up in the repository's roots.
_BACKENDS = Path(__file__).resolve().parents[2] / "npu_daemon" / "backends"
TOOLKIT_HEADERS = (
    _BACKENDS / "sim" / "include",
    _BACKENDS / "common" / "host" / "include",
    _BACKENDS / "common" / "host" / "include" / "op_host",
)


def _built(path: Path, root: Path) -> bool:
    """Whether a file of the operator's directory is part of an A2 kernel launch's build: not
    the graph-mode or aclnn layers (op_api/, *_infershape.cpp, ...), not another SoC's variant.
    (Their includes are not looked up in the include roots.)"""
    if not path.is_relative_to(root):
        return True
    parts = path.relative_to(root).parts
    return not any(k in path.name for k in _HOST_SKIP) and _a2_or_shared(Path(*parts[:-1]))


def _own_dirs(root: Path) -> tuple[Path, ...]:
    return (root, root / "op_kernel", root / "op_host")


# Per-SoC directories: the A2's (ascend910b, arch22) is the one built here.
_SOC_DIR = re.compile(r"^(arch\d+|ascend\d+\w*)$")
_A2_DIRS = {"arch22", "ascend910b"}
_TILING_DIR = "op_tiling"  # op_host/op_tiling/: CANN operator projects' folder of tiling sources
# The folders a kernel launch does not build (unit tests, the aclnn and graph layers).
_UNBUILT_DIRS = {"tests", "test", "ut", "op_api", "op_graph"}


def repository_root(source: OpSource) -> Path:
    """The repository around an operator directory: the nearest directory holding `.git`, not
    above the directory the runner was pointed at."""
    corpus = (
        source.root.parents[len(Path(source.rel).parts) - 1] if source.rel != "." else source.root
    )
    return _repository(source.root, corpus)


def _repository(root: Path, corpus: Path) -> Path:
    """The nearest directory around `root` holding `.git`, not above `corpus`. Without one (a
    repository unpacked from an archive), the outermost directory from `corpus` down holding a
    top-level CMakeLists.txt, so that a directory of several such repositories still evaluates
    each one's build from its own root; else `corpus`."""
    above = []
    for d in (root, *root.parents):
        if (d / ".git").exists():
            return d
        above.append(d)
        if d == corpus:
            break
    return next((d for d in reversed(above) if (d / "CMakeLists.txt").is_file()), corpus)


def include_roots(source: OpSource, extra: Sequence[str] = ()) -> tuple[Path, ...]:
    """The include directories the repository's build files give the operator's build, in their
    order (`cmake.include_dirs`: the build files evaluated from the repository's root down to the
    operator's directory), then `extra` ones (the user's, for a build the files do not tell:
    paths from the repository's root); the existing directories inside the repository and
    outside the operator's own, other SoCs' variants and unit tests' left out."""
    source = OpSource(source.op, Path(os.path.abspath(source.root)), source.rel)
    repo = repository_root(source)
    given = [Path(os.path.normpath(repo / d)) for d in extra]
    return tuple(
        d
        for d in dict.fromkeys([*cmake.include_dirs(repo, source.root), *given])
        if d.is_dir()
        and d.is_relative_to(repo)
        and not d.is_relative_to(source.root)
        and _a2_or_shared(d.relative_to(repo))
    )


def _a2_or_shared(path: Path) -> bool:
    """Not another SoC's variant, nor the unit tests' (their stubs stand in for real headers),
    nor the aclnn or graph layers'."""
    return all(
        (p in _A2_DIRS or not _SOC_DIR.match(p)) and p not in _UNBUILT_DIRS for p in path.parts
    )


# hicann/ops-nn's shared kernel headers. Its build (cmake/gen_ops_info.cmake) copies each kernel's
# op_kernel/ to tbe/ascendc/<op>/ and common/inc/op_kernel/ to tbe/ascendc/inc/, beside it, so
# kernels include them as "../inc/platform.h" (beside the including file, or through the kernel's
# directory on the include path), and another operator's kernel headers as
# "../<op>/<header>" (ops-nn add_rms_norm's "../rms_norm/rms_norm_base.h"). ops-math has no
# shared directory; its kernels still reach other operators' this way.
SHARED_KERNEL_HEADERS = Path("common/inc/op_kernel")


def shared_kernel_headers(root: Path, files: dict[str, str], within: Path) -> dict[str, str]:
    """The headers beside the operator's kernel in the build's copy that its kernel sources
    include, and what those include in turn: the repository's shared kernel headers as package
    files `inc/<name>` (`op_kernel/../inc`), another operator's as `<op>/<path>` (its
    op_kernel/<path>, `op_kernel/../<op>`); none where the repository has neither. Each is read
    within the checkout `within` (`checkout_text`)."""
    repo = next((d for d in root.parents if (d / SHARED_KERNEL_HEADERS).is_dir()), None)
    found: dict[str, str] = {}
    todo = [(p, t) for p, t in files.items() if p.startswith("op_kernel/")]
    while todo:
        path, text = todo.pop()
        for spelled in _QUOTED_INCLUDE.findall(text):
            for place in (posixpath.dirname(path), "op_kernel"):
                target = posixpath.normpath(posixpath.join(place, spelled))
                if target in files or target in found:
                    break
                first, _, rest = target.partition("/")
                if first == "inc" and repo is not None:
                    header = repo / SHARED_KERNEL_HEADERS / rest
                elif rest and first not in ("op_kernel", "op_host", "..", "."):
                    header = _sibling_kernel(root, first) / rest
                else:
                    continue
                if header.is_file():
                    found[target] = checkout_text(header, within)
                    todo.append((target, found[target]))
                    break
    return dict(sorted(found.items()))


def _sibling_kernel(root: Path, op: str) -> Path:
    """The op_kernel/ of the operator directory named `op` that the build copies beside the
    operator's: in the same parent directory, else in another directory beside that one or
    one level up (ops-nn's <category>/<op>), not above the repository; a path that does not
    exist when none is."""
    near = root.parent / op / "op_kernel"
    if near.is_dir() or op == root.name:
        return near
    for top in root.parents[1:3]:
        far = sorted(d for d in top.glob(f"*/{op}/op_kernel") if _a2_or_shared(d.relative_to(top)))
        if far:
            return far[0]
        if (top / ".git").exists():
            break
    return near


def build_package(
    source: OpSource, spec: OperatorSpec, include_dirs: Sequence[str] = ()
) -> OperatorPackage:
    """The operator package of one implementation (`packaged`, its unfound includes dropped)."""
    return packaged(source, spec, include_dirs)[0]


def packaged(
    source: OpSource, spec: OperatorSpec, include_dirs: Sequence[str] = ()
) -> tuple[OperatorPackage, tuple[str, ...]]:
    """The operator package of one implementation: its sources (with the repository's shared
    kernel headers they include, shared_kernel_headers, and the files of other operators'
    directories they include, tree_files, through the build's include roots and the ones given:
    the spec's `include_dirs` and `include_dirs`, paths from the repository's root), our spec
    adapted to its OpDef names, its OP_ADD type and kernel entry, and our reference module
    (ops/<op>/reference.py); and the quoted includes of its built sources that a file of the
    repository answers but no include root reaches. Every file of the checkout is read within
    it (`checkout_text`): OutsideCheckout where one's real path leaves it."""
    within = checkout(source)
    files = {
        p.relative_to(source.root).as_posix(): checkout_text(p, within)
        for folder in source.folders()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix in SOURCE_SUFFIXES and p.suffix != ".py"
    }
    files |= shared_kernel_headers(source.root, files, within)
    roots = include_roots(source, [*spec.include_dirs, *include_dirs])
    repo = repository_root(source)
    layout_files = layout(source.root, source.stem or source.op, repo, source.sub) or {
        "host_file": f"op_host/{source.op}.cpp",
        "tiling_header": f"op_host/{source.op}_tiling.h",
        "kernel_file": f"op_kernel/{source.op}.cpp",
    }
    host = layout_files["host_file"]
    top = Path(os.path.abspath(source.root))
    build = cmake.evaluate(repo, top)
    tiling = Path(os.path.abspath(source.root / host))
    # A tiling registered by another operator's source (`layout`) is built as the build files
    # build it there, with the sources beside it that they compile into its target.
    foreign = not tiling.is_relative_to(top)
    tiling_build = _evaluated(repo, _operator_dir(tiling)) if foreign else build
    targets = tiling_build.usage.targets_of(tiling)
    companion = functools.partial(_built_with, repo, targets, own=build.usage)
    units = [tiling, *_program_siblings(tiling, targets, tiling_build.usage)] if foreign else []
    tree = tree_files(top, files, within, roots, companion, units)
    taken: list[str] = []  # the operator directory's own sources taken for a symbol (arch35/)
    refused: set[Path] = set()
    for _ in range(MAX_LINK_ROUNDS):  # what the units brought may call further
        needed = _defining_units(repo, top, targets, build.usage, {**files, **tree.files}, tree)
        needed = [u for u in needed if u not in refused]
        for unit in needed:
            # Another directory's source joins the program's units; one of this directory's (an
            # arch35/ definer) is built where it sits.
            rel = unit.relative_to(top).as_posix() if unit.is_relative_to(top) else None
            more, built = ([*units, unit], taken) if rel is None else (units, [*taken, rel])
            trial = tree_files(top, files, within, roots, companion, more, built)
            brought = [t for f, t in trial.files.items() if f not in tree.files]
            if rel is not None:
                brought.append(files.get(rel, ""))
            # A source that loads a library at run time, or whose includes do (a sub-package's
            # adapter to a closed library): the sandbox refuses dlopen, so taking it would turn an
            # honest operator's missing function into a rejection.
            if any(_LOADS.search(t) for t in brought):
                refused.add(unit)
                continue
            units, tree, taken = more, trial, built
        if not set(needed) - refused:
            break
    if foreign:
        host = layout_files["host_file"] = tree.units[tiling]
    reference = source.root / OWN_REFERENCE
    if reference.is_file():
        files["reference.py"] = checkout_text(reference, within)
    elif (ours := OPS / spec.name / OWN_REFERENCE).is_file():  # a spec of ours brings its own
        files["reference.py"] = _read(ours)
    host_text = host_sources_text(files)
    # The project's op_host/CMakeLists.txt takes the .cpp files of op_host itself
    # (aux_source_directory is not recursive): an editor's autosaves in a subdirectory
    # (.ipynb_checkpoints/*-checkpoint.cpp) are not part of the build. A tiling in the A2's
    # subdirectory (arch22/, ascend910b/, ...) brings that directory's other *_tiling*.cpp, as
    # the hicann CMake globs them; other SoCs' subdirectories stay out. A tiling in op_tiling/
    # brings every source of that folder, all of them tiling code.
    op_host, a2_dir = Path("op_host", source.sub), Path(host).parent
    tiling_folder = a2_dir.name == _TILING_DIR
    extra_hosts = sorted(
        p
        for p in files
        if p.endswith(".cpp")
        and p != host
        and (
            (Path(p).parent == op_host and not any(s in p for s in _HOST_SKIP))
            or (
                a2_dir != op_host
                and Path(p).parent == a2_dir
                and ("_tiling" in Path(p).name or tiling_folder)
            )
        )
    )
    files |= tree.files | tree.own
    program = _tiling_program(build.usage, targets, source, extra_hosts, files)
    update: dict = {
        **layout_files,
        "host_sources": [
            *program,
            *(t for t in taken if t not in program),
            *(s for s in tree.sources if s != host),
        ],
        "tree_path": tree.tree_path,
        "include_dirs": tree.include_dirs,
        "host_defines": tiling_build.usage.definitions_of([tiling]),
    }
    if m := _OP_ADD.search(host_text):
        update["op_type"] = m.group(1)
    if m := _ENTRY.search(device_branch(files[layout_files["kernel_file"]])):
        update["kernel"] = m.group(1)
    spec = supported_cases(rename_args(spec.model_copy(update=update), host_text), host_text)
    held = _repository_files(repo)
    unfound = tuple(m for m in tree.missing if any(p.endswith("/" + m) for p in held))
    package = OperatorPackage(spec=spec, files=files, uri=f"corpus://{source.rel}")
    if not spec.tiling_header and (header := reached_tiling_header(package)):
        spec = spec.model_copy(update={"tiling_header": header})
        package = package.model_copy(update={"spec": spec})
    return package, unfound


def _built_with(
    repo: Path,
    targets: set[str],
    unit: Path,
    guarded: bool = False,
    own: cmake.Usage | None = None,
) -> bool:
    """Whether the build files compile `unit`, a source outside the operator's directory, into
    one of the tiling's `targets` (a repository's one tiling library of every operator): as the
    operator's own build files evaluated (`own`: its CMakeLists globbing a shared folder's
    sources into that target), or as evaluated toward the unit's operator directory (the one
    holding its op_host/, else the unit's own). Another SoC's variant (an arch35/ source) only
    where its header is included unconditionally (not `guarded`): an A2 source that names its
    class under a run-time SoC check links only with it, as a repository's one library of every
    SoC's sources holds it, while a header included under its SoC's `#if` is not compiled for
    the A2."""
    if not targets or (guarded and not _a2_or_shared(unit.relative_to(repo))):
        return False
    if own is not None and own.targets_of(unit) & targets:
        return True
    return bool(_evaluated(repo, _operator_dir(unit)).usage.targets_of(unit) & targets)


# Rounds of `_defining_units` at most: a source brought for a function may call another's.
MAX_LINK_ROUNDS = 4
# A call that loads a shared library or looks a symbol up in one.
_LOADS = re.compile(r"\bdl(?:open|sym)\s*\(")


def _defining_units(
    repo: Path,
    root: Path,
    targets: set[str],
    own: cmake.Usage,
    files: dict[str, str],
    tree: Tree,
) -> list[Path]:
    """The sources that define a function the tiling program declares and calls but none of its
    files defines (`symbols.unresolved`: another operator's tiling, declared in this one's
    header), or the members of a class it constructs (`symbols.unbuilt_classes`: another SoC's
    tiling class an A2 tiling constructs under a run-time check), as the linker takes them from
    the repository's one tiling library: the op_host sources defining it (`registry.defining`,
    `registry.defining_class`), of this operator's directory or another's, that the build files
    compile into the tiling's target (`_built_with`), whatever their SoC's directory; an A2 or
    shared one before another SoC's. Where several qualify, the one nearest the operator's
    directory (an experimental copy's own, beside it); none where that does not decide."""
    read = {
        p
        for p in files
        if (p.startswith("op_host/") and _built(root / p, root))
        or p.startswith("tree/")
        or p in tree.reached
    }
    texts = [files[p] for p in sorted(read)]
    have = {p.resolve() for p in tree.units} | {Path(os.path.abspath(root / p)) for p in read}
    repo = Path(os.path.abspath(repo))
    wanted = [(n, registry.defining) for n in sorted(symbols.unresolved(texts))]
    wanted += [(n, registry.defining_class) for n in sorted(symbols.unbuilt_classes(texts))]
    found: list[Path] = []
    for name, definers in wanted:
        candidates = [
            p
            for p in definers(repo, name)
            if p.resolve() not in have
            and not any(k in p.name for k in _HOST_SKIP)
            and _built_with(repo, targets, p, own=own)
        ]
        a2 = [
            p
            for p in candidates
            if _a2_or_shared(p.relative_to(repo).parent) and not _OTHER_SOC_FILE.search(p.stem)
        ]
        nearest = _nearest(root, a2 or candidates)
        if nearest is not None and nearest not in found:
            found.append(nearest)
    return found


def _nearest(root: Path, paths: list[Path]) -> Path | None:
    """The one of `paths` sharing the longest leading directories with `root`; None where no
    path or more than one does."""
    depth = {p: len(os.path.commonpath([root, p]).split(os.sep)) for p in paths}
    best = [p for p in paths if depth[p] == max(depth.values(), default=0)]
    return best[0] if len(best) == 1 else None


def _operator_dir(unit: Path) -> Path:
    """The operator directory of a source: the one holding its op_host/, else its own."""
    return next((d.parent for d in unit.parents if d.name == "op_host"), unit.parent)


def _program_siblings(tiling: Path, targets: set[str], usage: cmake.Usage) -> list[Path]:
    """The sources beside another operator's tiling source that join its tiling program, as they
    would in that operator's own package: the build files compile them into the tiling's target
    (where no build file names a target, those named for tiling), they are not the graph or
    aclnn layers', and they add no OpDef (that operator's, not this one's)."""
    return [
        p
        for p in sorted(tiling.parent.glob("*.cpp"))
        if p != tiling
        and not any(k in p.name for k in _HOST_SKIP)
        and (usage.targets_of(p) & targets if targets else "_tiling" in p.name)
        and not _OP_ADD.search(_read(p))
    ]


@functools.lru_cache(maxsize=64)
def _evaluated(repo: Path, operator: Path) -> cmake.Build:
    return cmake.evaluate(repo, operator)


def _tiling_program(
    usage: cmake.Usage,
    targets: set[str],
    source: OpSource,
    hosts: list[str],
    files: dict[str, str],
) -> list[str]:
    """The further host sources of the tiling program: where the build files name the `targets`
    that compile the tiling source, the sources those targets compile (`usage`: as the
    operator's build files are evaluated), and the OpDef the harness reads the arguments from
    wherever it is built; a source built only into other targets (the aclnn API layer's, the
    graph's) or into none is not part of it."""
    if not targets:
        return hosts
    return [
        p
        for p in hosts
        if usage.targets_of(Path(os.path.abspath(source.root / p))) & targets
        or _OP_ADD.search(files[p])
    ]


def reached_tiling_header(package: OperatorPackage) -> str | None:
    """The first header the host tiling source reaches through its includes, as the compiler
    finds them (the package's tree/ files through the build's include roots too), that defines
    tiling data: where the device build takes the TilingData the tiling registers from (ops-nn's
    foreach tilings include a class header of foreach_utils/ whose own header defines it).
    Where none declares it with BEGIN_TILING_DATA_DEF, the first that defines a struct the
    kernel reads its tiling as (`kernel_tiling_structs`): the plain-struct tiling data of
    current CANN, which host and kernel share by including one header."""
    reached = _reached_headers(package)
    if found := next((p for p, t in reached if _TILING_DATA.search(t)), None):
        return found
    names = kernel_tiling_structs(package.files[package.kernel_path])
    return next((p for p, t in reached if names & set(_STRUCT_DEFINED.findall(t))), None)


def _reached_headers(package: OperatorPackage) -> list[tuple[str, str]]:
    """(path, text) of the files the host tiling source includes, directly or not, in the
    breadth-first order the includes reach them."""
    seen, todo, reached = {package.host_path}, [package.host_path], []
    while todo:
        path = todo.pop(0)
        text = package.files[path]
        if path != package.host_path:
            reached.append((path, text))
        for spelled in kernel_view.INCLUDE.findall(text):
            found = kernel_view.resolve_include(package, path, spelled)
            if found and found not in seen:
                seen.add(found)
                todo.append(found)
    return reached


def kernel_tiling_structs(kernel: str) -> set[str]:
    """The structs a kernel source reads its tiling data as: the default it registers
    (REGISTER_TILING_DEFAULT, REGISTER_TILING_FOR_TILINGKEY) and the ones it copies the tiling
    into by name (GET_TILING_DATA_WITH_STRUCT, GET_TILING_DATA_PTR_WITH_STRUCT)."""
    return set(_KERNEL_TILING_STRUCT.findall(kernel))


@functools.lru_cache(maxsize=8)
def _repository_files(repo: Path) -> tuple[str, ...]:
    """Every source file of a repository, as "/<path>": an unfound include counts as the
    repository's (an include root its build files did not give) only where some file of it ends
    with the include's spelling; the rest are the toolkit's, which the simulator lacks."""
    return tuple(
        "/" + p.relative_to(repo).as_posix()
        for p in repo.rglob("*")
        if p.suffix in SOURCE_SUFFIXES and ".git" not in p.parts and p.is_file()
    )


def rename_args(spec: OperatorSpec, host_text: str) -> OperatorSpec:
    """The spec with its inputs and outputs renamed, by position, to the OpDef's names (kernels
    see them as DTYPE_<NAME>); unchanged where the counts differ. Attrs are positional already.

    An OpDef Output named like an Input is a ref op: the kernel parameter (and DTYPE macro) of
    the output is `<name>_ref`, as the toolchain names it."""
    ins = [n for kind, n in _ARG.findall(host_text) if kind == "Input"]
    outs = [n for kind, n in _ARG.findall(host_text) if kind == "Output"]
    # A list (dynamic) parameter is one OpDef argument: the list is renamed, not its members.
    spec_ins, spec_outs = spec.params(spec.inputs), spec.params(spec.outputs)
    names: dict[str, str] = {}
    if len(ins) == len(spec_ins):
        names |= {name: n for (name, _), n in zip(spec_ins, ins)}
    if len(outs) == len(spec_outs):
        names |= {
            name: f"{n}_ref" if n in ins and not members[0].dynamic else n
            for (name, members), n in zip(spec_outs, outs)
        }
    data = spec.model_dump()
    # An in-place output is a kernel parameter only where the OpDef declares it as an Output.
    for arg in data["outputs"]:
        if arg["alias"]:
            arg["param"] = len(outs) == len(spec_outs)
    if len(set(names.values())) != len(names) or all(k == v for k, v in names.items()):
        return OperatorSpec.model_validate(data)
    for group in ("inputs", "outputs"):
        for arg in data[group]:
            if arg["dynamic"]:
                arg["dynamic"] = names.get(arg["dynamic"], arg["dynamic"])
                continue
            arg["name"] = names.get(arg["name"], arg["name"])
            arg["alias"] = names.get(arg["alias"], arg["alias"])
    for case in data["cases"]:
        for key in ("shapes", "dtypes", "values", "ranges", "points", "broadcast"):
            case[key] = {names.get(k, k): v for k, v in case[key].items()}
        case["absent"] = [names.get(k, k) for k in case["absent"]]
    return OperatorSpec.model_validate(data)


GE_NAMES = {ge: name for name, ge in GE_DTYPES.items()}


def supported_cases(spec: OperatorSpec, host_text: str) -> OperatorSpec:
    """The spec with only the cases whose input dtypes the implementation's OpDef lists (one
    spec serves implementations that support different dtypes); the first case left becomes the
    bench case if the bench case went."""
    lists = [
        {GE_NAMES.get(t.strip().removeprefix("ge::"), "") for t in m.split(",")}
        for m in _DTYPES.findall(host_text)
    ]
    params = spec.params(spec.inputs)
    if len(lists) < len(params):
        return spec
    cases = [
        c
        for c in spec.cases
        if all(
            spec.arg_dtype(c, a.name) in ok
            for (_, members), ok in zip(params, lists)
            for a in members
        )
    ]
    if not cases or len(cases) == len(spec.cases):
        return spec
    if not any(c.bench for c in cases):
        cases[0] = cases[0].model_copy(update={"bench": True})
    return spec.model_copy(update={"cases": cases})
