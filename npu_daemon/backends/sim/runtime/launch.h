// What the launch harness's processes share: the launch spec (ascendc_sim/launch_spec.h), the
// GM buffers the launcher maps, what the tiling chose, and the entries of the two processes that
// run candidate code.
//
// The launcher (launcher.cpp, main) first forks the tiling process (tiling.cpp), which loads the
// tiling library alone, runs the tiling and sends back only what the launch needs (channel.h: block
// dim, tiling key, workspace, tiling data); it is forked before any GM is mapped, and gets the
// values of the inputs the spec marks value_depend, which it asks for, through a pipe. The launcher then maps the
// GM inputs and outputs (shared pages) and forks the candidate process (candidate.cpp), which
// loads the kernel library alone, runs the kernel with those tiling bytes, and streams each
// finished block's trace through a pipe. Both install a syscall filter (confine.cpp) before they
// load any candidate code, so nothing the tiling leaves in memory reaches the kernel but its
// tiling data. The launcher never maps candidate code: it checks what arrives, runs the
// performance model on it, and alone holds the descriptor the result goes to. So a kernel cannot
// write its own result, and what it sends is parsed, not trusted.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ascendc_sim/runtime.h"
#include "ascendc_sim/launch_spec.h"
#include "channel.h"

namespace ascendc_sim {

// GM memory: page aligned, registered for bounds checks. Like aclrtMalloc, the usable size is the
// request rounded up to 32 B plus 32 B, so a kernel that moves whole 32 B blocks past a tensor's
// end stays inside its allocation, as on the device. An empty tensor (a zero dimension) has no
// allocation there, so here no usable byte: a write to it is outside every GM buffer. Guarded
// (GuardedMemory): the kernel gets an address it cannot touch directly, the emulation and the
// harness work on `Host()`. Fresh pages are zero. A checked run reads an input's bytes from its
// file; a timing-only run (`lazy`) maps the input file instead, so input GM takes memory only
// where the kernel touches it. Outputs start as `fill` (0xFF) in every mode: a kernel cannot tell
// a checked run from a sampled one.
struct GmBuffer {
  GmBuffer(uint64_t bytes, uint8_t fill, const std::string& name, const std::string& source = "", bool guarded = true,
           bool lazy = false)
      : file(lazy && !source.empty() ? OpenInput(source, bytes) : -1),
        mem(bytes == 0 ? 0 : (bytes + 31) / 32 * 32 + 32, name.c_str(), guarded, file.fd, bytes),
        name(name) {
    if (!source.empty() && !lazy) {
      std::ifstream f(source, std::ios::binary);
      if (!f.read(reinterpret_cast<char*>(mem.host), static_cast<std::streamsize>(bytes)))
        throw SimError(Status::RUNTIME_ERROR, "cannot read input " + source);
    }
    if (fill != 0) std::memset(mem.host, fill, mem.mapped);
    RegisterGm(mem.guard, mem.bytes, name, guarded ? mem.host : nullptr, mem.mapped);
  }
  uint8_t* Kernel() const { return mem.guard; }
  uint8_t* Host() const { return mem.host; }

 private:
  struct Fd {
    int fd;
    Fd(int f) : fd(f) {}
    ~Fd() {
      if (fd >= 0) close(fd);
    }
  };
  static int OpenInput(const std::string& source, uint64_t bytes) {
    const int fd = open(source.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st{};
    if (fd >= 0 && fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) >= bytes) return fd;
    if (fd >= 0) close(fd);
    throw SimError(Status::RUNTIME_ERROR, "cannot read input " + source);
  }
  Fd file;  // the input a lazy buffer maps; closed once mapped

 public:
  GuardedMemory mem;
  std::string name;
};

// The launch's GM, mapped by the launcher before the candidate process's fork: `params` in kernel
// parameter order (nullptr for an absent optional input; an in-place output is its input's buffer,
// passed again unless `noparam`), `inputs`/`outputs` by spec order (an output may be an input's
// buffer).
struct GmArgs {
  std::vector<std::unique_ptr<GmBuffer>> owned;
  std::vector<GmBuffer*> params, inputs, outputs;
  std::vector<std::pair<const GmBuffer*, std::vector<uint8_t>>> before;  // in-place outputs: their input's bytes
  // Each list parameter's descriptor and its members, whose GM addresses it holds (RunGuest names
  // them again in the guest's GM).
  std::vector<std::pair<GmBuffer*, std::vector<GmBuffer*>>> lists;
  uint8_t fill = 0xFF;  // what the other outputs start as, in every mode
};

// What the tiling process sent, as the launcher checked it.
struct Tiling {
  channel::TilingFrame frame{};
  std::vector<uint8_t> data;              // frame.tilingBytes
  std::vector<std::string> warnings;      // the tiling's, reported before the kernel's
  std::vector<channel::InitFrame> inits;  // outputs the launch initialises (InitValue), ascending
};

// The tiling process: the tiling, its result sent on `fd`. It starts the tiling once the launcher
// writes a byte on `valuesFd` (its GM mapped), and reads the values it asks for there.
[[noreturn]] void TilingMain(const LaunchSpec& l, int fd, int valuesFd);

// The candidate process: the kernel once per block with `tiling`, each block's trace sent on `fd`.
// `probeSeed`: the launcher's random draw of a sampled run's probe blocks.
[[noreturn]] void CandidateMain(const LaunchSpec& l, const GmArgs& gm, const Tiling& tiling, uint64_t probeSeed,
                                int fd);

}  // namespace ascendc_sim
