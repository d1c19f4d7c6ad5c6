// The launcher of the launch harness (launch.h): maps the launch's GM, forks the candidate process,
// checks and times the traces it sends with the performance model, and writes the outputs plus
// the result.
//
// usage: ascendc_sim_harness LAUNCH_SPEC
// The spec (ascendc_sim/launch_spec.h) is written by npu_daemon/backends/common/launch.py;
// `result_fd N` (the daemon: an inherited descriptor) or `result PATH` (tools) names the result's
// destination.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <utility>

#include "channel.h"
#include "launch.h"
#include "model.h"

namespace ascendc_sim {
namespace {

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
  for (const auto& t : l.inputs) {
    GmBuffer* b = nullptr;
    if (!t.absent) {
      gm.owned.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0, t.name, t.path, true, l.timingOnly));
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
      // A timing-only run maps inputs privately from their files: the launcher never sees writes
      // to them, so an in-place output is left out of CheckOutputsPaidFor (no bytes compared).
      gm.before.emplace_back(
          in, l.timingOnly ? std::vector<uint8_t>() : std::vector<uint8_t>(in->Host(), in->Host() + in->mem.mapped));
      continue;
    }
    // NaN / -1: an unwritten output shows as wrong
    gm.owned.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0xFF, t.name, "", true, l.timingOnly));
    gm.outputs.push_back(gm.owned.back().get());
  }
  ListParams(gm, l.outputs, gm.outputs, passed);
  return gm;
}

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c == '\n')
      o += "\\n";
    else if (c < 0x20) {
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

SimError Malformed(const std::string& why) {
  return SimError(Status::RUNTIME_ERROR, "the candidate process sent a malformed launch record (" + why +
                                             "): kernel code wrote to the simulator's channel or corrupted its trace");
}

template <typename T>
void Read(int fd, T* data, size_t n = 1) {
  if (!channel::ReadAll(fd, data, n * sizeof(T))) throw Malformed("truncated frame");
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
  uint32_t simulated = 0;         // sampled timing: blocks that ran (0: a full run)
  std::set<std::string> names;    // API and file names the sites point into
  uint64_t gmWriteBytes = 0;      // GM bytes the traces' DMA and fixpipe stores write
  uint64_t scalarStoreBytes = 0;  // the traces' scalar GM stores
  Clock::duration modelTime{};
};

// Frames until the candidate process ends (false: it reported a failure, now in `o`, or stopped
// early) or has sent every block (true). Each block goes to the model as it arrives.
bool Receive(const LaunchSpec& l, int fd, Outcome& o, Received& r) {
  channel::Header h;
  while (channel::ReadAll(fd, &h, sizeof h)) {
    if (h.bytes > kMaxFrameBytes) throw Malformed("a record of " + std::to_string(h.bytes) + " bytes");
    switch (h.kind) {
      case channel::Kind::kLaunch: {
        channel::LaunchFrame f;
        if (r.model || h.bytes != sizeof f) throw Malformed("launch record");
        Read(fd, &f);
        if (f.blockDim == 0 || f.blockDim > 65535) throw Malformed("block dim " + std::to_string(f.blockDim));
        o.blockDim = f.blockDim;
        o.tilingKey = f.tilingKey;
        o.workspaceBytes = f.workspaceBytes;
        o.tilingBytes = f.tilingBytes;
        RegisterGm(reinterpret_cast<void*>(f.workspaceAddr), f.workspaceSize, "workspace", nullptr, 0);
        RegisterGm(reinterpret_cast<void*>(f.tilingAddr), f.tilingSize, "tiling", nullptr, 0);
        RegisterGm(reinterpret_cast<void*>(f.paramsAddr), f.paramsSize, "kernel parameters", nullptr, 0);
        r.cores = LaunchCores(l.kernelType, f.blockDim);
        LaunchOptions options;
        options.timelinePath = l.traceJson;
        options.noiseSeed = l.noiseSeed;
        options.warm = l.warm;
        r.model = std::make_unique<LaunchModel>(r.cores, options);
        r.seen.assign(r.cores.size(), false);
        break;
      }
      case channel::Kind::kBlock: {
        channel::BlockFrame b;
        if (!r.model || h.bytes < sizeof b) throw Malformed("block record before the launch record");
        Read(fd, &b);
        if (b.blockIdx >= r.cores.size() || r.seen[b.blockIdx]) throw Malformed("block " + std::to_string(b.blockIdx));
        uint64_t rest = h.bytes - sizeof b;
        if (b.instrs > rest / sizeof(Instr)) throw Malformed("trace length");
        rest -= b.instrs * sizeof(Instr);
        CoreTrace& t = r.block;
        t.instrs.resize(b.instrs);
        Read(fd, t.instrs.data(), b.instrs);
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
      case channel::Kind::kWarning: {
        if (h.bytes > kMaxMessageBytes || o.warnings.size() >= 16) throw Malformed("warning record");
        std::string message(h.bytes, '\0');
        Read(fd, message.data(), message.size());
        o.warnings.push_back(message);
        break;
      }
      case channel::Kind::kSampled:
        if (!l.sampled || h.bytes != sizeof r.simulated || r.simulated != 0) throw Malformed("sampled record");
        Read(fd, &r.simulated);
        if (r.simulated == 0 || r.simulated > r.cores.size()) throw Malformed("sampled record");
        break;
      case channel::Kind::kEnd:
        if (h.bytes != 0 || !r.model || r.blocks != r.cores.size()) throw Malformed("end record before every block");
        return true;
      case channel::Kind::kError: {
        if (h.status < 1 || h.status > 3 || h.bytes > kMaxMessageBytes) throw Malformed("error record");
        std::string message(h.bytes, '\0');
        Read(fd, message.data(), message.size());
        o.status = static_cast<Status>(h.status);
        o.message = message;
        return false;
      }
      default:
        throw Malformed("record kind " + std::to_string(static_cast<uint32_t>(h.kind)));
    }
  }
  return false;
}

void Run(const LaunchSpec& l, Outcome& o) {
  SetSocParams(l.params);
  // GM inputs and outputs: shared pages both processes see; outputs are read here once the
  // candidate process is done.
  const GmArgs gm = MapGm(l);

  int fds[2];
  if (pipe(fds) != 0) throw SimError(Status::RUNTIME_ERROR, std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw SimError(Status::RUNTIME_ERROR, std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    close(fds[0]);
    if (l.resultFd >= 0) close(l.resultFd);
    CandidateMain(l, gm, fds[1]);
  }
  close(fds[1]);
  prctl(PR_SET_DUMPABLE, 0);  // no process of this uid may ptrace the launcher or open its memory
  Received r;
  bool ended = false;
  try {
    ended = Receive(l, fds[0], o, r);
  } catch (...) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    throw;
  }
  if (ended || o.status != Status::OK) kill(pid, SIGKILL);  // it has flushed its output; nothing more is read
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  close(fds[0]);
  if (o.status != Status::OK) return;
  if (!ended) {
    if (WIFSIGNALED(wstatus)) {  // die of it too: the daemon reports a crash as before the split
      std::signal(WTERMSIG(wstatus), SIG_DFL);
      raise(WTERMSIG(wstatus));
    }
    throw SimError(Status::RUNTIME_ERROR, "the kernel process exited (code " + std::to_string(WEXITSTATUS(wstatus)) +
                                              ") before its launch finished");
  }
  CheckOutputsPaidFor(gm, r.gmWriteBytes, r.scalarStoreBytes);

  // Wall time spent in the model, reported so its overhead over the functional run can be measured.
  const Clock::time_point t0 = Clock::now();
  o.latencyUs = r.model->Run().taskDurationUs;
  r.modelTime += Clock::now() - t0;
  o.profileJson = r.model->Profile().Json(o.ubPeak);
  o.profileJson.insert(
      1, "\"model_wall_s\": " + std::to_string(std::chrono::duration<double>(r.modelTime).count()) + ", ");
  if (l.warm) o.profileJson.insert(1, "\"timing_protocol\": \"warm\", ");
  if (r.simulated > 0)
    o.profileJson.insert(1, "\"timing\": \"sampled\", \"blocks_simulated\": " + std::to_string(r.simulated) + ", ");

  for (size_t k = 0; k < l.outputs.size(); ++k) {
    if (l.timingOnly || l.outputs[k].path == "-") continue;  // a timing-only run: outputs unread
    std::ofstream f(l.outputs[k].path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(gm.outputs[k]->Host()), static_cast<std::streamsize>(l.outputs[k].Bytes()));
    f.close();
    if (!f) throw LauncherFault("cannot write output " + l.outputs[k].name + ": " + std::strerror(errno));
  }
}

}  // namespace
}  // namespace ascendc_sim

int main(int argc, char** argv) {
  using namespace ascendc_sim;
  if (argc != 2) {
    std::cerr << "usage: ascendc_sim_harness LAUNCH_SPEC\n";
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
