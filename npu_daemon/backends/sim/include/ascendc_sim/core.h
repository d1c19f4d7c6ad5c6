// Language shims, scalar types and the per-core execution context of the simulator.
// Everything a kernel touches goes through `ascendc_sim::Core`: it owns the core's local memory,
// records the instruction trace for the performance model and has the race checker check it.
#pragma once

#include <cassert>  // the CPU-debug build's headers have it: kernels call `assert`
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

// ---- compiler qualifiers of the bisheng toolchain: no meaning on the CPU -------------------
#define __global__
#define __aicore__
#define __vector__
#define __cube__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __inout_pipe__(x)
#define __sync_alias__
#define __sync_noalias__
#define __in_pipe__(x)
#define __out_pipe__(x)
// A per-block variable (asc-devkit kernel_macros.h: `[[block_local]]`): each AI core has its own
// copy. Each core runs on a thread of its own here (runtime/scheduler.cpp), so a thread's copy is
// the core's, set up fresh at the core's start as the device's per-core storage is.
#define __BLOCK_LOCAL__ thread_local
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif
#define UB_ADDR __ubuf__ uint8_t*
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
// __CCE_KT_TEST__ stays undefined: it selects a kernel's CPU unit-test path, and the device
// compiles (and runs) the other one.

// ---- scalar types ---------------------------------------------------------------------------
// GCC 12 implements IEEE binary16 arithmetic (computed in float, rounded to nearest even).
using half = _Float16;
using float16_t = half;   // the AscendC spelling some kernels use
using float32_t = float;  // likewise (the toolchain's stdint-style aliases)

// bfloat16: storage of the upper 16 bits of a float, converted with round-to-nearest-even.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  static uint16_t FromFloat(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
  }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half>>>
  bfloat16_t(T v) : bits(FromFloat(static_cast<float>(v))) {}
  operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};
// The device compiler's bf16 builtin type, of which bfloat16_t is the typedef on the device:
// kernels test `std::is_same_v<T, __bf16>` for their bf16 path.
#define __bf16 bfloat16_t
// Likewise its fp16 builtin type, of which half is the typedef on the device: a kernel may declare a
// scalar `__fp16` and pass it where the API takes the half of its tensors (Muls, Adds, Duplicate).
#define __fp16 half
// fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t and hifloat8_t: the one-byte floats of Ascend 950.
#include "ascendc_sim/fp8.h"

// No complex64: the A2 toolkit defines none (asc-devkit has it for arch 3510 / 5102 and the host
// only), so a kernel spelling DTYPE_<ARG> of a complex argument declares the type itself.

enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL };
enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace ascendc_sim {

constexpr int kPipes = 7;  // PIPE_S .. PIPE_FIX; PIPE_ALL is a barrier target only
inline const char* PipeName(int p) {
  static const char* names[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",   "PIPE_MTE1",
                                "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX", "PIPE_ALL"};
  return p >= 0 && p <= 7 ? names[p] : "PIPE_?";
}

// Statuses the harness can raise; the Python side maps them onto protocol.Status.
enum class Status : uint8_t { OK, TILING_ERROR, RUNTIME_ERROR, RACE_DETECTED };

// Call site of an API, captured through default arguments so errors name the kernel's line.
struct SrcLoc {
  const char* file;
  int line;
  static SrcLoc here(const char* f = __builtin_FILE(), int l = __builtin_LINE()) { return {f, l}; }
  // The API's documented signatures, whose addresses kernels take (`Mul` passed where a function
  // pointer of that type is expected), are extra forms with a last template parameter R, deduced
  // only from that pointer's return type: no call selects them, and a call through the pointer runs
  // the located form, traced and charged alike, with no call site to name.
  static SrcLoc ThroughAddress() { return {"(an API function called through its address)", 0}; }
};
#define ASCENDC_SIM_LOC ::ascendc_sim::SrcLoc loc = ::ascendc_sim::SrcLoc::here()
// Element access (GetValue, SetValue, t(i)) is inlined into the kernel, as the device's inline API
// is: its argument set-up is then the library's, not counted as the kernel's own scalar
// instructions (backends/sim/scalar_count.py).
#define ASCENDC_SIM_INLINE __attribute__((always_inline)) inline

struct SimError : std::runtime_error {
  Status status;
  SimError(Status s, const std::string& what) : std::runtime_error(what), status(s) {}
};

[[noreturn]] void Fail(Status status, const SrcLoc& loc, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
// A condition the device does not check (it runs on, e.g. writing UB past a tensor but inside the
// UB): a warning in the result, or a RUNTIME_ERROR in strict mode (`param sim_strict 1`).
void DeviceTolerated(const SrcLoc& loc, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
const std::vector<std::string>& Warnings();
#define ASCENDC_SIM_CHECK(cond, loc, ...)                                                     \
  do {                                                                                        \
    if (!(cond)) ::ascendc_sim::Fail(::ascendc_sim::Status::RUNTIME_ERROR, loc, __VA_ARGS__); \
  } while (0)
#define ASCENDC_SIM_WARN_UNLESS(cond, loc, ...)                    \
  do {                                                             \
    if (!(cond)) ::ascendc_sim::DeviceTolerated(loc, __VA_ARGS__); \
  } while (0)

// ---- instruction trace ----------------------------------------------------------------------
// One record per pipe instruction; the performance model consumes these per core.
enum class Op : uint8_t {
  kScalar,     // scalar work (cycles), flushed before the next pipe instruction
  kVecBinary,  // two-source vector op (UB bank conflicts possible)
  kVecUnary,   // one-source simple op (Relu, Abs, Adds, Muls, Duplicate, ...)
  kVecCast,
  kVecTransc,  // Exp, Ln, Sqrt, Rsqrt, Reciprocal
  kVecDiv,
  kVecFma,     // MulAddDst, FusedMulAdd, Axpy
  kVecReduce,  // WholeReduce / BlockReduce / PairReduce per repeat
  kVecMask,    // mask-setting instruction
  kCopyGmToUb,
  kCopyUbToGm,
  kCopyUbToUb,
  kSetFlag,
  kWaitFlag,
  kBarrier,
  kSyncAll,
  // Added after the model's first version; the model may cost them like their nearest class.
  kVecCompare,  // Compare / CompareScalar: bit-mask output
  kVecSelect,   // Select / GatherMask
  kVecGather,   // Gather by byte offsets (one UB read per lane)
  kVecIndex,    // CreateVecIndex / Brcb
  // The cube unit (cube_*.h): AIC cores only.
  kCopyGmToL1,  // MTE2 DMA into L1 (ND, ND2NZ, LoadData 2D) or L0A / L0B (LoadData 2D); a GM read
  kLoadL0,      // MTE1: L1 -> L0A/L0B fractals (LoadData 2D / 3D), `elements` bytes
  kMmad,        // PIPE_M: `repeats` 16 x 16 x k0 fractal steps, `elemBytes` of the inputs
  kFixpipe,     // PIPE_FIX: L0C -> GM, a GM write like kCopyUbToGm (rows of unitBytes at gmPitch)
  kFixpipeUb,   // PIPE_FIX: L0C -> UB / L1 (no GM traffic), `elements` bytes
  kCopyL1,      // MTE1: L1 -> bias table / fixpipe buffer, `elements` bytes
  kCrossSet,    // CrossCoreSetFlag: `link` unused, `gmPitch` = flag key
  kCrossWait,   // CrossCoreWaitFlag: `gmAddr` = global core id, `link` = index in that core's trace; `elements`:
                // the bytes of a Matmul message received (MIX mode), 0 for a flag
  kVecMerge,    // MrgSort: 4-way merges of (score, index) pairs; `repeats` of 256 B of merged output
  kFillCube,    // Fill / InitConstValue: L1 on MTE2 or L0A / L0B on MTE1, `elements` bytes written
};

struct Instr {
  uint8_t pipe;  // pipe_t
  Op op;
  uint8_t elemBytes;      // vector element size
  uint8_t cacheMode;      // GM L2 hint of the copy's GlobalTensor
  uint32_t site;          // index into CoreTrace::sites (API name and kernel line)
  uint32_t repeats;       // vector repeats, or DMA bursts
  uint32_t unitBytes;     // DMA bytes per burst
  uint64_t gmAddr;        // DMA GM start address (granule alignment)
  uint32_t ubAddr[3];     // dst, src0, src1 UB addresses (bank groups)
  int64_t link;           // kWaitFlag: index of the matching kSetFlag in the same trace; else -1
  uint32_t scalarCycles;  // kScalar: cycles of scalar work
  // Fields added for the model (zero when not meaningful):
  uint64_t elements = 0;       // active lanes (vector) or bytes moved (DMA)
  uint16_t blkStride[3] = {};  // vector: dst, src0, src1 block strides (32 B blocks)
  uint16_t repStride[3] = {};  // vector: dst, src0, src1 repeat strides (32 B blocks)
  uint64_t maskBits[2] = {};   // vector, normal mode: active lanes of every repeat
  uint8_t maskCounter = 0;     // vector: counter mask mode (maskBits unused)
  uint8_t atomic = 0;          // kCopyUbToGm: AtomicOp of the copy (0: plain store)
  uint8_t hf32 = 0;            // kMmad: fp32 inputs rounded to HF32 (SetHF32Mode), twice the fp32 step rate
  uint64_t gmPitch = 0;        // DMA: bytes between GM rows (== unitBytes when contiguous)
  uint32_t ubBytes[3] = {};    // UB footprint of dst, src0, src1
};

struct Site {
  const char* api;
  const char* file;
  int line;
};

// A UB byte range an instruction reads or writes, for the race checker.
struct UbAccess {
  uint32_t addr;
  uint32_t bytes;
  bool write;
  uint32_t align = 32;   // the start alignment the instruction needs (a reduction's result: its unit)
  bool scratch = false;  // a sharedTmpBuffer: the API's own to write, apart from its operands
  // A DMA's UB side in rows: `rowBytes` of every `pitch` bytes (0: every byte of the range). The race
  // checker compares bytes, and a DataCopyPad row of 4 B in a 32 B UB block touches those 4 only.
  uint32_t rowBytes = 0;
  uint32_t pitch = 0;
};

// A GM footprint: `rows` runs of `rowBytes` bytes, `pitch` bytes apart (pitch >= rowBytes).
struct GmPattern {
  uint64_t start = 0;
  uint32_t rows = 0;
  uint32_t rowBytes = 0;
  uint64_t pitch = 0;
  uint64_t End() const { return rows ? start + (rows - 1) * pitch + rowBytes : start; }
  bool Overlaps(const GmPattern& o) const;
};

// The GM read-modify-write a UB->GM copy performs (SetAtomicAdd/Max/Min); kNone is a plain store.
enum class AtomicOp : uint8_t { kNone = 0, kAdd, kMax, kMin };
enum class AtomicType : uint8_t { kNone = 0, kFloat, kHalf, kBf16, kInt8, kInt16, kInt32 };

enum class CacheMode : uint8_t { CACHE_MODE_NORMAL = 0, CACHE_MODE_DISABLE, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };

// Memory the kernel can address but never touch directly: shared pages mapped twice. Kernel code is
// handed `guard` (PROT_NONE, so a plain C++ access faults and is charged as a scalar access, see
// runtime/raw_access.cpp); the emulation reads and writes `host`, the same pages. Unguarded memory
// (the tiling buffer) maps once, guard == host. Pages are reserved, not committed (MAP_NORESERVE): a page
// takes memory when first touched, so a launch may address more GM than the host has.
// With `file`, both views map the file's bytes privately (copy on write) instead: its pages are
// read when touched. The two views then no longer share what either writes (timing-only runs).
struct GuardedMemory {
  GuardedMemory(uint64_t bytes, const char* name, bool guarded = true, int file = -1, uint64_t fileBytes = 0);
  ~GuardedMemory();
  GuardedMemory(const GuardedMemory&) = delete;
  GuardedMemory& operator=(const GuardedMemory&) = delete;
  uint8_t* guard = nullptr;
  uint8_t* host = nullptr;
  uint64_t bytes = 0;   // as requested
  uint64_t mapped = 0;  // rounded up to whole pages
};

// The cube unit's buffers, placed in the core's local address space after the Unified Buffer (so a
// LocalTensor is one address whatever its position): L1, L0A, L0B, L0C, the bias table (BT) and the
// fixpipe buffer (FB). Sizes are SoC parameters; each base is aligned to 64 KiB.
enum class LocalBuf : uint8_t { kUB = 0, kL1, kL0A, kL0B, kL0C, kBT, kFB, kCount };
struct LocalLayout {
  uint32_t base[static_cast<int>(LocalBuf::kCount)] = {};
  uint32_t size[static_cast<int>(LocalBuf::kCount)] = {};
  uint32_t total = 0;
  static LocalLayout FromSoc();
  uint32_t Base(LocalBuf b) const { return base[static_cast<int>(b)]; }
  uint32_t Size(LocalBuf b) const { return size[static_cast<int>(b)]; }
  LocalBuf Of(uint32_t addr) const {  // the buffer an address lies in
    for (int b = static_cast<int>(LocalBuf::kCount) - 1; b > 0; --b)
      if (addr >= base[b]) return static_cast<LocalBuf>(b);
    return LocalBuf::kUB;
  }
};
const char* LocalBufName(LocalBuf b);

// Which unit a core is: the vector cores run AIV code, the cube cores AIC code (ASCEND_IS_AIC).
enum class CoreType : uint8_t { kAiv = 0, kAic = 1 };

// A core of a launch (LaunchCores): its unit, block index and count, its group (one AIC with its
// AIVs in a mixed launch, = blockIdx in a single-unit one), its index among the group's AIVs and
// the AIV:AIC ratio.
struct CoreSpec {
  CoreType type;
  int blockIdx, blockNum, group, sub, ratio;
};

// The registers the kernel API sets and reads back (no invariant ties them to the rest of the core).
struct CoreRegisters {
  uint64_t mask[2] = {~0ull, ~0ull};    // vector mask register
  bool maskCounter = false;             // SetMaskCount() mode
  AtomicOp atomicOp = AtomicOp::kNone;  // SetAtomicAdd/Max/Min state for UB->GM copies
  AtomicType atomicType = AtomicType::kNone;
  uint64_t padValue = 0;  // SetPadValue: fills the 32 B row tails of DataCopyPad without isPad
  bool padValueSet = false;
  void* tpipe = nullptr;         // the TPipe constructed last on this core (GetTPipePtr)
  uint64_t maxMinSpr = 0;        // last max/min reduction: value bits (low 32), element index (high 32)
  uint64_t accVal = 0;           // ACC_VAL: the last ReduceSum's result bits (low 16 or 32)
  float deqScale = 1.0f;         // SetDeqScale(half): the int32 -> half Cast multiplies by it
  uint64_t cmpMask[2] = {0, 0};  // CMPMASK: Compare without dst writes it, Select<T, VSEL_CMPMASK_SPR> reads it
  uint64_t vms4Sr = 0;           // VMS4_SR: the pairs the last MrgSort took from each list (16 bits each)
  uint64_t rsvdCnt = 0;          // the elements the last vreducev2 (GatherMask) kept: get_rsvd_cnt
  bool hf32 = false;             // SetHF32Mode: Mmad rounds fp32 L0A / L0B values to HF32 first
  bool hf32TiesAway = false;     // SetHF32TransMode: HF32 rounding ties away from zero (else to even)
  // The Load3D registers by AscendC::detail::Load3dReg, in the device's bits: FMATRIX, FMATRIX_B,
  // PADDING, L3D_RPT (repeatTime 1 until set) and L1_3D_SIZE (0: no boundary).
  uint64_t load3d[5] = {0, 0, 0, 1ull << 16, 0};
  // VA0..VA7 (set_va_reg_sb): eight UB addresses each, as the kernel gave them; the scatter
  // transpose (scatter_vnchwconv_*) resolves and checks them when it reads them.
  uint64_t va[8][8] = {};
  bool mmadDirectionN = false;  // CTRL[51]: Mmad produces the result fractals N first (no value changes)
  // ND_PARA (set_nd_para): the ND matrices an NZ -> ND fixpipe writes: ndNum [15:0], srcNdStride
  // [31:16], dstNdStride [47:32]; one matrix until a kernel sets it.
  uint64_t ndPara = 1;
};

// Two instructions of one core on two of PIPE_V, PIPE_MTE2 and PIPE_MTE3 (a vector instruction and
// a DMA, or a copy in and a copy out), touching the same UB bytes (one of them writing) with no
// flag or queue between them. Only timing orders them on the A2, so the
// performance model decides the pair (model/timed_order.h): a race if `second` starts before
// `first` is done in the simulated timeline, a device-tolerated warning otherwise.
struct TimedPair {
  int64_t first, second;  // trace indices, first < second
  uint32_t ub;            // the first 32 B block of UB both touch
  uint8_t secondWrites;   // whether `second` writes (else it reads what `first` wrote)
  uint8_t firstWrites;    // whether `first` wrote (else `second` writes what it read)
  uint8_t pad[2];
};

// What a finished core hands the performance model: which core it was and what it issued.
struct CoreTrace {
  int globalId = 0;  // index of the core among every core of the launch
  CoreType type = CoreType::kAiv;
  std::vector<Instr> instrs;
  std::vector<Site> sites;       // Instr::site indexes these
  std::vector<TimedPair> timed;  // pairs only the timeline orders, in the order found
};

class RaceChecker;  // runtime/race_checker.h

// One AI core while its block runs: identity, local memory, registers, and the instruction trace,
// recorded through the methods below, each checked by the race checker.
class Core {
 public:
  Core(const CoreSpec& spec, int globalId);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  const CoreSpec& Spec() const { return spec_; }
  int GlobalId() const { return trace_.globalId; }
  // Local memory: the Unified Buffer at [0, UB) and, past it, the cube buffers (LocalLayout).
  const LocalLayout& Local() const { return local_; }
  uint64_t LocalBytes() const { return mem_.bytes; }
  uint64_t LocalMappedBytes() const { return mem_.mapped; }
  uint8_t* UbPtr(uint32_t addr) { return mem_.host + addr; }        // for the emulation
  uint8_t* UbGuardPtr(uint32_t addr) { return mem_.guard + addr; }  // for kernel code (GetPhyAddr)
  uint32_t UbCapacity() const { return ubCapacity_; }  // bytes TPipe may hand out (less the runtime's reserve)
  uint32_t UbPeak() const { return ubPeak_; }          // most UB bytes TPipe handed out at once
  void NoteUbInUse(uint32_t bytes) { ubPeak_ = bytes > ubPeak_ ? bytes : ubPeak_; }
  uint32_t ScalarUbCycles() const { return scalarUbCycles_; }  // one scalar UB access (GetValue/SetValue)
  uint32_t ScalarGmCycles() const { return scalarGmCycles_; }  // one scalar GM access missing the data cache
  // The cycles of a scalar GM access of `bytes` at `addr` through the core's data cache (a hit or a
  // miss per line it touches; a miss loads the line, for a write too), which it updates.
  uint32_t ScalarGmCost(uintptr_t addr, uint32_t bytes);
  void InvalidateDataCache(uintptr_t addr, bool entire);  // DataCacheCleanAndInvalid: one line or all
  // DataCachePreload: the line at `addr` starts to fill without stalling the scalar unit, so a later
  // access to it waits only for what is left of the fill. With every preload slot busy the device
  // treats it as a NOP that blocks the scalar pipe: the unit waits for the oldest fill, nothing loads.
  void PreloadDataCache(uintptr_t addr);
  // The cycles of the scalar unit's loads of `bytes` of GM at `addr` a 4-byte word at a time, each
  // through the data cache: how the device copies tiling data and parameter blocks into a kernel.
  uint64_t ScalarGmWordsCost(uintptr_t addr, uint64_t bytes);
  CoreRegisters& Registers() { return regs_; }
  const CoreRegisters& Registers() const { return regs_; }
  const CoreTrace& Trace() const { return trace_; }

  // Record one pipe instruction after checking its UB accesses against unordered work of other
  // pipes; returns its index in the trace.
  int64_t IssueAccesses(Instr ins, const SrcLoc& loc, const char* api, const UbAccess* ub, size_t n);
  // An access inside one buffer the core's unit has (the AIV's UB; the AIC's L1, L0 and tables).
  void CheckReach(uint32_t addr, uint64_t bytes, const SrcLoc& loc, const char* api) const;
  // A local access by `pipe`'s unit is one the core has (no vector or scalar access on an AIC).
  void CheckUnit(int pipe, const SrcLoc& loc, const char* api) const;
  // Synchronisation: `key` names the flag (event id, or a queue slot for queue-implied flags).
  void SetFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api);
  void WaitFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api);
  void Barrier(int pipe, const SrcLoc& loc, const char* api);
  // Scalar access to UB (GetValue/SetValue); the compiler syncs PIPE_V -> PIPE_S for it.
  void ScalarUb(uint32_t addr, uint32_t bytes, bool write, const SrcLoc& loc, const char* api);
  // The V -> S sync an API's library code waits on before reading a vector result back (dav_c220
  // ReduceSum reads ACC_VAL, stores it and syncs S -> V, S -> MTE3): later instructions of every pipe
  // follow the API's vector work. Race checker only; the trace keeps the API's calibrated cost.
  void LibraryVectorToScalar();
  void Scalar(uint64_t cycles) { pendingScalar_ += cycles; }
  // A scalar GM store of up to `bytes` (SetValue, an element write, a raw store): the next scalar
  // record carries them, so the launcher knows which output bytes the trace paid for.
  void NoteScalarStore(uint64_t bytes) { pendingStoreBytes_ += bytes; }
  // The kernel's own scalar instructions (backends/sim/scalar_count.py) since the last settle,
  // charged as scalar work; Resume forgets those another block ran while this one was parked.
  void SettleScalarInstrs();
  void ResumeScalarInstrs();
  void Finish();  // end of kernel: unmatched flags are errors, scalar work is flushed
  // GM traffic of this core, checked within the core (MTE3 vs MTE2 ordering) and across cores
  // (overlapping writes between SyncAlls). `pipe` is the pipe doing the access; `sameBytes`: a
  // plain write of exactly the bytes GM already holds (another block may write them too).
  void GmAccess(int pipe, const GmPattern& g, bool write, const SrcLoc& loc, const char* api, bool sameBytes = false);
  // SyncAll: drains every pipe, then waits until every block of the launch has reached it.
  void SyncAll(const SrcLoc& loc);
  // The Matmul objects' user-copied tiles (matmul.h): every object of the core lays them at one L1
  // place, where on the device each has its own; the object whose tiles the place holds, and each
  // object's tiles of A (0) and B (1) as its last user copy left them, by the object's id.
  struct MatmulTiles {
    uint64_t holder = 0;
    std::map<uint64_t, std::vector<uint8_t>> kept[2];
  };
  MatmulTiles& MatmulL1() { return matmulL1_; }

 private:
  uint32_t Site_(const SrcLoc& loc, const char* api);
  void FlushScalar();
  void Append(Instr ins);
  void NotePoll_(const GmPattern& g, const SrcLoc& loc);
  bool TouchLine_(uint64_t line);                   // the line to the front of its set, loaded if absent; was it there
  uint64_t ScalarClock_();                          // the scalar cycles this core has been charged so far
  uint64_t FillWait_(uint64_t line, uint64_t now);  // what is left of the line's preload fill at `now`

  // Cores that meet by flags in GM poll them: the same GM read of unchanged bytes, again and again,
  // nothing else in between. The scheduler runs a core until it blocks, so after kPollYield such
  // reads the core yields until the bytes change; when no other core can run it reads on, and
  // kPollIdle reads later it is a deadlock (a poll no one will end; the bound keeps a loop that ends
  // by itself, a bounded wait, running).
  static constexpr uint32_t kPollYield = 8;
  static constexpr uint32_t kPollIdle = 1u << 14;
  static constexpr uint64_t kPollBytes = 8192;  // a read longer than this is data, not a poll
  GmPattern pollRead_{};
  uint64_t pollHash_ = 0;
  uint32_t pollRepeats_ = 0;
  uint32_t pollIdle_ = 0;

  CoreSpec spec_;
  LocalLayout local_;
  GuardedMemory mem_;
  uint32_t ubCapacity_;
  uint32_t ubPeak_ = 0;
  uint32_t scalarUbCycles_;
  uint32_t scalarGmCycles_;
  CoreRegisters regs_;
  CoreTrace trace_;
  std::map<std::tuple<const char*, const char*, int>, uint32_t> siteIndex_;  // (api, file, line) -> sites
  uint64_t pendingScalar_ = 0;                                               // scalar cycles not yet in the trace
  uint64_t pendingStoreBytes_ = 0;  // scalar GM store bytes not yet in the trace (Instr::elements of kScalar)
  double scalarInstrCycles_;
  double instrCyclesCarry_ = 0;  // the fraction of a cycle not yet charged
  uint32_t scalarGmHitCycles_;
  uint32_t dcacheLineShift_, dcacheSets_, dcacheWays_;
  std::vector<uint64_t> dcache_;  // per set, its ways' line numbers + 1 (0: empty), most recent first
  struct LineFill {
    uint64_t line, ready;  // a preloaded line and the scalar clock at which it is in the data cache
  };
  std::vector<LineFill> fills_;  // preloads in flight, oldest first: at most preloadSlots_
  uint32_t preloadCycles_, preloadSlots_;
  uint64_t flushedScalar_ = 0;  // scalar cycles already in the trace
  uint64_t seenInstrs_ = 0;     // the kernel object's instruction counter when last settled
  int64_t lastVector_ = -1;     // trace index of the latest PIPE_V instruction
  std::unique_ptr<RaceChecker> race_;
  MatmulTiles matmulL1_;
};

Core& CurrentCore();
// Mixed launches: the cores of the launch, a core of a group (nullptr when not running), parking
// the AIC in REGIST_MATMUL_OBJ until its group's AIVs have all ended (serving them: an AIV-only
// SyncAll does not wait for it), parking the current core until `ready` (runtime/scheduler.cpp),
// and the cross-core flags of CrossCoreSetFlag / CrossCoreWaitFlag (runtime/cross_core.cpp).
const std::vector<CoreSpec>& LaunchSpecs();
Core* GroupCore(int group, CoreType type, int sub);
void ServeGroupAivs(int group);
// `poll`: the core polls GM (Core::kPollYield); when no core can run, the launcher resumes it anyway.
void WaitUntil(const std::function<bool()>& ready, const std::string& what, bool poll = false);
bool OtherCoreRunnable();  // another core of the launch can run now (or once it gets the baton)
std::string OtherWaits();  // what each other core that cannot run waits for, for a deadlock message
void ResetCrossFlags();
void CrossCoreSet(int mode, int pipe, int flag, const SrcLoc& loc, const char* api = "CrossCoreSetFlag");
void CrossCoreWait(int mode, int pipe, int flag, const SrcLoc& loc, const char* api = "CrossCoreWaitFlag");
// ffts_cross_core_sync: a set named by its FFTS message (AscendC::GetffstMsg's bits).
void FftsCrossCoreSync(int pipe, uint64_t config, const SrcLoc& loc);
void RunOnGroupAic(const std::function<void()>& work, const SrcLoc& loc);
void PostToGroupAic(const SrcLoc& loc);  // a Matmul message with no cube work and no answer (INIT, END)
int64_t SocParamInt(const char* key);
const char* SocParamStr(const char* key);

// ---- GM allocations, to bound-check GlobalTensor traffic -------------------------------------
bool GmRangeValid(const void* p, uint64_t bytes);
// DataCachePreload of the line holding byte `offset` past `base` on the current core. The device takes
// the address as it is; the emulation holds it to the launch's GM buffers. Out of line, so the
// kernel's code around the call is its own (backends/sim/scalar_count.py).
void PreloadDataCache(const void* base, int64_t offset, const SrcLoc& loc);
// Past the buffer that holds `p` but where the device tolerates the access: a read inside the pages
// mapped for it (it runs on the device too), a write inside the block torch_npu's caching allocator
// hands out for it (its size plus 32 B, rounded up to 512 B: bytes no other tensor owns).
bool GmRangeTolerated(const void* p, uint64_t bytes, bool write);
// The emulation's address of GM the kernel addresses at `p` (p itself outside guarded buffers).
uint8_t* GmHost(const void* p);
std::string DescribeGm(uint64_t addr);  // "name+offset", for messages

}  // namespace ascendc_sim
