"""A host tiling's condition variables (docs/trust_boundary.md, The tiling's threads): one thread
of execution runs, so a wait whose predicate holds returns, a timed wait times out at once, a
notify finds no waiter, and a wait only another thread could end stops the tiling with a
TILING_ERROR naming it. Nothing of libstdc++'s condition variable or pthread_cond_* is linked, so
the link gate has no new symbol to allow. The header compiled with the tiling's flags, then
tilings through a real daemon."""

from __future__ import annotations

import subprocess

from ascend_core.protocol import Status
from ascend_core.suite import resolve

from .conftest import small_request

# A reader-writer lock on two condition variables, as real tilings guard their caches with: every
# wait's predicate holds when the one thread reaches it.
RW_LOCK = r"""
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>

namespace {
class CacheLock {
 public:
  void ReadLock() {
    std::unique_lock<std::mutex> held(mu_);
    readers_.wait(held, [this] { return state_ >= 0; });
    ++state_;
  }
  void WriteLock() {
    std::unique_lock<std::mutex> held(mu_);
    writers_.wait(held, [this] { return state_ == 0; });
    state_ = -1;
  }
  void Unlock() {
    std::unique_lock<std::mutex> held(mu_);
    state_ = state_ < 0 ? 0 : state_ - 1;
    writers_.notify_one();
    readers_.notify_all();
  }
  int State() const { return state_; }

 private:
  std::mutex mu_;
  std::condition_variable readers_, writers_;
  int state_ = 0;  // readers holding it; -1: the writer
};

// 1 when the lock went through its states and the timed waits timed out, as one thread sees them.
int LockWalk() {
  CacheLock lock;
  lock.ReadLock();
  lock.ReadLock();
  const bool twoReaders = lock.State() == 2;
  lock.Unlock();
  lock.Unlock();
  lock.WriteLock();
  const bool writer = lock.State() == -1;
  lock.Unlock();
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> held(mu);
  const bool timedOut = cv.wait_for(held, std::chrono::hours(1)) == std::cv_status::timeout &&
                        !cv.wait_for(held, std::chrono::hours(1), [] { return false; });
  std::condition_variable_any any;
  std::shared_mutex shared;
  std::shared_lock<std::shared_mutex> reading(shared);
  any.wait(reading, [&] { return writer; });
  return twoReaders && writer && timedOut && lock.State() == 0;
}
}  // namespace
"""


def test_the_header_links_no_condition_variable_of_the_library(tmp_path):
    """Every form compiled with the tiling's flags: no libstdc++ condition variable, no
    pthread_cond_*; a wait no thread can end calls the runtime's TilingError."""
    from npu_daemon.backends.common import build

    source = RW_LOCK + (
        "void Stuck(std::condition_variable& cv, std::unique_lock<std::mutex>& held) { cv.wait(held); }\n"
        "int main() { return LockWalk(); }\n"
    )
    (tmp_path / "t.cpp").write_text(source)
    compile_ = [
        "g++",
        *build.CANDIDATE_CXXFLAGS,
        build.TILING_STD_FLAG,
        f"-I{build.HOST_INCLUDE_DIR}",
    ]
    subprocess.run([*compile_, "-c", "t.cpp", "-o", "t.o"], cwd=tmp_path, check=True)
    undefined = subprocess.run(
        ["nm", "-uC", "t.o"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert "condition_variable" not in undefined and "pthread_cond" not in undefined, undefined
    assert "ascendc_sim::TilingError" in undefined, undefined


ANCHOR = "  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), units});\n"


def with_tiling(before: str, use: str):
    """level1/add whose tiling holds `before` at its top and runs `use` after its block dim."""
    host = resolve("level1/add").files["op_host/add.cpp"]
    return resolve("level1/add").with_sources(tiling=before + host.replace(ANCHOR, ANCHOR + use))


def test_a_tiling_guarding_its_cache_with_condition_variables_runs(client):
    """Its block dim is 0 (refused by the launch) unless every wait behaved as one thread sees it."""
    pkg = with_tiling(RW_LOCK, "  if (!LockWalk()) blockDim = 0;\n")
    result = client.evaluate(small_request(pkg, run_id="cv_rwlock"))
    assert result.status is Status.OK, result.message


def test_a_wait_no_other_thread_can_end_is_a_tiling_error(client):
    """The real program would block forever: a TILING_ERROR naming the wait, not a run timeout."""
    use = (
        "  std::mutex mu;\n"
        "  std::condition_variable cv;\n"
        "  std::unique_lock<std::mutex> held(mu);\n"
        "  cv.wait(held, [&] { return blockDim == 0; });\n"
    )
    pkg = with_tiling("#include <condition_variable>\n#include <mutex>\n", use)
    result = client.evaluate(small_request(pkg, run_id="cv_blocked"))
    assert result.status is Status.TILING_ERROR, (result.status, result.message)
    assert (
        "std::condition_variable::wait (its predicate false) on tiling thread 1 would block forever"
        in (result.message)
    ), result.message


# A worker started, then waited for: the waiting thread lets it run (its lock released meanwhile,
# so the worker takes it), and its join afterwards does not run it again.
STARTED_THEN_WAITED = r"""
#include <condition_variable>
#include <mutex>
#include <thread>

namespace {
int WorkerRunsOnce() {
  std::mutex mu;
  std::condition_variable cv;
  bool ready = false;
  int runs = 0;
  std::thread worker([&] {
    std::lock_guard<std::mutex> held(mu);
    ready = true;
    ++runs;
    cv.notify_all();
  });
  {
    std::unique_lock<std::mutex> held(mu);
    cv.wait(held, [&] { return ready; });
  }
  worker.join();
  std::thread timed([&] { ++runs; });
  std::unique_lock<std::mutex> held(mu);
  const bool done = cv.wait_for(held, std::chrono::hours(1), [&] { return runs == 2; });
  held.unlock();
  timed.join();
  return done && runs == 2;
}
}  // namespace
"""


def test_a_thread_started_then_waited_for_runs_at_the_wait(client):
    """Its block dim is 0 (refused by the launch) unless both waits ran their worker, once."""
    pkg = with_tiling(STARTED_THEN_WAITED, "  if (!WorkerRunsOnce()) blockDim = 0;\n")
    result = client.evaluate(small_request(pkg, run_id="cv_started"))
    assert result.status is Status.OK, result.message
