// Frames from the processes that run candidate code (the tiling process, then the candidate
// process, which runs the kernel) to the launcher (which times the launch): pipes, so the only
// thing candidate code can hand the launcher is bytes that it parses and checks. Same binary on
// both ends, so plain structs.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace ascendc_sim::channel {

enum class Kind : uint32_t {
  kLaunch = 1,   // candidate: LaunchFrame, the GM buffers it made
  kBlock,        // candidate: BlockFrame, then Instr[instrs], TimedPair[timed], then per site: SiteFrame +
                 // api + file bytes
  kEnd,          // candidate: every block ran; no payload
  kError,        // either: a failure (status, message bytes)
  kWarning,      // either: a condition the device runs through (message bytes); before kTiling / kEnd
  kSampled,      // candidate: sampled timing: uint32 blocks simulated (the rest derived); before kEnd
  kValueDepend,  // tiling: uint32 launch input indices, ascending, whose values it asks for (at most
                 // once); the launcher answers on its own pipe with their bytes, in that order
  kTiling,       // tiling: TilingFrame, then the tiling data (tilingBytes); its last record
  kInitValue,    // tiling: InitFrame[], the outputs whose OpDef sets InitValue (at most once); before kTiling
};

// A kWarning record's message at most: the result the daemon reads is bounded (1 MiB), and a
// process running candidate code can write records of its own.
constexpr uint64_t kMaxWarningBytes = 2048;
// A tiling record's capacity at most: the TilingContext's raw tiling data (host_context.h, 64 KiB),
// which the tiling's own code can resize (its buffer is a public vector) and report as it likes.
constexpr uint64_t kTilingCapacity = 64 << 10;

struct Header {
  Kind kind;
  uint32_t status;  // kError: ascendc_sim::Status
  uint64_t bytes;   // payload that follows
};

// What the tiling chose: all of the tiling process that reaches the kernel.
struct TilingFrame {
  uint32_t blockDim;
  uint32_t pad;
  uint64_t tilingKey, workspaceBytes, tilingBytes, tilingCapacity;
};

// An output's initial value (OpParamDef::InitValue): the element pattern the launcher repeats
// over the output's GM before the kernel runs, `width` bytes (1, 2, 4 or 8) of `bits`.
struct InitFrame {
  uint32_t output;  // launch output index
  uint32_t width;
  uint64_t bits;
};

struct LaunchFrame {  // GM the candidate process mapped
  uint64_t workspaceAddr, workspaceSize, tilingAddr, tilingSize, paramsAddr, paramsSize;
  uint64_t dataAddr, dataSize;  // the kernel's own __gm__ data (guest engine), 0 when none
};

struct BlockFrame {
  uint32_t blockIdx, ubPeak;
  uint64_t instrs, sites;
  uint32_t derived, pad;  // sampled timing: 1 when the trace was derived, not simulated
  uint64_t timed;
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

// One frame: the header, then `parts` as its payload. A writer whose launcher is gone has nobody
// to report to: it ends.
inline void Send(int fd, Kind kind, uint32_t status, std::initializer_list<std::pair<const void*, size_t>> parts) {
  uint64_t bytes = 0;
  for (const auto& p : parts) bytes += p.second;
  const Header h{kind, status, bytes};
  bool ok = WriteAll(fd, &h, sizeof h);
  for (const auto& p : parts) ok = ok && WriteAll(fd, p.first, p.second);
  if (!ok) _exit(1);
}

}  // namespace ascendc_sim::channel
