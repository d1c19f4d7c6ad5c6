// The guest engine's TransDataTo5HD imports: the scatter transpose over 16 address lists, passed or
// stored in the UB.
#include "vec_shape.h"

namespace ascendc_sim::guest {
namespace {

// The instruction on 16 destination and 16 source UB addresses the guest named, each held to a
// block of the UB (the emulation checks every block a repeat reaches); `lists`: the UB ranges the
// address lists were read from, when the instruction reads them there.
void Trans5hd(const char* api, int32_t elemBytes, const uint32_t (&addr)[32], int32_t dstHigh, int32_t srcHigh,
              int32_t repeats, int32_t dstRep, int32_t srcRep, std::initializer_list<UbAccess> lists,
              const SrcLoc& loc) {
  if (repeats < 0 || repeats > UINT8_MAX || dstRep < 0 || dstRep > UINT16_MAX || srcRep < 0 || srcRep > UINT16_MAX)
    throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": a TransDataTo5HDParams field out of its range");
  // A list entry is a UB pointer's value: GetPhyAddr's kUbBase + address, or the bare address.
  uint32_t dst[16], src[16];
  for (int i = 0; i < 16; ++i) dst[i] = UbOfPointer(addr[i]), src[i] = UbOfPointer(addr[16 + i]);
  for (const uint32_t a : dst) (void)Local<uint8_t>(a, 32);
  for (const uint32_t a : src) (void)Local<uint8_t>(a, 32);
  const AscendC::TransDataTo5HDParams p(dstHigh != 0, srcHigh != 0, static_cast<uint8_t>(repeats),
                                        static_cast<uint16_t>(dstRep), static_cast<uint16_t>(srcRep));
  switch (elemBytes) {
    case 1:
      return ascendc_sim::TransDataTo5HD<uint8_t>(dst, src, p, lists, loc);
    case 2:
      return ascendc_sim::TransDataTo5HD<uint16_t>(dst, src, p, lists, loc);
    case 4:
      return ascendc_sim::TransDataTo5HD<uint32_t>(dst, src, p, lists, loc);
  }
  throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": elements of " + std::to_string(elemBytes) + " bytes");
}

void VecTrans5hd(const Call& c, int32_t elemBytes, uint32_t lists, int32_t dstHigh, int32_t srcHigh, int32_t repeats,
                 int32_t dstRep, int32_t srcRep, int32_t line) {
  const char* api = "TransDataTo5HD";
  VectorCore(api);
  uint32_t addr[32];
  std::memcpy(addr, c.Bytes(lists, sizeof addr, api), sizeof addr);
  Trans5hd(api, elemBytes, addr, dstHigh, srcHigh, repeats, dstRep, srcRep, {}, c.Loc(line));
}

// The address lists in the UB: 16 uint64_t UB byte addresses each, which the instruction loads.
void VecTrans5hdUb(const Call& c, int32_t elemBytes, uint32_t dstList, uint32_t dstListSize, uint32_t srcList,
                   uint32_t srcListSize, int32_t dstHigh, int32_t srcHigh, int32_t repeats, int32_t dstRep,
                   int32_t srcRep, int32_t line) {
  const char* api = "TransDataTo5HD";
  VectorCore(api);
  const auto D = Local<uint64_t>(dstList, dstListSize), S = Local<uint64_t>(srcList, srcListSize);
  if (dstListSize < 16 || srcListSize < 16)
    throw SimError(Status::RUNTIME_ERROR, "TransDataTo5HD: the address lists need 16 entries");
  uint32_t addr[32];
  for (int i = 0; i < 16; ++i) {  // past 32 bits: no UB address, refused with the rest
    const uint64_t d = ascendc_sim::HostData(D)[i], s = ascendc_sim::HostData(S)[i];
    addr[i] = d >> 32 ? UINT32_MAX : static_cast<uint32_t>(d);
    addr[16 + i] = s >> 32 ? UINT32_MAX : static_cast<uint32_t>(s);
  }
  Trans5hd(api, elemBytes, addr, dstHigh, srcHigh, repeats, dstRep, srcRep,
           {{dstList, 128, false}, {srcList, 128, false}}, c.Loc(line));
}

// set_va_reg_sb: the register keeps the guest's values; the transpose resolves them.
void VecSetVa(const Call& c, int32_t reg, uint32_t values, int32_t line) {
  const char* api = "set_va_reg_sb";
  VectorCore(api);
  uint64_t v[8];
  std::memcpy(v, c.Bytes(values, sizeof v, api), sizeof v);
  ascendc_sim::SetVaRegister(reg, v, c.Loc(line));
}

// scatter_vnchwconv_*: the lists from VA registers dstReg, dstReg + 1 and srcReg, srcReg + 1.
void VecTrans5hdVa(const Call& c, int32_t elemBytes, int32_t dstReg, int32_t srcReg, int32_t dstHigh, int32_t srcHigh,
                   int32_t repeats, int32_t dstRep, int32_t srcRep, int32_t line) {
  const char* api = "scatter_vnchwconv";
  VectorCore(api);
  const SrcLoc loc = c.Loc(line);
  const auto word = [](uint64_t a) { return a >> 32 ? UINT32_MAX : static_cast<uint32_t>(a); };  // refused later
  uint32_t addr[32], dst[16], src[16];
  ascendc_sim::VaAddresses(dstReg, dst, word, loc);
  ascendc_sim::VaAddresses(srcReg, src, word, loc);
  std::memcpy(addr, dst, sizeof dst);
  std::memcpy(addr + 16, src, sizeof src);
  Trans5hd(api, elemBytes, addr, dstHigh, srcHigh, repeats, dstRep, srcRep, {}, loc);
}

}  // namespace

void DefineTransDataImports(wasmtime_linker_t* l) {
  Import<VecTrans5hd>::Define(l, "vec_trans_5hd");
  Import<VecTrans5hdUb>::Define(l, "vec_trans_5hd_ub");
  Import<VecSetVa>::Define(l, "vec_set_va");
  Import<VecTrans5hdVa>::Define(l, "vec_trans_5hd_va");
}

}  // namespace ascendc_sim::guest
