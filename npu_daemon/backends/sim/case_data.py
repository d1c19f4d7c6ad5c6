"""A case's inputs and reference outputs, cached on disk by content.

Both depend only on the spec, the reference function, the case and the seed, never on the
candidate, so every candidate of an op shares them and pays only for its own compile, run and
compare. Entries live in the sim cache (`cases/`), bounded in bytes (least recently used go
first). The bytes held are kept as a running total (`cases/usage`), and the entries are scanned
only when it passes the bound: a scan reads every entry's manifest, seconds for a full cache.
The harness reads the cached input files in place; reference outputs are read only by the
daemon, after the run, and never enter a candidate's directory.

A candidate runs as the daemon's user, so it could reach the cache. Each entry records the
inode, size and change time of its files and is rebuilt when they differ: writing to a file or
changing its mode changes its change time, so a tampered entry is never used.

Fresh draws (the daemon's workers: `fresh=True`). A failing evaluation reports where and by how
much its outputs were wrong; with the same inputs in the next evaluation, a case with few output
elements would give its answer away in a couple of charged failures (a scalar loss: |out - ref|
for the output the kernel chose). So a case whose outputs are few (`FRESH_OUTPUT_ELEMENTS`) or
whose data are cheap to draw (`FRESH_BYTES`) is drawn for each candidate afresh: its seed also
keys on the candidate's content hash, its data live in a directory of the evaluation's own (not
the shared cache) and go with it. Other cases (the large bench cases: millions of outputs, which
no budget of failures can learn) are kept across evaluations as above, and the kernel's own
output from their runs is not returned (`CaseData.kernel_log`), since a kernel could print them.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import json
import math
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from ascend_core import identity
from ascend_core.package import DTYPE_BYTES, Case, OperatorPackage
from ascend_core.protocol import SAMPLED_PAST_BYTES
from npu_daemon import checker, references
from npu_daemon.backends.common import build

# How entries are generated and laid out (file modes included): a change to either makes new entries.
GENERATOR_SOURCE = Path(checker.__file__).read_bytes() + Path(__file__).read_bytes()
DEFAULT_LIMIT_MB = 4096
LOW_WATER = 0.9  # an eviction frees down to this share of the bound, so the next scan is far off
# Fresh draws: a case with at most this many output elements (a loss, a norm: learnable from a few
# failures' error sizes), or at most this many bytes of inputs and outputs (microseconds to draw).
FRESH_OUTPUT_ELEMENTS = 4096
FRESH_BYTES = 1 << 20
LOG_CHARS = 4000  # the kernel's own output returned, at most (its tail)
# A number in the harness's text (decimal, hexadecimal, a float, its sign), not a digit inside a
# word (fp16).
NUMBER = re.compile(r"-?\b(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\b")
WITHHELD_NUMBERS = " [numbers withheld: this case's inputs are kept across evaluations]"


def limit_bytes() -> int:
    return int(os.environ.get("ASCEND_GYM_SIM_CASE_CACHE_MB", DEFAULT_LIMIT_MB)) * 1024 * 1024


def _reference_source(pkg: OperatorPackage) -> bytes:
    """The source of the reference's module, from the package or from the installed module."""
    module_name = pkg.spec.reference.split(":")[0]
    path = module_name.replace(".", "/") + ".py"
    if path in pkg.files:
        return pkg.files[path].encode()
    found = importlib.util.find_spec(module_name)
    return Path(found.origin).read_bytes() if found and found.origin else module_name.encode()


def inputs_key(pkg: OperatorPackage, case: Case, seed: int) -> str:
    """Everything the inputs (and, with the reference, the outputs) are computed from."""
    hook = references.input_hook_source(pkg)  # a golden preparing its inputs (cann-bench)
    return identity.digest(
        "case-inputs",
        pkg.spec.model_dump_json(),
        case.model_dump_json(),
        seed,
        GENERATOR_SOURCE,
        np.__version__,
        *([hook] if hook else []),
    )[:32]


def root() -> Path:
    path = build.cache_root() / "cases"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _stamp(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_ino, st.st_size, st.st_ctime_ns]


def _intact(entry: Path) -> bool:
    try:
        manifest = json.loads((entry / "manifest.json").read_text())
        return all(_stamp(entry / name) == stamp for name, stamp in manifest["files"].items())
    except (OSError, ValueError, KeyError):
        return False


@contextlib.contextmanager
def _entry(key: str, produce: Callable[[Path], None]) -> Iterator[Path]:
    """The entry directory for key, produced if absent or tampered; held (shared lock) while in use."""
    entry = root() / key
    with (root() / f"{key}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        if not _intact(entry):
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not _intact(entry):
                _create(entry, produce)
            fcntl.flock(lock, fcntl.LOCK_SH)
        os.utime(entry / "manifest.json")  # recently used: evicted last
        yield entry


def _create(entry: Path, produce: Callable[[Path], None]) -> None:
    tmp = entry.with_name(f"{entry.name}.tmp{os.getpid()}-{threading.get_ident()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        produce(tmp)
        _seal(tmp)
        shutil.rmtree(entry, ignore_errors=True)
        os.rename(tmp, entry)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    files = {f.name: _stamp(f) for f in entry.iterdir()}
    size = sum(s[1] for s in files.values())
    (entry / "manifest.json").write_text(json.dumps({"files": files, "bytes": size}))
    _account(entry.name, size)


def _seal(entry: Path) -> None:
    """Inputs are read in place by the candidate's harness; reference outputs only by the daemon,
    after the run: a candidate (another uid) must not be able to open them."""
    for f in entry.iterdir():
        f.chmod(0o400 if f.name.startswith("out_") else 0o444)


@contextlib.contextmanager
def _own(produce: Callable[[Path], None]) -> Iterator[Path]:
    """A directory of one evaluation's own under the cache root (traversable, not listable, by
    candidates), produced, sealed, and removed when the block ends."""
    entry = Path(tempfile.mkdtemp(prefix="own-", dir=root()))
    try:
        entry.chmod(0o711)
        produce(entry)
        _seal(entry)
        yield entry
    finally:
        shutil.rmtree(entry, ignore_errors=True)


def _account(keep: str, added: int) -> None:
    """Add a new entry's bytes to the running total; past the bound, evict down to LOW_WATER of
    it and keep the recount. A total that cannot be right (absent in a cache from before it was
    kept, or damaged) is recounted the same way."""
    with (root() / "usage.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        usage = root() / "usage"
        try:
            total = int(usage.read_text()) + added
        except (OSError, ValueError):
            total = -1
        if not 0 <= total <= limit_bytes():
            total = _evict(keep, int(LOW_WATER * limit_bytes()))
        usage.write_text(str(total))


def _evict(keep: str, target: int) -> int:
    """Drop the least recently used entries not in use until the cache holds at most `target`
    bytes (or nothing more can go); returns the bytes it still holds."""
    entries = []
    for manifest in root().glob("*/manifest.json"):
        with contextlib.suppress(OSError, ValueError):
            entries.append(
                (
                    manifest.stat().st_mtime_ns,
                    json.loads(manifest.read_text())["bytes"],
                    manifest.parent,
                )
            )
    total = sum(size for _, size, _ in entries)
    for _, size, entry in sorted(entries, key=lambda e: e[0]):
        if total <= target:
            break
        if entry.name == keep:
            continue
        with (root() / f"{entry.name}.lock").open("a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a case is reading it
            shutil.rmtree(entry, ignore_errors=True)
            total -= size
    return total


def streamed(pkg: OperatorPackage, case: Case) -> bool:
    """A checked run streams the case's outputs to the daemon (too large for files), which
    compares them a piece at a time; an element-wise reference is then computed a piece at a time
    too, any other whole."""
    return pkg.spec.output_bytes(case) > SAMPLED_PAST_BYTES


def drawn_fresh(pkg: OperatorPackage, case: Case) -> bool:
    """Whether the daemon draws this case afresh for each candidate (see the module's doc)."""
    spec = pkg.spec
    elements = sum(math.prod(spec.arg_shape(case, o.name)) for o in spec.outputs)
    inputs = sum(
        math.prod(spec.arg_shape(case, a.name)) * DTYPE_BYTES[spec.arg_dtype(case, a.name)]
        for a in spec.inputs
        if a.name not in case.absent
    )
    return elements <= FRESH_OUTPUT_ELEMENTS or inputs + spec.output_bytes(case) <= FRESH_BYTES


def candidate_seed(seed: int, pkg: OperatorPackage) -> int:
    """A fresh-drawn case's seed: the evaluation's seed keyed on the candidate, so two candidates
    never see the same inputs (and a researcher with the secret, the seed and the candidate can
    draw them again)."""
    return int(identity.digest("case-candidate", seed, pkg.content_hash())[:16], 16)


def judged_seed(seed: int, pkg: OperatorPackage) -> int:
    """A kept case's seed: the evaluation's for the daemon's own reference, keyed on the
    reference's source for a client's. A client's reference runs on the inputs it is given and
    may report them (its failure is the REJECTED message), so a package carrying a suite
    operator's spec with a reference of its own must not draw the inputs that operator's
    candidates are judged on."""
    if references.is_trusted(pkg):
        return seed
    return int(identity.digest("case-reference", seed, _reference_source(pkg))[:16], 16)


class CaseData:
    """Inputs as files the harness reads in place; reference outputs computed on first use.
    `own`: the data are this evaluation's alone (a fresh draw), else they are kept across
    evaluations (`withheld`: and the daemon does not return what the kernel prints of them)."""

    def __init__(
        self,
        pkg: OperatorPackage,
        case: Case,
        inputs: Path,
        stack: contextlib.ExitStack,
        own: bool = False,
        withheld: bool = False,
    ):
        self.pkg, self.case = pkg, case
        self.inputs_dir, self._stack = inputs, stack
        self.own, self.withheld = own, withheld

    def kernel_log(self, text: str) -> str:
        """What comes back of the kernel's own stdout and stderr: its tail, or, when this case's
        inputs are kept across evaluations, one line saying how much was held back (a kernel
        could print inputs or outputs that hold for the next evaluation too)."""
        if self.withheld and text:
            return (
                f"[{len(text.encode())} bytes of the kernel's output on case {self.case.name} not "
                "returned: this case's inputs are kept across evaluations]"
            )
        return text[-LOG_CHARS:]

    def run_text(self, text: str) -> str:
        """What comes back of the harness's text about the run (its failure, its warnings, why a
        sampled run ran whole): as written, or, when this case's inputs are kept across
        evaluations, with its numbers withheld. The emulation quotes numbers the kernel chose (an
        index, an address, a fault code, a line), and a kernel can choose them from its inputs.
        Where the tiling read this case's kept inputs (the spec's value_depend ones), none of it
        comes back: the tiling's own text (an exception's, a warning record it forged) is in its
        words, which spell values in letters as well as in digits."""
        if not self.withheld:
            return text
        if any(a.value_depend and a.name not in self.case.absent for a in self.pkg.spec.inputs):
            return (
                f"[{len(text.encode())} bytes of text on case {self.case.name} not returned: its"
                " tiling read this case's inputs, which are kept across evaluations]"
            )
        return NUMBER.sub("#", text) + WITHHELD_NUMBERS

    def input_path(self, name: str) -> Path:
        return self.inputs_dir / f"in_{name}.bin"

    def inputs(self) -> dict[str, np.ndarray]:
        return references.load_inputs(self.pkg, self.case, self.inputs_dir)

    def reference(self, timeout_s: float) -> list[np.ndarray]:
        """The reference outputs as storage arrays (memory-mapped, read-only); a client's
        reference gets `timeout_s` to compute them."""
        key = identity.digest(
            "case-reference",
            self.inputs_dir.name,
            _reference_source(self.pkg),
            self.pkg.spec.reference,
        )[:32]

        def produce(tmp: Path) -> None:
            # In the daemon for a suite operator, in the sandbox for a client's own reference.
            if streamed(self.pkg, self.case) and self.pkg.spec.elementwise(self.case):
                references.write_reference_pieces(
                    self.pkg, self.case, self.inputs_dir, timeout_s, tmp
                )
                return
            outputs = references.reference_outputs(self.pkg, self.case, self.inputs_dir, timeout_s)
            for i, out in enumerate(outputs):
                np.save(tmp / f"out_{i}.npy", np.ma.getdata(out))
                if np.ma.isMA(out):  # elements the operator leaves undefined
                    np.save(tmp / f"out_{i}_mask.npy", np.ma.getmaskarray(out))

        entry = self._stack.enter_context(_own(produce) if self.own else _entry(key, produce))
        outs = []
        for i in range(len(self.pkg.spec.outputs)):
            out = np.load(entry / f"out_{i}.npy", mmap_mode="r")
            if (entry / f"out_{i}_mask.npy").exists():
                out = np.ma.array(out, mask=np.load(entry / f"out_{i}_mask.npy"))
            outs.append(out)
        return outs


@contextlib.contextmanager
def case_data(
    pkg: OperatorPackage, case: Case, seed: int, fresh: bool = False
) -> Iterator[CaseData]:
    """The case's data, held (not evicted) until the block ends. `fresh` (the daemon's workers):
    a case `drawn_fresh` is drawn for this candidate alone, a kept one for the reference judging
    it (`judged_seed`)."""

    with contextlib.ExitStack() as stack:
        own = fresh and drawn_fresh(pkg, case)
        draw_seed = seed
        if fresh:
            draw_seed = candidate_seed(seed, pkg) if own else judged_seed(seed, pkg)

        def produce(tmp: Path) -> None:
            checker.write_inputs(pkg, case, draw_seed, tmp)
            references.prepare_inputs(pkg, case, tmp)  # the golden's get_input, if it has one

        if own:
            entry = stack.enter_context(_own(produce))
        else:
            entry = stack.enter_context(_entry(inputs_key(pkg, case, draw_seed), produce))
        yield CaseData(pkg, case, entry, stack, own=own, withheld=fresh and not own)
