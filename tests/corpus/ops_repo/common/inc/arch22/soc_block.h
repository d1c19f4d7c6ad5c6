// The A2's vector block, in floats (32 bytes).
#pragma once
constexpr uint32_t SOC_BLOCK_FLOATS = 8;
