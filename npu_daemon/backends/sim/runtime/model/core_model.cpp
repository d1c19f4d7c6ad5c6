#include "model/core_model.h"

#include <algorithm>

namespace ascendc_sim::model {

void CoreModel::Start(const Program& prog, double at) {
  prog_ = &prog;
  pc_ = 0;
  scalar_ = at;
  std::fill(pipeFree_, pipeFree_ + kPipes, at);
  std::fill(pipeDone_, pipeDone_ + kPipes, at);
  done_.assign(prog.steps.size(), at);
}

CoreModel::Timing CoreModel::StartOn(int p, double issue, double dep, Stall depReason) const {
  const double free = pipeFree_[p];
  if (dep > std::max(issue, free)) return {dep, depReason, dep - std::max(issue, free)};
  if (issue > free) return {issue, Stall::kScalarIssue, issue - free};
  return {free, Stall::kNone, 0};
}

void CoreModel::Emit(const Step& s, double issue, const Timing& t, double end, double done) {
  InstrEvent e{};
  e.block = prog_->block;
  e.core = core_;
  e.index = static_cast<uint32_t>(pc_);
  e.pipe = s.pipe;
  e.op = s.op;
  e.site = s.site;
  e.issue = issue;
  e.start = t.start;
  e.end = end;
  e.done = done;
  e.stall = t.stall;
  e.stallCycles = t.stallCycles;
  e.issueCycles = s.op == Op::kScalar ? 0 : p_.issueCycles;
  e.bankConflictRepeats = s.conflictRepeats;
  for (Listener* l : listeners_) l->OnInstr(e);
}

CoreModel::State CoreModel::Advance() {
  const std::vector<Step>& steps = prog_->steps;
  for (; pc_ < steps.size(); ++pc_) {
    const Step& s = steps[pc_];
    const int p = s.pipe;
    if (s.op == Op::kScalar) {
      const double from = scalar_;
      scalar_ += s.cost;
      done_[pc_] = scalar_;
      Emit(s, from, Timing{from, Stall::kNone, 0}, scalar_, scalar_);
      continue;
    }
    if (s.op == Op::kSyncAll) return State::kSyncAll;
    scalar_ += p_.issueCycles;
    const double issue = scalar_;
    if (s.op == Op::kBarrier && p == PIPE_ALL) {  // the scalar unit waits for every pipe to drain
      const double all = std::max(issue, *std::max_element(pipeDone_, pipeDone_ + kPipes));
      const Timing t{all, all > issue ? Stall::kBarrierAll : Stall::kNone, all - issue};
      const double end = all + s.cost;
      std::fill(pipeFree_, pipeFree_ + kPipes, end);
      std::fill(pipeDone_, pipeDone_ + kPipes, end);
      scalar_ = done_[pc_] = end;
      Emit(s, issue, t, end, end);
      continue;
    }
    if (s.op == Op::kCopyGmToUb || s.op == Op::kCopyUbToGm || s.op == Op::kCopyGmToL1 || s.op == Op::kFixpipe) {
      dma_ = s;
      dmaIssue_ = issue;
      dmaTiming_ = StartOn(p, issue, 0, Stall::kNone);
      dmaStart_ = dmaTiming_.start;
      // Every other core's DMA is timed before this core's next one: start loading what that needs.
      __builtin_prefetch(&steps[std::min(pc_ + 2, steps.size() - 1)]);
      __builtin_prefetch(&done_[std::min(pc_ + 8, done_.size() - 1)], 1);
      return State::kDma;
    }
    Timing t;
    if (s.op == Op::kCrossWait) {  // the set on another core must have been timed
      if (peers_ == nullptr || s.peer < 0 || static_cast<size_t>(s.peer) >= peers_->size())
        throw SimError(Status::RUNTIME_ERROR,
                       "performance model: a cross-core wait on a core that is not running alongside");
      const double at = (*peers_)[static_cast<size_t>(s.peer)].DoneAt(s.link);
      if (at < 0) {
        scalar_ -= p_.issueCycles;  // issued again when resumed
        return State::kCrossWait;
      }
      t = StartOn(p, issue, at, Stall::kFlag);
    } else if (s.op == Op::kWaitFlag)
      t = StartOn(p, issue, s.link >= 0 ? done_[static_cast<size_t>(s.link)] : 0, Stall::kFlag);
    else if (s.op == Op::kSetFlag || s.op == Op::kBarrier || s.op == Op::kCrossSet)
      t = StartOn(p, issue, pipeDone_[p], Stall::kPipeDrain);
    else
      t = StartOn(p, issue, 0, Stall::kNone);
    const double end = t.start + s.cost;
    if (p == PIPE_S) scalar_ = end;  // scalar-side waits (V->S before GetValue) block issue
    pipeFree_[p] = end;
    pipeDone_[p] = std::max(pipeDone_[p], end);
    done_[pc_] = end;
    Emit(s, issue, t, end, end);
  }
  return State::kDone;
}

DmaRequest CoreModel::NextDma() const {
  const Step& s = dma_;
  return DmaRequest{core_,       s.op == Op::kCopyUbToGm || s.op == Op::kFixpipe,
                    s.cacheMode, s.gmAddr,
                    s.bursts,    s.rowBytes,
                    s.gmPitch,   prog_->aic};
}

void CoreModel::ExecuteDma(GmSystem& gm) {
  const Step& s = dma_;
  const bool write = s.op == Op::kCopyUbToGm || s.op == Op::kFixpipe;
  const double dataFrom = dmaStart_ + s.cost;
  const DmaTiming d = gm.Transfer(NextDma(), dataFrom);
  // The pipe moves on once its requests are out; data lands later (memory service + latency), which
  // only flags, barriers and the block's end wait for.
  const double done = d.end + p_.dmaLatency;
  pipeFree_[s.pipe] = d.issued;
  pipeDone_[s.pipe] = std::max(pipeDone_[s.pipe], done);
  done_[pc_] = done;
  InstrEvent e{};
  e.block = prog_->block;
  e.core = core_;
  e.index = static_cast<uint32_t>(pc_);
  e.pipe = s.pipe;
  e.op = s.op;
  e.site = s.site;
  e.issue = dmaIssue_;
  e.start = dmaStart_;
  e.end = d.issued;
  e.done = done;
  e.stall = dmaTiming_.stall;
  e.stallCycles = dmaTiming_.stallCycles;
  e.issueCycles = p_.issueCycles;
  e.dataStall = d.stall;
  e.dataStallCycles = d.stallCycles;
  e.bytes = d.bytes;
  e.hbmBytes = d.hbmBytes;
  e.l2HitBytes = d.l2HitBytes;
  e.write = write;
  for (Listener* l : listeners_) l->OnInstr(e);
  ++pc_;
}

void CoreModel::ReleaseSyncAll(double at) {
  const Step& s = prog_->steps[pc_];
  const double issue = scalar_;
  const double end = std::max(at, issue) + s.cost;
  std::fill(pipeFree_, pipeFree_ + kPipes, end);
  std::fill(pipeDone_, pipeDone_ + kPipes, end);
  scalar_ = done_[pc_] = end;
  Emit(s, issue, Timing{std::max(at, issue), at > issue ? Stall::kSyncAll : Stall::kNone, std::max(0.0, at - issue)},
       end, end);
  ++pc_;
}

double CoreModel::Finish() const { return std::max(scalar_, *std::max_element(pipeDone_, pipeDone_ + kPipes)); }

}  // namespace ascendc_sim::model
