// The AOE tuning registry's reflection (metadef register/tuning_tiling_reflection_utils.h): a
// struct's fields listed once with DECLARE_SCHEMA(Struct, FIELD(Struct, name), ...), then written
// to and read from JSON field by field; a field of a listed struct type nests as an object.
// The toolkit's include guard, so a repository's own copy of this header is not a redefinition.
#ifndef __INC_REGISTER_TUNING_TILING_REFLECTION_UTILS_HEADER__
#define __INC_REGISTER_TUNING_TILING_REFLECTION_UTILS_HEADER__

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tuningtiling {

template <typename T>
using decay_t = std::decay_t<T>;
template <bool B, typename T = void>
using enable_if_t = std::enable_if_t<B, T>;

// The (name, member pointer) pairs of a struct; none for a struct without a schema.
template <typename T>
struct StructInfo {
  static std::tuple<> Info() { return {}; }
};

#ifdef ASCENDC_SIM_KERNEL
// The device build gives the kernel a tiling header's TilingData structs alone, never its tuning
// schema; the kernel's tiling view (kernel_view.tiling_view) parses the header inside a namespace
// of its own, where a specialization of this namespace's StructInfo would be ill-formed.
#define DECLARE_SCHEMA(Struct, ...)
#else
#define DECLARE_SCHEMA(Struct, ...)                                                               \
  template <>                                                                                     \
  struct StructInfo<Struct> {                                                                     \
    static decltype(std::make_tuple(__VA_ARGS__)) Info() { return std::make_tuple(__VA_ARGS__); } \
  };
#endif

#define FIELD(Class, FieldName) std::make_tuple(#FieldName, &Class::FieldName)

template <typename T, typename Fn>
void ForEachField(T&& value, Fn&& fn) {
  std::apply([&](const auto&... field) { (fn(std::get<0>(field), value.*std::get<1>(field)), ...); },
             StructInfo<decay_t<T>>::Info());
}

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::unique_ptr<T>> : std::true_type {};
template <typename T>
constexpr bool is_optional_v() {
  return is_optional<decay_t<T>>::value;
}

template <typename T, typename = void>
struct is_containable : std::false_type {};
template <typename T>
struct is_containable<T, std::void_t<decltype(std::begin(std::declval<T&>()))>> : std::true_type {};

// A value JSON holds as it is (a scalar, a string, a container), not through its schema.
template <typename T>
constexpr bool IsSerializeType() {
  return !std::is_class<decay_t<T>>::value || is_containable<decay_t<T>>::value;
}

template <typename T, typename Js>
void DumpObj(T&& obj, const std::string& name, Js& j) {
  if constexpr (IsSerializeType<T>()) {
    if (!name.empty()) j[name] = obj;
  } else {
    Js& into = name.empty() ? j : j[name];
    ForEachField(obj, [&into](const char* field, const auto& value) { DumpObj(value, field, into); });
  }
}

// Fields JSON lacks keep their values.
template <typename T, typename Js>
void FromJsonImpl(T&& obj, const std::string& name, const Js& j) {
  if constexpr (IsSerializeType<T>()) {
    if (is_optional_v<T>() || j.find(name) == j.cend()) return;
    j.at(name).get_to(obj);
  } else {
    if (!name.empty() && j.find(name) == j.cend()) return;
    const Js& from = name.empty() ? j : j.at(name);
    ForEachField(obj, [&from](const char* field, auto& value) { FromJsonImpl(value, field, from); });
  }
}

}  // namespace tuningtiling

#endif  // __INC_REGISTER_TUNING_TILING_REFLECTION_UTILS_HEADER__
