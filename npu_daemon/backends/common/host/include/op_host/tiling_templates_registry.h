// The tiling template registry of hicann/ops-nn's op base (common/inc/op_host/
// tiling_templates_registry.h). An operator registers TilingBaseClass subclasses with a priority
// (smaller first), optionally per SoC version or NPU architecture; its tiling function calls
// DoTilingImpl, which runs them in order until one does not answer GRAPH_PARAM_INVALID.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "exe_graph/runtime/tiling_context.h"
#include "op_host/tiling_base.h"

namespace Ops {
namespace NN {
namespace Optiling {

using TilingClassCase = std::unique_ptr<TilingBaseClass> (*)(gert::TilingContext*);

template <typename T>
std::unique_ptr<TilingBaseClass> TILING_CLASS(gert::TilingContext* context) {
  return std::unique_ptr<TilingBaseClass>(new (std::nothrow) T(context));
}

// The templates of one operator, by priority.
class TilingCases {
 public:
  explicit TilingCases(std::string opType) : opType_(std::move(opType)) {}
  template <typename T>
  void AddTiling(int32_t priority) {
    OP_CHECK_IF(cases_.count(priority) != 0, OP_LOGE(opType_, "There are duplicate registrations."), return);
    cases_[priority] = TILING_CLASS<T>;
  }
  const std::map<int32_t, TilingClassCase>& GetTilingCases() const { return cases_; }

 private:
  std::map<int32_t, TilingClassCase> cases_;
  std::string opType_;
};

namespace detail {

// Operators' templates under a platform key (a SoC version, an NPU architecture, or 0).
class KeyedRegistry {
 public:
  std::shared_ptr<TilingCases> RegisterOp(const std::string& opType, int32_t key) {
    std::shared_ptr<TilingCases>& cases = map_[key][opType];
    if (cases == nullptr) cases = std::make_shared<TilingCases>(opType);
    return cases;
  }
  const std::map<int32_t, TilingClassCase>& GetTilingTemplates(const std::string& opType, int32_t key) const {
    auto byKey = map_.find(key);
    if (byKey == map_.end() || byKey->second.count(opType) == 0) {
      OP_LOGE(opType, "Get op tiling func failed, no template for platform key %d.", key);
      return empty_;
    }
    return byKey->second.at(opType)->GetTilingCases();
  }

 private:
  std::map<int32_t, std::map<std::string, std::shared_ptr<TilingCases>>> map_;
  const std::map<int32_t, TilingClassCase> empty_{};
};

// Every template in priority order: the first that does not answer GRAPH_PARAM_INVALID decides.
inline ge::graphStatus RunAll(gert::TilingContext* context, const std::map<int32_t, TilingClassCase>& cases) {
  for (const auto& [priority, make] : cases) {
    std::unique_ptr<TilingBaseClass> tiling = make(context);
    if (tiling == nullptr) continue;
    ge::graphStatus status = tiling->DoTiling();
    if (status != ge::GRAPH_PARAM_INVALID) return status;
  }
  OP_LOGE(context, "Do op tiling failed, no valid template is found.");
  return ge::GRAPH_FAILED;
}

// The listed priorities in the caller's order: success decides; a failure other than
// GRAPH_PARAM_INVALID decides too unless `skipFailures` (the SoC-version registry goes on).
inline ge::graphStatus RunListed(gert::TilingContext* context, const std::map<int32_t, TilingClassCase>& cases,
                                 const std::vector<int32_t>& priorities, bool skipFailures) {
  for (int32_t priority : priorities) {
    auto found = cases.find(priority);
    if (found == cases.end()) continue;
    std::unique_ptr<TilingBaseClass> tiling = found->second(context);
    if (tiling == nullptr) continue;
    ge::graphStatus status = tiling->DoTiling();
    if (status == ge::GRAPH_SUCCESS || (status != ge::GRAPH_PARAM_INVALID && !skipFailures)) return status;
  }
  OP_LOGE(context, "Do op tiling failed, no valid template is found.");
  return ge::GRAPH_FAILED;
}

}  // namespace detail

// Templates per NPU architecture (the platform's GetCurNpuArch).
class TilingRegistryArch {
 public:
  static TilingRegistryArch& GetInstance() {
    static TilingRegistryArch instance;
    return instance;
  }
  std::shared_ptr<TilingCases> RegisterOp(const std::string& opType, int32_t arch) {
    return registry_.RegisterOp(opType, arch);
  }
  const std::map<int32_t, TilingClassCase>& GetTilingTemplates(const std::string& opType, int32_t arch) const {
    return registry_.GetTilingTemplates(opType, arch);
  }
  ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
    return detail::RunAll(context, GetTilingTemplates(context->GetNodeType(), Arch(context)));
  }
  ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
    return DoTilingImpl(context, priorities, Arch(context));
  }
  ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities, int32_t arch) {
    return detail::RunListed(context, GetTilingTemplates(context->GetNodeType(), arch), priorities, false);
  }

 private:
  static int32_t Arch(const gert::TilingContext* context) {
    return static_cast<int32_t>(platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCurNpuArch());
  }
  detail::KeyedRegistry registry_;
};

// Templates per SoC version (the platform's GetSocVersion).
class TilingRegistryNew {
 public:
  static TilingRegistryNew& GetInstance() {
    static TilingRegistryNew instance;
    return instance;
  }
  std::shared_ptr<TilingCases> RegisterOp(const std::string& opType, int32_t socVersion) {
    return registry_.RegisterOp(opType, socVersion);
  }
  const std::map<int32_t, TilingClassCase>& GetTilingTemplates(const std::string& opType, int32_t socVersion) const {
    return registry_.GetTilingTemplates(opType, socVersion);
  }
  ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
    return detail::RunAll(context, GetTilingTemplates(context->GetNodeType(), Soc(context)));
  }
  ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
    return detail::RunListed(context, GetTilingTemplates(context->GetNodeType(), Soc(context)), priorities, true);
  }

 private:
  static int32_t Soc(const gert::TilingContext* context) {
    return static_cast<int32_t>(platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetSocVersion());
  }
  detail::KeyedRegistry registry_;
};

// Templates for every platform.
class TilingRegistry {
 public:
  static TilingRegistry& GetInstance() {
    static TilingRegistry instance;
    return instance;
  }
  std::shared_ptr<TilingCases> RegisterOp(const std::string& opType) { return registry_.RegisterOp(opType, 0); }
  const std::map<int32_t, TilingClassCase>& GetTilingTemplates(const std::string& opType) const {
    return registry_.GetTilingTemplates(opType, 0);
  }
  ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
    return detail::RunAll(context, GetTilingTemplates(context->GetNodeType()));
  }
  ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
    return detail::RunListed(context, GetTilingTemplates(context->GetNodeType()), priorities, false);
  }

 private:
  detail::KeyedRegistry registry_;
};

// The registration objects the macros below create at static initialisation.
class RegisterArch {
 public:
  explicit RegisterArch(std::string opType) : opType_(std::move(opType)) {}
  template <typename T>
  RegisterArch& tiling(int32_t priority, int32_t arch) {
    TilingRegistryArch::GetInstance().RegisterOp(opType_, arch)->AddTiling<T>(priority);
    return *this;
  }
  template <typename T>
  RegisterArch& tiling(int32_t priority, const std::vector<int32_t>& archs) {
    for (int32_t arch : archs) tiling<T>(priority, arch);
    return *this;
  }

 private:
  std::string opType_;
};

class RegisterNew {
 public:
  explicit RegisterNew(std::string opType) : opType_(std::move(opType)) {}
  template <typename T>
  RegisterNew& tiling(int32_t priority, int32_t socVersion) {
    TilingRegistryNew::GetInstance().RegisterOp(opType_, socVersion)->AddTiling<T>(priority);
    return *this;
  }
  template <typename T>
  RegisterNew& tiling(int32_t priority, const std::vector<int32_t>& socVersions) {
    for (int32_t soc : socVersions) tiling<T>(priority, soc);
    return *this;
  }

 private:
  std::string opType_;
};

class Register {
 public:
  explicit Register(std::string opType) : opType_(std::move(opType)) {}
  template <typename T>
  Register& tiling(int32_t priority) {
    TilingRegistry::GetInstance().RegisterOp(opType_)->AddTiling<T>(priority);
    return *this;
  }

 private:
  std::string opType_;
};

}  // namespace Optiling
}  // namespace NN
}  // namespace Ops

#define OPS_NN_TILING_REGISTER_CAT2(a, b) a##b
#define OPS_NN_TILING_REGISTER_CAT(a, b) OPS_NN_TILING_REGISTER_CAT2(a, b)
#define OPS_NN_TILING_REGISTER_VAR OPS_NN_TILING_REGISTER_CAT(ops_nn_tiling_template_, __COUNTER__)

// op_type a name (REGISTER_TILING_TEMPLATE: a string), class_name a TilingBaseClass subclass,
// priority smaller first; soc_version(s) / archs an int32 or a vector of them.
#define REGISTER_OPS_TILING_TEMPLATE(op_type, class_name, priority)                \
  [[maybe_unused]] static Ops::NN::Optiling::Register OPS_NN_TILING_REGISTER_VAR = \
      Ops::NN::Optiling::Register(#op_type).tiling<class_name>(priority)
#define REGISTER_TILING_TEMPLATE(op_type, class_name, priority)                    \
  [[maybe_unused]] static Ops::NN::Optiling::Register OPS_NN_TILING_REGISTER_VAR = \
      Ops::NN::Optiling::Register(op_type).tiling<class_name>(priority)
#define REGISTER_TILING_TEMPLATE_NEW(op_type, class_name, soc_version, priority)      \
  [[maybe_unused]] static Ops::NN::Optiling::RegisterNew OPS_NN_TILING_REGISTER_VAR = \
      Ops::NN::Optiling::RegisterNew(#op_type).tiling<class_name>(priority, soc_version)
#define REGISTER_TILING_TEMPLATE_WITH_SOCVERSION(op_type, class_name, soc_versions, priority) \
  [[maybe_unused]] static Ops::NN::Optiling::RegisterNew OPS_NN_TILING_REGISTER_VAR =         \
      Ops::NN::Optiling::RegisterNew(#op_type).tiling<class_name>(priority, soc_versions)
#define REGISTER_TILING_TEMPLATE_WITH_ARCH(op_type, class_name, archs, priority)       \
  [[maybe_unused]] static Ops::NN::Optiling::RegisterArch OPS_NN_TILING_REGISTER_VAR = \
      Ops::NN::Optiling::RegisterArch(#op_type).tiling<class_name>(priority, archs)
