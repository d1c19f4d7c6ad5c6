// The AOE knowledge bank's key registry (metadef register/tuning_bank_key_registry.h): for an
// operator type, how its tiling context becomes a bank key (a convert function) and how a key
// struct is written to and read from JSON (a parse and a load function), registered at load time.
// DECLARE_STRUCT_RELATE_WITH_OP[_V2] defines both for a key struct from its field list. No bank
// is queried in a simulated launch: the registrations are kept for a tiling that reads them.
// The toolkit's include guard, so a repository's own copy of this header is not a redefinition.
#ifndef __INC_REGISTER_TUNING_BANK_KEY_REGISTRY_HEADER__
#define __INC_REGISTER_TUNING_BANK_KEY_REGISTRY_HEADER__

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "exe_graph/runtime/tiling_context.h"
#include "graph/ascend_string.h"
#include "register/register_types.h"

#define REGISTER_OP_BANK_KEY_CONVERT_FUN(op, opfunc) REGISTER_OP_BANK_KEY_UNIQ(op, (opfunc))
#define REGISTER_OP_BANK_KEY_CONVERT_FUN_UNIQ_HELPER(optype, opfunc) REGISTER_OP_BANK_KEY_UNIQ(optype, (opfunc))
#define REGISTER_OP_BANK_KEY_UNIQ(optype, opfunc) \
  static tuningtiling::OpBankKeyFuncRegistry g_##optype##BankKeyRegistryInterf(#optype, (opfunc))
#define REGISTER_OP_BANK_KEY_PARSE_FUN(op, parse_func, load_func) \
  REGISTER_OP_BANK_KEY_PARSE_UNIQ(op, (parse_func), (load_func))
#define REGISTER_OP_BANK_KEY_PARSE_FUN_UNIQ_HELPER(optype, parse_func, load_func) \
  REGISTER_OP_BANK_KEY_PARSE_UNIQ(optype, (parse_func), (load_func))
#define REGISTER_OP_BANK_KEY_PARSE_UNIQ(optype, parse_func, load_func) \
  static tuningtiling::OpBankKeyFuncRegistry g_##optype##BankParseInterf(#optype, (parse_func), (load_func))

#define REGISTER_OP_BANK_KEY_CONVERT_FUN_V2(op, opfunc) REGISTER_OP_BANK_KEY_UNIQ_V2(op, (opfunc))
#define REGISTER_OP_BANK_KEY_CONVERT_FUN_UNIQ_HELPER_V2(optype, opfunc) REGISTER_OP_BANK_KEY_UNIQ_V2(optype, (opfunc))
#define REGISTER_OP_BANK_KEY_UNIQ_V2(optype, opfunc) \
  static tuningtiling::OpBankKeyFuncRegistryV2 g_##optype##BankKeyRegistryInterf(#optype, (opfunc))
#define REGISTER_OP_BANK_KEY_PARSE_FUN_V2(op, parse_func, load_func) \
  REGISTER_OP_BANK_KEY_PARSE_UNIQ_V2(op, (parse_func), (load_func))
#define REGISTER_OP_BANK_KEY_PARSE_FUN_UNIQ_HELPER_V2(optype, parse_func, load_func) \
  REGISTER_OP_BANK_KEY_PARSE_UNIQ_V2(optype, (parse_func), (load_func))
#define REGISTER_OP_BANK_KEY_PARSE_UNIQ_V2(optype, parse_func, load_func) \
  static tuningtiling::OpBankKeyFuncRegistryV2 g_##optype##BankParseInterf(#optype, (parse_func), (load_func))

// The key struct as JSON (V1: a json object; V2: its text) and back; false where the buffer is not
// one key or the text does not parse as one.
#define DECLARE_STRUCT_RELATE_WITH_OP(op, bank_key, ...)                                                     \
  NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(bank_key, __VA_ARGS__);                                                 \
  bool ParseFunc##op##bank_key(const std::shared_ptr<void>& in_args, size_t len, nlohmann::json& key_json) { \
    if (sizeof(bank_key) != len || in_args == nullptr) return false;                                         \
    key_json = *std::static_pointer_cast<bank_key>(in_args);                                                 \
    return true;                                                                                             \
  }                                                                                                          \
  bool LoadFunc##op##bank_key(std::shared_ptr<void>& in_args, size_t& len, const nlohmann::json& key_json) { \
    len = sizeof(bank_key);                                                                                  \
    return tuningtiling::LoadBankKey<bank_key>(key_json, in_args);                                           \
  }                                                                                                          \
  REGISTER_OP_BANK_KEY_PARSE_FUN(op, ParseFunc##op##bank_key, LoadFunc##op##bank_key);

#define DECLARE_STRUCT_RELATE_WITH_OP_V2(op, bank_key, ...)                                                      \
  NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(bank_key, __VA_ARGS__);                                                     \
  bool ParseFuncV2##op##bank_key(const std::shared_ptr<void>& in_args, size_t len, ge::AscendString& key_text) { \
    if (sizeof(bank_key) != len || in_args == nullptr) return false;                                             \
    const nlohmann::json key_json = *std::static_pointer_cast<bank_key>(in_args);                                \
    key_text = ge::AscendString(key_json.dump().c_str());                                                        \
    return true;                                                                                                 \
  }                                                                                                              \
  bool LoadFuncV2##op##bank_key(std::shared_ptr<void>& in_args, size_t& len, const ge::AscendString& key_text) { \
    len = sizeof(bank_key);                                                                                      \
    const nlohmann::json key_json = nlohmann::json::parse(key_text.GetString(), nullptr, false);                 \
    return !key_json.is_discarded() && tuningtiling::LoadBankKey<bank_key>(key_json, in_args);                   \
  }                                                                                                              \
  REGISTER_OP_BANK_KEY_PARSE_FUN_V2(op, ParseFuncV2##op##bank_key, LoadFuncV2##op##bank_key);

namespace tuningtiling {

using OpBankKeyConvertFun = std::function<bool(const gert::TilingContext*, std::shared_ptr<void>&, size_t&)>;
using OpBankParseFun = std::function<bool(const std::shared_ptr<void>&, size_t, nlohmann::json&)>;
using OpBankLoadFun = std::function<bool(std::shared_ptr<void>&, size_t&, const nlohmann::json&)>;
using OpBankKeyConvertFunV2 = OpBankKeyConvertFun;
using OpBankParseFunV2 = std::function<bool(const std::shared_ptr<void>&, size_t, ge::AscendString&)>;
using OpBankLoadFunV2 = std::function<bool(std::shared_ptr<void>&, size_t&, const ge::AscendString&)>;

// A key struct from JSON into a new buffer; false where a field's JSON is not of its type.
template <typename Key>
bool LoadBankKey(const nlohmann::json& key_json, std::shared_ptr<void>& in_args) {
  auto key = std::make_shared<Key>();
#if defined(__cpp_exceptions)
  try {
    from_json(key_json, *key);
  } catch (const nlohmann::json::exception&) {
    return false;
  }
#else
  from_json(key_json, *key);
#endif
  in_args = key;
  return true;
}

// One operator type's functions; V1 and V2 differ in the parse and load functions' JSON form.
template <typename Parse, typename Load>
class OpBankKeyFuncs {
 public:
  OpBankKeyFuncs() = default;
  explicit OpBankKeyFuncs(const ge::AscendString& optype) : optype_(optype) {}
  void SetOpConvertFunc(const OpBankKeyConvertFun& f) { convert_ = f; }
  void SetOpParseFunc(const Parse& f) { parse_ = f; }
  void SetOpLoadFunc(const Load& f) { load_ = f; }
  const OpBankKeyConvertFun& GetBankKeyConvertFunc() const { return convert_; }
  const Parse& GetBankKeyParseFunc() const { return parse_; }
  const Load& GetBankKeyLoadFunc() const { return load_; }
  const ge::AscendString& GetOpType() const { return optype_; }
  // The V2 class's names for the same.
  void SetOpConvertFuncV2(const OpBankKeyConvertFun& f) { convert_ = f; }
  void SetOpParseFuncV2(const Parse& f) { parse_ = f; }
  void SetOpLoadFuncV2(const Load& f) { load_ = f; }
  const OpBankKeyConvertFun& GetBankKeyConvertFuncV2() const { return convert_; }
  const Parse& GetBankKeyParseFuncV2() const { return parse_; }
  const Load& GetBankKeyLoadFuncV2() const { return load_; }
  const ge::AscendString& GetOpTypeV2() const { return optype_; }

 private:
  ge::AscendString optype_;
  OpBankKeyConvertFun convert_;
  Parse parse_;
  Load load_;
};
using OpBankKeyFuncInfo = OpBankKeyFuncs<OpBankParseFun, OpBankLoadFun>;
using OpBankKeyFuncInfoV2 = OpBankKeyFuncs<OpBankParseFunV2, OpBankLoadFunV2>;

// Registering adds to the operator type's entry: its convert function, or its parse and load.
template <typename Info>
class OpBankKeyRegistrar {
 public:
  using Parse = std::decay_t<decltype(std::declval<Info>().GetBankKeyParseFunc())>;
  using Load = std::decay_t<decltype(std::declval<Info>().GetBankKeyLoadFunc())>;
  OpBankKeyRegistrar(const ge::AscendString& optype, const OpBankKeyConvertFun& convert) {
    Entry(optype).SetOpConvertFunc(convert);
  }
  OpBankKeyRegistrar(const ge::AscendString& optype, const Parse& parse, const Load& load) {
    Info& info = Entry(optype);
    info.SetOpParseFunc(parse);
    info.SetOpLoadFunc(load);
  }
  static std::unordered_map<ge::AscendString, Info>& Registered() {
    static std::unordered_map<ge::AscendString, Info> registered;
    return registered;
  }

 private:
  static Info& Entry(const ge::AscendString& optype) { return Registered().try_emplace(optype, optype).first->second; }
};

class OpBankKeyFuncRegistry : public OpBankKeyRegistrar<OpBankKeyFuncInfo> {
 public:
  using OpBankKeyRegistrar::OpBankKeyRegistrar;
  static std::unordered_map<ge::AscendString, OpBankKeyFuncInfo>& RegisteredOpFuncInfo() { return Registered(); }
};
class OpBankKeyFuncRegistryV2 : public OpBankKeyRegistrar<OpBankKeyFuncInfoV2> {
 public:
  using OpBankKeyRegistrar::OpBankKeyRegistrar;
  static std::unordered_map<ge::AscendString, OpBankKeyFuncInfoV2>& RegisteredOpFuncInfoV2() { return Registered(); }
};

}  // namespace tuningtiling

#endif  // __INC_REGISTER_TUNING_BANK_KEY_REGISTRY_HEADER__
