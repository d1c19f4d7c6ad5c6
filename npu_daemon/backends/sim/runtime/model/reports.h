// Listeners that turn the model's events into reports: the msprof-style profile (OpBasicInfo and
// PipeUtilization per block, memory traffic, bank conflicts, stall reasons) and a chrome://tracing
// / Perfetto timeline. Each report has a JSON form; the profile also a text form.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "model/events.h"
#include "model/program.h"

namespace ascendc_sim::model {

struct BlockProfile {
  uint32_t block = 0, core = 0;
  double start = 0, end = 0;
  double busy[kPipes] = {};     // union of busy intervals per pipe (DMA: until complete)
  double lastEnd[kPipes] = {};  // bookkeeping for the union
  uint64_t gmRead = 0, gmWritten = 0, hbmBytes = 0, l2HitBytes = 0;
  uint64_t instructions = 0, bankConflictRepeats = 0;
  double stall[static_cast<int>(Stall::kCount)] = {};
};

class ProfileListener : public Listener {
 public:
  explicit ProfileListener(uint32_t blockDim) : blocks_(blockDim) {}
  void OnInstr(const InstrEvent& e) override;
  void OnBlock(const BlockEvent& e) override;
  void OnLaunch(const LaunchEvent& e) override { launch_ = e; }
  const std::vector<BlockProfile>& Blocks() const { return blocks_; }
  // Which blocks ran on cube cores (their times are reported as aic_*, msprof's names).
  void SetCubeBlocks(std::vector<bool> aic) { aic_ = std::move(aic); }
  // The `profile` object of result.json (times in us, per-block means plus the first kListedBlocks
  // blocks: a launch may have 65535, and the result the daemon reads is bounded).
  static constexpr size_t kListedBlocks = 512;
  std::string Json(uint32_t ubPeakBytes) const;
  std::string Text() const;

 private:
  std::vector<BlockProfile> blocks_;
  std::vector<bool> aic_;
  LaunchEvent launch_{};
};

// Writes one complete event per instruction (pid = core, tid = pipe) and one per block.
class TimelineListener : public Listener {
 public:
  TimelineListener(const std::string& path, const std::vector<Program>& programs, double clockGhz, uint64_t maxEvents);
  ~TimelineListener() override;
  void OnInstr(const InstrEvent& e) override;
  void OnBlock(const BlockEvent& e) override;

 private:
  struct Close {
    void operator()(FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<FILE, Close> out_;  // null when the file could not be opened
  const std::vector<Program>& programs_;
  double cyclesPerUs_;
  uint64_t events_ = 0, maxEvents_;
};

}  // namespace ascendc_sim::model
