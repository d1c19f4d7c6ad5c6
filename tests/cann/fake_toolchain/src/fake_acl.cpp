// Fake ACL runtime (tests only). "Device" memory is host memory registered with the simulator
// runtime (so its GM bounds checks apply); a kernel launch runs every block on the CPU through the
// simulator. Under the fake msprof (ASCEND_FAKE_MSPROF_RECORD set) each launch is also timed by
// the simulator's performance model and its profile appended, one JSON line per launch.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <unordered_map>

#include "acl/acl.h"
#include "ascendc_sim/runtime.h"
#include "model.h"

namespace {

std::string g_lastError;
aclError g_pending = ACL_SUCCESS;  // a launch's failure surfaces at the next synchronise, as on a device
bool g_paramsLoaded = false;

void LoadParams(const char* path) {
  if (g_paramsLoaded) return;
  std::unordered_map<std::string, std::string> params;
  std::ifstream in(path);
  std::string k, v;
  while (in >> k >> v) params[k] = v;
  ascendc_sim::SetSocParams(params);
  g_paramsLoaded = true;
}

}  // namespace

extern "C" {
aclError aclInit(const char*) { return ACL_SUCCESS; }
aclError aclFinalize() { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtCreateStream(aclrtStream* stream) {
  static int token;
  *stream = &token;
  return ACL_SUCCESS;
}
aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeStream(aclrtStream) {
  const aclError e = g_pending;
  g_pending = ACL_SUCCESS;
  return e;
}
// Like the device's allocator, the usable size is the request rounded up to 32 B plus 32 B, so a
// kernel that moves whole 32 B blocks past a tensor's end stays inside its allocation.
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  const size_t usable = (size + 31) / 32 * 32 + 32;
  *devPtr = std::aligned_alloc(512, (usable + 511) / 512 * 512);
  if (*devPtr == nullptr) return ACL_ERROR_INVALID_PARAM;
  ascendc_sim::RegisterGm(*devPtr, usable, "aclrtMalloc");
  return ACL_SUCCESS;
}
// Registered GM cannot be unregistered; the app is short-lived, so memory is released at exit.
aclError aclrtFree(void*) { return ACL_SUCCESS; }
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
  if (count > destMax) return ACL_ERROR_INVALID_PARAM;
  std::memcpy(dst, src, count);
  return ACL_SUCCESS;
}
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (count > maxCount) return ACL_ERROR_INVALID_PARAM;
  std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}
const char* aclGetRecentErrMsg() { return g_lastError.c_str(); }
}

// Called by the launch stubs that tools/gen_launch.py generates for each kernel entry.
uint32_t FakeCannLaunch(const char* kernel, uint32_t blockDim, const char* socParams, const std::function<void()>& body) {
  LoadParams(socParams);
  const char* record = std::getenv("ASCEND_FAKE_MSPROF_RECORD");
  try {
    ascendc_sim::LaunchModel model(ascendc_sim::LaunchCores("KERNEL_TYPE_AIV_ONLY", blockDim), {});  // vector kernels only
    uint32_t ubPeak = 0;
    ascendc_sim::RunBlocks(blockDim, body, [&](ascendc_sim::Core& core) {
      ubPeak = std::max(ubPeak, core.UbPeak());
      if (record != nullptr) model.AddBlock(core.Trace());
    });
    if (record != nullptr) {
      model.Run();
      std::ofstream(record, std::ios::app) << "{\"kernel\": \"" << kernel << "\", \"profile\": " << model.Profile().Json(ubPeak)
                                           << "}\n";
    }
  } catch (const std::exception& e) {
    g_lastError = std::string("fake AI Core exception in ") + kernel + ": " + e.what();
    g_pending = ACL_ERROR_RT_AICORE_EXCEPTION;
  }
  return 0;
}
