// The threads of a host tiling program, run without starting one. The tiling's output must be a
// function of its inputs (docs/trust_boundary.md: it reaches no file, descriptor, clock or
// thread), so a real thread, whose interleaving the OS picks, is not given to it; real tilings
// still start them (a cube tiling's pattern thread, filling a cache between calls). Here a
// std::thread's function runs when the thread is joined or detached, on the calling thread: one
// schedule of the real program, always the same, and the one std::launch::deferred names; a
// thread that waits on a condition variable its predicate keeps closed first runs the threads
// started and not yet run (RunStarted), as the waiting thread would let them. The ids and names
// below are what std::this_thread, prctl and CANN's MMPA report meanwhile.
#pragma once

#include <cstring>
#include <map>
#include <string>

namespace ascendc_sim {
// Stops the tiling with a TILING_ERROR (the runtime's; host_matmul_tiling.h declares it too).
[[noreturn]] void TilingError(const std::string& message);
}  // namespace ascendc_sim

namespace ascendc_sim::tiling_threads {

// The program's own thread is 1; each std::thread constructed takes the next id.
inline unsigned long current = 1;
inline unsigned long last = 1;
// A thread's name (prctl PR_SET_NAME, mmSetCurrentThreadName), at most 15 bytes as Linux keeps.
inline std::map<unsigned long, std::string> names;
inline constexpr std::size_t kNameBytes = 16;

inline unsigned long Next() { return ++last; }

inline void SetName(const char* name) { names[current] = std::string(name, strnlen(name, kNameBytes - 1)); }

// The current thread's name into `out` of `size` bytes, NUL-terminated ("tiling" until set).
inline void GetName(char* out, std::size_t size) {
  if (size == 0) return;
  const auto it = names.find(current);
  const std::string name = it == names.end() ? "tiling" : it->second;
  const std::size_t n = name.size() < size - 1 ? name.size() : size - 1;
  std::memcpy(out, name.data(), n);
  out[n] = '\0';
}

// The threads started and not yet run, by id (the order they were started in): a thread that
// waits yields to them, as a blocked thread lets the others run. `run` calls `body` once.
struct Started {
  void (*run)(void*);
  void* body;
};
inline std::map<unsigned long, Started> started;

inline void Start(unsigned long id, void (*run)(void*), void* body) { started[id] = Started{run, body}; }
inline void Forget(unsigned long id) { started.erase(id); }

// A wait that only another thread could end, with none left to run (each started one has run to
// its end, or is the waiter itself), so the real program would block forever; the tiling stops
// saying so.
[[noreturn]] inline void Blocked(const char* what) {
  TilingError(std::string(what) + " on tiling thread " + std::to_string(current) +
              " would block forever: no other thread is left to run while it waits (a tiling's std::thread "
              "runs at its join or detach, or at another's wait; docs/trust_boundary.md, The tiling's threads)");
}

// Runs `body` as thread `id`: this_thread, prctl and mmGetTid see `id` until it returns.
template <class Body>
void RunAs(unsigned long id, Body&& body) noexcept {  // an escaping exception terminates, as a thread's
  const unsigned long caller = current;
  current = id;
  body();
  current = caller;
}

// Runs the first thread started and not yet run to its end, as the thread the waiting one yields
// to: one schedule of the real program, the same every run. False when every thread has run.
inline bool RunStarted() {
  if (started.empty()) return false;
  const auto [id, thread] = *started.begin();
  started.erase(started.begin());
  RunAs(id, [thread = thread] { thread.run(thread.body); });
  return true;
}

}  // namespace ascendc_sim::tiling_threads
