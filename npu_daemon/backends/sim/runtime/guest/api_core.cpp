// The guest engine's core imports: block ids and the core's other values, the tiling, TPipe and its
// queues, workspaces, synchronisation and the API's failed checks, each the emulation's own call on
// the running core.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

// fp16 <-> float of the guest's `half`: the native engine's own conversion (F16C where the CPU has it).
float F16ToF32(const Call&, uint32_t bits) {
  const auto b = static_cast<uint16_t>(bits);
  half h;
  std::memcpy(&h, &b, 2);
  return static_cast<float>(h);
}
uint32_t F32ToF16(const Call&, float f) {
  const half h = static_cast<half>(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

int32_t BlockIdx(const Call&) { return static_cast<int32_t>(AscendC::GetBlockIdx()); }
int32_t BlockNum(const Call&) { return static_cast<int32_t>(AscendC::GetBlockNum()); }

void TilingRead(const Call& c, uint32_t dst, uint32_t gm, uint32_t bytes) {
  const LaunchGm& l = g_module->gm;
  if (gm < l.tiling || static_cast<uint64_t>(gm) - l.tiling + bytes > l.tilingBytes)
    throw SimError(Status::RUNTIME_ERROR, "GET_TILING_DATA: the tiling argument reads past the tiling data");
  std::memcpy(c.Bytes(dst, bytes, "GET_TILING_DATA"), l.tilingData + (gm - l.tiling), bytes);
  // Charged as the native engine's TilingCopy: the device's scalar loads of it, word by word.
  Core& core = CurrentCore();
  core.Scalar(core.ScalarGmWordsCost(reinterpret_cast<uintptr_t>(l.map.Resolve(gm, bytes, "GET_TILING_DATA")), bytes));
}

int32_t PipeNew(const Call&) {
  auto& pipes = t_core->pipes;
  auto free = std::find(pipes.begin(), pipes.end(), nullptr);
  if (free == pipes.end()) {
    if (pipes.size() >= kMaxPipes)
      Refuse("TPipe", "more than " + std::to_string(kMaxPipes) + " TPipe objects alive on one core");
    free = pipes.insert(pipes.end(), nullptr);
  }
  *free = std::make_unique<AscendC::TPipe>();
  return static_cast<int32_t>(free - pipes.begin());
}
void PipeDelete(const Call&, int32_t id) {
  Pipe(id);  // a live pipe, or the error
  t_core->pipes[static_cast<size_t>(id)].reset();
}
int32_t PipeInitQue(const Call& c, int32_t pipe, int32_t src, int32_t dst, int32_t, int32_t num, uint32_t len,
                    int32_t line) {
  if (t_core->queues.size() >= kMaxQueues)
    Refuse("InitBuffer", "more than " + std::to_string(kMaxQueues) + " queues bound on one core");
  auto q = std::make_unique<HostQue>(Position(src), Position(dst));
  Pipe(pipe).InitQueue(*q, Position(src), static_cast<uint8_t>(num), len, c.Loc(line));
  t_core->queues.push_back(std::move(q));
  return static_cast<int32_t>(t_core->queues.size() - 1);
}
uint32_t PipeInitBuf(const Call& c, int32_t pipe, int32_t pos, int32_t num, uint32_t len, int32_t line) {
  return Pipe(pipe).InitScratch(Position(pos), static_cast<uint8_t>(num), len, c.Loc(line));
}
uint32_t QueAlloc(const Call& c, int32_t id, int32_t line) {
  HostQue& q = Que(id);
  return q.Alloc(q.producer, q.consumer, c.Loc(line));
}
void QueFree(const Call& c, int32_t id, uint32_t addr, int32_t line) {
  HostQue& q = Que(id);
  q.Free(addr, q.producer, q.consumer, c.Loc(line));
}
void QueEnque(const Call& c, int32_t id, uint32_t addr, uint32_t bytes, int32_t line) {
  HostQue& q = Que(id);
  q.Enqueue(addr, bytes, q.producer, q.consumer, c.Loc(line));
}
int64_t QueDeque(const Call& c, int32_t id, int32_t line) {
  HostQue& q = Que(id);
  const uint32_t bytes = q.Head();
  const uint32_t addr = q.Dequeue(q.producer, q.consumer, c.Loc(line));
  return static_cast<int64_t>(addr) | static_cast<int64_t>(bytes) << 32;
}

void QueEnqueHop(const Call& c, int32_t id, uint32_t addr, uint32_t bytes, int32_t src, int32_t dst, int32_t line) {
  Que(id).Enqueue(addr, bytes, AscendC::ProducerPipe(Position(src)), AscendC::ConsumerPipe(Position(dst)), c.Loc(line));
}
int64_t QueDequeHop(const Call& c, int32_t id, int32_t src, int32_t dst, int32_t line) {
  HostQue& q = Que(id);
  const uint32_t bytes = q.Head();
  const uint32_t addr =
      q.Dequeue(AscendC::ProducerPipe(Position(src)), AscendC::ConsumerPipe(Position(dst)), c.Loc(line));
  return static_cast<int64_t>(addr) | static_cast<int64_t>(bytes) << 32;
}
int32_t QueStateImport(const Call&, int32_t id, int32_t what) {
  const HostQue& q = Que(id);
  return what == static_cast<int32_t>(ascendc_guest::QueState::kIdle) ? q.Idle() : q.Queued();
}
void PipeReset(const Call&, int32_t id) { Pipe(id).Reset(); }
void PipeCopy(const Call&, int32_t to, int32_t from) { Pipe(to) = Pipe(from); }
int64_t PipePopStack(const Call& c, int32_t id, int32_t pos, int32_t line) {
  const SrcLoc loc = c.Loc(line);
  if (id < 0) ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, "PopStackBuffer without a TPipe");
  if (AscendC::BufferOf(Position(pos)) != ascendc_sim::LocalBuf::kUB)
    ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, "PopStackBuffer: a UB position only");
  const uint32_t start = Pipe(id).UsedBytes(), end = ascendc_sim::CurrentCore().UbCapacity();
  return start >= end ? 0 : static_cast<int64_t>(start) | static_cast<int64_t>(end - start) << 32;
}

// A check the guest ran on its own arguments failed: the native engine's RUNTIME_ERROR at its line.
void ApiFail(const Call& c, int32_t what, int32_t line) {
  const SrcLoc loc = c.Loc(line);
  switch (static_cast<ascendc_guest::Fault>(what)) {
    case ascendc_guest::Fault::kTrap:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, "Trap()");
    case ascendc_guest::Fault::kAssert:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, "ASSERT failed");
    case ascendc_guest::Fault::kTBufGet:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, "TBuf::Get exceeds the buffer's bytes");
    case ascendc_guest::Fault::kTBufGetWithOffset:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, "TBuf::GetWithOffset: offset not 32 B aligned or past the buffer");
    case ascendc_guest::Fault::kSyncAllCores:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc,
                        "SyncAll(usedCores) with another number of blocks launched: only part would meet");
    case ascendc_guest::Fault::kNoTemplateInstance:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, "the tiling key has no kernel instance (ASCENDC_TPL_SEL)");
    case ascendc_guest::Fault::kCo1CopyMode:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, AscendC::detail::kCo1CopyModeMessage);
    case ascendc_guest::Fault::kFixpipeVectorQuant:
      ascendc_sim::Fail(Status::RUNTIME_ERROR, loc, AscendC::detail::kFixpipeVectorQuantMessage);
  }
  throw SimError(Status::RUNTIME_ERROR, "api_fail: fault code " + std::to_string(what) + " unknown");
}
int64_t CoreInfoImport(const Call&, int32_t what) {
  switch (static_cast<ascendc_guest::CoreInfo>(what)) {
    case ascendc_guest::CoreInfo::kSubBlockIdx:
      return AscendC::GetSubBlockIdx();
    case ascendc_guest::CoreInfo::kSubBlockNum:
      return AscendC::GetSubBlockNum();
    case ascendc_guest::CoreInfo::kCoreType:
      return static_cast<int64_t>(ascendc_sim::CurrentCore().Spec().type);
    case ascendc_guest::CoreInfo::kSystemCycle:
      return AscendC::GetSystemCycle();
  }
  throw SimError(Status::RUNTIME_ERROR, "core_info: code " + std::to_string(what) + " unknown");
}
// DumpTensor's checks and scalar charge, as the native one's; the values are printed nowhere, so no
// case data leaves the evaluation through the kernel's output (guest/include/ascendc_guest/system.h).
void DumpTensorImport(const Call& c, int32_t t, int32_t gm, uint32_t addr, int64_t size, int32_t pos, uint32_t count,
                      int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const SrcLoc loc = c.Loc(line);
    if (gm) {
      Global<T>(addr, size, count, "DumpTensor");
    } else {
      const auto l = Local<T>(addr, static_cast<uint32_t>(size), pos);
      ASCENDC_SIM_CHECK(
          l.UbAddr() + static_cast<uint64_t>(count) * sizeof(T) <= CurrentCore().Local().Size(LocalBuf::kUB), loc,
          "DumpTensor of %u elements from UB address %u runs past the UB", count, l.UbAddr());
    }
    CurrentCore().Scalar(count);
  });
}

int64_t TilingKeyImport(const Call&) { return static_cast<int64_t>(ascendc_sim::TilingKey()); }
uint32_t UserWorkspace(const Call&, uint32_t workspace) {
  return workspace + static_cast<uint32_t>(ascendc_sim::SocParamInt("lib_workspace_bytes"));
}
uint32_t SysWorkspace(const Call&) { return g_module->gm.workspace; }
void SyncAllImport(const Call& c, int32_t line) { ascendc_sim::CurrentCore().SyncAll(c.Loc(line)); }
void PipeBarrierImport(const Call& c, int32_t pipe, int32_t line) {
  if (pipe < PIPE_S || pipe > PIPE_ALL) throw SimError(Status::RUNTIME_ERROR, "PipeBarrier: pipe out of range");
  ascendc_sim::CurrentCore().Barrier(static_cast<pipe_t>(pipe), c.Loc(line), "PipeBarrier");
}
void SetFlagImport(const Call& c, int32_t event, int32_t id, int32_t line) {
  ascendc_sim::CurrentCore().SetFlag(event / 8, event % 8, static_cast<uint64_t>(id), c.Loc(line), "SetFlag");
}
void WaitFlagImport(const Call& c, int32_t event, int32_t id, int32_t line) {
  ascendc_sim::CurrentCore().WaitFlag(event / 8, event % 8, static_cast<uint64_t>(id), c.Loc(line), "WaitFlag");
}

}  // namespace

void DefineCoreImports(wasmtime_linker_t* l) {
  Import<F16ToF32>::Define(l, "f16_to_f32");
  Import<F32ToF16>::Define(l, "f32_to_f16");
  Import<BlockIdx>::Define(l, "block_idx");
  Import<BlockNum>::Define(l, "block_num");
  Import<TilingRead>::Define(l, "tiling_read");
  Import<PipeNew>::Define(l, "pipe_new");
  Import<PipeDelete>::Define(l, "pipe_delete");
  Import<PipeInitQue>::Define(l, "pipe_init_que");
  Import<PipeInitBuf>::Define(l, "pipe_init_buf");
  Import<QueAlloc>::Define(l, "que_alloc");
  Import<QueFree>::Define(l, "que_free");
  Import<QueEnque>::Define(l, "que_enque");
  Import<QueDeque>::Define(l, "que_deque");
  Import<QueEnqueHop>::Define(l, "que_enque_hop");
  Import<QueDequeHop>::Define(l, "que_deque_hop");
  Import<QueStateImport>::Define(l, "que_state");
  Import<PipeReset>::Define(l, "pipe_reset");
  Import<PipeCopy>::Define(l, "pipe_copy");
  Import<PipePopStack>::Define(l, "pipe_pop_stack");
  Import<ApiFail>::Define(l, "api_fail");
  Import<CoreInfoImport>::Define(l, "core_info");
  Import<DumpTensorImport>::Define(l, "dump_tensor");
  Import<TilingKeyImport>::Define(l, "tiling_key");
  Import<UserWorkspace>::Define(l, "user_workspace");
  Import<SysWorkspace>::Define(l, "sys_workspace");
  Import<SyncAllImport>::Define(l, "sync_all");
  Import<PipeBarrierImport>::Define(l, "pipe_barrier");
  Import<SetFlagImport>::Define(l, "set_flag");
  Import<WaitFlagImport>::Define(l, "wait_flag");
}

}  // namespace ascendc_sim::guest
