// <bits/std_thread.h> for a host tiling program (compiled for the tiling alone: -I of this
// directory in build.tiling_unit and the host precompiled header; the emulation's own scheduler
// keeps libstdc++'s). std::thread as the standard declares it, its function run when the thread
// is joined or detached, or earlier when another thread waits (ascendc_sim/tiling_threads.h says
// why); nothing links pthread_create,
// so the link gate has no thread to refuse. <thread>, <future> and <stop_token> include this.
#pragma once
#define _GLIBCXX_THREAD_H 1

#include <bits/c++config.h>
#include <bits/functional_hash.h>
#include <exception>
#include <functional>
#include <memory>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ascendc_sim/tiling_threads.h"

namespace std {

class thread {
 public:
  using native_handle_type = unsigned long;

  class id {
   public:
    id() noexcept : _M_thread() {}
    explicit id(native_handle_type n) noexcept : _M_thread(n) {}
    native_handle_type _M_thread;  // read by <thread>'s comparisons and operator<<
  };

  thread() noexcept = default;

  // The function and its arguments are decay-copied here, in the constructing thread, as the
  // standard requires; they are invoked as rvalues when the thread is joined or detached.
  template <class F, class... A, class = enable_if_t<!is_same_v<remove_cv_t<remove_reference_t<F>>, thread>>>
  explicit thread(F&& f, A&&... a)
      : _M_id(ascendc_sim::tiling_threads::Next()),
        _M_body(new _Body<decay_t<F>, decay_t<A>...>(std::forward<F>(f), std::forward<A>(a)...)) {
    static_assert(is_invocable_v<decay_t<F>, decay_t<A>...>,
                  "std::thread arguments must be invocable after conversion to rvalues");
    ascendc_sim::tiling_threads::Start(_M_id._M_thread, &_State::_S_once, _M_body.get());
  }

  ~thread() {
    if (joinable()) std::terminate();
  }
  thread(const thread&) = delete;
  thread& operator=(const thread&) = delete;
  thread(thread&& t) noexcept { swap(t); }
  thread& operator=(thread&& t) noexcept {
    if (joinable()) std::terminate();
    swap(t);
    return *this;
  }

  void swap(thread& t) noexcept {
    std::swap(_M_id, t._M_id);
    std::swap(_M_body, t._M_body);
  }
  bool joinable() const noexcept { return _M_id._M_thread != 0; }
  id get_id() const noexcept { return _M_id; }
  native_handle_type native_handle() { return _M_id._M_thread; }
  // One thread of execution: the program's functions run one after another.
  static unsigned int hardware_concurrency() noexcept { return 1; }

  void join() {
    if (!joinable()) __throw_system_error(int(errc::invalid_argument));
    if (_M_id._M_thread == ascendc_sim::tiling_threads::current)
      __throw_system_error(int(errc::resource_deadlock_would_occur));
    _M_run();
  }
  // A detached thread runs to its end now: the schedule in which it finishes first.
  void detach() {
    if (!joinable()) __throw_system_error(int(errc::invalid_argument));
    _M_run();
  }

 private:
  // The function runs once: at a wait it yields to (tiling_threads::RunStarted), else at the join
  // or detach.
  struct _State {
    virtual ~_State() = default;
    virtual void _M_call() = 0;
    static void _S_once(void* state) {
      auto* self = static_cast<_State*>(state);
      if (self->_M_done) return;
      self->_M_done = true;
      self->_M_call();
    }
    bool _M_done = false;
  };
  template <class F, class... A>
  struct _Body final : _State {
    template <class G, class... B>
    explicit _Body(G&& g, B&&... b) : _M_f(std::forward<G>(g)), _M_args(std::forward<B>(b)...) {}
    void _M_call() override {
      std::apply([this](auto&&... a) { std::invoke(std::move(_M_f), std::move(a)...); }, std::move(_M_args));
    }
    F _M_f;
    tuple<A...> _M_args;
  };

  void _M_run() {
    unique_ptr<_State> body = std::move(_M_body);
    const native_handle_type self = _M_id._M_thread;
    _M_id = id();
    ascendc_sim::tiling_threads::Forget(self);
    ascendc_sim::tiling_threads::RunAs(self, [&body] { _State::_S_once(body.get()); });
  }

  id _M_id;
  unique_ptr<_State> _M_body;
};

inline void swap(thread& x, thread& y) noexcept { x.swap(y); }

inline bool operator==(thread::id x, thread::id y) noexcept { return x._M_thread == y._M_thread; }

template <>
struct hash<thread::id> : public __hash_base<size_t, thread::id> {
  size_t operator()(const thread::id& i) const noexcept { return _Hash_impl::hash(i._M_thread); }
};

namespace this_thread {
inline thread::id get_id() noexcept { return thread::id(ascendc_sim::tiling_threads::current); }
inline void yield() noexcept {}
}  // namespace this_thread

}  // namespace std
