#include "model/params.h"

#include "ascendc_sim/runtime.h"

namespace ascendc_sim::model {

Params Params::FromSoc() {
  auto d = [](const char* k) { return SocParamDouble(k); };
  Params p{};
  p.clockGhz = d("clock_ghz");
  p.aivCores = static_cast<uint32_t>(SocParamInt("aiv_cores"));
  p.aicCores = static_cast<uint32_t>(SocParamInt("aic_cores"));
  p.mte1Start = d("mte1_start_cycles");
  p.l0LoadBytesPerCycle = d("l0_load_bytes_per_cycle");
  p.mmadStart = d("mmad_start_cycles");
  p.cubeCyclesB16 = d("cube_cycles_per_step_b16");
  p.cubeCyclesFp32 = d("cube_cycles_per_step_fp32");
  p.cubeCyclesInt8 = d("cube_cycles_per_step_int8");
  p.fixStart = d("fix_start_cycles");
  p.fixBytesPerCycle = d("fix_bytes_per_cycle");
  p.aicMte2BytesPerCycle = d("aic_mte2_bytes_per_cycle");
  p.nd2nzBurst = d("nd2nz_burst_cycles");
  p.mmMsgCycles = d("mm_msg_cycles");
  p.hbmBytesPerCycle = d("gm_bandwidth_gbps") / p.clockGhz;
  p.l2BytesPerCycle = p.hbmBytesPerCycle * d("l2_hit_bandwidth_ratio");
  p.l2Bytes = static_cast<uint64_t>(SocParamInt("l2_bytes"));
  p.launchUs = d("launch_us");
  p.launchUsPerCore = d("launch_us_per_core");
  p.launchRepeatedUs = d("launch_repeated_us");
  p.launchRepeatedUsPerCore = d("launch_repeated_us_per_core");
  p.blockSwitchCycles = d("block_switch_cycles");
  p.syncAllCycles = d("sync_all_cycles");
  p.issueCycles = d("issue_cycles");
  p.flagCycles = d("flag_cycles");
  p.barrierCycles = d("barrier_cycles");
  p.vecStart = d("vec_start_cycles");
  p.cprBinary = d("vec_cpr_binary");
  p.cprUnary = d("vec_cpr_unary");
  p.cprCast = d("vec_cpr_cast");
  p.cprTranscHalf = d("vec_cpr_transc_half");
  p.cprTranscFloat = d("vec_cpr_transc_float");
  p.cprDiv = d("vec_cpr_div");
  p.cprFma = d("vec_cpr_fma");
  p.cprReduceHalf = d("vec_cpr_reduce_half");
  p.cprReduceFloat = d("vec_cpr_reduce_float");
  p.cprCompare = d("vec_cpr_compare");
  p.cprSelect = d("vec_cpr_select");
  p.cprGather = d("vec_cpr_gather");
  p.cprMergeSort = d("vec_cpr_merge_sort");
  p.cprIndex = d("vec_cpr_index");
  p.rwConflictFactor = d("vec_rw_conflict_factor");
  p.bankGroups = static_cast<uint32_t>(SocParamInt("ub_bank_groups"));
  p.bankBytes = static_cast<uint32_t>(SocParamInt("ub_bank_third_bytes"));
  p.dmaStart = d("dma_start_cycles");
  p.dmaBurst = d("dma_burst_cycles");
  p.dmaPadBurst = d("dma_pad_burst_cycles");
  p.dmaLatency = d("dma_latency_cycles");
  p.hbmLatency = d("hbm_latency_cycles");
  p.mte2L2HitBytesPerCycle = d("mte2_l2_hit_bytes_per_cycle");
  p.mte2BytesPerCycle = d("mte2_bytes_per_cycle");
  p.mte3BytesPerCycle = d("mte3_bytes_per_cycle");
  p.granuleBytes = static_cast<uint32_t>(SocParamInt("gm_granule_bytes"));
  p.gmSlices = static_cast<uint32_t>(SocParamInt("gm_slices"));
  p.l2Slices = static_cast<uint32_t>(SocParamInt("l2_slices"));
  p.noiseSigma = d("noise_sigma");
  return p;
}

}  // namespace ascendc_sim::model
