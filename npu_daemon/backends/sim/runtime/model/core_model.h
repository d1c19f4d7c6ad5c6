// One AI Vector core running one block: in-order queues for PIPE_S/V/MTE2/MTE3 (and the cube
// pipes, timed the same way), fed in program order by the scalar unit. The core advances on its
// own until its next DMA, which the chip model times against the shared memory system.
#pragma once

#include <vector>

#include "model/events.h"
#include "model/gm_system.h"
#include "model/program.h"

namespace ascendc_sim::model {

class CoreModel {
 public:
  enum class State : uint8_t { kDma, kSyncAll, kCrossWait, kDone };
  CoreModel(uint32_t core, const Params& p, std::vector<Listener*>& listeners)
      : core_(core), p_(p), listeners_(listeners) {}

  void Start(const Program& prog, double at);
  // Time instructions until a DMA (its start is then NextDmaStart()), a SyncAll, or the end.
  State Advance();
  double NextDmaStart() const { return dmaStart_; }
  DmaRequest NextDma() const;  // the memory side of that DMA
  void ExecuteDma(GmSystem& gm);
  double SyncAllArrival() const { return scalar_; }
  // Mixed launches: the cores a CrossCoreWaitFlag may wait on (index = core of the launch), and
  // when step `index` of this core completed (< 0: not timed yet).
  void SetPeers(const std::vector<CoreModel>* peers) { peers_ = peers; }
  double DoneAt(int64_t index) const {
    return static_cast<size_t>(index) < pc_ ? done_[static_cast<size_t>(index)] : -1;
  }
  void ReleaseSyncAll(double at);
  double Finish() const;  // when every pipe of the block is done
  uint32_t Block() const { return prog_->block; }
  size_t Pc() const { return pc_; }

 private:
  struct Timing {
    double start;
    Stall stall;
    double stallCycles;
  };
  // Earliest start on pipe p given the scalar issue time and the extra dependency `dep`, with the
  // reason the pipe idled until then.
  Timing StartOn(int p, double issue, double dep, Stall depReason) const;
  void Emit(const Step& s, double issue, const Timing& t, double end, double done);

  uint32_t core_;
  const Params& p_;
  std::vector<Listener*>& listeners_;
  const Program* prog_ = nullptr;
  size_t pc_ = 0;
  double scalar_ = 0;             // scalar unit: issue cursor
  double pipeFree_[kPipes] = {};  // pipe can start its next instruction
  double pipeDone_[kPipes] = {};  // all work queued on the pipe complete
  std::vector<double> done_;      // completion of every step, for WaitFlag links
  Step dma_{};  // the DMA Advance stopped at, copied: its trace is out of cache by the time it is timed
  double dmaIssue_ = 0, dmaStart_ = 0;
  Timing dmaTiming_{};
  const std::vector<CoreModel>* peers_ = nullptr;
};

}  // namespace ascendc_sim::model
