// TilingData macros. The same header is compiled twice: on the host (ASCENDC_SIM_KERNEL undefined)
// the macros build a class with set_/get_ accessors and SaveToBuffer; on the kernel side they build
// the plain struct GET_TILING_DATA copies out of the tiling buffer. Both have the same fields in the
// same order with natural alignment, so the bytes the host saves are the bytes the kernel reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ascendc_sim {

// FNV-1a of an op type name: the key under which a kernel finds its op's tiling type.
constexpr uint64_t OpKey(const char* s, uint64_t h = 1469598103934665603ull) {
  return *s ? OpKey(s + 1, (h ^ static_cast<uint8_t>(*s)) * 1099511628211ull) : h;
}

// Tiling types are filed by op key from whatever namespace the project declares them in
// (real projects use `namespace optiling`): instantiating BindTiling defines the friend TilingOf
// for that key, which GET_TILING_DATA then finds by argument-dependent lookup.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
template <uint64_t key>
struct TilingKeyTag {
  friend auto TilingOf(TilingKeyTag<key>);
};
#pragma GCC diagnostic pop
template <uint64_t key, typename T>
struct BindTiling {
  friend auto TilingOf(TilingKeyTag<key>) { return T{}; }
};

}  // namespace ascendc_sim

#ifdef ASCENDC_SIM_KERNEL

// END_TILING_DATA_DEF closes the class with its semicolon, as CANN's does: headers write it with
// or without one after.
// The accessors only let host code in the header (tiling classes that call set_) compile here:
// the real toolchain gives the kernel the struct alone, so none of it ever runs on the kernel side.
#define BEGIN_TILING_DATA_DEF(name) struct name {
#define TILING_DATA_FIELD_DEF(type, name) \
  type name;                              \
  void set_##name(type v) { name = v; }   \
  type get_##name() const { return name; }
#define TILING_DATA_FIELD_DEF_ARR(type, n, name) \
  type name[n];                                  \
  void set_##name(const type* v) { std::memcpy(name, v, sizeof(name)); }
#define TILING_DATA_FIELD_DEF_STRUCT(type, name) \
  type name;                                     \
  void set_##name(const type& v) { name = v; }
#define END_TILING_DATA_DEF                                                      \
  size_t GetDataSize() const { return sizeof(*this); }                           \
  void SaveToBuffer(void* buf, size_t capacity) const {                          \
    std::memcpy(buf, this, sizeof(*this) < capacity ? sizeof(*this) : capacity); \
  }                                                                              \
  void SetDataPtr(void*) {}                                                      \
  }                                                                              \
  ;
#define REGISTER_TILING_DATA_CLASS(op, cls) \
  static_assert(sizeof(::ascendc_sim::BindTiling<::ascendc_sim::OpKey(#op), cls>) > 0, "tiling data class " #cls);

#else  // host

namespace ascendc_sim {
// SetDataPtr (metadef's TilingDef): from then on each set_ also writes its field's bytes at the
// field's offset into that buffer (the raw tiling data), where a TilingDef keeps its fields. Filed
// by the object's extent, so the fields of its struct fields reach the buffer too. Out of line
// (registry.cpp): every tiling unit includes this header, and inline bodies here cost each unit's
// compile their template instantiations.
void SetTilingDataPtr(const void* object, size_t bytes, void* data);
void MirrorTilingField(const void* field, size_t bytes);

// The data size of a TilingData class of `bytes`: CANN's TilingDef pads its data to a multiple of 8
// bytes when its constructor ends (metadef TilingDef::CheckAlignAndGenPlaceHolder(name "PH", 8)),
// and real tilings check that (a cube tiling's PostTiling refuses a size not aligned to 8). The
// fields keep their natural offsets, which the kernel's struct shares.
constexpr size_t TilingDataBytes(size_t bytes) { return (bytes + 7) / 8 * 8; }
// SaveToBuffer: the class's bytes, then its padding as zeros, at most `capacity` in all.
inline void SaveTilingData(const void* object, size_t bytes, void* buf, size_t capacity) {
  const size_t n = TilingDataBytes(bytes) < capacity ? TilingDataBytes(bytes) : capacity;
  std::memset(buf, 0, n);
  std::memcpy(buf, object, bytes < n ? bytes : n);
}
}  // namespace ascendc_sim

#define BEGIN_TILING_DATA_DEF(name) \
  class name {                      \
   public:
#define TILING_DATA_FIELD_DEF(type, name)                  \
  type name = 0;                                           \
  void set_##name(type v) {                                \
    name = v;                                              \
    ::ascendc_sim::MirrorTilingField(&name, sizeof(name)); \
  }                                                        \
  type get_##name() const { return name; }
#define TILING_DATA_FIELD_DEF_ARR(type, n, name)          \
  type name[n] = {};                                      \
  void set_##name(const type* v) {                        \
    std::memcpy(name, v, sizeof(name));                   \
    ::ascendc_sim::MirrorTilingField(name, sizeof(name)); \
  }                                                       \
  type* get_##name() { return name; }
#define TILING_DATA_FIELD_DEF_STRUCT(type, name)           \
  type name;                                               \
  void set_##name(const type& v) {                         \
    name = v;                                              \
    ::ascendc_sim::MirrorTilingField(&name, sizeof(name)); \
  }                                                        \
  type& get_##name() { return name; }
#define END_TILING_DATA_DEF                                                                   \
  size_t GetDataSize() const { return ::ascendc_sim::TilingDataBytes(sizeof(*this)); }        \
  void SaveToBuffer(void* buf, size_t capacity) const {                                       \
    ::ascendc_sim::SaveTilingData(this, sizeof(*this), buf, capacity);                        \
  }                                                                                           \
  void SetDataPtr(void* data) { ::ascendc_sim::SetTilingDataPtr(this, sizeof(*this), data); } \
  }                                                                                           \
  ;
#define REGISTER_TILING_DATA_CLASS(op, cls) static_assert(sizeof(cls) > 0, "tiling data class " #cls);

#endif
