"""The threads of a host tiling program (docs/trust_boundary.md, The tiling's threads): a
std::thread's function runs on the calling thread when the thread is joined or detached, a
sleep returns at once, prctl names the thread and refuses every other option, and CANN's MMPA
answers the thread's id and name; nothing links pthread_create, so the tiling's output stays a
function of its inputs. A `__attribute__((destructor))` function (where such a tiling joins its
thread) is accepted and never run. The headers alone (g++ with the tiling's include flags), the
object's sections, then tilings through a real daemon."""

from __future__ import annotations

import re
import subprocess

from ascend_core.protocol import Status
from ascend_core.suite import resolve

from .conftest import small_request

PROGRAM = r"""
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <sys/prctl.h>
#include <thread>
#include <vector>
#include "mmpa_api.h"
#include <base/alog_pub.h>

int main() {
  std::string order;
  std::mutex mu;
  // A consumer started before its work exists: it sees the work because it runs at its join.
  std::vector<int> work;
  int sum = 0;
  std::thread consumer([&] { std::lock_guard<std::mutex> g(mu); for (int w : work) sum += w; order += "c"; });
  work = {1, 2, 3};
  order += "m";
  consumer.join();
  std::thread named([&](int tag) {
    prctl(PR_SET_NAME, (unsigned long)"pattern_thread_long_name");
    char name[16];
    prctl(PR_GET_NAME, (unsigned long)name);
    std::printf("name=%s tag=%d tid=%d self=%d\n", name, tag, mmGetTid(),
                std::this_thread::get_id() != std::thread::id());
  }, 7);
  std::thread::id named_id = named.get_id();
  named.detach();
  std::this_thread::sleep_for(std::chrono::hours(1));
  char main_name[MMPA_THREADNAME_SIZE];
  mmGetCurrentThreadName(main_name, MMPA_THREADNAME_SIZE);
  mmMutex_t m;
  mmMutexInit(&m);
  int locked = mmMutexLock(&m) == EN_OK && mmMutexUnLock(&m) == EN_OK;
  std::printf("order=%s sum=%d main_tid=%d main=%s joinable=%d cores=%u seccomp=%d tune=%d "
              "locked=%d sleep=%d distinct=%d\n", order.c_str(), sum, mmGetTid(), main_name,
              named.joinable(), std::thread::hardware_concurrency(), prctl(22 /* PR_SET_SECCOMP */, 2, 0),
              int(TUNE), locked, mmSleep(1000), named_id != std::this_thread::get_id());
}
"""


def test_threads_run_deferred_on_the_calling_thread(tmp_path):
    from npu_daemon.backends.common import build

    (tmp_path / "t.cpp").write_text(PROGRAM)
    compile_ = [
        "g++",
        *build.CANDIDATE_CXXFLAGS,
        build.TILING_STD_FLAG,
        f"-I{build.HOST_INCLUDE_DIR}",
    ]
    subprocess.run([*compile_, "t.cpp", "-o", "t"], cwd=tmp_path, check=True)
    undefined = subprocess.run(
        ["nm", "-u", "t"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    assert "pthread_create" not in undefined and "nanosleep" not in undefined
    out = subprocess.run(
        [str(tmp_path / "t")], capture_output=True, text=True, timeout=10, check=True
    )
    lines = out.stdout.splitlines()
    # The named thread (id 3: the consumer took 2) ran at its detach, under its own id and name,
    # cut to Linux's 15 bytes; the sleep of an hour returned at once.
    assert lines[0] == "name=pattern_thread_ tag=7 tid=3 self=1", lines
    assert lines[1] == (
        "order=mc sum=6 main_tid=1 main=tiling joinable=0 cores=1 seccomp=-1 tune=60 "
        "locked=1 sleep=0 distinct=1"
    ), lines


ANCHOR = "  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), units});\n"


def test_a_tiling_taking_its_block_dim_from_a_joined_thread_runs(client):
    """level1/add whose block dim is set by a thread it joins (0, which the launch refuses, if
    the thread's function never ran), naming it as a cube tiling names its pattern thread."""
    host = resolve("level1/add").files["op_host/add.cpp"]
    before = '#include <thread>\n#include <sys/prctl.h>\n#include "mmpa_api.h"\n'
    use = (
        "  uint32_t fromThread = 0;\n"
        "  std::thread worker([&fromThread, blockDim] {\n"
        '    prctl(PR_SET_NAME, (unsigned long)"mmCacheTiling");\n'
        "    fromThread = mmGetTid() == 2 ? blockDim : 0;\n"
        "  });\n"
        "  worker.join();\n"
        "  blockDim = fromThread;\n"
    )
    pkg = resolve("level1/add").with_sources(tiling=before + host.replace(ANCHOR, ANCHOR + use))
    result = client.evaluate(small_request(pkg, run_id="threads"))
    assert result.status is Status.OK, result.message


def test_a_destructor_section_is_dropped_from_the_object(tmp_path):
    """ctors.defer leaves no `.fini_array` for a loader to run at exit or dlclose."""
    from npu_daemon.backends.common import ctors

    (tmp_path / "d.cpp").write_text(
        "#include <cstdio>\n"
        '__attribute__((destructor)) static void atExit() { std::puts("exit"); }\n'
        'struct S { S() { std::puts("start"); } } s;\n'
    )
    subprocess.run(["g++", "-O1", "-fPIC", "-c", "d.cpp", "-o", "d.o"], cwd=tmp_path, check=True)
    assert ctors.defer(tmp_path / "d.o") == 2  # the constructor's section and the destructor's
    table = subprocess.run(
        ["readelf", "-SW", "d.o"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    sections = set(re.findall(r"\]\s+(\S+)", table))
    assert not sections & {".fini_array", ".init_array"}, sections
    assert {"cand_fini", "cand_init"} <= sections, sections


def sections_and_data(obj, cwd) -> tuple[list[str], str, str]:
    """The object's section names in order, its `.data` bytes as readelf dumps them, and what
    readelf said on its error stream (a damaged object's warnings)."""
    done = subprocess.run(
        ["readelf", "-SW", "-x", ".data", obj], cwd=cwd, capture_output=True, text=True
    )
    names = re.findall(r"^\s+\[\s*\d+\]\s+(\S+)", done.stdout, re.M)
    dump = done.stdout[done.stdout.find("Hex dump") :]
    return names, dump, done.stderr


def test_a_longer_name_moves_no_byte_of_the_object(tmp_path):
    """`.ctors` (6 bytes) becomes `cand_init` (9) and `.dtors` `cand_fini`: written over the old
    name in the section-name table, the longer name inserted bytes, shifting every later offset
    of the object (its section headers). The new names now go into a copy of the table at the
    object's end; every other section keeps its name and bytes. A g++ object's `.init_array`
    is also the tail of its `.rela.init_array` in that table, which keeps its own name."""
    from npu_daemon.backends.common import ctors

    (tmp_path / "c.s").write_text(
        '.section .ctors,"aw",@progbits\n.quad 0\n'
        '.section .dtors,"aw",@progbits\n.quad 0\n'
        '.data\n.ascii "kept in place"\n'
    )
    subprocess.run(["as", "c.s", "-o", "c.o"], cwd=tmp_path, check=True)
    names, data, _ = sections_and_data("c.o", tmp_path)
    assert ctors.defer(tmp_path / "c.o") == 2
    after, data_after, complaints = sections_and_data("c.o", tmp_path)
    assert complaints == "" and data_after == data, (complaints, data_after)
    assert after == [{".ctors": "cand_init", ".dtors": "cand_fini"}.get(n, n) for n in names]

    (tmp_path / "g.cpp").write_text("int f(); int g = f();\n")
    subprocess.run(["g++", "-fPIC", "-c", "g.cpp", "-o", "g.o"], cwd=tmp_path, check=True)
    assert ctors.defer(tmp_path / "g.o") == 1
    names, _, complaints = sections_and_data("g.o", tmp_path)
    assert complaints == "" and {"cand_init", ".rela.init_array"} <= set(names), names


def test_a_tiling_destructor_is_accepted_and_never_run(client):
    """The destructor a cube tiling joins its pattern thread in: REJECTED before (a constructor's
    refusal), now accepted. It aborts, so the evaluation is OK only if no process of the tiling
    runs it (a crash of the tiling process is a TILING_ERROR naming its signal)."""
    host = resolve("level1/add").files["op_host/add.cpp"]
    before = "#include <cstdlib>\n__attribute__((destructor)) static void joinAtExit() { std::abort(); }\n"
    pkg = resolve("level1/add").with_sources(tiling=before + host)
    result = client.evaluate(small_request(pkg, run_id="dtor"))
    assert result.status is Status.OK, result.message
