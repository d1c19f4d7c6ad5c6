// The AscendC kernel API, emulated on the CPU. A kernel written for CANN includes this header and
// compiles unmodified with g++ -std=c++17; see ../../../../docs/simulator.md for what is modelled.
#pragma once

// The toolchain's core-architecture macros for the A2 (Ascend910B, dav-c220) cores every SoC preset
// models: kernels pick their A2 code paths with `#if __CCE_AICORE__ == 220` or by __NPU_ARCH__
// (2201 for the 910B's cores, asc-devkit .agent/skills/asc-api-ut-gen/references/foundations/
// api-directory-map.md).
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

#include "ascendc_sim/core.h"
#include "ascendc_sim/data_copy.h"
#include "ascendc_sim/memory.h"
#include "ascendc_sim/sync.h"
#include "ascendc_sim/system.h"
#include "ascendc_sim/vec_core.h"
#include "ascendc_sim/vec_elementwise.h"
#include "ascendc_sim/vec_cast.h"
#include "ascendc_sim/vec_compare.h"
#include "ascendc_sim/vec_reduce.h"
#include "ascendc_sim/vec_sort.h"
#include "ascendc_sim/vec_transdata.h"
#include "ascendc_sim/adv_index.h"
#include "ascendc_sim/adv_math.h"
#include "ascendc_sim/adv_reduce.h"
#include "ascendc_sim/adv_norm.h"
#include "ascendc_sim/adv_softmax_flash.h"
#include "ascendc_sim/adv_quant.h"
#include "ascendc_sim/adv_norm_ar.h"
#include "ascendc_sim/adv_deepnorm.h"
#include "ascendc_sim/adv_layernormgradbeta.h"
#include "ascendc_sim/adv_batchnorm.h"
#include "ascendc_sim/adv_groupnorm.h"
#include "ascendc_sim/adv_layernormgrad.h"
#include "ascendc_sim/adv_arange.h"
#include "ascendc_sim/cube_compute.h"
#include "ascendc_sim/cube_sync.h"
#include "ascendc_sim/cce_intrinsics.h"
#include "register/tilingdata_base.h"
#include "ascendc_sim/instances.h"  // last: the API it declares extern is defined above
#include "../guest/include/ascendc_guest/topk_constants.h"

namespace tik2 = AscendC;
