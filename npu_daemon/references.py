"""References are trusted code: which one judges a candidate, and where it runs.

- A package that is a suite operator is judged by the daemon's own copy of that operator: its
  spec (cases, shapes, tolerances, bench case) and its reference replace the client's, so no
  client can loosen a tolerance or shrink the bench case of a suite operator. Only the
  candidate's sources (op_kernel/, op_host/) are the client's. Which operator a package is
  (`suite_twin`): the one its op:// URI names in a suite the daemon holds; none if its URI names
  a suite the daemon does not hold (an imported operator may share a suite operator's name);
  without an op:// URI, the built-in suite's operator of the same name only when the package
  carries its spec and reference unchanged (the suite's by content). Any other package is
  judged by the spec and reference it carries: a copy of add with other shapes or another
  reference is its own operator, never silently add.
- Any other reference is the client's code: it runs in a sandboxed child (the worker's
  unprivileged user, no network, read-only filesystem, no inherited descriptor) of the worker's
  reference host (reference_host.py), never in the daemon nor in a fork of its worker, whose
  memory holds the case secret, and its outputs come back as files of an exact size.
- A PyTorch golden (`reference_kind = "torch"`, cann-bench's golden.py) is always the second
  kind, even in a suite the daemon holds: it is third-party code the importer copied, so it runs
  sandboxed with CPU torch (imported in the reference host before the fork, lazily: the daemon-only
  install has no torch), one thread, the same time and memory budget.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from numpy.lib import format as npy  # imported here: the sandboxed child writes .npy files

from ascend_core import suite
from ascend_core.package import Case, OperatorPackage
from npu_daemon import candidate_files, checker, reference_host, sandbox

CANDIDATE_FOLDERS = ("op_kernel/", "op_host/")


def allowed_modules() -> str:
    """The modules a client's reference may import, for a message."""
    return ", ".join(("numpy", *reference_host.preload_reference_modules()))


# How every failure of a reference (or of its get_input) in an evaluation begins, in its message
# and so in the REJECTED answer: a caller scoring case by case tells it from a refusal.
REFERENCE_FAILED = "the package's reference"


class ReferenceFailed(Exception):
    """The client's reference raised, ran too long or returned the wrong outputs."""


OP_URI = re.compile(r"op://([A-Za-z0-9._-]+)/(level[0-9]+/[A-Za-z_][A-Za-z0-9_]*)")


@functools.lru_cache(maxsize=1024)  # any name may arrive
def suite_operator(name: str) -> OperatorPackage | None:
    """The built-in suite's operator of that name (its directory is `level*/<name>`), loaded once."""
    for op_dir in sorted(suite.SUITE_ROOT.glob(f"level*/{name}")):
        if (op_dir / "op.toml").is_file() and name.isidentifier():
            pkg = suite.resolve(f"{op_dir.parent.name}/{name}")
            return pkg if pkg.spec.name == name else None
    return None


@functools.lru_cache(maxsize=1024)
def _held(uri: str) -> OperatorPackage | None:
    """The operator an op:// URI names in a suite this daemon holds (a name and level only: no
    path reaches outside the suite's directory), loaded once."""
    match = OP_URI.fullmatch(uri)
    if match is None:
        return None
    try:
        return suite.resolve(uri)
    except KeyError:  # a suite (or an operator) this daemon does not hold
        return None


def _same_content(own: OperatorPackage, pkg: OperatorPackage) -> bool:
    """`pkg` carries `own`'s spec and every file of it but the candidate's sources."""
    return pkg.spec == own.spec and all(
        pkg.files.get(p) == t for p, t in own.files.items() if not p.startswith(CANDIDATE_FOLDERS)
    )


def suite_twin(pkg: OperatorPackage) -> OperatorPackage | None:
    """The daemon's own copy of the suite operator `pkg` is, or None for the client's own operator."""
    if pkg.uri.startswith("op://"):
        return _held(pkg.uri)
    own = suite_operator(pkg.spec.name)
    return own if own is not None and _same_content(own, pkg) else None


def trusted_package(pkg: OperatorPackage) -> OperatorPackage:
    """The package to evaluate: a suite operator's candidate sources under the daemon's own spec
    and reference; any other package as sent."""
    own = suite_twin(pkg)
    if own is None:
        return pkg
    candidate = {p: t for p, t in pkg.files.items() if p.startswith(CANDIDATE_FOLDERS)}
    rest = {p: t for p, t in own.files.items() if not p.startswith(CANDIDATE_FOLDERS)}
    return OperatorPackage(spec=own.spec, files={**rest, **candidate}, uri=own.uri)


def is_trusted(pkg: OperatorPackage) -> bool:
    """Its spec and reference are the daemon's own (a suite operator after `trusted_package`)."""
    own = suite_twin(pkg)
    return own is not None and _same_content(own, pkg)


def in_process(pkg: OperatorPackage) -> bool:
    """The reference may run in the worker itself: the daemon's own numpy reference."""
    return pkg.spec.reference_kind == "numpy" and is_trusted(pkg)


def reference_outputs(
    pkg: OperatorPackage, case: Case, inputs_dir: Path, timeout_s: float
) -> list[np.ndarray]:
    """The reference's outputs (storage arrays) for the case whose inputs are in `inputs_dir`.

    A client's reference gets `timeout_s` (the request's run timeout, counted in the worker's
    deadline): one that sleeps past it is a charged REJECTED, never a worker overrun."""
    inputs = load_inputs(pkg, case, inputs_dir)
    if in_process(pkg):
        return checker.reference_outputs(pkg, case, inputs)

    with _sandboxed(_outputs, (pkg, case, inputs), timeout_s, pkg, address_space_mb=16384) as work:
        outputs = []
        for i, arg in enumerate(pkg.spec.outputs):
            dtype = np.dtype(checker.STORAGE[pkg.spec.arg_dtype(case, arg.name)])
            shape = pkg.spec.arg_shape(case, arg.name)
            count = int(np.prod(shape))
            try:
                raw = candidate_files.read_exact(work / f"out_{i}.bin", count * dtype.itemsize)
                mask = candidate_files.read_exact(work / f"out_{i}.mask", count)
            except (candidate_files.Tampered, OSError) as e:
                raise ReferenceFailed(f"{REFERENCE_FAILED} output {arg.name}: {e}") from None
            out = np.frombuffer(raw, dtype=dtype).reshape(shape)
            undefined = np.frombuffer(mask, dtype=np.uint8).reshape(shape).astype(bool)
            outputs.append(np.ma.array(out, mask=undefined) if undefined.any() else out)
        return outputs


def _outputs(pkg: OperatorPackage, case: Case, inputs: dict[str, np.ndarray]) -> None:
    """In the sandboxed child (the client's code runs only there): each output and its mask of
    undefined elements as raw files."""
    for i, out in enumerate(checker.reference_outputs(pkg, case, inputs)):
        np.ascontiguousarray(np.ma.getdata(out)).tofile(f"out_{i}.bin")
        np.ma.getmaskarray(out).astype(np.uint8).tofile(f"out_{i}.mask")


@contextlib.contextmanager
def _sandboxed(
    compute: Callable[..., None],
    args: tuple,
    timeout_s: float,
    pkg: OperatorPackage,
    wall_s: float | None = None,
    **limits: int,
) -> Iterator[Path]:
    """Run a client's reference code (`compute(*args)`, a module-level function writing into its
    working directory) in the sandbox with `timeout_s` of CPU and of wall time (`wall_s` of wall
    time where given) and `limits`, in a child of the reference host (reference_host.py: never a
    fork of this worker, whose memory holds the case secret); yields that directory. Its failure
    is ReferenceFailed."""
    with tempfile.TemporaryDirectory(prefix="reference-") as tmp:
        work = Path(tmp)
        done = reference_host.call(
            compute,
            args,
            work,
            wall_s or timeout_s,
            sandbox.Limits(cpu_s=int(timeout_s) + 1, **limits),
            torch=pkg.spec.reference_kind == "torch",
        )
        if done.timed_out or done.returncode != 0:
            why = "timed out" if done.timed_out else (done.stderr.strip().splitlines() or ["?"])[-1]
            if "ModuleNotFoundError" in why or "ImportError" in why:  # e.g. torch, needing glob
                why = f"{why[:300]} (a reference may import only {allowed_modules()})"
            if "MemoryError" in why and sandbox.memory_cap_mb() is not None:
                why = f"{why[:300]} (the daemon's memory bound: {sandbox.memory_cap_mb()} MiB a process)"
            raise ReferenceFailed(f"{REFERENCE_FAILED} failed: {why[:700]}")
        yield work


def write_reference_pieces(
    pkg: OperatorPackage, case: Case, inputs_dir: Path, timeout_s: float, into: Path
) -> None:
    """The reference's outputs of an element-wise case (`OperatorSpec.elementwise`) as
    `out_<i>.npy` in `into` (and `out_<i>_mask.npy` where it leaves elements undefined), computed
    `checker.CHUNK` elements at a time: no tensor of a benchmark-sized case is ever whole in
    memory. A client's reference runs in the sandbox as `reference_outputs` runs it; its files
    come back checked (dtype, shape) and copied, so the daemon's copies are never the client's."""
    if in_process(pkg):
        _pieces(pkg, case, inputs_dir, into, checker.CHUNK)
        return
    spec = pkg.spec
    elements = sum(math.prod(spec.arg_shape(case, a.name)) for a in spec.outputs)
    outputs_mb = (spec.output_bytes(case) + elements) >> 20  # the outputs and a mask byte each
    inputs_mb = sum(f.stat().st_size for f in inputs_dir.glob("in_*.bin")) >> 20
    with _sandboxed(
        _pieces_here,
        (pkg, case, inputs_dir, checker.CHUNK),
        timeout_s,
        pkg,
        address_space_mb=16384 + inputs_mb + outputs_mb,
        mapped_mb=inputs_mb + outputs_mb,  # inputs and outputs mapped
        file_size_mb=outputs_mb + 1,
    ) as work:
        for i, arg in enumerate(spec.outputs):
            dtype = np.dtype(checker.STORAGE[spec.arg_dtype(case, arg.name)])
            shape = tuple(spec.arg_shape(case, arg.name))
            _copy_npy(work / f"out_{i}.npy", into, dtype, shape, arg.name)
            if (work / f"out_{i}_mask.npy").exists():
                _copy_npy(work / f"out_{i}_mask.npy", into, np.dtype(bool), shape, arg.name)


def _copy_npy(path: Path, into: Path, dtype: np.dtype, shape: tuple, arg: str) -> None:
    """Copy a .npy file the client's reference wrote, refusing a link, another dtype or shape,
    or a size that is not the header's."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise ReferenceFailed(f"{REFERENCE_FAILED} output {arg}: {path.name}: {e}") from None
    with os.fdopen(fd, "rb") as f:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ValueError("not a regular file")
            version = npy.read_magic(f)
            read_header = (
                npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
            )
            got_shape, fortran, got_dtype = read_header(f)
            size = f.tell() + math.prod(shape) * dtype.itemsize
            if (got_shape, fortran, got_dtype) != (shape, False, dtype):
                raise ValueError(f"{got_dtype}{list(got_shape)}, expected {dtype}{list(shape)}")
            if os.fstat(fd).st_size != size:
                raise ValueError(f"{os.fstat(fd).st_size} bytes, expected {size}")
        except ValueError as e:
            raise ReferenceFailed(f"{REFERENCE_FAILED} output {arg}: {path.name}: {e}") from None
        f.seek(0)
        with (into / path.name).open("wb") as out:
            shutil.copyfileobj(f, out, 1 << 24)


def _pieces_here(pkg: OperatorPackage, case: Case, inputs_dir: Path, chunk: int) -> None:
    """In the sandboxed child: `_pieces` into its working directory."""
    _pieces(pkg, case, inputs_dir, Path.cwd(), chunk)


def _pieces(pkg: OperatorPackage, case: Case, inputs_dir: Path, into: Path, chunk: int) -> None:
    """Fill `into` with the outputs (and masks) a piece of the flat inputs at a time."""
    spec = pkg.spec
    inputs = {
        name: array.reshape(-1)
        for name, array in load_inputs(pkg, case, inputs_dir, mmap=True).items()
    }
    outs = [
        npy.open_memmap(
            into / f"out_{i}.npy",
            mode="w+",
            dtype=checker.STORAGE[spec.arg_dtype(case, arg.name)],
            shape=tuple(spec.arg_shape(case, arg.name)),
        ).reshape(-1)
        for i, arg in enumerate(spec.outputs)
    ]
    masks: dict[int, np.ndarray] = {}
    size = outs[0].size
    for lo in range(0, size, chunk):  # the worker's piece size, passed to the sandboxed child
        n = min(chunk, size - lo)
        piece = {name: array[lo : lo + n] for name, array in inputs.items()}
        for i, out in enumerate(checker.reference_outputs(pkg, case, piece, n)):
            outs[i][lo : lo + n] = np.ma.getdata(out)
            if np.ma.isMA(out):  # elements the operator leaves undefined: a mask, made on first use
                if i not in masks:
                    masks[i] = npy.open_memmap(
                        into / f"out_{i}_mask.npy",
                        mode="w+",
                        dtype=bool,
                        shape=tuple(spec.arg_shape(case, spec.outputs[i].name)),
                    ).reshape(-1)
                masks[i][lo : lo + n] = np.ma.getmaskarray(out)
    for array in [*outs, *masks.values()]:
        array.flush()


def load_inputs(
    pkg: OperatorPackage, case: Case, inputs_dir: Path, mmap: bool = False, drawn: bool = False
) -> dict[str, np.ndarray]:
    """The case's inputs from their files in `inputs_dir` (`in_<name>.bin`, storage dtype), as
    the kernel gets them, or, `drawn`, as drawn before the golden's get_input prepares them."""
    spec = pkg.spec
    read = functools.partial(np.memmap, mode="r") if mmap else np.fromfile
    shape = spec.draw_shape if drawn else spec.arg_shape
    return {
        arg.name: read(
            inputs_dir / f"in_{arg.name}.bin", dtype=checker.STORAGE[spec.arg_dtype(case, arg.name)]
        ).reshape(shape(case, arg.name))
        for arg in spec.inputs
        if arg.name not in case.absent  # an absent optional input has no file
    }


SIGNATURE_BYTES = 1 << 20  # the probe's answer: a few shapes per case


def _signature_values(pkg: OperatorPackage, case: Case, meta: bool) -> list:
    """The golden's arguments for `output_signatures`: meta views of one zero where it reads
    shapes only, else the case's inputs drawn with seed 0 (and its get_input of them)."""
    if meta:  # shapes only: views of one zero, nothing allocated
        return [
            None
            if a.name in case.absent
            else np.broadcast_to(
                np.zeros((), checker.STORAGE[pkg.spec.arg_dtype(case, a.name)]),
                pkg.spec.arg_shape(case, a.name),
            )
            for a in pkg.spec.inputs
        ]
    from npu_daemon import torch_golden

    drawn = checker.make_inputs(pkg, case, seed=0)
    values = [
        checker.to_values(drawn[a.name], pkg.spec.arg_dtype(case, a.name))
        if a.name in drawn
        else None
        for a in pkg.spec.inputs
    ]
    hook = torch_golden.function(pkg, "get_input") if input_hook_source(pkg) else None
    return (
        values
        if hook is None
        else torch_golden.prepared_inputs(hook, pkg.reference(), pkg.spec, case, values)
    )


def _given_shapes(pkg: OperatorPackage, case: Case, values: list) -> dict[str, list[int]]:
    """The inputs the golden's get_input answered at another shape than the case declares (the
    shape drawn): cann-bench hands the kernel what get_input answers, packed int4 as int32."""
    return {
        a.name: list(v.shape)
        for a, v in zip(pkg.spec.inputs, values)
        if v is not None and list(v.shape) != pkg.spec.arg_shape(case, a.name)
    }


def _as_given(prepared: list, meta: bool) -> list:
    """The prepared inputs, whether the probe asks for meta views or values."""
    return prepared


def _probe_signatures(pkg: OperatorPackage) -> None:
    """In the sandboxed child: each case's output signatures into signatures.json, or, for a
    case the golden raises on, that error's line (the case is left out, the others stand); and
    the inputs its get_input reshapes, per case, into given.json."""
    from npu_daemon import torch_golden

    fn = pkg.reference()
    found: dict[str, object] = {}
    given: dict[str, dict[str, list[int]]] = {}
    hook = bool(input_hook_source(pkg))
    for case in pkg.spec.cases:
        try:
            values = functools.partial(_signature_values, pkg, case)
            if hook:  # drawn and prepared once: its shapes may not be the declared ones
                prepared = values(meta=False)
                if reshaped := _given_shapes(pkg, case, prepared):
                    given[case.name] = reshaped
                values = functools.partial(_as_given, prepared)
            found[case.name] = torch_golden.output_signature(fn, pkg.spec, case, values)
        except Exception as e:  # noqa: BLE001 - the golden's own failure on this case
            found[case.name] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
    Path("signatures.json").write_text(json.dumps(found))
    Path("given.json").write_text(json.dumps(given))


def _probe_answer(work: Path, name: str) -> object:
    """One JSON file the probe's child wrote, read as a regular file of bounded size."""
    fd = os.open(work / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{name} is not a regular file")
        return json.loads(candidate_files.read_descriptor(fd, SIGNATURE_BYTES))
    finally:
        os.close(fd)


Signatures = dict[str, list[tuple[list[int], str]] | str]


def output_signatures(
    pkg: OperatorPackage, timeout_s: float, wall_s: float | None = None
) -> tuple[Signatures, dict[str, dict[str, list[int]]]]:
    """(shape, dtype) of each output of a torch golden, per case: what cann-bench's cases leave
    to the golden; for a case it raises on, the error's line. And per case the inputs its
    get_input answers at another shape than the one declared (drawn): `Case.drawn`. The golden
    runs sandboxed as every client reference does, within `timeout_s` of CPU for all cases (and
    `wall_s` of wall time, default the same), on meta tensors where it can and on the case's
    inputs where it reads values."""
    with _sandboxed(
        _probe_signatures, (pkg,), timeout_s, pkg, wall_s, address_space_mb=16384, file_size_mb=2
    ) as work:
        try:
            found = _probe_answer(work, "signatures.json")
            given = _probe_answer(work, "given.json")
            signatures = {
                case: str(outs)
                if isinstance(outs, str)
                else [(list(map(int, shape)), str(dtype)) for shape, dtype in outs]
                for case, outs in found.items()
            }
            reshaped = {
                case: {str(name): list(map(int, shape)) for name, shape in shapes.items()}
                for case, shapes in given.items()
            }
            return signatures, reshaped
        except (OSError, ValueError, TypeError, AttributeError) as e:
            raise ReferenceFailed(f"the golden's output shapes: {e}") from None


INPUT_HOOK_S = 60.0  # a golden's get_input, per case (its inputs are drawn once, then cached)
_HOOK = re.compile(r"^def\s+get_input\s*\(", re.M)


def input_hook_source(pkg: OperatorPackage) -> str:
    """The golden's source when it prepares its inputs (cann-bench's `get_input`), else ""."""
    if pkg.spec.reference_kind != "torch":
        return ""
    source = pkg.files.get(pkg.spec.reference.split(":")[0].replace(".", "/") + ".py", "")
    return source if _HOOK.search(source) else ""


def _prepared(pkg: OperatorPackage, case: Case, inputs: dict[str, np.ndarray]) -> None:
    """In the sandboxed child: the golden's get_input of the drawn inputs, as `in_<name>.bin`."""
    from npu_daemon import torch_golden

    spec = pkg.spec
    hook = torch_golden.function(pkg, "get_input")
    values = [
        checker.to_values(inputs[a.name], spec.arg_dtype(case, a.name))
        if a.name in inputs
        else None
        for a in spec.inputs
    ]
    out = torch_golden.prepared_inputs(hook, pkg.reference(), spec, case, values)
    for arg, value in zip(spec.inputs, out):
        if arg.name in inputs:
            want = tuple(spec.arg_shape(case, arg.name))
            if value is None or tuple(value.shape) != want:
                got = None if value is None else list(value.shape)
                raise ValueError(f"get_input gave {arg.name} shape {got}, not {list(want)}")
            storage = checker.to_storage(
                np.ascontiguousarray(value), spec.arg_dtype(case, arg.name)
            )
            storage.tofile(f"in_{arg.name}.bin")


def prepare_inputs(pkg: OperatorPackage, case: Case, inputs_dir: Path) -> None:
    """Replace the drawn inputs in `inputs_dir` by the golden's `get_input` of them, where it has
    one: run sandboxed like the golden itself, its answers taken back as files of each input's
    exact size (its dtype and shape), so the candidate and the golden see the same inputs."""
    if not input_hook_source(pkg):
        if case.drawn:  # drawn at a shape nothing would make the kernel's
            names = ", ".join(sorted(case.drawn))
            raise ReferenceFailed(
                f"{REFERENCE_FAILED} has no get_input to make {names} of case "
                f"{case.name} from the shape drawn"
            )
        return
    spec = pkg.spec
    # read here: the child may not read the cache
    inputs = load_inputs(pkg, case, inputs_dir, drawn=True)
    present = [a for a in spec.inputs if a.name not in case.absent]

    with _sandboxed(
        _prepared, (pkg, case, inputs), INPUT_HOOK_S, pkg, address_space_mb=16384
    ) as work:
        for arg in present:
            size = math.prod(spec.arg_shape(case, arg.name)) * inputs[arg.name].itemsize
            try:
                raw = candidate_files.read_exact(work / f"in_{arg.name}.bin", size)
            except (candidate_files.Tampered, OSError) as e:
                raise ReferenceFailed(f"{REFERENCE_FAILED}'s get_input {arg.name}: {e}") from None
            (inputs_dir / f"in_{arg.name}.bin").write_bytes(raw)
