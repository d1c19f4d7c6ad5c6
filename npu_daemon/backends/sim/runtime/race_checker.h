// The race checker: does the ordering the kernel wrote (flags, barriers, queues) order every pair of
// conflicting accesses?
//
// Within a core, ordering is tracked with vector clocks, one per pipe (FastTrack style). An
// instruction on pipe P ticks P's clock; SetFlag snapshots the source pipe's clock, WaitFlag joins it
// into the destination's; PIPE_ALL joins every pipe. Scalar <-> vector ordering is implied (the real
// compiler inserts those syncs); MTE2/MTE3 are ordered against PIPE_V only by flags and queues.
// The scalar unit issues every pipe's instructions in program order, so what it has waited for
// (a WaitFlag with PIPE_S as destination, the V -> S sync) is done before any later instruction of
// any pipe starts. Between the scalar unit and the DMA pipes (MTE2, MTE3) the compiler inserts the
// syncs itself (asc-devkit, intra-core sync "key features" page, table 3 for arch 2201: S <-> MTE2/MTE3
// synced by the compiler, `--cce-auto-sync` on by default for operator projects): such an unflagged
// conflict is ordered and warned about; strict mode keeps it a race. The same page leaves V <-> MTE2/MTE3
// to queues and flags (its counterexample 1: a static-tensor copy then Add fails), and MTE2 <-> MTE3
// as well: nothing but timing orders such a pair in UB, so it goes to the trace (TimedPair) and the
// performance model decides it once the launch is timed (model/timed_order.h); strict mode keeps it
// a race here.
// Each 32 B block of local memory remembers its last writer and its last reader per pipe; an access
// whose earlier conflicting access is not ordered before it is a race. GM is checked the same way
// between the DMA pipes of the core.
// A conflict whose write leaves every byte the other access touches as it was cannot change what
// either reads or what memory ends up holding, whichever runs first: such a pair is a warning
// (named, counted), not a race, outside strict mode. The values are the emulation's local memory,
// compared once the instruction has written it. An instruction whose accesses are all ordered is
// checked and recorded at issue, as without the rule; from its first written block with an
// unordered pair on, it is kept (those blocks' bytes copied) and checked when the core's next call
// reaches the checker (Settle), once the API has written. The bytes a read touched come from a
// short log of each pipe's reads, looked up on such a pair only.
//
// Across cores, blocks run one at a time between SyncAlls (scheduler.h), and at every SyncAll the GM
// footprints of the epoch are compared: a write overlapping another block's access is a race unless
// both are atomic (GmEpoch), or ordered by a GM flag (gm_flags: a poll that observed the writer's
// flag write) or by a mode-0 flag barrier (gm_flags::Join: the writer's set before the reader's
// wait); a scalar store sharing a 64 B cache line with another block's write is one too, as
// the data cache writes whole lines back.
#pragma once

#include <array>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ascendc_sim/core.h"

namespace ascendc_sim {

class RaceChecker {
 public:
  // `sites` is the core's site table (messages name the other access by it); `localBytes` the size
  // of the core's local memory, `ubBytes` the Unified Buffer's (the shadow grows past it on the first
  // cube-buffer access).
  // `timed` receives the pairs left to the timeline.
  // `local` the core's local memory as the emulation writes it (the bytes compared).
  RaceChecker(const std::vector<Site>& sites, std::vector<TimedPair>& timed, uint32_t ubBytes, uint64_t localBytes,
              const uint8_t* local);

  // A pipe instruction on `pipe`, trace index `index`, with its local-memory accesses: ticks the
  // pipe's clock, fails on a race and records the accesses; from a written block with an unordered
  // pair on, keeps them (and copies such blocks' bytes) for the next Settle to do so.
  void Instruction(int pipe, uint32_t site, int64_t index, const UbAccess* accesses, size_t n, const SrcLoc& loc,
                   const char* api);
  // Checks the kept instruction against the bytes it wrote. Every entry below that orders or reads
  // local memory calls it first; GmAccess does not (a DMA records its GM side before it copies).
  // The scalar unit: whether PIPE_V is ahead of it (the compiler then syncs V -> S before a scalar
  // UB access), that sync, and the access itself (ticks PIPE_S; `site` is asked for on a write only).
  bool VectorAhead();
  void SyncVectorToScalar();
  // A V -> S sync the library issues inside an API (not the compiler's before a scalar access):
  // every instruction issued afterwards follows what PIPE_V has done.
  void LibraryVectorToScalar() {
    Settle();
    Join(issued_, vc_[PIPE_V]);
  }
  template <typename SiteOf>
  void ScalarAccess(uint32_t addr, bool write, const SrcLoc& loc, const char* api, SiteOf site);
  // Flags: `setIndex` is the trace index of the SetFlag, returned by the matching WaitFlag.
  void SetFlag(int src, int dst, uint64_t key, int64_t setIndex, uint32_t site);
  int64_t WaitFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api);
  void Barrier(int pipe);
  // A DMA pipe's GM access, checked against the other DMA pipes of the core.
  void GmAccess(int pipe, const GmPattern& g, bool write, uint32_t site, const SrcLoc& loc, const char* api);
  void Settle() {
    if (kept_.held) Judge();
  }
  void ForgetGm();  // at SyncAll: everything before is complete
  void Finish();    // end of kernel: a flag set and never waited for is an error

 private:
  using Clock = std::array<uint32_t, kPipes>;
  static void Join(Clock& into, const Clock& from);
  struct Block {
    uint8_t writer = 0;
    uint8_t silent = 0;       // bit q: pipe q's read record is (or follows) a write of unchanged bytes
    uint32_t writeClock = 0;  // 0: never written
    uint32_t writeSite = 0;
    uint32_t readClock[kPipes] = {};
    uint32_t readSite[kPipes] = {};
    // Bit i is byte i of the block: the bytes a write of this core has given a value (the rest
    // hold what the device left).
    uint32_t defined = 0;
  };
  Block& ShadowOf(uint32_t addr);
  // An access of pipe `to` that `from`'s earlier access is not ordered before (`what` says both):
  // a race, unless the compiler's automatic sync orders the pair (S <-> MTE2/MTE3, not strict),
  // which warns and joins the clocks as that sync does.
  void Conflict(int from, int to, const SrcLoc& loc, const std::string& what);
  // A conflict between two of PIPE_V, PIPE_MTE2, PIPE_MTE3 (`from`'s access at `clock`, instruction
  // `index` of pipe `to`) over the 32 B block `block`: left to the timeline (true), or not (strict
  // mode, other pipes).
  bool ByTiming(int from, uint32_t clock, int to, int64_t index, uint32_t block, bool secondWrites, bool firstWrites);
  // An unordered pair whose write leaves the other access's bytes unchanged: counted, the first named.
  void SameValue(const SrcLoc& loc, const std::string& what);
  // The kept instruction: Hold starts it, Keep adds block `b` of its access `k` (`copy`: a write with
  // an unordered pair, whose bytes are copied), Judge checks it.
  void Hold(int p, uint32_t site, int64_t index, const SrcLoc& loc, const char* api);
  void Keep(uint32_t b, const UbAccess& a, size_t k, bool copy);
  void Judge();
  // The checks of one block of the kept instruction (`changed`: the bytes of the block its write
  // changed, `settled`: whether those can be trusted, `copied`: whether they were compared).
  void Access(uint32_t b, const UbAccess& a, uint32_t changed, bool settled, bool copied);
  // An access of pipe `p` to block `b` its last writer is not ordered before (`silent`: a write
  // that left the block's bytes as they were).
  void WriterConflict(uint32_t b, const UbAccess& a, int p, int64_t index, const SrcLoc& loc, const char* api,
                      bool silent);
  void SilentReads(uint32_t b, int p, const SrcLoc& loc, const char* api);
  void LogRead(int p, uint32_t clock, const UbAccess& a);
  uint32_t ReadBytes(int q, uint32_t b, uint32_t after) const;
  struct Snapshot {
    Clock clock;
    int64_t setIndex;
    uint32_t site;
  };
  // A GM access of a DMA pipe not yet known to be ordered.
  struct GmRec {
    GmPattern g;
    uint8_t pipe;
    uint32_t clock;
    uint32_t site;
  };

  const std::vector<Site>& sites_;
  std::vector<TimedPair>& timed_;
  uint64_t localBytes_;
  const uint8_t* local_;
  // The instruction Instruction kept for Settle: its blocks from the first written one with an
  // unordered pair on, in issue order, and the copied blocks' bytes at issue.
  struct KeptBlock {
    uint32_t access;  // into `accesses`
    uint32_t block;
    bool copied;
  };
  struct Kept {
    bool held = false;
    int pipe = 0;
    uint32_t site = 0;
    int64_t index = 0;
    SrcLoc loc{};
    const char* api = nullptr;
    size_t last = 0;  // the caller's index of the access last added
    std::vector<UbAccess> accesses;
    std::vector<KeptBlock> blocks;
    std::vector<uint8_t> before;  // 32 B per copied block, in order
  } kept_;
  std::vector<uint32_t> changed_;  // Judge's: the bytes each copied block changed, in order
  // Each pipe's latest reads (the scalar unit's are not kept: taken as the whole block), oldest
  // overwritten: a write with an unordered read finds the bytes it read here.
  struct Read {
    uint32_t clock;
    UbAccess access;
  };
  static constexpr size_t kReadLog = 256;  // a power of two
  struct ReadLog {
    std::vector<Read> ring;
    size_t next = 0;
  } reads_[kPipes];
  uint64_t sameValue_ = 0;  // pairs SameValue let pass on this core
  SrcLoc sameValueLoc_{};
  std::string sameValueWhat_;
  std::vector<int64_t> traceIndex_[kPipes];  // V, MTE2, MTE3: trace index of the pipe's instruction by clock
  Clock vc_[kPipes] = {};
  Clock issued_ = {};  // what the scalar unit waited for: every instruction issued from now on follows it
  std::map<std::tuple<int, int, uint64_t>, std::vector<Snapshot>> flags_;  // FIFO per flag
  std::vector<Block> shadow_;
  std::multimap<uint64_t, GmRec> gmWrites_, gmReads_;  // keyed by start address
  uint64_t gmMaxSpan_ = 0;
};

// "API at file:line", for messages.
std::string Describe(const Site& s);

template <typename SiteOf>
void RaceChecker::ScalarAccess(uint32_t addr, bool write, const SrcLoc& loc, const char* api, SiteOf site) {
  Settle();
  Clock& vc = vc_[PIPE_S];
  ++vc[PIPE_S];
  Block& blk = ShadowOf(addr);
  if (blk.writeClock != 0 && blk.writer != PIPE_S && blk.writeClock > vc[blk.writer]) {
    const std::string what = std::string(api) + (write ? " writes" : " reads") + " UB address " + std::to_string(addr) +
                             " while " + Describe(sites_[blk.writeSite]) + " on " + PipeName(blk.writer) +
                             " may still be writing it";
    Conflict(blk.writer, PIPE_S, loc, what);
  }
  if (write) {
    for (int q = 0; q < kPipes; ++q)
      if (q != PIPE_S && blk.readClock[q] > vc[q]) {
        const std::string what = std::string(api) + " writes UB address " + std::to_string(addr) + " while " +
                                 Describe(sites_[blk.readSite[q]]) + " on " + PipeName(q) + " may still be reading it";
        Conflict(q, PIPE_S, loc, what);
      }
    // Scalar writes are sub-block: keep the block's history, record the scalar as its writer. Its
    // bytes are not compared (the store runs after this check) nor given a value (`defined`).
    blk.writer = PIPE_S;
    blk.writeClock = vc[PIPE_S];
    blk.writeSite = site();
  } else {
    blk.readClock[PIPE_S] = vc[PIPE_S];
  }
}

// The GM footprints of the current epoch (between SyncAlls) of every block, for the cross-core check.
// Touched only by the block holding the baton, or the launcher between turns.
namespace gm_epoch {
void Reset();
// `kind`: 0 read, 1 write, 2 atomic write, 3 write of the bytes GM already held, 4 scalar write
// (through the data cache: checked by the 64 B line against other blocks' writes).
void Record(const Core& core, const GmPattern& g, uint8_t kind, const SrcLoc& loc, const char* api);
// Compare the epoch's footprints (a race is a SimError), then start a new epoch.
void Check(const char* boundary);
uint64_t Now();      // the order number the next recorded access gets
void Cut(int core);  // the core's next accesses start records of their own (its knowledge changed)
}  // namespace gm_epoch

// Cores that meet by flags in GM (cross_core.cpp): a core writes a flag, another polls it (a GM read
// of the same bytes, again and again) until it changes. A poll that observes another block's write
// is an acquire: what the writer did before that write happens before what the reader does after
// (each block's knowledge, a snapshot of the order numbers of other blocks' accesses it follows).
// Small writes keep the bytes they replaced, and a block that reads them while they are not ordered
// before it sees those bytes first (it came early: a timing the device may take), so a poll always
// observes the write it waits for, whether or not the writer ran first here.
namespace gm_flags {
void Reset();  // a new epoch: everything before is ordered
// Before a write of `g` reaches GM (a small one keeps the bytes it replaces); `index`: the write's
// instruction in the core's trace.
void Wrote(const Core& core, const GmPattern& g, int64_t index);
// After a raw pointer store ran: the `bytes` at `at` were `before` (the bytes it changed are kept).
void Stored(const Core& core, uint64_t at, const uint8_t* before, uint32_t bytes);
// A read of `g` at `loc`, before it is recorded: acquires the small writes of other blocks it
// observes, those it saw early before (the model times its wait for them).
void Observe(Core& core, const GmPattern& g, const SrcLoc& loc);
// Then, once the read will not yield again: shows it the older bytes of the writes it has not seen
// (until RestoreView).
void View(const Core& core, const GmPattern& g);
// Puts back the bytes an early view replaced: before anything else touches GM.
void RestoreView();
uint32_t Knowledge(int block);  // the block's current snapshot (0: knows nothing of other blocks)
// Whether `block`'s access at order `order` happens before anything of a record with `snapshot`.
bool Known(uint32_t snapshot, int block, uint64_t order);
// Whether `reader` observed a write of `writer` overlapping both patterns (its poll of that flag).
bool Observed(int reader, int writer, const GmPattern& a, const GmPattern& b);

// A barrier of flags (CrossCoreSetFlag's mode 0, the A2 SyncAll's set and wait): a core that passes
// the wait follows what every setter had done or known when it set, as at a SyncAll, while what a
// setter does after its set stays unordered with the others.
struct Mark {
  int block;
  uint64_t upTo;        // order number past the setter's last access before the set
  uint32_t know;        // the setter's knowledge then
  uint64_t generation;  // the epoch it was taken in
};
Mark MarkSet(const Core& setter);  // at a set
// Once every setter has: one snapshot of them all (a mark of an earlier epoch is ordered already).
uint32_t Merge(const std::vector<Mark>& marks);
void Join(Core& waiter, uint32_t snapshot, uint64_t generation);  // at the wait
uint64_t Generation();                                            // the current epoch's
}  // namespace gm_flags

}  // namespace ascendc_sim
