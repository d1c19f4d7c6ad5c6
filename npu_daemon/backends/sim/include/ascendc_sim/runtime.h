// The simulator runtime's internal interface between the harness and the kernel-side headers.
#pragma once

#include <string>
#include <unordered_map>

#include "ascendc_sim/core.h"

namespace ops {
class OpDef;
}

namespace ascendc_sim {

void SetCurrentCore(Core* core);
void SetSocParams(std::unordered_map<std::string, std::string> params);
void SetTilingKey(uint64_t key);
void SetSysWorkspace(uint8_t* ws);
// GM buffers the harness allocated; every DMA and scalar GM access must fall inside one.
void RegisterGm(const void* base, uint64_t bytes);
const std::vector<ops::OpDef*>& RegisteredOps();
double SocParamDouble(const char* key);

}  // namespace ascendc_sim
