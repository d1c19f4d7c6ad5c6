// The one place the model is wired together (llvm-mca's builder): units, chip and listeners.
#include "model.h"

#include "model/chip_model.h"

namespace ascendc_sim {

LaunchModel::LaunchModel(const std::vector<CoreSpec>& cores, LaunchOptions options)
    : params_(model::Params::FromSoc()),
      vec_(params_),
      options_(std::move(options)),
      blocks_(cores.size()),
      cores_(cores),
      profile_(static_cast<uint32_t>(cores.size())),
      timed_(cores.size()) {}

void LaunchModel::AddBlock(const CoreTrace& block) {
  blocks_[static_cast<size_t>(block.globalId)] = model::Compile(block, params_, vec_, !options_.timelinePath.empty());
  timed_.Add(block);
}

model::LaunchEvent LaunchModel::Run() {
  std::vector<model::Listener*> listeners{&profile_};
  if (!timed_.Empty()) listeners.push_back(&timed_);
  std::unique_ptr<model::TimelineListener> timeline;
  if (!options_.timelinePath.empty()) {
    timeline = std::make_unique<model::TimelineListener>(options_.timelinePath, blocks_, params_.clockGhz,
                                                         options_.timelineMaxEvents);
    listeners.push_back(timeline.get());
  }
  std::vector<bool> aic(blocks_.size());
  for (size_t k = 0; k < blocks_.size(); ++k) aic[k] = blocks_[k].aic;
  profile_.SetCubeBlocks(std::move(aic));
  model::ChipModel chip(params_, listeners, options_.noiseSeed);
  const model::LaunchEvent launch = chip.Run(blocks_, cores_, options_.protocol, options_.memsetBytes);
  timedWarning_ = timed_.Verdict();
  return launch;
}

}  // namespace ascendc_sim
