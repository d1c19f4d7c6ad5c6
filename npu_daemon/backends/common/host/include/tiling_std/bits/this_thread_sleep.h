// <bits/this_thread_sleep.h> for a host tiling program (beside std_thread.h here): a sleep returns
// at once. The tiling reads no clock (the link gate refuses every one), so time passing is not
// something it can observe; a sleep's only effect was ordering against other threads, which the
// deferred threads fix (ascendc_sim/tiling_threads.h). A loop that waits for time to pass
// spins until the run's timeout, as a tiling that never returns does.
#pragma once
#define _GLIBCXX_THIS_THREAD_SLEEP_H 1

#include <chrono>

namespace std::this_thread {

template <class Rep, class Period>
inline void sleep_for(const chrono::duration<Rep, Period>&) {}

template <class Clock, class Duration>
inline void sleep_until(const chrono::time_point<Clock, Duration>&) {}

}  // namespace std::this_thread
