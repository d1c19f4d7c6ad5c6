// The tiling process of the launch harness (launch.h): loads the candidate's tiling library behind
// the syscall filter, runs its tiling function on a TilingContext built from the launch spec and
// sends the launcher what the launch needs. It holds no GM and no kernel library: the values of
// the inputs the spec marks value_depend are all it gets of the launch's data, and its tiling data
// is all of it that reaches the kernel. (Its host time is not charged: what it computes reaches the
// kernel only as tiling data.)
#include <cstdio>
#include <cstring>

#include "channel.h"
#include "confine.h"
#include "launch.h"

namespace ascendc_sim {
namespace {

// Host-visible values for the inputs the operator's spec marks value_depend (axes, paddings), up to
// 1 MiB, asked of the launcher; the tiling sees no other input's values, so it cannot compute the
// operator. The spec decides, not the candidate's OpDef: a `ValueDepend` the candidate declares
// beyond it gets nothing (and the launcher refuses a request for any other input).
void ReadValueDepend(const LaunchSpec& l, gert::TilingContext& ctx, int fd, int valuesFd) {
  std::vector<uint32_t> wanted;
  for (size_t k = 0; k < l.inputs.size(); ++k)
    if (l.inputs[k].valueDepend && !l.inputs[k].absent && l.inputs[k].Bytes() <= (1u << 20))
      wanted.push_back(static_cast<uint32_t>(k));
  if (wanted.empty()) return;
  channel::Send(fd, channel::Kind::kValueDepend, 0, {{wanted.data(), wanted.size() * sizeof(uint32_t)}});
  for (uint32_t k : wanted) {
    std::vector<uint8_t>& data = ctx.inputs_[k].data_;
    data.resize(l.inputs[k].Bytes());
    if (!channel::ReadAll(valuesFd, data.data(), data.size())) _exit(1);  // the launcher is gone
  }
}

// The element pattern of an InitValue: its type's width and bits, little-endian as GM holds them.
channel::InitFrame InitPattern(uint32_t output, const ops::ScalarVar& v) {
  using T = ops::ScalarType;
  channel::InitFrame f{output, 0, v.scalar_num.value_u64};
  switch (v.scalar_type) {
    case T::UINT64:
    case T::INT64:
      f.width = 8;
      break;
    case T::UINT32:
    case T::INT32:
      f.width = 4;
      break;
    case T::UINT16:
    case T::INT16:
      f.width = 2;
      break;
    case T::UINT8:
    case T::INT8:
      f.width = 1;
      break;
    case T::FLOAT32: {
      uint32_t bits;
      std::memcpy(&bits, &v.scalar_num.value_f32, sizeof bits);
      f = {output, 4, bits};
      break;
    }
    case T::FLOAT16: {
      const _Float16 h = static_cast<_Float16>(v.scalar_num.value_f32);
      uint16_t bits;
      std::memcpy(&bits, &h, sizeof bits);
      f = {output, 2, bits};
      break;
    }
    default:
      throw SimError(Status::TILING_ERROR, "InitValue of output " + std::to_string(output) + ": ScalarType " +
                                               std::to_string(static_cast<uint32_t>(v.scalar_type)) +
                                               " is none CANN documents");
  }
  if (f.width < 8) f.bits &= (uint64_t{1} << (8 * f.width)) - 1;
  return f;
}

// The launch outputs whose OpDef output sets InitValue, matched by name (a list's members by the
// list's), and by position where no name matches and the launch has no lists; the list form's
// value is the one of the DataType column holding the output's type.
std::vector<channel::InitFrame> InitValues(const LaunchSpec& l, const ops::OpDef& def) {
  std::vector<channel::InitFrame> frames;
  const auto& declared = def.Outputs();
  bool named = false, lists = false;
  for (const TensorArg& t : l.outputs) {
    lists |= !t.list.empty();
    for (const ops::OpParamDef& d : declared) named |= d.Name() == (t.list.empty() ? t.name : t.list);
  }
  for (size_t k = 0; k < l.outputs.size(); ++k) {
    const TensorArg& t = l.outputs[k];
    const ops::OpParamDef* d = nullptr;
    for (const ops::OpParamDef& o : declared)
      if (o.Name() == (t.list.empty() ? t.name : t.list)) d = &o;
    if (d == nullptr && !named && !lists && k < declared.size()) d = &declared[k];
    if (d == nullptr || d->InitValues().empty()) continue;
    if (!t.alias.empty())
      throw SimError(Status::TILING_ERROR, "InitValue on output " + t.name + ", which is input " + t.alias +
                                               "'s buffer: the memset would clear the input");
    const auto& values = d->InitValues();
    size_t column = 0;
    for (size_t c = 0; c < d->DataTypes().size() && c < values.size(); ++c)
      if (d->DataTypes()[c] == TensorArg::DataType(t.dtype)) {
        column = c;
        break;
      }
    frames.push_back(InitPattern(static_cast<uint32_t>(k), values[column < values.size() ? column : 0]));
  }
  return frames;
}

void RunTiling(const LaunchSpec& l, int fd, int valuesFd) {
  void* lib = LoadCandidate(l.tilingSo, fd);
  char go;
  if (!channel::ReadAll(valuesFd, &go, 1)) _exit(1);  // the launcher failed before the launch
  RunConstructors(lib);

  const ops::OpDef* def = nullptr;
  for (const ops::OpDef* d : RegisteredOps())
    if (d->Type() == l.opType) def = d;
  if (def == nullptr && RegisteredOps().size() == 1) def = RegisteredOps().front();
  if (def == nullptr) throw SimError(Status::TILING_ERROR, "no OpDef registered with OP_ADD for op type " + l.opType);
  ops::TilingFunc tilingFunc = def->AICoreDef().GetTiling();
  // Newer projects register the tiling with IMPL_OP_OPTILING instead, with a compile-time parse.
  const gert::OpImplTiling* impl = RegisteredImpl(def->Type());
  if (tilingFunc == nullptr && impl != nullptr) tilingFunc = impl->tiling;
  if (tilingFunc == nullptr)
    throw SimError(Status::TILING_ERROR,
                   "OpDef " + def->Type() + " has no AICore().SetTiling(...) or IMPL_OP_OPTILING(...).Tiling(...)");

  gert::TilingContext ctx;
  ctx.opType_ = def->Type();
  std::shared_ptr<void> compileInfo;
  if (impl != nullptr && impl->parse != nullptr && impl->newCompileInfo != nullptr) {
    compileInfo = impl->newCompileInfo();
    gert::TilingParseContext parse;
    parse.compileInfo_ = compileInfo.get();
    parse.opType_ = ctx.opType_.c_str();
    if (impl->parse(&parse) != ge::GRAPH_SUCCESS)
      throw SimError(Status::TILING_ERROR, "TilingParse of " + def->Type() + " failed");
    ctx.compileInfo_ = compileInfo.get();
  }
  DescribeLaunch(l, ctx);
  ReadValueDepend(l, ctx, fd, valuesFd);
  ge::graphStatus st;
  try {
    st = tilingFunc(&ctx);
  } catch (const SimError& e) {
    throw SimError(Status::TILING_ERROR, e.what());
  }
  if (st != ge::GRAPH_SUCCESS) throw SimError(Status::TILING_ERROR, "tiling function returned GRAPH_FAILED");
  channel::TilingFrame f{};
  f.blockDim = ctx.GetBlockDim();
  f.tilingKey = ctx.GetTilingKey();
  f.tilingBytes = ctx.GetRawTilingData()->GetDataSize();
  f.tilingCapacity = ctx.GetRawTilingData()->GetCapacity();
  if (f.blockDim == 0 || f.blockDim > 65535)
    throw SimError(Status::TILING_ERROR, "block dim " + std::to_string(f.blockDim) + " out of range [1, 65535]");
  if (f.tilingCapacity > channel::kTilingCapacity)  // the launcher refuses it too: this names it
    throw SimError(Status::TILING_ERROR, "tiling data capacity of " + std::to_string(f.tilingCapacity) +
                                             " bytes past the TilingContext's " +
                                             std::to_string(channel::kTilingCapacity) + " (its buffer resized)");
  if (f.tilingBytes > f.tilingCapacity)
    throw SimError(Status::TILING_ERROR, "tiling data of " + std::to_string(f.tilingBytes) +
                                             " bytes exceeds the capacity of " + std::to_string(f.tilingCapacity));
  for (size_t w : ctx.workspaces_) f.workspaceBytes += w;

  const std::vector<channel::InitFrame> inits = InitValues(l, *def);

  std::fflush(nullptr);  // the tiling's output before the kernel's
  for (const std::string& w : Warnings()) channel::Send(fd, channel::Kind::kWarning, 0, {{w.data(), w.size()}});
  if (!inits.empty())
    channel::Send(fd, channel::Kind::kInitValue, 0, {{inits.data(), inits.size() * sizeof(channel::InitFrame)}});
  channel::Send(fd, channel::Kind::kTiling, 0, {{&f, sizeof f}, {ctx.GetRawTilingData()->GetData(), f.tilingBytes}});
}

}  // namespace

[[noreturn]] void TilingMain(const LaunchSpec& l, int fd, int valuesFd) {
  RunConfined(fd, [&] { RunTiling(l, fd, valuesFd); });
}

}  // namespace ascendc_sim
