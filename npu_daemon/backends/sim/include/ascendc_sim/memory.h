// Memory objects: TPosition, GlobalTensor, LocalTensor, TPipe, TQue, TBuf.
// Queue operations carry the implied synchronisation of the real library (docs/ascendc.md API 5):
// EnQue = SetFlag(producer -> consumer), DeQue = WaitFlag, AllocTensor waits for the slot's last
// consumer, FreeTensor signals it.
#pragma once

#include "../../guest/include/ascendc_guest/abi.h"     // TPosition: the guest engine names positions alike
#include "../../guest/include/ascendc_guest/params.h"  // int4b_t, shared with the guest
#include "ascendc_sim/core.h"
#include "ascendc_sim/sync.h"

namespace AscendC {

using ascendc_sim::CacheMode;
using ascendc_sim::SrcLoc;
using TEventID = int8_t;  // an event id as TPipe hands them out (kernel_tensor_base.h)

// Which pipes produce into and consume from a buffer at a position. A queue bound to GM
// (TQueBind<GM, VECIN> / <VECOUT, GM>) is filled by MTE2 / drained by MTE3.
constexpr pipe_t ProducerPipe(TPosition p) {
  switch (p) {
    case TPosition::VECIN:
    case TPosition::GM:
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
      return PIPE_MTE2;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2:
    case TPosition::C2PIPE2GM:
      return PIPE_MTE1;
    case TPosition::CO1:
      return PIPE_M;
    case TPosition::CO2:
      return PIPE_FIX;
    default:
      return PIPE_V;
  }
}
constexpr pipe_t ConsumerPipe(TPosition p) {
  switch (p) {
    case TPosition::VECOUT:
    case TPosition::GM:
      return PIPE_MTE3;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
      return PIPE_MTE1;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2:
      return PIPE_M;
    case TPosition::CO1:
    case TPosition::C2PIPE2GM:
      return PIPE_FIX;
    case TPosition::CO2:
      return PIPE_V;
    default:
      return PIPE_V;
  }
}
// The physical buffer behind a position: L1 for A1/B1/C1/TSCM, L0A/L0B/L0C for A2/B2/CO1, the bias
// table for C2, the fixpipe buffer for C2PIPE2GM, the Unified Buffer for the rest (CO2 included).
constexpr ascendc_sim::LocalBuf BufferOf(TPosition p) {
  switch (p) {
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      return ascendc_sim::LocalBuf::kL1;
    case TPosition::A2:
      return ascendc_sim::LocalBuf::kL0A;
    case TPosition::B2:
      return ascendc_sim::LocalBuf::kL0B;
    case TPosition::CO1:
      return ascendc_sim::LocalBuf::kL0C;
    case TPosition::C2:
      return ascendc_sim::LocalBuf::kBT;
    case TPosition::C2PIPE2GM:
      return ascendc_sim::LocalBuf::kFB;
    default:
      return ascendc_sim::LocalBuf::kUB;
  }
}

}  // namespace AscendC

namespace ascendc_sim {
template <typename T>
constexpr bool kHalfByte = std::is_same_v<T, AscendC::int4b_t>;
// The bytes of `elems` elements of T (an odd int4b_t count rounds down, as the device's offset / 2).
template <typename T>
constexpr uint64_t BytesOf(uint64_t elems) {
  return kHalfByte<T> ? elems / 2 : elems * sizeof(T);
}

// One scalar GM access of kernel code (GetValue, SetValue, an element reference): `bytes` at GM
// address `at`, element `index` of its tensor. Bound-checked, charged to the scalar unit and
// race-checked (runtime/core.cpp).
void ScalarGm(uintptr_t at, uint64_t index, uint32_t bytes, bool write, const SrcLoc& loc, const char* api);

// The emulation's host view of a tensor's memory, for library code only: kernel code reaches tensor
// memory through the charged API alone (the source check refuses candidate code naming ascendc_sim).
struct TensorAccess {
  template <class Tensor>
  static auto Host(const Tensor& t) {
    return t.Host();
  }
};
template <class Tensor>
auto HostData(const Tensor& t) {
  return TensorAccess::Host(t);
}

// One element of a tensor as the scalar unit reaches it: what the device's `operator()` returns (a
// `T&` into GM or UB). Every read and write through it is a scalar access, charged as GetValue /
// SetValue are; its address is the kernel's guarded view of the memory, so an access through a
// pointer taken from it traps and is charged too (runtime/raw_access.cpp).
template <typename T>
class ElementRef {
 public:
  enum Space : uint8_t { kUb, kGm };
  // `base`: the tensor's UB byte address (kUb) or its kernel GM address (kGm).
  ElementRef(Space space, uintptr_t base, uint64_t index, const SrcLoc& loc)
      : at_(base + index * sizeof(T)), index_(index), loc_(loc), space_(space) {}
  ASCENDC_SIM_INLINE operator T() const { return Load(); }
  ASCENDC_SIM_INLINE const ElementRef& operator=(const T& v) const {
    Store(v);
    return *this;
  }
  ASCENDC_SIM_INLINE const ElementRef& operator=(const ElementRef& o) const { return *this = o.Load(); }
  T* operator&() const {
    return reinterpret_cast<T*>(
        space_ == kGm ? at_ : reinterpret_cast<uintptr_t>(CurrentCore().UbGuardPtr(static_cast<uint32_t>(at_))));
  }
  ASCENDC_SIM_INLINE T Load() const {
    T v;
    std::memcpy(&v, Charge(false, space_ == kGm ? "GlobalTensor::operator()" : "LocalTensor::operator()"), sizeof(T));
    return v;
  }
  ASCENDC_SIM_INLINE void Store(const T& v) const {
    std::memcpy(Charge(true, space_ == kGm ? "GlobalTensor::operator() store" : "LocalTensor::operator() store"), &v,
                sizeof(T));
  }
  // A read-modify-write: a scalar load and a scalar store, as on the device.
#define ASCENDC_SIM_ELEMENT_ASSIGN(op)                   \
  template <typename U>                                  \
  const ElementRef& operator op## = (const U& v) const { \
    Store(static_cast<T>(Load() op v));                  \
    return *this;                                        \
  }
  ASCENDC_SIM_ELEMENT_ASSIGN(+)
  ASCENDC_SIM_ELEMENT_ASSIGN(-)
  ASCENDC_SIM_ELEMENT_ASSIGN(*)
  ASCENDC_SIM_ELEMENT_ASSIGN(/)
  ASCENDC_SIM_ELEMENT_ASSIGN(%)
  ASCENDC_SIM_ELEMENT_ASSIGN(&)
  ASCENDC_SIM_ELEMENT_ASSIGN(|)
  ASCENDC_SIM_ELEMENT_ASSIGN(^)
  ASCENDC_SIM_ELEMENT_ASSIGN(<<)
  ASCENDC_SIM_ELEMENT_ASSIGN(>>)
#undef ASCENDC_SIM_ELEMENT_ASSIGN
  const ElementRef& operator++() const { return *this += 1; }
  const ElementRef& operator--() const { return *this -= 1; }
  T operator++(int) const {
    const T v = Load();
    Store(static_cast<T>(v + 1));
    return v;
  }
  T operator--(int) const {
    const T v = Load();
    Store(static_cast<T>(v - 1));
    return v;
  }

 private:
  ASCENDC_SIM_INLINE uint8_t* Charge(bool write, const char* api) const {
    if (space_ == kGm) {
      ScalarGm(at_, index_, sizeof(T), write, loc_, api);
      return GmHost(reinterpret_cast<const void*>(at_));
    }
    Core& core = CurrentCore();
    core.ScalarUb(static_cast<uint32_t>(at_), sizeof(T), write, loc_, api);
    return core.UbPtr(static_cast<uint32_t>(at_));
  }
  uintptr_t at_;
  uint64_t index_;
  SrcLoc loc_;
  Space space_;
};

template <typename>
constexpr bool kIsElementRef = false;
template <typename T>
constexpr bool kIsElementRef<ElementRef<T>> = true;
template <typename X>
decltype(auto) ValueOf(const X& x) {
  if constexpr (kIsElementRef<X>)
    return x.Load();
  else
    return (x);
}
// The operators of the element's value (the built-in ones do not apply through a conversion for
// every mix of operand types, e.g. half and int).
#define ASCENDC_SIM_ELEMENT_BINARY(op)                                                                 \
  template <typename A, typename B, typename = std::enable_if_t<kIsElementRef<A> || kIsElementRef<B>>> \
  auto operator op(const A& a, const B& b)->decltype(ValueOf(a) op ValueOf(b)) {                       \
    return ValueOf(a) op ValueOf(b);                                                                   \
  }
ASCENDC_SIM_ELEMENT_BINARY(+)
ASCENDC_SIM_ELEMENT_BINARY(-)
ASCENDC_SIM_ELEMENT_BINARY(*)
ASCENDC_SIM_ELEMENT_BINARY(/)
ASCENDC_SIM_ELEMENT_BINARY(%)
ASCENDC_SIM_ELEMENT_BINARY(&)
ASCENDC_SIM_ELEMENT_BINARY(|)
ASCENDC_SIM_ELEMENT_BINARY(^)
ASCENDC_SIM_ELEMENT_BINARY(<<)
ASCENDC_SIM_ELEMENT_BINARY(>>)
ASCENDC_SIM_ELEMENT_BINARY(==)
ASCENDC_SIM_ELEMENT_BINARY(!=)
ASCENDC_SIM_ELEMENT_BINARY(<)
ASCENDC_SIM_ELEMENT_BINARY(>)
ASCENDC_SIM_ELEMENT_BINARY(<=)
ASCENDC_SIM_ELEMENT_BINARY(>=)
#undef ASCENDC_SIM_ELEMENT_BINARY
template <typename T>
auto operator-(const ElementRef<T>& a) -> decltype(-a.Load()) {
  return -a.Load();
}
template <typename T>
auto operator+(const ElementRef<T>& a) -> decltype(+a.Load()) {
  return +a.Load();
}
template <typename T>
auto operator~(const ElementRef<T>& a) -> decltype(~a.Load()) {
  return ~a.Load();
}
}  // namespace ascendc_sim

namespace AscendC {

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  __aicore__ GlobalTensor() = default;
  __aicore__ void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    addr_ = buffer;
    size_ = bufferSize;
  }
  __aicore__ void SetGlobalBuffer(__gm__ T* buffer) {
    addr_ = buffer;
    size_ = 0;
  }
  __aicore__ GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t = *this;
    t.addr_ = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(addr_) + ascendc_sim::BytesOf<T>(offset));
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }
  ASCENDC_SIM_INLINE T GetValue(uint64_t offset, ASCENDC_SIM_LOC) const {
    ascendc_sim::ScalarGm(reinterpret_cast<uintptr_t>(addr_ + offset), offset, sizeof(T), false, loc,
                          "GlobalTensor::GetValue");
    return Host()[offset];
  }
  ASCENDC_SIM_INLINE void SetValue(uint64_t offset, T value, ASCENDC_SIM_LOC) const {
    ascendc_sim::ScalarGm(reinterpret_cast<uintptr_t>(addr_ + offset), offset, sizeof(T), true, loc,
                          "GlobalTensor::SetValue");
    Host()[offset] = value;
  }
  // The element as the scalar unit reaches it: each read or write through it is a charged scalar
  // GM access, and its address is the kernel's own (guarded) GM pointer.
  ASCENDC_SIM_INLINE ascendc_sim::ElementRef<T> operator()(uint64_t offset, ASCENDC_SIM_LOC) const {
    static_assert(!ascendc_sim::kHalfByte<T>,
                  "GlobalTensor<int4b_t>::operator(): an element is half a byte, use GetValue / SetValue");
    return ascendc_sim::ElementRef<T>(ascendc_sim::ElementRef<T>::kGm, reinterpret_cast<uintptr_t>(addr_), offset, loc);
  }
  __aicore__ uint64_t GetSize() const { return size_; }
  __aicore__ __gm__ T* GetPhyAddr() const { return addr_; }
  __aicore__ __gm__ T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
  __aicore__ void SetL2CacheHint(CacheMode mode) { cacheMode_ = mode; }
  CacheMode GetCacheMode() const { return cacheMode_; }

 private:
  friend struct ascendc_sim::TensorAccess;
  // The emulation's view of the buffer, for library code only (ascendc_sim::HostData).
  ASCENDC_SIM_INLINE T* Host() const { return reinterpret_cast<T*>(ascendc_sim::GmHost(addr_)); }
  __gm__ T* addr_ = nullptr;
  uint64_t size_ = 0;
  CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
};

// A typed view of UB bytes [addr, addr + size * sizeof(T)).
template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  __aicore__ LocalTensor() = default;
  LocalTensor(uint32_t addr, uint32_t size, TPosition pos) : addr_(addr), size_(size), pos_(pos) {}
  // Static allocation at a byte address of the position's buffer (UB, or a cube buffer), bypassing
  // TPipe (kernels that lay out their buffers by hand).
  __aicore__ LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, ASCENDC_SIM_LOC)
      : size_(tileSize), pos_(pos) {
    const ascendc_sim::Core& core = ascendc_sim::CurrentCore();
    const ascendc_sim::LocalBuf buf = BufferOf(pos);
    const uint32_t cap = core.Local().Size(buf);
    const char* name = ascendc_sim::LocalBufName(buf);
    ASCENDC_SIM_CHECK(addr % 32 == 0, loc, "LocalTensor(pos, addr = %u, %u): %s address not 32 B aligned", addr,
                      tileSize, name);
    const uint64_t end = addr + static_cast<uint64_t>(tileSize) * sizeof(T);
    ASCENDC_SIM_CHECK(end <= cap, loc, "LocalTensor(pos, addr = %u, %u): bytes [%u, %llu) exceed the %u B of %s", addr,
                      tileSize, addr, static_cast<unsigned long long>(end), cap, name);
    // Into the bytes the runtime reserves at the top of the UB: nothing on the device stops it (as InitBuffer).
    ASCENDC_SIM_WARN_UNLESS(
        buf != ascendc_sim::LocalBuf::kUB || end <= core.UbCapacity(), loc,
        "LocalTensor(pos, addr = %u, %u): bytes [%u, %llu), into the bytes the runtime reserves above %u", addr,
        tileSize, addr, static_cast<unsigned long long>(end), core.UbCapacity());
    addr_ = core.Local().Base(buf) + addr;
  }
  // Operator forms (dst = a + b): the right-hand side is an expression that runs the vector op.
  template <typename Expr, typename = decltype(&Expr::template Run<T>)>
  __aicore__ LocalTensor& operator=(const Expr& e) {
    e.template Run<T>(*this);
    return *this;
  }
  LocalTensor(const LocalTensor&) = default;
  LocalTensor& operator=(const LocalTensor&) = default;

  __aicore__ LocalTensor operator[](uint32_t offset) const {
    return LocalTensor(addr_ + static_cast<uint32_t>(ascendc_sim::BytesOf<T>(offset)),
                       size_ > offset ? size_ - offset : 0, pos_);
  }
  ASCENDC_SIM_INLINE T GetValue(uint32_t index, ASCENDC_SIM_LOC) const {
    CheckIndex(index, loc, "GetValue");
    ascendc_sim::Core& core = ascendc_sim::CurrentCore();
    if constexpr (ascendc_sim::kHalfByte<T>) {  // the nibble of its byte
      core.ScalarUb(addr_ + index / 2, 1, false, loc, "LocalTensor::GetValue");
      return T(static_cast<uint32_t>(*core.UbPtr(addr_ + index / 2) >> (index % 2 * 4)));
    } else {
      core.ScalarUb(addr_ + index * sizeof(T), sizeof(T), false, loc, "LocalTensor::GetValue");
      T v;
      std::memcpy(&v, core.UbPtr(addr_ + index * sizeof(T)), sizeof(T));
      return v;
    }
  }
  template <typename U>
  ASCENDC_SIM_INLINE void SetValue(uint32_t index, U value, ASCENDC_SIM_LOC) const {
    CheckIndex(index, loc, "SetValue");
    ascendc_sim::Core& core = ascendc_sim::CurrentCore();
    if constexpr (ascendc_sim::kHalfByte<T>) {  // read-modify-write of its byte
      core.ScalarUb(addr_ + index / 2, 1, true, loc, "LocalTensor::SetValue");
      uint8_t& b = *core.UbPtr(addr_ + index / 2);
      const uint32_t shift = index % 2 * 4;
      b = static_cast<uint8_t>((b & ~(0xfu << shift)) | (static_cast<T>(value).storage << shift));
    } else {
      core.ScalarUb(addr_ + index * sizeof(T), sizeof(T), true, loc, "LocalTensor::SetValue");
      T v = static_cast<T>(value);
      std::memcpy(core.UbPtr(addr_ + index * sizeof(T)), &v, sizeof(T));
    }
  }
  // The element as the scalar unit reaches it (`t(i) = v`): each read or write through it is a
  // charged scalar UB access, and its address is the kernel's guarded view of the UB.
  ASCENDC_SIM_INLINE ascendc_sim::ElementRef<T> operator()(uint32_t index, ASCENDC_SIM_LOC) const {
    static_assert(!ascendc_sim::kHalfByte<T>,
                  "LocalTensor<int4b_t>::operator(): an element is half a byte, use GetValue / SetValue");
    CheckIndex(index, loc, "operator()");
    return ascendc_sim::ElementRef<T>(ascendc_sim::ElementRef<T>::kUb, addr_, index, loc);
  }
  __aicore__ uint32_t GetSize() const { return size_; }
  __aicore__ void SetSize(uint32_t size) { size_ = size; }
  __aicore__ uint32_t GetLength() const { return static_cast<uint32_t>(ascendc_sim::BytesOf<T>(size_)); }
  __aicore__ TPosition GetPosition() const { return pos_; }
  template <typename U>
  __aicore__ LocalTensor<U> ReinterpretCast() const {
    const uint64_t bytes = ascendc_sim::BytesOf<T>(size_);
    return LocalTensor<U>(addr_, static_cast<uint32_t>(ascendc_sim::kHalfByte<U> ? bytes * 2 : bytes / sizeof(U)),
                          pos_);
  }
  // The address as the device returns it, a uint64_t (asc-devkit kernel_tensor.h; a pointer only
  // under ASCENDC_CPU_DEBUG): here the value of the kernel's guarded view of the UB, so a kernel
  // casts it to a `__ubuf__` pointer, and byte arithmetic on it matches the device's.
  __aicore__ uint64_t GetPhyAddr() const {
    return reinterpret_cast<uintptr_t>(ascendc_sim::CurrentCore().UbGuardPtr(addr_));
  }
  __aicore__ uint64_t GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + ascendc_sim::BytesOf<T>(offset); }

  // Simulator-side accessor (not part of AscendC): the tensor's UB byte address.
  uint32_t UbAddr() const { return addr_; }

 private:
  friend struct ascendc_sim::TensorAccess;
  // The emulation's view of the tensor, for library code only (ascendc_sim::HostData).
  T* Host() const { return reinterpret_cast<T*>(ascendc_sim::CurrentCore().UbPtr(addr_)); }
  // Past the tensor but inside the UB the scalar unit reads or writes on (a device-tolerated warning).
  ASCENDC_SIM_INLINE void CheckIndex(uint32_t index, const SrcLoc& loc, const char* api) const {
    if (index < size_) return;
    ASCENDC_SIM_CHECK(addr_ + (static_cast<uint64_t>(index) + 1) * sizeof(T) <=
                          ascendc_sim::CurrentCore().Local().Size(ascendc_sim::LocalBuf::kUB),
                      loc, "LocalTensor::%s index %u out of range (tensor has %u elements), past the end of the UB",
                      api, index, size_);
    ascendc_sim::DeviceTolerated(loc, "LocalTensor::%s index %u out of range (tensor has %u elements)", api, index,
                                 size_);
  }
  uint32_t addr_ = 0;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
};

class TPipe;
TPipe* GetTPipePtr();

// Static tensor programming: a bump allocator over one physical buffer, no TPipe, no queues
// (so no implied synchronisation: the kernel orders pipes with SetFlag/WaitFlag itself).
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard == Hardware::UB, "the simulator models the Unified Buffer only (cube buffers are a later tier)");

 public:
  __aicore__ LocalMemAllocator() = default;
  template <TPosition pos, class T, uint32_t tileSize>
  __aicore__ LocalTensor<T> Alloc(ASCENDC_SIM_LOC) {
    return Take<T>(tileSize, pos, loc);
  }
  template <class T, uint32_t tileSize>
  __aicore__ LocalTensor<T> Alloc(ASCENDC_SIM_LOC) {
    return Take<T>(tileSize, TPosition::VECCALC, loc);
  }
  template <TPosition pos, class T>
  __aicore__ LocalTensor<T> Alloc(uint32_t tileSize, ASCENDC_SIM_LOC) {
    return Take<T>(tileSize, pos, loc);
  }
  template <class T>
  __aicore__ LocalTensor<T> Alloc(uint32_t tileSize, ASCENDC_SIM_LOC) {
    return Take<T>(tileSize, TPosition::VECCALC, loc);
  }
  __aicore__ uint32_t GetCurAddr() const { return cur_; }

 private:
  template <class T>
  LocalTensor<T> Take(uint32_t n, TPosition pos, const SrcLoc& loc) {
    const uint64_t bytes = (static_cast<uint64_t>(n) * sizeof(T) + 31) / 32 * 32;
    const uint32_t cap = ascendc_sim::CurrentCore().UbCapacity();
    ASCENDC_SIM_CHECK(cur_ + bytes <= cap, loc,
                      "LocalMemAllocator::Alloc of %u elements (%llu B) at UB address %u exceeds the %u B of UB", n,
                      static_cast<unsigned long long>(bytes), cur_, cap);
    LocalTensor<T> t(pos, cur_, n, loc);
    cur_ += static_cast<uint32_t>(bytes);
    return t;
  }
  uint32_t cur_ = 0;
};

// Buffers of one queue: `num` slots of `len` bytes, handed out round robin. The operations are
// untyped and compiled once in the runtime (runtime/core.cpp); TQueBind only adds the element type.
class TQueBase {
 public:
  virtual ~TQueBase();
  void Bind(uint32_t base, uint8_t num, uint32_t len);
  uint32_t BufferBytes() const { return len_; }

 protected:
  struct Slot {
    bool inUse = false;
    bool freedOnce = false;  // a FreeTensor has signalled the producer since the last AllocTensor
  };
  // The UB address of a free slot, after waiting for its last consumer.
  uint32_t Alloc(pipe_t producer, pipe_t consumer, const SrcLoc& loc);
  void Free(uint32_t addr, pipe_t producer, pipe_t consumer, const SrcLoc& loc);
  void Enqueue(uint32_t addr, uint32_t bytes, pipe_t producer, pipe_t consumer, const SrcLoc& loc);
  // Pops the oldest queued buffer, waiting for its producer; returns its UB address.
  uint32_t Dequeue(pipe_t producer, pipe_t consumer, const SrcLoc& loc);
  int SlotOf(uint32_t addr, const SrcLoc& loc) const;
  bool Holds(uint32_t addr) const;
  // The queue a buffer belongs to, and its slot: this one, or (a warning) another queue of the core.
  std::pair<TQueBase*, int> Owner(uint32_t addr, const SrcLoc& loc);
  uint64_t Key(int slot, bool backward) const {
    return (reinterpret_cast<uintptr_t>(this) << 5) | (static_cast<uint64_t>(slot) << 1) | (backward ? 1u : 0u) |
           (1ull << 63);
  }
  uint32_t base_ = 0;
  uint8_t num_ = 0;
  uint32_t len_ = 0;
  uint8_t next_ = 0;
  Slot slots_[8];
  uint32_t fifo_[8] = {};
  uint32_t sizes_[8] = {};
  uint8_t head_ = 0, count_ = 0;
  ascendc_sim::Core* core_ = nullptr;  // the core that bound it (its registry of queues)
};
void ForgetQueues(const ascendc_sim::Core* core);  // a core's end: its queues' registry goes

template <TPosition src, TPosition dst, int32_t depth, auto... mask>
class TQueBind : public TQueBase {
 public:
  static constexpr TPosition kPos = src;
  static constexpr pipe_t kProducer = ProducerPipe(src);
  static constexpr pipe_t kConsumer = ConsumerPipe(dst);

  template <typename T>
  __aicore__ LocalTensor<T> AllocTensor(ASCENDC_SIM_LOC) {
    return LocalTensor<T>(Alloc(kProducer, kConsumer, loc), len_ / sizeof(T), src);
  }
  template <typename T>
  __aicore__ void FreeTensor(LocalTensor<T>& tensor, ASCENDC_SIM_LOC) {
    Free(tensor.UbAddr(), kProducer, kConsumer, loc);
  }
  template <typename T>
  __aicore__ bool EnQue(const LocalTensor<T>& tensor, ASCENDC_SIM_LOC) {
    Enqueue(tensor.UbAddr(), tensor.GetLength(), kProducer, kConsumer, loc);
    return true;
  }
  template <typename T>
  __aicore__ LocalTensor<T> DeQue(ASCENDC_SIM_LOC) {
    const uint32_t bytes = sizes_[head_];
    return LocalTensor<T>(Dequeue(kProducer, kConsumer, loc), bytes / sizeof(T), src);
  }
  // The hop forms of a queue used in place (TQueBind<VECIN, VECOUT> between two GM copies): the
  // positions name the hop, so EnQue<GM, VECIN> follows MTE2's copy in for the vector unit and
  // EnQue<VECOUT, GM> hands the result to MTE3's copy out; DeQue<src, dst> waits for the same hop.
  template <TPosition srcUser, TPosition dstUser, typename T>
  __aicore__ bool EnQue(const LocalTensor<T>& tensor, ASCENDC_SIM_LOC) {
    Enqueue(tensor.UbAddr(), tensor.GetLength(), ProducerPipe(srcUser), ConsumerPipe(dstUser), loc);
    return true;
  }
  template <TPosition srcUser, TPosition dstUser, typename T>
  __aicore__ LocalTensor<T> DeQue(ASCENDC_SIM_LOC) {
    const uint32_t bytes = sizes_[head_];
    return LocalTensor<T>(Dequeue(ProducerPipe(srcUser), ConsumerPipe(dstUser), loc), bytes / sizeof(T), src);
  }
  // The untyped form: the buffer's address (the library's TBufHandle), the same wait.
  __aicore__ uint8_t* DeQue(ASCENDC_SIM_LOC) {
    return ascendc_sim::CurrentCore().UbGuardPtr(Dequeue(kProducer, kConsumer, loc));
  }
  // The forms that fill a tensor the caller holds (cast_v3 of hicann/ops-math).
  template <typename T>
  __aicore__ void AllocTensor(LocalTensor<T>& tensor, ASCENDC_SIM_LOC) {
    tensor = AllocTensor<T>(loc);
  }
  template <typename T>
  __aicore__ void DeQue(LocalTensor<T>& tensor, ASCENDC_SIM_LOC) {
    tensor = DeQue<T>(loc);
  }
  __aicore__ int32_t GetTensorCountInQue() const { return count_; }
  __aicore__ bool HasTensorInQue() const { return count_ > 0; }
  __aicore__ bool VacantInQue() const { return count_ < depth; }
  __aicore__ bool HasIdleBuffer() const {
    for (int i = 0; i < num_; ++i)
      if (!slots_[i].inUse) return true;
    return false;
  }
  __aicore__ void FreeAllEvent() {}
};

template <TPosition pos, int32_t depth = 1, auto... mask>
class TQue : public TQueBind<pos, pos, depth, mask...> {};

// A plain scratch buffer: never queued, so no implied synchronisation.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  void Bind(uint32_t base, uint32_t len) {
    base_ = base;
    len_ = len;
  }
  template <typename T>
  __aicore__ LocalTensor<T> Get() const {
    return LocalTensor<T>(base_, len_ / sizeof(T), pos);
  }
  template <typename T>
  __aicore__ LocalTensor<T> Get(uint32_t len, ASCENDC_SIM_LOC) const {
    ASCENDC_SIM_CHECK(len * sizeof(T) <= len_, loc, "TBuf::Get(%u) exceeds the buffer's %u bytes", len, len_);
    return LocalTensor<T>(base_, len, pos);
  }
  template <typename T>
  __aicore__ LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, ASCENDC_SIM_LOC) const {
    ASCENDC_SIM_CHECK(bufOffset % 32 == 0, loc, "TBuf::GetWithOffset offset %u is not 32 B aligned", bufOffset);
    ASCENDC_SIM_CHECK(bufOffset + size * sizeof(T) <= len_, loc,
                      "TBuf::GetWithOffset(%u, %u) exceeds the buffer's %u bytes", size, bufOffset, len_);
    return LocalTensor<T>(base_ + bufOffset, size, pos);
  }
  uint32_t BufferBytes() const { return len_; }
  // The queue interface TBuf shares with TQueBind on the device: the whole buffer, no events.
  template <typename T>
  __aicore__ LocalTensor<T> AllocTensor() const {
    return Get<T>();
  }
  template <typename T>
  __aicore__ void FreeTensor(LocalTensor<T>&) const {}

 private:
  uint32_t base_ = 0;
  uint32_t len_ = 0;
};

class TPipe {
 public:
  __aicore__ TPipe();
  __aicore__ ~TPipe();
  template <TPosition s, TPosition d, int32_t depth, auto... m>
  __aicore__ bool InitBuffer(TQueBind<s, d, depth, m...>& que, uint8_t num, uint32_t len, ASCENDC_SIM_LOC) {
    return InitQueue(que, s, num, len, loc);
  }
  template <TPosition pos>
  __aicore__ bool InitBuffer(TBuf<pos>& buf, uint32_t len, ASCENDC_SIM_LOC) {
    buf.Bind(Allocate(BufferOf(pos), Align32(len), loc, len, 1), Align32(len));
    return true;
  }
  // A TBuf is a queue on the device, so the queue form (num buffers of len bytes) takes one too.
  template <TPosition pos>
  __aicore__ bool InitBuffer(TBuf<pos>& buf, uint8_t num, uint32_t len, ASCENDC_SIM_LOC) {
    buf.Bind(InitScratch(pos, num, len, loc), Align32(len) * num);
    return true;
  }
  // The untyped forms (the guest engine binds its queues and buffers by position at run time):
  // `num` buffers of `len` bytes for a queue filled at `src`; a scratch buffer's base address.
  // Inlined into InitBuffer as before, so a kernel's own instruction count does not move.
  ASCENDC_SIM_INLINE bool InitQueue(TQueBase& que, TPosition src, uint8_t num, uint32_t len, const SrcLoc& loc) {
    ASCENDC_SIM_CHECK(num >= 1 && num <= 8, loc, "InitBuffer: %u buffers for one queue (1..8 allowed)", num);
    // A kernel's buffers number at most 64 (asc-devkit TPipe InitBuffer, constraints); the
    // 8-tensor limit of a position is on tensors held at once (TQueBase::Alloc).
    if (src == TPosition::VECIN) {
      vecinBuffers_ += num;
      ASCENDC_SIM_CHECK(vecinBuffers_ <= 64, loc,
                        "InitBuffer: %u buffers on the VECIN position (at most 64 in a kernel)", vecinBuffers_);
    }
    uint32_t bytes = Align32(len);
    que.Bind(Allocate(BufferOf(src), static_cast<uint64_t>(bytes) * num, loc, len, num), num, bytes);
    return true;
  }
  ASCENDC_SIM_INLINE uint32_t InitScratch(TPosition pos, uint8_t num, uint32_t len, const SrcLoc& loc) {
    return Allocate(BufferOf(pos), Align32(len) * num, loc, len, num);
  }
  __aicore__ void Init() { Reset(); }
  __aicore__ void Reset() {
    used_ = 0;
    vecinBuffers_ = 0;
    for (uint32_t& u : cubeUsed_) u = 0;
  }
  __aicore__ void Destroy() { Reset(); }
  uint32_t UsedBytes() const { return used_; }

  // Event ids come from a pool of 8 per HardEvent, as on the real TPipe.
  template <HardEvent event>
  __aicore__ int8_t AllocEventID(ASCENDC_SIM_LOC) {
    int8_t id = FetchEventID(event);
    ASCENDC_SIM_CHECK(id >= 0, loc, "AllocEventID: all 8 event ids of this HardEvent are in use");
    eventIds_[static_cast<int>(event)] |= static_cast<uint8_t>(1u << id);
    return id;
  }
  template <HardEvent event>
  __aicore__ void ReleaseEventID(int8_t id, ASCENDC_SIM_LOC) {
    ASCENDC_SIM_CHECK(id >= 0 && id < 8, loc, "ReleaseEventID: event id %d out of range [0, 7]", id);
    eventIds_[static_cast<int>(event)] &= static_cast<uint8_t>(~(1u << id));
  }
  template <HardEvent event>
  __aicore__ int8_t FetchEventID() const {
    return FetchEventID(event);
  }
  __aicore__ int8_t FetchEventID(HardEvent event) const {
    for (int8_t id = 0; id < 8; ++id)
      if (!(eventIds_[static_cast<int>(event)] & (1u << id))) return id;
    return -1;
  }

 private:
  uint8_t eventIds_[64] = {};
  static uint32_t Align32(uint32_t n) { return (n + 31u) & ~31u; }
  uint32_t Allocate(ascendc_sim::LocalBuf buf, uint64_t bytes, const SrcLoc& loc, uint32_t len, uint32_t num);
  uint32_t used_ = 0;
  uint32_t cubeUsed_[static_cast<int>(ascendc_sim::LocalBuf::kCount)] = {};  // bytes handed out per cube buffer
  uint32_t vecinBuffers_ = 0;
};

__aicore__ inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(ascendc_sim::CurrentCore().Registers().tpipe); }

// The rest of the UB past what the current TPipe has handed out, as one temporary tensor (the
// library's PopStackBuffer; the UB positions only). False when nothing is left.
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& pop, ASCENDC_SIM_LOC) {
  static_assert(BufferOf(pos) == ascendc_sim::LocalBuf::kUB, "PopStackBuffer: a UB position only");
  const TPipe* pipe = GetTPipePtr();
  ASCENDC_SIM_CHECK(pipe != nullptr, loc, "PopStackBuffer without a TPipe");
  const uint32_t start = pipe->UsedBytes(), end = ascendc_sim::CurrentCore().UbCapacity();
  if (start >= end) return false;
  pop = LocalTensor<T>(start, (end - start) / sizeof(T), pos);
  return true;
}

}  // namespace AscendC

namespace ascendc_sim {
// The UB byte address of a kernel's pointer into the UB (GetPhyAddr, as a pointer or its value), checked.
inline uint32_t UbAddrOf(uintptr_t ptr, const char* api, const SrcLoc& loc) {
  Core& core = CurrentCore();
  const uintptr_t base = reinterpret_cast<uintptr_t>(core.UbGuardPtr(0));
  // On the device a `__ubuf__` pointer is its UB byte address, so kernels also form one from an
  // integer (the library's TMP_UB_OFFSET); no host pointer is that small.
  if (ptr < core.Local().Size(LocalBuf::kUB)) return static_cast<uint32_t>(ptr);
  ASCENDC_SIM_CHECK(ptr >= base && ptr - base < core.Local().Size(LocalBuf::kUB), loc,
                    "%s: address %#llx is not in the UB (take it from a UB LocalTensor's GetPhyAddr)", api,
                    static_cast<unsigned long long>(ptr));
  return static_cast<uint32_t>(ptr - base);
}
}  // namespace ascendc_sim

namespace AscendC {

// The UB tensor of `count` elements at a raw `__ubuf__` pointer a kernel took with GetPhyAddr (the
// library's `*Impl` functions take such pointers).
template <typename T>
__aicore__ inline LocalTensor<T> UbTensorAt(const T* ptr, uint32_t count, TPosition pos, const SrcLoc& loc) {
  return LocalTensor<T>(ascendc_sim::UbAddrOf(reinterpret_cast<uintptr_t>(ptr), "__ubuf__ pointer", loc), count, pos);
}

}  // namespace AscendC

using AscendC::GetTPipePtr;  // kernels call it unqualified, outside `using namespace AscendC`
