"""The two engines' scalar charge side by side (docs/performance_model.md, The guest engine's unit).

    python benchmarks/engine_scalar.py

Simulated latency on the native engine (`sim`: counted x86 instructions at scalar_instr_cycles)
and the guest engine (`sim-guest`: wasmtime fuel at guest_fuel_cycles), in this process: the suite
kernels whose scalar work differs most, then level1/add with scalar work of the kernel's own put
after its Add (the vector unit's 256 Muls, the same multiplications in C++, a xorshift loop).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve
from npu_daemon.backends.sim import GuestSimBackend, SimBackend

SUITE = [
    "op://ascend-real-v1/level2/silu_mul",
    "op://ascend-ops-v1/level3/top_k",
    "level2/reduce_max_last",
    "level2/l2_norm",
    "level2/cross_entropy",
    "level1/add",
]
AFTER_ADD = "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n"
WORK = {
    "256 Muls": "    for (int j = 0; j < 256; ++j) Muls(zLocal, zLocal, (DTYPE_Z)1.0001f, 64);\n",
    "the same in C++": (
        "    for (int i = 0; i < 64; ++i) { float v = (float)zLocal.GetValue(i);"
        " for (int j = 0; j < 256; ++j) v *= 1.0001f; zLocal.SetValue(i, (DTYPE_Z)v); }\n"
    ),
    "xorshift x 10^5": (
        "    { uint32_t s = 1; for (int j = 0; j < 100000; ++j) { s ^= s << 13; s ^= s >> 17;"
        " s ^= s << 5; } zLocal.SetValue(0, (DTYPE_Z)(float)(s & 1)); }\n"
    ),
}


def latency(engine: SimBackend, pkg: OperatorPackage, check: bool) -> str:
    """The bench case's simulated latency (the added work changes add's outputs: not checked)."""
    request = EvalRequest(
        package=pkg,
        stages=[Stage.COMPILE, *([Stage.CHECK] if check else []), Stage.TIME],
        timeouts=Timeouts(build_s=600, run_s=600),
    )
    with tempfile.TemporaryDirectory() as work:
        result = engine.evaluate(request, Path(work))
    return f"{result.latency_us:.2f}" if result.status is Status.OK else result.status.value


def main() -> None:
    native, guest = SimBackend(), GuestSimBackend()
    add = resolve("level1/add")
    kernel = add.files["op_kernel/add.cpp"]
    rows = [(uri, resolve(uri), True) for uri in SUITE] + [
        (
            f"level1/add + {name}",
            add.with_sources(kernel=kernel.replace(AFTER_ADD, body + AFTER_ADD)),
            False,
        )
        for name, body in WORK.items()
    ]
    print("| kernel | native us | guest us |\n|---|---|---|")
    for name, pkg, check in rows:
        print(
            f"| {name} | {latency(native, pkg, check)} | {latency(guest, pkg, check)} |", flush=True
        )


if __name__ == "__main__":
    main()
