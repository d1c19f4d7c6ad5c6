// The AOE tuning registry (metadef register/tuning_tiling_registry.h): a tiling description the
// tuner fills, declared field by field (BEGIN_TUNING_TILING_DEF), and a factory of them by
// operator type (REGISTER_TUNING_TILING_CLASS). A tiling program includes it for the tuner's
// types; no tuner runs in a simulated launch, so nothing queries a knowledge bank through it.
// The toolkit's include guard, so a repository's own copy of this header is not a redefinition.
#ifndef __INC_REGISTER_TUNING_TILING_REGISTRY_HEADER__
#define __INC_REGISTER_TUNING_TILING_REGISTRY_HEADER__

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "graph/ascend_string.h"
#include "register/tuning_tiling_reflection_utils.h"

namespace tuningtiling {

struct TilingItem {
  ge::AscendString dtype_;
  ge::AscendString name_;
};

class TuningTilingDef {
 public:
  virtual void FromJson(const nlohmann::json& j) = 0;
  virtual void ToJson(nlohmann::json& j) = 0;
  virtual std::vector<TilingItem> GetItemInfo() const = 0;
  ge::AscendString GetClassName() const { return class_name_; }

 protected:
  TuningTilingDef() = default;
  virtual ~TuningTilingDef() = default;
  std::vector<TilingItem> field_info_;  // (type, name) of each field, in declaration order
  ge::AscendString class_name_;
};

#define BEGIN_TUNING_TILING_DEF(class_name)                                         \
  class class_name : public TuningTilingDef {                                       \
   public:                                                                          \
    void FromJson(const nlohmann::json& j) override { FromJsonImpl(*this, "", j); } \
    void ToJson(nlohmann::json& j) override { DumpObj(*this, "", j); }              \
    std::vector<TilingItem> GetItemInfo() const override { return field_info_; }    \
    class FieldHandler {                                                            \
     public:                                                                        \
      FieldHandler(class_name* owner, const char* dtype, const char* name) {        \
        owner->field_info_.push_back({dtype, name});                                \
      }                                                                             \
    };                                                                              \
    friend class FieldHandler;                                                      \
    class_name() { class_name_ = #class_name; }

#define TUNING_TILING_DATA_FIELD_DEF(data_type, field_name) \
 public:                                                    \
  data_type field_name;                                     \
  FieldHandler field_name##_handler_ = FieldHandler(this, #data_type, #field_name);

#define END_TUNING_TILING_DEF \
  }                           \
  ;

using TuningTilingDefConstructor = std::shared_ptr<TuningTilingDef> (*)();
using TuningTilingDefPtr = std::shared_ptr<TuningTilingDef>;

class TuningTilingClassFactory {
 public:
  static std::map<ge::AscendString, TuningTilingDefConstructor>& RegisterInfo() {
    static std::map<ge::AscendString, TuningTilingDefConstructor> registered;
    return registered;
  }
  static void RegisterTilingData(const ge::AscendString& optype, TuningTilingDefConstructor constructor) {
    if (constructor != nullptr) RegisterInfo()[optype] = constructor;
  }
  // A new description of the operator type's class; null for a type none registered.
  static std::shared_ptr<TuningTilingDef> CreateTilingDataInstance(const ge::AscendString& optype) {
    const auto it = RegisterInfo().find(optype);
    return it == RegisterInfo().end() ? nullptr : it->second();
  }
};

#define REGISTER_TUNING_TILING_CLASS(optype, class_name)                                                          \
  class optype##Helper {                                                                                          \
   public:                                                                                                        \
    optype##Helper() { TuningTilingClassFactory::RegisterTilingData(#optype, CreateTilingDataInstance); }         \
    static std::shared_ptr<TuningTilingDef> CreateTilingDataInstance() { return std::make_shared<class_name>(); } \
  };                                                                                                              \
  optype##Helper g_tuning_tiling_##optype##Helper;

}  // namespace tuningtiling

#endif  // __INC_REGISTER_TUNING_TILING_REGISTRY_HEADER__
