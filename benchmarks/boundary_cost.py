"""What the trust boundary costs (docs/trust_boundary.md): the guest engine against the native one.

    python benchmarks/boundary_cost.py                  # all three parts
    python benchmarks/boundary_cost.py --reads 1e9      # the scalar-heaviest kernel at 10^9 reads

1. Per operation, on this machine: an element read in the kernel's own memory under fuel metering
   (wasmtime, clang -O2 wasm32) against the same loop compiled by g++ -O2; a call across the
   boundary (a guest import served by a native host function, through runtime/guest/wasmtime_c.h).
2. A fresh candidate of level1/add (a unique comment, so kernel and tiling compile) evaluated by a
   `sim` and a `sim-guest` daemon one after the other, `--repeats` times: wall and daemon CPU
   seconds per evaluation (the daemon's process tree, from /proc), and the simulated latency.
3. benchmarks/scalar_reads.py's row_max (every element read by GetValue on GM) at `--reads`
   reads through both daemons: wall time and the simulated latency.
The load average is printed before and after: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from scalar_reads import write_package  # benchmarks/, beside this script

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Timeouts
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import guest_build

RUNTIME = Path(build.__file__).resolve().parents[1] / "sim" / "runtime" / "guest"

GUEST = r"""
#include <cstdint>
extern "C" __attribute__((import_module("host"), import_name("get"))) float host_get(uint32_t i);
static float buf[1 << 20];
extern "C" __attribute__((export_name("fill"))) void fill() {
  for (uint32_t i = 0; i < (1u << 20); ++i) buf[i] = float(i & 1023);
}
extern "C" __attribute__((export_name("own"))) float own(uint32_t n) {
  float s = 0;
  for (uint32_t i = 0; i < n; ++i) s += buf[(i * 7) & ((1u << 20) - 1)];
  return s;
}
extern "C" __attribute__((export_name("across"))) float across(uint32_t n) {
  float s = 0;
  for (uint32_t i = 0; i < n; ++i) s += host_get(i);
  return s;
}
"""

HOST = r"""
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>
#include "wasmtime_c.h"
static wasm_trap_t* Get(void*, wasmtime_caller_t*, wasmtime_val_raw_t* v, size_t) { v[0].f32 = 1; return nullptr; }
int main(int, char** argv) {
  std::ifstream f(argv[1], std::ios::binary);
  std::vector<uint8_t> w((std::istreambuf_iterator<char>(f)), {});
  wasm_config_t* c = wasm_config_new();
  wasmtime_config_consume_fuel_set(c, true);
  wasmtime_config_signals_based_traps_set(c, false);  // as the guest engine runs
  wasm_engine_t* e = wasm_engine_new_with_config(c);
  wasmtime_module_t* m;
  if (wasmtime_module_new(e, w.data(), w.size(), &m)) return 1;
  wasmtime_store_t* s = wasmtime_store_new(e, nullptr, nullptr);
  wasmtime_context_t* cx = wasmtime_store_context(s);
  wasmtime_context_set_fuel(cx, 1ull << 62);
  wasmtime_linker_t* l = wasmtime_linker_new(e);
  wasm_valtype_t* p[] = {wasm_valtype_new(WASM_I32)};
  wasm_valtype_t* r[] = {wasm_valtype_new(WASM_F32)};
  wasm_valtype_vec_t pv, rv;
  wasm_valtype_vec_new(&pv, 1, p);
  wasm_valtype_vec_new(&rv, 1, r);
  wasmtime_linker_define_func_unchecked(l, "host", 4, "get", 3, wasm_functype_new(&pv, &rv), Get, nullptr, nullptr);
  wasmtime_instance_t in;
  wasm_trap_t* t = nullptr;
  if (wasmtime_linker_instantiate(l, cx, m, &in, &t)) return 2;
  for (const char* name : {"fill", "own", "across"}) {
    wasmtime_extern_t x;
    wasmtime_instance_export_get(cx, &in, name, strlen(name), &x);
    const uint32_t n = std::strcmp(name, "own") == 0 ? 100000000u : 10000000u;
    wasmtime_val_raw_t v[1];
    v[0].i32 = static_cast<int32_t>(n);
    uint64_t f0, f1;
    wasmtime_context_get_fuel(cx, &f0);
    auto t0 = std::chrono::steady_clock::now();
    if (wasmtime_func_call_unchecked(cx, &x.of.func, v, 1, &t)) return 3;
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    wasmtime_context_get_fuel(cx, &f1);
    if (std::strcmp(name, "fill")) std::printf("%s %.2f %.1f\n", name, dt / n * 1e9, double(f0 - f1) / n);
  }
}
"""

NATIVE = r"""
#include <chrono>
#include <cstdint>
#include <cstdio>
static float buf[1 << 20];
__attribute__((noinline)) float own(uint32_t n) {
  float s = 0;
  for (uint32_t i = 0; i < n; ++i) s += buf[(i * 7) & ((1u << 20) - 1)];
  return s;
}
int main() {
  for (uint32_t i = 0; i < (1u << 20); ++i) buf[i] = float(i & 1023);
  const uint32_t n = 100000000u;
  auto t0 = std::chrono::steady_clock::now();
  volatile float s = own(n);
  (void)s;
  std::printf("%.2f\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n * 1e9);
}
"""


def per_operation(tmp: Path) -> None:
    (tmp / "guest.cpp").write_text(GUEST)
    (tmp / "host.cpp").write_text(HOST)
    (tmp / "native.cpp").write_text(NATIVE)
    wasm = tmp / "reads.wasm"
    subprocess.run(
        [
            guest_build.CLANG,
            *guest_build.FLAGS,
            "-nostartfiles",
            "-Wl,--no-entry",
            "-Wl,--allow-undefined",
        ]
        + [str(tmp / "guest.cpp"), "-o", str(wasm)],
        check=True,
    )
    lib = build.wasmtime_library()
    host = tmp / "host"
    subprocess.run(
        ["g++", "-O2", "-std=c++17", f"-I{RUNTIME}", str(tmp / "host.cpp"), str(lib)]
        + [f"-Wl,-rpath,{lib.parent}", "-o", str(host)],
        check=True,
    )
    subprocess.run(["g++", "-O2", str(tmp / "native.cpp"), "-o", str(tmp / "native")], check=True)
    rows = dict(
        line.split(" ", 1)
        for line in subprocess.check_output([str(host), str(wasm)], text=True).splitlines()
    )
    native = subprocess.check_output([str(tmp / "native")], text=True).strip()
    own_ns, own_fuel = rows["own"].split()
    across_ns, _ = rows["across"].split()
    print("1. per operation")
    print(
        f"   element read, kernel's own memory: guest {own_ns} ns ({own_fuel} fuel per iteration), native {native} ns"
    )
    print(f"   call across the boundary (import served natively): {across_ns} ns")


def daemon_cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants (live ones, plus the children it waited for)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or _descends(int(entry.name), pid):
            total += sum(int(x) for x in stat[11:15]) / tick  # utime stime cutime cstime
    return total


def _descends(pid: int, root: int) -> bool:
    while pid > 1:
        try:
            pid = int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return False
        if pid == root:
            return True
    return False


def fresh_candidates(repeats: int) -> None:
    print(f"2. fresh candidate of level1/add, {repeats} each (median)")
    pkg = resolve("level1/add")
    for backend in ("sim", "sim-guest"):
        with LocalDaemon(backend=backend, workers=1) as d:
            client = DaemonClient(d.address)
            walls, cpus, latency = [], [], 0.0
            for k in range(repeats + 1):
                tag = uuid.uuid4().hex
                cand = pkg.with_sources(
                    kernel=pkg.files[pkg.kernel_path] + f"\n// {tag}\n",
                    tiling=pkg.files[pkg.host_path] + f"\n// {tag}\n",
                )
                before, t0 = daemon_cpu(d.process.pid), time.monotonic()
                r = client.evaluate(
                    EvalRequest(
                        run_id=f"cost-{backend}",
                        package=cand,
                        timeouts=Timeouts(build_s=300, run_s=300),
                    )
                )
                wall, cpu = time.monotonic() - t0, daemon_cpu(d.process.pid) - before
                if r.status.value != "OK":
                    raise SystemExit(f"{backend}: {r.status.value} {r.message}")
                if k:  # the first warms the case data
                    walls.append(wall)
                    cpus.append(cpu)
                latency = r.latency_us
            client.close()
        print(
            f"   {backend:9s}: wall {statistics.median(walls):.2f} s, daemon CPU {statistics.median(cpus):.2f} s, "
            f"latency {latency:.2f} us (simulated)"
        )


def scalar_reads(reads: float) -> None:
    cols, rows = 8192, 4096
    passes = max(1, round(reads / (rows * cols)))
    print(f"3. row_max, {rows * cols * passes:.2e} GetValue reads on GM")
    with tempfile.TemporaryDirectory() as root:
        write_package(Path(root), rows, cols, passes)
        pkg = load_package(Path(root))
        for backend in ("sim", "sim-guest"):
            with LocalDaemon(backend=backend, workers=1) as d:
                client = DaemonClient(d.address)
                t0 = time.monotonic()
                r = client.evaluate(
                    EvalRequest(
                        run_id="reads",
                        package=pkg,
                        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
                        timeouts=Timeouts(build_s=300, run_s=600),
                    )
                )
                client.close()
            print(
                f"   {backend:9s}: {r.status.value}, wall {time.monotonic() - t0:.1f} s, "
                f"latency {r.latency_us or 0:.0f} us, scalar {r.profile.aiv_scalar_time_us:.0f} us (simulated)"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument(
        "--reads", type=float, default=3.4e7, help="GetValue reads of part 3 (1e9: the heaviest)"
    )
    args = ap.parse_args()
    print("load average before:", open("/proc/loadavg").read().split()[:3])
    with tempfile.TemporaryDirectory() as tmp:
        per_operation(Path(tmp))
    fresh_candidates(args.repeats)
    scalar_reads(args.reads)
    print("load average after:", open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
