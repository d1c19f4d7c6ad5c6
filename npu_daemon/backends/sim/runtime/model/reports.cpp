#include "model/reports.h"

#include <algorithm>
#include <sstream>

namespace ascendc_sim::model {

const char* StallName(Stall s) {
  static const char* names[] = {"none",        "scalar_issue", "flag",      "pipe_drain",
                                "barrier_all", "sync_all",     "core_port", "gm_bandwidth"};
  return names[static_cast<int>(s)];
}

void ProfileListener::OnInstr(const InstrEvent& e) {
  BlockProfile& b = blocks_[e.block];
  ++b.instructions;
  b.busy[PIPE_S] += e.issueCycles;
  if (e.op == Op::kScalar)
    b.busy[PIPE_S] += e.end - e.start;
  else if (e.pipe < kPipes && e.op != Op::kWaitFlag) {
    // Busy = the union of [start, done]: a DMA keeps its pipe busy until its data has landed.
    double& last = b.lastEnd[e.pipe];
    b.busy[e.pipe] += std::max(0.0, e.done - std::max(e.start, last));
    last = std::max(last, e.done);
  }
  b.stall[static_cast<int>(e.stall)] += e.stallCycles;
  b.stall[static_cast<int>(e.dataStall)] += e.dataStallCycles;
  b.stall[0] = 0;
  (e.write ? b.gmWritten : b.gmRead) += e.bytes;
  b.hbmBytes += e.hbmBytes;
  b.l2HitBytes += e.l2HitBytes;
  b.bankConflictRepeats += e.bankConflictRepeats;
}

void ProfileListener::OnBlock(const BlockEvent& e) {
  BlockProfile& b = blocks_[e.block];
  b.block = e.block;
  b.core = e.core;
  b.start = e.start;
  b.end = e.end;
}

namespace {
struct Pipe {
  const char* name;
  int pipe;
};
constexpr Pipe kAivPipes[] = {{"vec", PIPE_V}, {"scalar", PIPE_S}, {"mte2", PIPE_MTE2}, {"mte3", PIPE_MTE3}};
constexpr Pipe kAicPipes[] = {
    {"mac", PIPE_M}, {"scalar", PIPE_S}, {"mte1", PIPE_MTE1}, {"mte2", PIPE_MTE2}, {"fixpipe", PIPE_FIX}};
}  // namespace

std::string ProfileListener::Json(uint32_t ubPeakBytes) const {
  const double mhz = launch_.clockGhz * 1e3;
  auto isAic = [&](size_t k) { return k < aic_.size() && aic_[k]; };
  size_t nAic = 0;
  for (size_t k = 0; k < blocks_.size(); ++k) nAic += isAic(k);
  const double n = std::max<size_t>(blocks_.size() - nAic, 1), nc = std::max<size_t>(nAic, 1);
  double total = 0, busy[kPipes] = {}, stall[static_cast<int>(Stall::kCount)] = {};
  double totalAic = 0, busyAic[kPipes] = {};
  uint64_t rd = 0, wr = 0, hbm = 0, l2 = 0, conflicts = 0, instrs = 0;
  for (size_t k = 0; k < blocks_.size(); ++k) {
    const BlockProfile& b = blocks_[k];
    if (isAic(k)) {
      totalAic += b.end - b.start;
      for (int p = 0; p < kPipes; ++p) busyAic[p] += b.busy[p];
    } else {
      total += b.end - b.start;
      for (int p = 0; p < kPipes; ++p) busy[p] += b.busy[p];
    }
    for (int s = 0; s < static_cast<int>(Stall::kCount); ++s) stall[s] += b.stall[s];
    rd += b.gmRead, wr += b.gmWritten, hbm += b.hbmBytes, l2 += b.l2HitBytes;
    conflicts += b.bankConflictRepeats, instrs += b.instructions;
  }
  const double taskUs = launch_.taskDurationUs;
  std::ostringstream o;
  o.precision(10);
  o << "{\"block_dim\": " << launch_.blockDim << ", \"cores_used\": " << launch_.coresUsed
    << ", \"task_duration_us\": " << taskUs << ", \"head_us\": " << launch_.headUs;
  if (launch_.memsetUs > 0) o << ", \"memset_us\": " << launch_.memsetUs;  // InitValue outputs only
  o << ", \"current_freq_mhz\": " << mhz << ", \"rated_freq_mhz\": " << mhz << ", \"aiv_time_us\": " << total / n / mhz
    << ", \"aiv_total_cycles\": " << total / n;
  for (const Pipe& p : kAivPipes)
    o << ", \"aiv_" << p.name << "_time_us\": " << busy[p.pipe] / n / mhz << ", \"aiv_" << p.name
      << "_ratio\": " << (total > 0 ? busy[p.pipe] / total : 0.0);
  if (nAic > 0) {
    o << ", \"aic_time_us\": " << totalAic / nc / mhz << ", \"aic_total_cycles\": " << totalAic / nc;
    for (const Pipe& p : kAicPipes)
      o << ", \"aic_" << p.name << "_time_us\": " << busyAic[p.pipe] / nc / mhz << ", \"aic_" << p.name
        << "_ratio\": " << (totalAic > 0 ? busyAic[p.pipe] / totalAic : 0.0);
  }
  o << ", \"ub_bytes\": " << ubPeakBytes << ", \"gm_read_bytes\": " << rd << ", \"gm_write_bytes\": " << wr
    << ", \"gm_to_ub_gbps\": " << (taskUs > 0 ? rd / taskUs / 1e3 : 0.0)
    << ", \"ub_to_gm_gbps\": " << (taskUs > 0 ? wr / taskUs / 1e3 : 0.0) << ", \"hbm_bytes\": " << hbm
    << ", \"l2_hit_bytes\": " << l2 << ", \"bank_conflicts\": " << conflicts << ", \"instructions\": " << instrs
    << ", \"stall_cycles\": {";
  for (int s = 1; s < static_cast<int>(Stall::kCount); ++s)
    o << (s > 1 ? ", " : "") << "\"" << StallName(static_cast<Stall>(s)) << "\": " << stall[s] / n;
  o << "}";
  if (blocks_.size() > kListedBlocks) o << ", \"blocks_unlisted\": " << blocks_.size() - kListedBlocks;
  o << ", \"blocks\": [";
  for (size_t k = 0; k < std::min(blocks_.size(), kListedBlocks); ++k) {
    const BlockProfile& b = blocks_[k];
    const double cyc = b.end - b.start;
    const char* unit = isAic(k) ? "aic" : "aiv";
    o << (k ? ", " : "") << "{\"block\": " << b.block << ", \"core\": " << b.core << ", \"" << unit
      << "_time_us\": " << cyc / mhz << ", \"" << unit << "_total_cycles\": " << cyc;
    for (const Pipe& p : isAic(k) ? std::vector<Pipe>(std::begin(kAicPipes), std::end(kAicPipes))
                                  : std::vector<Pipe>(std::begin(kAivPipes), std::end(kAivPipes)))
      o << ", \"" << unit << "_" << p.name << "_time_us\": " << b.busy[p.pipe] / mhz << ", \"" << unit << "_" << p.name
        << "_ratio\": " << (cyc > 0 ? b.busy[p.pipe] / cyc : 0.0);
    o << ", \"gm_read_bytes\": " << b.gmRead << ", \"gm_write_bytes\": " << b.gmWritten
      << ", \"bank_conflicts\": " << b.bankConflictRepeats << "}";
  }
  o << "]}";
  return o.str();
}

std::string ProfileListener::Text() const {
  const double mhz = launch_.clockGhz * 1e3;
  std::ostringstream o;
  o.precision(6);
  o << "Task Duration(us) " << launch_.taskDurationUs << "  Block Dim " << launch_.blockDim << "  head(us) "
    << launch_.headUs << "\n";
  o << "block core  aiv_time(us)  vec  scalar  mte2  mte3 (ratios)\n";
  for (const BlockProfile& b : blocks_) {
    const double cyc = b.end - b.start;
    o << b.block << " " << b.core << "  " << cyc / mhz;
    for (const Pipe& p : kAivPipes) o << "  " << (cyc > 0 ? b.busy[p.pipe] / cyc : 0.0);
    o << "\n";
  }
  return o.str();
}

TimelineListener::TimelineListener(const std::string& path, const std::vector<Program>& programs, double clockGhz,
                                   uint64_t maxEvents)
    : out_(std::fopen(path.c_str(), "w")), programs_(programs), cyclesPerUs_(clockGhz * 1e3), maxEvents_(maxEvents) {
  if (out_ != nullptr) std::fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", out_.get());
}

TimelineListener::~TimelineListener() {
  if (out_ == nullptr) return;
  std::fprintf(
      out_.get(),
      "{\"name\": \"events written\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"count\": %llu, \"limit\": %llu}}\n]}\n",
      static_cast<unsigned long long>(events_), static_cast<unsigned long long>(maxEvents_));
}

void TimelineListener::OnInstr(const InstrEvent& e) {
  if (out_ == nullptr || events_ >= maxEvents_ || e.done <= e.start) return;
  ++events_;
  const std::vector<Site>& sites = programs_[e.block].sites;
  const char* api = e.site < sites.size() ? sites[e.site].api : "?";
  const int line = e.site < sites.size() ? sites[e.site].line : 0;
  std::fprintf(out_.get(),
               "{\"name\": \"%s\", \"ph\": \"X\", \"pid\": %u, \"tid\": \"%s\", \"ts\": %.4f, \"dur\": %.4f, "
               "\"args\": {\"block\": %u, \"index\": %u, \"line\": %d, \"stall\": \"%s\", \"stall_cycles\": %.1f, "
               "\"bytes\": %llu}},\n",
               api, e.core, PipeName(e.pipe), e.start / cyclesPerUs_, (e.done - e.start) / cyclesPerUs_, e.block,
               e.index, line, StallName(e.stallCycles >= e.dataStallCycles ? e.stall : e.dataStall),
               std::max(e.stallCycles, e.dataStallCycles), static_cast<unsigned long long>(e.bytes));
}

void TimelineListener::OnBlock(const BlockEvent& e) {
  if (out_ == nullptr) return;
  std::fprintf(
      out_.get(),
      "{\"name\": \"block %u\", \"ph\": \"X\", \"pid\": %u, \"tid\": \"block\", \"ts\": %.4f, \"dur\": %.4f},\n",
      e.block, e.core, e.start / cyclesPerUs_, (e.end - e.start) / cyclesPerUs_);
}

}  // namespace ascendc_sim::model
