"""CPU of a fresh evaluation of level1/add (a kernel edited by a unique comment, so the kernel
recompiles and the tiling comes from the object cache; one correctness case) through the one
evaluation entry, with the acceptance check on and off. Run from a work tree:

    PYTHONPATH=$PWD ASCEND_GYM_CACHE=/work/cache python benchmarks/acceptance_cost.py 7

(docs/acceptance.md, Cost). On a tree without `evaluation.py` (before it) it measures the worker's
`evaluate`, with the check that tree has.
"""

import resource
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, "tests/daemon")
from conftest import add_variant  # noqa: E402

from ascend_core.protocol import EvalRequest, Stage  # noqa: E402
from npu_daemon import source_policy  # noqa: E402
from npu_daemon.backends.sim import SimBackend  # noqa: E402

try:
    from npu_daemon.evaluation import evaluate

    def ev(backend, request, workdir):
        return evaluate(backend, request, workdir)
except ImportError:  # a tree before the one entry
    from npu_daemon.service.workers import evaluate

    def ev(backend, request, workdir):
        return evaluate(backend, request, workdir, True)


def cpu() -> float:
    c, s = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    return c.ru_utime + c.ru_stime + s.ru_utime + s.ru_stime


def main(n: int) -> None:
    SimBackend().prepare()
    for policy in (True, False):
        if hasattr(source_policy, "configure"):
            source_policy.configure(policy)
        spent = []
        for _ in range(n):
            pkg = add_variant(Path(tempfile.mkdtemp()), comment=uuid.uuid4().hex)
            req = EvalRequest(
                package=pkg, stages=[Stage.COMPILE, Stage.CHECK], cases=["aligned_fp16"]
            )
            start = cpu()
            with tempfile.TemporaryDirectory() as d:
                result = ev(SimBackend(), req, Path(d))
            assert result.status.value == "OK", result.message
            spent.append(cpu() - start)
        spent.sort()
        print(
            f"check {'on' if policy else 'off'}: CPU s per fresh evaluation, median "
            f"{spent[len(spent) // 2]:.3f} (all {[round(x, 3) for x in spent]})"
        )
        if not hasattr(source_policy, "configure"):
            break


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
