// Frames from the candidate process (which runs the tiling and the kernel) to the launcher (which
// times the launch): a pipe, so the only thing candidate code can hand the launcher is bytes that
// it parses and checks. Same binary on both ends, so plain structs.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace ascendc_sim::channel {

enum class Kind : uint32_t {
  kLaunch = 1,  // LaunchFrame: what the tiling chose, and the GM buffers the candidate process made
  kBlock,       // BlockFrame, then Instr[instrs], then per site: SiteFrame + api + file bytes
  kEnd,         // every block ran; no payload
  kError,       // a failure (status, message bytes)
  kWarning,     // a condition the device runs through (message bytes); before kEnd
  kSampled,     // sampled timing: uint32 blocks simulated (the rest derived); before kEnd
};

struct Header {
  Kind kind;
  uint32_t status;  // kError: ascendc_sim::Status
  uint64_t bytes;   // payload that follows
};

struct LaunchFrame {
  uint32_t blockDim;
  uint32_t pad;
  uint64_t tilingKey, workspaceBytes, tilingBytes;
  uint64_t workspaceAddr, workspaceSize, tilingAddr, tilingSize, paramsAddr,
      paramsSize;  // GM the candidate process mapped
};

struct BlockFrame {
  uint32_t blockIdx, ubPeak;
  uint64_t instrs, sites;
};

struct SiteFrame {
  int32_t line;
  uint32_t apiBytes, fileBytes, pad;
};

// write() until done (a pipe may take a large frame in pieces); false if the reader is gone.
inline bool WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

// read() exactly n bytes; false on EOF or error.
inline bool ReadAll(int fd, void* data, size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

}  // namespace ascendc_sim::channel
