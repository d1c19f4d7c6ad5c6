// The launcher of the launch harness (launch.h): forks the tiling process, maps the launch's GM,
// forks the candidate process with the tiling's choice, checks and times the traces it sends with
// the performance model, and writes the outputs plus the result.
//
// usage: ascendc_sim_harness LAUNCH_SPEC
// The spec (ascendc_sim/launch_spec.h) is written by npu_daemon/backends/common/launch.py;
// `result_fd N` (the daemon: an inherited descriptor) or `result PATH` (tools) names the result's
// destination.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "channel.h"
#include "guest/guest.h"
#include "launch.h"
#include "model.h"
#include "sampled_check.h"
#include "sampling.h"

namespace ascendc_sim {
namespace {

// A dynamic (list) parameter's descriptor, as asc-devkit's ListTensorDesc decodes it
// (impl/basic_api/dav_c220/kernel_operator_list_tensor_impl.h): word 0 the byte offset of the data
// pointers; then per member one word of dim (low 32 bits) and index (high 32 bits) followed by its
// dim dims; then the members' GM addresses. Every member has the first member's rank.
GmBuffer* ListDescriptor(GmArgs& gm, const std::vector<TensorArg>& args, const std::vector<GmBuffer*>& buffers,
                         size_t first, size_t count) {
  const size_t dim = args[first].shape.size();
  std::vector<uint64_t> words{(1 + count * (1 + dim)) * sizeof(uint64_t)};
  for (size_t k = 0; k < count; ++k) {
    const TensorArg& t = args[first + k];
    if (t.shape.size() != dim) throw SimError(Status::RUNTIME_ERROR, "list " + t.list + ": members of different ranks");
    words.push_back(dim | static_cast<uint64_t>(k) << 32);
    for (int64_t d : t.shape) words.push_back(static_cast<uint64_t>(d));
  }
  for (size_t k = 0; k < count; ++k) words.push_back(reinterpret_cast<uintptr_t>(buffers[first + k]->Kernel()));
  gm.owned.push_back(std::make_unique<GmBuffer>(words.size() * sizeof(uint64_t), 0, args[first].list));
  std::memcpy(gm.owned.back()->Host(), words.data(), words.size() * sizeof(uint64_t));
  gm.lists.emplace_back(gm.owned.back().get(),
                        std::vector<GmBuffer*>(buffers.begin() + static_cast<ptrdiff_t>(first),
                                               buffers.begin() + static_cast<ptrdiff_t>(first + count)));
  return gm.owned.back().get();
}

// The kernel parameters of `args` (mapped to `buffers`), one per OpDef parameter: a list's
// descriptor in place of its members.
void ListParams(GmArgs& gm, const std::vector<TensorArg>& args, const std::vector<GmBuffer*>& buffers,
                const std::vector<bool>& passed) {
  for (const auto& [k, n] : IrInstances(args)) {
    if (!args[k].list.empty())
      gm.params.push_back(ListDescriptor(gm, args, buffers, k, n));
    else if (passed[k])
      gm.params.push_back(buffers[k]);
  }
}

GmArgs MapGm(const LaunchSpec& l) {
  GmArgs gm;
  // Inputs are mapped from their files where a run touches part of them: timing-only and sampled.
  const bool lazy = l.timingOnly || l.sampled;
  for (const auto& t : l.inputs) {
    GmBuffer* b = nullptr;
    if (!t.absent) {
      gm.owned.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0, t.name, t.path, true, lazy));
      b = gm.owned.back().get();
    }
    gm.inputs.push_back(b);
  }
  ListParams(gm, l.inputs, gm.inputs, std::vector<bool>(l.inputs.size(), true));
  std::vector<bool> passed;
  for (const auto& t : l.outputs) {
    passed.push_back(t.param);
    if (!t.alias.empty()) {  // in place: the input's own buffer
      GmBuffer* in = nullptr;
      for (const auto& b : gm.owned)
        if (b->name == t.alias) in = b.get();
      if (in == nullptr)
        throw SimError(Status::RUNTIME_ERROR, "output " + t.name + " aliases unknown input " + t.alias);
      gm.outputs.push_back(in);
      // A lazily mapped input is a private copy of its file: its bytes are not read here, so an
      // in-place output is left out of CheckOutputsPaidFor (no bytes compared).
      gm.before.emplace_back(
          in, lazy ? std::vector<uint8_t>() : std::vector<uint8_t>(in->Host(), in->Host() + in->mem.mapped));
      continue;
    }
    // NaN / -1: an unwritten output shows as wrong
    gm.owned.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0xFF, t.name, "", true, lazy));
    gm.outputs.push_back(gm.owned.back().get());
  }
  ListParams(gm, l.outputs, gm.outputs, passed);
  return gm;
}

// ASCII JSON whatever the bytes: a record's text from a process that runs candidate code (the
// tiling's, the native kernel's) may hold any, and the daemon parses the result as UTF-8.
std::string JsonEscape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c == '\n')
      o += "\\n";
    else if (c < 0x20 || c > 0x7e) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else
      o += static_cast<char>(c);
  }
  return o;
}

// A failure of the launcher itself (it could not write an output: the daemon's disk), reported
// as such so the daemon answers DAEMON_ERROR instead of charging the candidate.
struct LauncherFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Outcome {
  Status status = Status::OK;
  std::string message;
  std::string fault;  // LauncherFault
  uint32_t blockDim = 0;
  uint64_t tilingKey = 0;
  uint64_t workspaceBytes = 0;
  uint64_t tilingBytes = 0;
  uint32_t ubPeak = 0;
  double latencyUs = 0;
  std::string profileJson;  // the model's msprof-style report
  std::vector<std::string> warnings;
  std::string sampledUnchecked;  // a sampled run whose outputs cannot vouch for it: why (sampled_check.h)
};

void WriteResult(const LaunchSpec& l, const Outcome& o) {
  static const char* statusNames[] = {"OK", "TILING_ERROR", "RUNTIME_ERROR", "RACE_DETECTED"};
  std::ostringstream out;
  if (!o.fault.empty()) {
    out << "{\"status\": \"DAEMON_FAULT\", \"message\": \"" << JsonEscape(o.fault) << "\"}\n";
  } else {
    out << "{\"status\": \"" << statusNames[static_cast<int>(o.status)] << "\", \"message\": \""
        << JsonEscape(o.message) << "\", \"block_dim\": " << o.blockDim << ", \"tiling_key\": " << o.tilingKey
        << ", \"workspace_bytes\": " << o.workspaceBytes << ", \"tiling_bytes\": " << o.tilingBytes;
    if (o.status == Status::OK) {
      out.precision(10);
      out << ", \"latency_us\": " << o.latencyUs << ", \"profile\": " << o.profileJson;
      if (!o.sampledUnchecked.empty()) out << ", \"sampled_unchecked\": \"" << JsonEscape(o.sampledUnchecked) << "\"";
    }
    if (!o.warnings.empty()) {  // conditions the device runs through (strict mode fails them)
      out << ", \"warnings\": [";
      for (size_t i = 0; i < o.warnings.size(); ++i)
        out << (i ? ", " : "") << "\"" << JsonEscape(o.warnings[i]) << "\"";
      out << "]";
    }
    out << "}\n";
  }
  const std::string text = out.str();
  if (l.resultFd >= 0) {
    channel::WriteAll(l.resultFd, text.data(), text.size());
  } else {
    std::ofstream(l.result.empty() ? "result.json" : l.result) << text;
  }
}

// ---- the launcher ----------------------------------------------------------------------------
using Clock = std::chrono::steady_clock;
constexpr uint64_t kMaxFrameBytes = 4ull << 30;  // a block's trace: millions of instructions at most
constexpr uint64_t kMaxMessageBytes = 64 << 10;

enum class Sender { kCandidate, kTiling };

SimError Malformed(const std::string& why, Sender from = Sender::kCandidate) {
  if (from == Sender::kTiling)
    return SimError(Status::RUNTIME_ERROR, "the tiling process sent a malformed tiling record (" + why +
                                               "): tiling code wrote to the simulator's channel");
  return SimError(Status::RUNTIME_ERROR, "the candidate process sent a malformed launch record (" + why +
                                             "): kernel code wrote to the simulator's channel or corrupted its trace");
}

template <typename T>
void Read(int fd, T* data, size_t n = 1, Sender from = Sender::kCandidate) {
  if (!channel::ReadAll(fd, data, n * sizeof(T))) throw Malformed("truncated frame", from);
}

// A kWarning record's message, the sender's `warnings`-th.
std::string ReadWarning(int fd, const channel::Header& h, size_t warnings, Sender from) {
  if (h.bytes > channel::kMaxWarningBytes || warnings >= 16) throw Malformed("warning record", from);
  std::string message(h.bytes, '\0');
  Read(fd, message.data(), message.size(), from);
  return message;
}
// A kError record's failure, into `o`.
void ReadError(int fd, const channel::Header& h, Outcome& o, Sender from) {
  if (h.status < 1 || h.status > 3 || h.bytes > kMaxMessageBytes) throw Malformed("error record", from);
  std::string message(h.bytes, '\0');
  Read(fd, message.data(), message.size(), from);
  o.status = static_cast<Status>(h.status);
  o.message = message;
}

// A process that runs candidate code, with the read end of its channel and the write end of the
// pipe it reads (or -1): killed (if still running) and reaped when the launcher is done with it or
// fails.
class Child {
 public:
  Child(pid_t pid, int fd, int in = -1) : pid_(pid), fd_(fd), in_(in) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ > 0) Reap(true);
  }
  int fd() const { return fd_; }
  int in() const { return in_; }
  // Its wait status; `stop`: it has sent all the launcher reads (and flushed its output).
  int Reap(bool stop) {
    if (stop) kill(pid_, SIGKILL);
    int wstatus = 0;
    waitpid(std::exchange(pid_, 0), &wstatus, 0);
    close(fd_);
    if (in_ >= 0) close(in_);
    return wstatus;
  }

 private:
  pid_t pid_;
  int fd_, in_;
};

// A process that ended before its last record, with no failure reported: the launcher dies of its
// signal too (the daemon reports a crash as before the split), or reports its exit.
[[noreturn]] void Stopped(int wstatus) {
  if (WIFSIGNALED(wstatus)) {
    std::signal(WTERMSIG(wstatus), SIG_DFL);
    raise(WTERMSIG(wstatus));
  }
  throw SimError(Status::RUNTIME_ERROR, "the kernel process exited (code " + std::to_string(WEXITSTATUS(wstatus)) +
                                            ") before its launch finished");
}

void OpenPipe(int fds[2]) {
  if (pipe(fds) != 0) throw SimError(Status::RUNTIME_ERROR, std::string("pipe: ") + std::strerror(errno));
}

pid_t Fork() {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw SimError(Status::RUNTIME_ERROR, std::string("fork: ") + std::strerror(errno));
  return pid;
}

// Writes to the tiling process, which may have ended already: its own record says why, so a
// closed pipe is no signal here.
void WriteToTiling(int fd, const void* data, size_t n) {
  const auto old = std::signal(SIGPIPE, SIG_IGN);
  channel::WriteAll(fd, data, n);
  std::signal(SIGPIPE, old);
}

// The tiling process's records until its tiling (true) or its failure (false: in `o`, or it
// stopped early). It asks for the values of the inputs the spec marks value_depend at most once,
// answered on `valuesFd` from the launch's GM; a request for any other input is a forged record.
bool ReceiveTiling(const LaunchSpec& l, const GmArgs& gm, int fd, int valuesFd, Outcome& o, Tiling& tiling) {
  constexpr Sender from = Sender::kTiling;
  bool asked = false;
  channel::Header h;
  while (channel::ReadAll(fd, &h, sizeof h)) {
    if (h.bytes > kMaxFrameBytes) throw Malformed("a record of " + std::to_string(h.bytes) + " bytes", from);
    switch (h.kind) {
      case channel::Kind::kValueDepend: {
        if (asked || h.bytes % sizeof(uint32_t) != 0 || h.bytes > l.inputs.size() * sizeof(uint32_t))
          throw Malformed("value-depend request", from);
        asked = true;
        std::vector<uint32_t> wanted(h.bytes / sizeof(uint32_t));
        Read(fd, wanted.data(), wanted.size(), from);
        for (size_t i = 0; i < wanted.size(); ++i) {
          const uint32_t k = wanted[i];
          if (k >= l.inputs.size() || (i > 0 && k <= wanted[i - 1]) || !l.inputs[k].valueDepend || l.inputs[k].absent ||
              l.inputs[k].Bytes() > (1u << 20))
            throw Malformed("value-depend input " + std::to_string(k), from);
        }
        for (uint32_t k : wanted) WriteToTiling(valuesFd, gm.inputs[k]->Host(), l.inputs[k].Bytes());
        break;
      }
      case channel::Kind::kWarning:
        tiling.warnings.push_back(ReadWarning(fd, h, tiling.warnings.size(), from));
        break;
      case channel::Kind::kInitValue: {
        constexpr size_t n = sizeof(channel::InitFrame);
        if (!tiling.inits.empty() || h.bytes == 0 || h.bytes % n != 0 || h.bytes / n > l.outputs.size())
          throw Malformed("init-value record", from);
        tiling.inits.resize(h.bytes / n);
        Read(fd, tiling.inits.data(), tiling.inits.size(), from);
        for (size_t i = 0; i < tiling.inits.size(); ++i) {
          const channel::InitFrame& f = tiling.inits[i];
          const bool width = f.width == 1 || f.width == 2 || f.width == 4 || f.width == 8;
          if (f.output >= l.outputs.size() || (i > 0 && f.output <= tiling.inits[i - 1].output) || !width ||
              !l.outputs[f.output].alias.empty())
            throw Malformed("init value of output " + std::to_string(f.output), from);
        }
        break;
      }
      case channel::Kind::kTiling: {
        channel::TilingFrame& f = tiling.frame;
        if (h.bytes < sizeof f) throw Malformed("tiling record", from);
        Read(fd, &f, 1, from);
        if (f.blockDim == 0 || f.blockDim > 65535) throw Malformed("block dim " + std::to_string(f.blockDim), from);
        if (f.tilingBytes != h.bytes - sizeof f || f.tilingBytes > f.tilingCapacity ||
            f.tilingCapacity > channel::kTilingCapacity)
          throw Malformed("tiling data size", from);
        tiling.data.resize(f.tilingBytes);
        Read(fd, tiling.data.data(), tiling.data.size(), from);
        return true;
      }
      case channel::Kind::kError:
        ReadError(fd, h, o, from);
        return false;
      default:
        throw Malformed("record kind " + std::to_string(static_cast<uint32_t>(h.kind)), from);
    }
  }
  return false;
}

// Checks one block's trace before the model indexes anything with it.
void CheckTrace(const std::vector<Instr>& trace, size_t cores) {
  for (size_t k = 0; k < trace.size(); ++k) {
    const Instr& i = trace[k];
    if (i.pipe > PIPE_ALL) throw Malformed("instruction " + std::to_string(k) + " on pipe " + std::to_string(i.pipe));
    if (i.op == Op::kWaitFlag && i.link >= 0 && static_cast<size_t>(i.link) >= trace.size())
      throw Malformed("instruction " + std::to_string(k) + " waits on an instruction past the trace");
    if (i.op == Op::kCrossWait && (i.gmAddr >= cores || i.link < 0))
      throw Malformed("instruction " + std::to_string(k) + " waits on a core outside the launch");
  }
}

// Checks one block's pairs left to the timeline: two of its trace's instructions on two of PIPE_V,
// PIPE_MTE2 and PIPE_MTE3, in order.
void CheckTimed(const CoreTrace& t) {
  const auto pipeOf = [&](int64_t k) {
    if (k < 0 || static_cast<uint64_t>(k) >= t.instrs.size() || t.instrs[static_cast<size_t>(k)].site >= t.sites.size())
      throw Malformed("a timed pair names instruction " + std::to_string(k));
    return t.instrs[static_cast<size_t>(k)].pipe;
  };
  const auto timed = [](int p) { return p == PIPE_V || p == PIPE_MTE2 || p == PIPE_MTE3; };
  for (const TimedPair& p : t.timed) {
    const int a = pipeOf(p.first), b = pipeOf(p.second);
    if (p.first >= p.second || a == b || !timed(a) || !timed(b))
      throw Malformed("a timed pair of instructions " + std::to_string(p.first) + " and " + std::to_string(p.second));
  }
}

// Every output byte the launch changed must have been paid for by a write its trace records: a DMA
// or fixpipe store (its bytes), or a scalar store (SetValue, an element write, a raw store: the
// bytes its scalar record carries, Core::NoteScalarStore). A kernel that wrote GM around the
// emulation (through a host view of its buffers) or cut its trace after writing fails here.

// Counted in runs of 255 bytes into a byte-wide counter, which the compiler vectorises without
// widening every comparison to 64 bits (twice as fast on a large output).
template <typename Was>
uint64_t CountChanged(const uint8_t* now, uint64_t n, Was was) {
  uint64_t changed = 0;
  for (uint64_t i = 0; i < n; i += 255) {
    uint8_t run = 0;
    const uint64_t end = std::min<uint64_t>(n, i + 255);
    for (uint64_t j = i; j < end; ++j) run += now[j] != was(j);
    changed += run;
  }
  return changed;
}
uint64_t ChangedBytes(const uint8_t* now, const uint8_t* before, uint64_t n) {
  return CountChanged(now, n, [before](uint64_t i) { return before[i]; });
}
uint64_t ChangedBytes(const uint8_t* now, uint8_t fill, uint64_t n) {
  return CountChanged(now, n, [fill](uint64_t) { return fill; });
}

void CheckOutputsPaidFor(const GmArgs& gm, uint64_t gmWriteBytes, uint64_t scalarStoreBytes) {
  uint64_t changed = 0;
  std::set<const GmBuffer*> counted;
  for (const auto& [buffer, bytes] : gm.before)
    if (counted.insert(buffer).second) changed += ChangedBytes(buffer->Host(), bytes.data(), bytes.size());
  for (const GmBuffer* b : gm.outputs)
    if (counted.insert(b).second) changed += ChangedBytes(b->Host(), gm.fill, b->mem.mapped);
  const uint64_t paid = gmWriteBytes + scalarStoreBytes;
  if (changed > paid)
    throw SimError(Status::RUNTIME_ERROR, "the launch changed " + std::to_string(changed) +
                                              " bytes of its outputs, but its trace " + "pays for writes of only " +
                                              std::to_string(paid) + " (DMA, fixpipe and scalar stores): " +
                                              "kernel code wrote GM around the simulator or altered its trace");
}

// What the launcher builds from the candidate process's frames.
struct Received {
  std::unique_ptr<LaunchModel> model;
  std::vector<CoreSpec> cores;  // the launch's cores (LaunchCores), indexed by a block record's index
  CoreTrace block;              // carries each received block into the model
  std::vector<bool> seen;
  uint32_t blocks = 0;
  uint32_t simulated = 0;                 // sampled timing: blocks that ran (0: a full run)
  std::set<uint32_t> ran;                 // sampled timing: which blocks ran
  std::optional<sampled::Writes> writes;  // sampled timing: the blocks' stores into the outputs
  std::set<std::string> names;            // API and file names the sites point into
  uint64_t gmWriteBytes = 0;              // GM bytes the traces' DMA and fixpipe stores write
  uint64_t scalarStoreBytes = 0;          // the traces' scalar GM stores
  Clock::duration modelTime{};
};

// Frames until the candidate process ends (false: it reported a failure, now in `o`, or stopped
// early) or has sent every block (true). Each block goes to the model as it arrives.
bool Receive(const LaunchSpec& l, const Tiling& tiling, int fd, Outcome& o, Received& r) {
  channel::Header h;
  while (channel::ReadAll(fd, &h, sizeof h)) {
    if (h.bytes > kMaxFrameBytes) throw Malformed("a record of " + std::to_string(h.bytes) + " bytes");
    switch (h.kind) {
      case channel::Kind::kLaunch: {
        channel::LaunchFrame f;
        if (r.model || h.bytes != sizeof f) throw Malformed("launch record");
        Read(fd, &f);
        o.blockDim = tiling.frame.blockDim;
        o.tilingKey = tiling.frame.tilingKey;
        o.workspaceBytes = tiling.frame.workspaceBytes;
        o.tilingBytes = tiling.frame.tilingBytes;
        RegisterGm(reinterpret_cast<void*>(f.workspaceAddr), f.workspaceSize, "workspace", nullptr, 0);
        RegisterGm(reinterpret_cast<void*>(f.tilingAddr), f.tilingSize, "tiling", nullptr, 0);
        RegisterGm(reinterpret_cast<void*>(f.paramsAddr), f.paramsSize, "kernel parameters", nullptr, 0);
        if (f.dataSize > 0) RegisterGm(reinterpret_cast<void*>(f.dataAddr), f.dataSize, "kernel data", nullptr, 0);
        r.cores = LaunchCores(l.kernelType, o.blockDim);
        LaunchOptions options;
        options.timelinePath = l.traceJson;
        options.noiseSeed = l.noiseSeed;
        options.protocol = {l.l2Resident, l.launchRepeated};
        for (const channel::InitFrame& i : tiling.inits) options.memsetBytes += l.outputs[i.output].Bytes();
        r.model = std::make_unique<LaunchModel>(r.cores, options);
        r.seen.assign(r.cores.size(), false);
        break;
      }
      case channel::Kind::kBlock: {
        channel::BlockFrame b;
        if (!r.model || h.bytes < sizeof b) throw Malformed("block record before the launch record");
        Read(fd, &b);
        if (b.blockIdx >= r.cores.size() || r.seen[b.blockIdx]) throw Malformed("block " + std::to_string(b.blockIdx));
        if (b.derived > 1 || (b.derived && !l.sampled)) throw Malformed("derived block " + std::to_string(b.blockIdx));
        uint64_t rest = h.bytes - sizeof b;
        if (b.instrs > rest / sizeof(Instr)) throw Malformed("trace length");
        rest -= b.instrs * sizeof(Instr);
        if (b.timed > rest / sizeof(TimedPair)) throw Malformed("timed pairs");
        rest -= b.timed * sizeof(TimedPair);
        CoreTrace& t = r.block;
        t.instrs.resize(b.instrs);
        Read(fd, t.instrs.data(), b.instrs);
        t.timed.resize(b.timed);
        Read(fd, t.timed.data(), b.timed);
        t.sites.clear();
        for (uint64_t k = 0; k < b.sites; ++k) {
          channel::SiteFrame f;
          if (rest < sizeof f) throw Malformed("site list");
          Read(fd, &f);
          rest -= sizeof f;
          if (static_cast<uint64_t>(f.apiBytes) + f.fileBytes > rest) throw Malformed("site names");
          std::string api(f.apiBytes, '\0'), file(f.fileBytes, '\0');
          Read(fd, api.data(), api.size());
          Read(fd, file.data(), file.size());
          rest -= api.size() + file.size();
          t.sites.push_back(Site{r.names.insert(api).first->c_str(), r.names.insert(file).first->c_str(), f.line});
        }
        if (rest != 0) throw Malformed("block record size");
        CheckTrace(t.instrs, r.cores.size());
        CheckTimed(t);
        if (r.writes) r.writes->Add(t.instrs, !b.derived);
        if (!b.derived) r.ran.insert(b.blockIdx);
        for (const Instr& i : t.instrs) {
          if (i.op == Op::kCopyUbToGm || i.op == Op::kFixpipe)
            r.gmWriteBytes += std::max<uint64_t>(i.elements, static_cast<uint64_t>(i.repeats) * i.unitBytes);
          else if (i.op == Op::kScalar)
            r.scalarStoreBytes += i.elements;
        }
        t.globalId = static_cast<int>(b.blockIdx);
        t.type = r.cores[b.blockIdx].type;
        o.ubPeak = std::max(o.ubPeak, b.ubPeak);
        r.seen[b.blockIdx] = true;
        ++r.blocks;
        const Clock::time_point t0 = Clock::now();
        r.model->AddBlock(t);
        r.modelTime += Clock::now() - t0;
        break;
      }
      case channel::Kind::kWarning:
        o.warnings.push_back(ReadWarning(fd, h, o.warnings.size(), Sender::kCandidate));
        break;
      case channel::Kind::kSampled:
        if (!l.sampled || h.bytes != sizeof r.simulated || r.simulated != 0) throw Malformed("sampled record");
        Read(fd, &r.simulated);
        if (r.simulated == 0 || r.simulated > r.cores.size()) throw Malformed("sampled record");
        break;
      case channel::Kind::kEnd:
        if (h.bytes != 0 || !r.model || r.blocks != r.cores.size()) throw Malformed("end record before every block");
        if (r.simulated != 0 && r.simulated != r.ran.size()) throw Malformed("sampled record: blocks that ran");
        o.warnings.insert(o.warnings.begin(), tiling.warnings.begin(), tiling.warnings.end());
        return true;
      case channel::Kind::kError:
        ReadError(fd, h, o, Sender::kCandidate);
        return false;
      default:
        throw Malformed("record kind " + std::to_string(static_cast<uint32_t>(h.kind)));
    }
  }
  return false;
}

// A tiling process that a fault of the host tiling program's own code ended (a null or wild pointer,
// a division by zero, an abort): the tiling's failure, named with its signal, as the host that runs
// a tiling on the CPU would report it; not the kernel's. A kill from outside (the sandbox's limits)
// is not one: the launcher still dies of it.
bool TilingCrashed(int wstatus, Outcome& o) {
  if (!WIFSIGNALED(wstatus)) return false;
  const int sig = WTERMSIG(wstatus);
  if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL && sig != SIGABRT) return false;
  o.status = Status::TILING_ERROR;
  o.message = std::string("the host tiling program crashed (") + strsignal(sig) + ", signal " + std::to_string(sig) +
              ") before it returned a tiling";
  return true;
}

// The tiling process, forked before any GM is mapped; it starts the tiling once the GM is (the
// launch's input errors come first, as they did). False: it failed (in `o`).
bool Tile(const LaunchSpec& l, GmArgs& gm, Outcome& o, Tiling& tiling) {
  int fds[2], values[2];
  OpenPipe(fds);
  OpenPipe(values);
  const pid_t pid = Fork();
  if (pid == 0) {
    close(fds[0]);
    close(values[1]);
    if (l.resultFd >= 0) close(l.resultFd);
    TilingMain(l, fds[1], values[0]);
  }
  close(fds[1]);
  close(values[0]);
  prctl(PR_SET_DUMPABLE, 0);  // no process of this uid may ptrace the launcher or open its memory
  Child child(pid, fds[0], values[1]);
  gm = MapGm(l);
  const char go = 1;
  WriteToTiling(child.in(), &go, 1);
  const bool tiled = ReceiveTiling(l, gm, child.fd(), child.in(), o, tiling);
  const int wstatus = child.Reap(tiled || o.status != Status::OK);
  if (!tiled && o.status == Status::OK && !TilingCrashed(wstatus, o)) Stopped(wstatus);
  return tiled;
}

// The outputs whose OpDef sets InitValue get it before the kernel, as the device's op framework
// writes it (a memset of the value's type over the tensor); what they then hold is what the
// kernel's writes are counted against (CheckOutputsPaidFor).
void InitOutputs(const LaunchSpec& l, GmArgs& gm, const Tiling& tiling) {
  for (const channel::InitFrame& f : tiling.inits) {
    GmBuffer* b = gm.outputs[f.output];
    const uint64_t bytes = l.outputs[f.output].Bytes();
    for (uint64_t at = 0; at + f.width <= bytes; at += f.width) std::memcpy(b->Host() + at, &f.bits, f.width);
    gm.before.emplace_back(b, std::vector<uint8_t>(b->Host(), b->Host() + b->mem.mapped));
  }
}

void Run(const LaunchSpec& l, Outcome& o) {
  SetSocParams(l.params);
  // GM inputs and outputs: shared pages the candidate process sees; outputs are read here once it
  // is done.
  GmArgs gm;
  Tiling tiling;
  if (!Tile(l, gm, o, tiling)) return;
  InitOutputs(l, gm, tiling);

  // A sampled run's random probes, drawn here: nothing the candidate's code could know beforehand.
  uint64_t probeSeed = 0;
  if (l.sampled && getrandom(&probeSeed, sizeof probeSeed, 0) != sizeof probeSeed)
    throw LauncherFault(std::string("getrandom: ") + std::strerror(errno));
  int fds[2];
  OpenPipe(fds);
  const pid_t pid = Fork();
  if (pid == 0) {
    close(fds[0]);
    if (l.resultFd >= 0) close(l.resultFd);
    CandidateMain(l, gm, tiling, probeSeed, fds[1]);
  }
  close(fds[1]);
  Child child(pid, fds[0]);
  Received r;
  if (l.sampled) r.writes.emplace(l, gm);
  const bool ended = Receive(l, tiling, child.fd(), o, r);
  const int wstatus = child.Reap(ended || o.status != Status::OK);
  if (o.status != Status::OK) return;
  if (!ended) Stopped(wstatus);
  CheckOutputsPaidFor(gm, r.gmWriteBytes, r.scalarStoreBytes);

  // Wall time spent in the model, reported so its overhead over the functional run can be measured.
  const Clock::time_point t0 = Clock::now();
  o.latencyUs = r.model->Run().taskDurationUs;
  if (!r.model->TimedWarning().empty()) o.warnings.push_back(r.model->TimedWarning());
  r.modelTime += Clock::now() - t0;
  o.profileJson = r.model->Profile().Json(o.ubPeak);
  o.profileJson.insert(
      1, "\"model_wall_s\": " + std::to_string(std::chrono::duration<double>(r.modelTime).count()) + ", ");
  if (r.simulated > 0) {
    o.profileJson.insert(1, "\"timing\": \"sampled\", \"blocks_simulated\": " + std::to_string(r.simulated) + ", ");
    for (uint32_t b : sampling::RandomProbes(static_cast<uint32_t>(r.cores.size()), probeSeed))
      if (!r.ran.count(b)) throw Malformed("sampled record: probe block " + std::to_string(b) + " did not run");
    o.sampledUnchecked = r.writes->Unchecked();
  }

  for (size_t k = 0; k < l.outputs.size(); ++k) {
    if (l.timingOnly || l.outputs[k].path == "-") continue;        // a timing-only run: outputs unread
    if (r.simulated > 0 && !o.sampledUnchecked.empty()) continue;  // the daemon runs the case whole
    bool written;
    if (l.sampled) {  // the sampled format, also for a sampled launch that ran whole (a mixed one)
      const std::vector<sampled::Range> whole{{0, l.outputs[k].Bytes()}};
      written = sampled::WriteRanges(l.outputs[k].path, gm.outputs[k]->Host(),
                                     r.simulated > 0 ? r.writes->Simulated(k) : whole);
    } else {
      std::ofstream f(l.outputs[k].path, std::ios::binary);
      f.write(reinterpret_cast<const char*>(gm.outputs[k]->Host()), static_cast<std::streamsize>(l.outputs[k].Bytes()));
      f.close();
      written = static_cast<bool>(f);
    }
    if (!written) throw LauncherFault("cannot write output " + l.outputs[k].name + ": " + std::strerror(errno));
  }
}

}  // namespace
}  // namespace ascendc_sim

int main(int argc, char** argv) {
  using namespace ascendc_sim;
  if (argc == 4 && std::string(argv[1]) == "--precompile") {  // a build step: no launch, no confinement
    try {
      guest::Precompile(argv[2], argv[3]);
      return 0;
    } catch (const std::exception& e) {  // one line: wasmtime's "Caused by:" chain says why
      std::string why = e.what();
      std::replace(why.begin(), why.end(), '\n', ' ');
      std::cerr << why << "\n";
      return 1;
    }
  }
  if (argc != 2) {
    std::cerr << "usage: ascendc_sim_harness LAUNCH_SPEC | --precompile KERNEL.wasm OUT\n";
    return 2;
  }
  LaunchSpec launch;
  Outcome outcome;
  try {
    launch = ParseLaunchSpec(argv[1]);
    Run(launch, outcome);
  } catch (const LauncherFault& e) {
    outcome.fault = e.what();
  } catch (const SimError& e) {
    outcome.status = e.status;
    outcome.message = e.what();
  } catch (const std::exception& e) {
    outcome.status = Status::RUNTIME_ERROR;
    outcome.message = std::string("uncaught C++ exception: ") + e.what();
  }
  std::fflush(stdout);
  WriteResult(launch, outcome);
  return 0;
}
