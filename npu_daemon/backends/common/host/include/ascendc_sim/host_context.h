// Host-side framework types the tiling function sees: ge data types and status, gert shapes,
// tensor descriptions, attributes and the TilingContext. The harness fills a TilingContext from
// the evaluation request and reads back block dim, tiling key, tiling data and workspaces.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <type_traits>
#include <utility>
#include <string>
#include <vector>

namespace ge {

using char_t = char;  // graph/types.h, with its float aliases
using float32_t = float;
using float64_t = double;
// A dimension or rank not known before the run (graph/types.h; its UNKNOWN_SHAPE / UNKNOWN_RANK
// vectors are left out: a global with a constructor would reach the kernel's view too).
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
// The general codes of ge/ge_api_error_codes.h (GE_ERRORNO's packing of FAILED's fields is all ones).
using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;
// The rest of graph/ge_error_codes.h's statuses (any but GRAPH_SUCCESS fails a tiling).
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
constexpr graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
constexpr graphStatus GRAPH_INVALID_IR_DEF = 50331646;
constexpr graphStatus OP_WITHOUT_IR_DATATYPE_INFER_RULE = 50331645;
constexpr graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331644;
constexpr graphStatus GRAPH_MEM_OPERATE_FAILED = 50331539;
constexpr graphStatus GRAPH_NULL_PTR = 50331538;
constexpr graphStatus GRAPH_MEMCPY_FAILED = 50331537;
constexpr graphStatus GRAPH_MEMSET_FAILED = 50331536;
constexpr graphStatus GRAPH_MATH_CAL_FAILED = 50331429;
constexpr graphStatus GRAPH_ADD_OVERFLOW = 50331428;
constexpr graphStatus GRAPH_MUL_OVERFLOW = 50331427;

enum DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  // The rest of the framework's enumeration (graph/types.h), so host code may name them.
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_COMPLEX32 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E5M2 = 35,
  DT_FLOAT8_E4M3FN = 36,
  DT_FLOAT8_E8M0 = 37,
  DT_FLOAT6_E3M2 = 38,
  DT_FLOAT6_E2M3 = 39,
  DT_FLOAT4_E2M1 = 40,
  DT_FLOAT4_E1M2 = 41,
  DT_MAX = 42,
};
enum Format : int32_t {  // graph/types.h numbering (the kernel's kernel_enums.h spells the same)
  FORMAT_NCHW = 0,
  FORMAT_NHWC = 1,
  FORMAT_ND = 2,
  FORMAT_NC1HWC0 = 3,
  FORMAT_FRACTAL_Z = 4,
  FORMAT_NC1C0HWPAD = 5,
  FORMAT_NHWC1C0 = 6,
  FORMAT_FSR_NCHW = 7,
  FORMAT_FRACTAL_DECONV = 8,
  FORMAT_C1HWNC0 = 9,
  FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
  FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
  FORMAT_NC1HWC0_C04 = 12,
  FORMAT_FRACTAL_Z_C04 = 13,
  FORMAT_CHWN = 14,
  FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15,
  FORMAT_HWCN = 16,
  FORMAT_NC1KHKWHWC0 = 17,
  FORMAT_BN_WEIGHT = 18,
  FORMAT_FILTER_HWCK = 19,
  FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
  FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
  FORMAT_HASHTABLE_LOOKUP_VALUE = 22,
  FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
  FORMAT_HASHTABLE_LOOKUP_HITS = 24,
  FORMAT_C1HWNCoC0 = 25,
  FORMAT_MD = 26,
  FORMAT_NDHWC = 27,
  FORMAT_FRACTAL_ZZ = 28,
  FORMAT_FRACTAL_NZ = 29,
  FORMAT_NCDHW = 30,
  FORMAT_DHWCN = 31,
  FORMAT_NDC1HWC0 = 32,
  FORMAT_FRACTAL_Z_3D = 33,
  FORMAT_CN = 34,
  FORMAT_NC = 35,
  FORMAT_DHWNC = 36,
  FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
  FORMAT_FRACTAL_ZN_LSTM = 38,
  FORMAT_FRACTAL_Z_G = 39,
  FORMAT_RESERVED = 40,  // no format: a description's default before one is set
  FORMAT_ALL = 41,
  FORMAT_NULL = 42,
  FORMAT_ND_RNN_BIAS = 43,
  FORMAT_FRACTAL_ZN_RNN = 44,
  FORMAT_NYUV = 45,
  FORMAT_NYUV_A = 46,
  FORMAT_NCL = 47,
};
// A format value packs a primary format (bits 0-7), a sub-format (bits 8-23) and a C0 exponent
// (bits 24-27, C0 = 2^(e-1)) (graph/types.h): the format queries take the packed value apart.
inline int32_t GetPrimaryFormat(int32_t format) { return format & 0xff; }
inline int32_t GetSubFormat(int32_t format) { return (format & 0xffff00) >> 8; }
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }
inline int64_t GetC0Value(int32_t format) {
  const int32_t e = (format & 0xf000000) >> 24;
  return e > 0 ? int64_t{1} << (e - 1) : -1;
}
inline bool HasC0Format(int32_t format) { return GetC0Value(format) > 0; }
inline int32_t GetFormatFromSub(int32_t primary, int32_t sub) { return (primary & 0xff) | ((sub & 0xffff) << 8); }
inline int32_t GetFormatFromC0(int32_t format, int32_t c0Exponent) {
  return (format & 0xffffff) | ((c0Exponent & 0xf) << 24);
}

// The shape type of the host tiling helpers (GetSoftMaxMaxTmpSize, ...).
class Shape {
 public:
  Shape() = default;
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  std::vector<int64_t> GetDims() const { return dims_; }
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }

 private:
  std::vector<int64_t> dims_;
};

inline int32_t DataTypeBytes(DataType t) {
  switch (t) {
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32:
      return 4;
    case DT_FLOAT16:
    case DT_BF16:
    case DT_INT16:
    case DT_UINT16:
      return 2;
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL:
    case DT_HIFLOAT8:
    case DT_FLOAT8_E5M2:
    case DT_FLOAT8_E4M3FN:
    case DT_FLOAT8_E8M0:
      return 1;
    case DT_INT64:
    case DT_UINT64:
    case DT_DOUBLE:
    case DT_COMPLEX64:
      return 8;
    case DT_COMPLEX128:
      return 16;
    case DT_COMPLEX32:
      return 4;
    default:
      return -1;
  }
}
// Graph-mode types older OpDefs name in check-support and inference hooks (the simulator does not
// call those).
class AscendString {
 public:
  AscendString() = default;
  AscendString(const char* s) : s_(s ? s : "") {}
  const char* GetString() const { return s_.c_str(); }
  size_t GetLength() const { return s_.size(); }
  // Ordered and hashed by its characters, as graph/ascend_string.h documents (registries key by it).
  bool operator<(const AscendString& o) const { return s_ < o.s_; }
  bool operator==(const AscendString& o) const { return s_ == o.s_; }
  bool operator!=(const AscendString& o) const { return s_ != o.s_; }

 private:
  std::string s_;
};
// A graph-mode tensor description (graph/tensor.h).
class TensorDesc {
 public:
  TensorDesc() = default;
  explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType type = DT_FLOAT)
      : shape_(std::move(shape)), format_(format), type_(type) {}
  Shape GetShape() const { return shape_; }
  void SetShape(const Shape& shape) { shape_ = shape; }
  Format GetFormat() const { return format_; }
  void SetFormat(Format format) { format_ = format; }
  DataType GetDataType() const { return type_; }
  void SetDataType(DataType type) { type_ = type; }

 private:
  Shape shape_;
  Format format_ = FORMAT_ND;
  DataType type_ = DT_FLOAT;
};
// A graph-mode operator: its inputs' and outputs' descriptions by name (an empty one for a name
// it does not have, as the framework answers).
class Operator {
 public:
  Operator() = default;
  Operator(const char* name, const char* type) : name_(name), type_(type) {}
  graphStatus GetName(AscendString& name) const {
    name = name_.c_str();
    return GRAPH_SUCCESS;
  }
  graphStatus GetOpType(AscendString& type) const {
    type = type_.c_str();
    return GRAPH_SUCCESS;
  }
  TensorDesc GetInputDesc(uint32_t index) const {
    return index < inputs_.size() ? inputs_[index].second : TensorDesc();
  }
  TensorDesc GetOutputDesc(uint32_t index) const {
    return index < outputs_.size() ? outputs_[index].second : TensorDesc();
  }
  TensorDesc GetInputDesc(const std::string& name) const { return Find(inputs_, name); }
  TensorDesc GetInputDescByName(const char* name) const { return Find(inputs_, name); }
  TensorDesc GetOutputDesc(const std::string& name) const { return Find(outputs_, name); }
  TensorDesc GetOutputDescByName(const char* name) const { return Find(outputs_, name); }
  graphStatus UpdateInputDesc(const std::string& name, const TensorDesc& desc) { return Update(inputs_, name, desc); }
  graphStatus UpdateOutputDesc(const std::string& name, const TensorDesc& desc) { return Update(outputs_, name, desc); }
  size_t GetInputsSize() const { return inputs_.size(); }
  size_t GetOutputsSize() const { return outputs_.size(); }

 private:
  using Descs = std::vector<std::pair<std::string, TensorDesc>>;
  static TensorDesc Find(const Descs& descs, const std::string& name) {
    for (const auto& d : descs)
      if (d.first == name) return d.second;
    return TensorDesc();
  }
  static graphStatus Update(Descs& descs, const std::string& name, const TensorDesc& desc) {
    for (auto& d : descs)
      if (d.first == name) {
        d.second = desc;
        return GRAPH_SUCCESS;
      }
    descs.emplace_back(name, desc);
    return GRAPH_SUCCESS;
  }
  std::string name_, type_;
  Descs inputs_, outputs_;
};

// A graph-mode tensor (graph/tensor.h): a description and its bytes, which the graph engine's
// passes read (a constant input's values); no tiling is handed one.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(const TensorDesc& desc) : desc_(desc) {}
  Tensor(const TensorDesc& desc, const std::vector<uint8_t>& data) : desc_(desc), data_(data) {}
  Tensor(const TensorDesc& desc, const uint8_t* data, size_t size) : desc_(desc), data_(data, data + size) {}
  TensorDesc GetTensorDesc() const { return desc_; }
  graphStatus SetTensorDesc(const TensorDesc& desc) {
    desc_ = desc;
    return GRAPH_SUCCESS;
  }
  const uint8_t* GetData() const { return data_.data(); }
  uint8_t* GetData() { return data_.data(); }
  size_t GetSize() const { return data_.size(); }
  graphStatus SetData(const std::vector<uint8_t>& data) {
    data_ = data;
    return GRAPH_SUCCESS;
  }
  graphStatus SetData(const uint8_t* data, size_t size) {
    data_.assign(data, data + size);
    return GRAPH_SUCCESS;
  }
  DataType GetDataType() const { return desc_.GetDataType(); }
  graphStatus SetDataType(const DataType& type) {
    desc_.SetDataType(type);
    return GRAPH_SUCCESS;
  }
  Format GetFormat() const { return desc_.GetFormat(); }
  graphStatus SetFormat(const Format& format) {
    desc_.SetFormat(format);
    return GRAPH_SUCCESS;
  }

 private:
  TensorDesc desc_;
  std::vector<uint8_t> data_;
};

// The framework's name for the same query (graph/types.h); tiling code calls it unqualified via ADL.
inline int32_t GetSizeByDataType(DataType t) { return DataTypeBytes(t); }
// Bytes of n elements (graph/types.h); -1 for a type without a byte size.
inline int64_t GetSizeInBytes(int64_t n, DataType t) {
  const int32_t bytes = DataTypeBytes(t);
  return bytes < 0 || n < 0 ? -1 : n * bytes;
}

}  // namespace ge

namespace std {
template <>
struct hash<ge::AscendString> {
  size_t operator()(const ge::AscendString& s) const { return hash<string>()(s.GetString()); }
};
}  // namespace std

namespace ascendc_sim {
int64_t SocParamInt(const char* key);
}  // namespace ascendc_sim

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

// The SoC's memories as its platform description lists them (the SoC preset here): whole sizes,
// before PlatformAscendC takes off what the runtime keeps back.
class PlatFormInfos {
 public:
  void GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
    const char* key = nullptr;
    switch (type) {
      case LocalMemType::L0_A:
      case LocalMemType::L0_B:
        key = "l0ab_bytes";
        break;
      case LocalMemType::L0_C:
        key = "l0c_bytes";
        break;
      case LocalMemType::L1:
        key = "l1_bytes";
        break;
      case LocalMemType::L2:
        key = "l2_bytes";
        break;
      case LocalMemType::UB:
        key = "ub_bytes";
        break;
      case LocalMemType::HBM:
        key = "hbm_bytes";
        break;
      // The fixpipe buffer and the bias table: AICoreSpec's fb0_size and bt_size, which asc-devkit's
      // GetCoreMemSize reads for CoreMemType::FB and BT (the same preset parameters answer both).
      case LocalMemType::FB:
        key = "fb_bytes";
        break;
      case LocalMemType::BT:
        key = "bt_bytes";
        break;
      default:
        break;
    }
    size = key ? static_cast<uint64_t>(ascendc_sim::SocParamInt(key)) : 0;
  }
  // The cores a kernel launches on, as PlatformAscendC::GetCoreNum counts them (the A2: vector cores).
  uint32_t GetCoreNum() const { return static_cast<uint32_t>(ascendc_sim::SocParamInt("aiv_cores")); }
  uint32_t GetCoreNumAiv() const { return GetCoreNum(); }
  // The cores of a type ("AiCore": the cube cores, "VectorCore": the vector ones), 0 for another.
  uint32_t GetCoreNumByType(const std::string& coreType) const {
    if (coreType == "AiCore") return static_cast<uint32_t>(ascendc_sim::SocParamInt("aic_cores"));
    return coreType == "VectorCore" ? GetCoreNum() : 0;
  }
  // The framework sets the core type a tiling's GetCoreNum counts; the A2 launch counts vector cores.
  void SetCoreNumByCoreType(const std::string&) {}
  // A resource of the SoC's platform description by label and key, as its ini file spells them
  // ("SoCInfo" ai_core_cnt, "AICoreSpec" ub_size, "version" Short_SoC_version, ...), from the SoC
  // preset; false (and `val` untouched) for one the preset does not give. Out of line (registry.cpp).
  bool GetPlatformRes(const std::string& label, const std::string& key, std::string& val) const;
  bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& val) const {
    return GetPlatformRes(label, key, val);
  }
  // Every key of a label the preset gives.
  bool GetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) const;
  bool GetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& res) const {
    return GetPlatformRes(label, res);
  }
};
}  // namespace fe

namespace gert {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  void SetDim(size_t i, int64_t v) {
    if (i < dims_.size()) dims_[i] = v;
  }
  void SetDimNum(size_t n);  // this and the other vector growers: out of line (registry.cpp)
  const int64_t& operator[](size_t i) const { return dims_[i]; }
  int64_t& operator[](size_t i) { return dims_[i]; }
  bool IsScalar() const { return dims_.empty(); }
  void SetScalar() { dims_.clear(); }
  void AppendDim(int64_t v);
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }
  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  std::vector<int64_t> dims_;
};

// Which axes a shape of fewer dims than its format's takes as 1 (exe_graph's expand_dims_type.h):
// the full rank and a mask of the expanded axes, from a string ("1100": axes 0 and 1 are added)
// or a packed reshape-type mask (the rank above bit 56, the mask in the low byte).
class ExpandDimsType {
 public:
  using AxisIndex = uint64_t;
  static constexpr size_t kMaxExpandSize = 56;
  ExpandDimsType() = default;
  explicit ExpandDimsType(const char* type) {
    const size_t n = type == nullptr ? 0 : std::strlen(type);
    if (n > kMaxExpandSize) return;
    size_ = n;
    for (AxisIndex i = 0; i < n; ++i)
      if (type[i] == '1') SetExpandIndex(i);
  }
  explicit ExpandDimsType(int64_t reshapeTypeMask) {
    const uint64_t packed = static_cast<uint64_t>(reshapeTypeMask);
    if (packed == 0 || (packed >> kMaxExpandSize) > kMaxExpandSize) return;
    size_ = packed >> kMaxExpandSize;
    mask_ = packed & 0xffULL;
  }
  bool operator==(const ExpandDimsType& o) const { return size_ == o.size_ && mask_ == o.mask_; }
  AxisIndex GetFullSize() const { return size_; }
  void SetExpandIndex(AxisIndex i) { mask_ |= uint64_t{1} << i; }
  bool IsExpandIndex(AxisIndex i) const { return (mask_ >> i) & 1u; }
  // `shape` at the full rank: a 1 at each expanded axis, its own dims in order at the others.
  ge::graphStatus Expand(const Shape& shape, Shape& out) const;
  // In place: padded with 1s, its dims moved to the axes that are not expanded, from the last.
  ge::graphStatus Expand(Shape& shape) const;

 private:
  uint64_t size_ = 0, mask_ = 0;
};

class StorageShape {
 public:
  StorageShape() = default;
  explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
  StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
      : origin_(origin), storage_(storage) {}
  const Shape& GetOriginShape() const { return origin_; }
  const Shape& GetShape() const { return origin_; }  // the origin shape, as metadef's StorageShape
  const Shape& GetStorageShape() const { return storage_; }
  Shape& MutableShape() { return origin_; }
  Shape& MutableOriginShape() { return origin_; }
  Shape& MutableStorageShape() { return storage_; }
  bool operator==(const StorageShape& other) const { return origin_ == other.origin_ && storage_ == other.storage_; }
  bool operator!=(const StorageShape& other) const { return !(*this == other); }

 private:
  Shape origin_, storage_;
};

// A tensor's origin and storage formats (exe_graph/runtime/storage_format.h): ND, the one format
// the packages give.
class StorageFormat {
 public:
  StorageFormat() = default;
  StorageFormat(ge::Format origin, ge::Format storage, const ExpandDimsType& expand = ExpandDimsType())
      : origin_(origin), storage_(storage), expand_(expand) {}
  ge::Format GetOriginFormat() const { return origin_; }
  ge::Format GetStorageFormat() const { return storage_; }
  void SetOriginFormat(ge::Format f) { origin_ = f; }
  void SetStorageFormat(ge::Format f) { storage_ = f; }
  ExpandDimsType GetExpandDimsType() const { return expand_; }
  void SetExpandDimsType(const ExpandDimsType& e) { expand_ = e; }
  ExpandDimsType& MutableExpandDimsType() { return expand_; }
  bool operator==(const StorageFormat& o) const {
    return origin_ == o.origin_ && storage_ == o.storage_ && expand_ == o.expand_;
  }
  bool operator!=(const StorageFormat& o) const { return !(*this == o); }

 private:
  ge::Format origin_ = ge::FORMAT_ND;
  ge::Format storage_ = ge::FORMAT_ND;
  ExpandDimsType expand_;
};

class CompileTimeTensorDesc {
 public:
  ge::DataType GetDataType() const { return dtype_; }
  const StorageFormat& GetFormat() const { return format_; }
  ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
  ExpandDimsType GetExpandDimsType() const { return format_.GetExpandDimsType(); }
  void SetDataType(ge::DataType t) { dtype_ = t; }
  void SetOriginFormat(ge::Format f) { format_.SetOriginFormat(f); }
  void SetStorageFormat(ge::Format f) { format_.SetStorageFormat(f); }
  void SetExpandDimsType(const ExpandDimsType& e) { format_.SetExpandDimsType(e); }

 private:
  ge::DataType dtype_ = ge::DT_UNDEFINED;
  StorageFormat format_;
};

class Tensor {
 public:
  // The values of an input the tiling reads (value-dependent inputs such as axes or paddings): the
  // harness loads those the operator's spec marks value_depend, up to 1 MiB; any other input (one
  // the candidate's OpDef alone marks ValueDepend included), or a larger one, reads as null.
  template <typename T>
  const T* GetData() const {
    return data_.empty() ? nullptr : reinterpret_cast<const T*>(data_.data());
  }
  const void* GetAddr() const { return data_.empty() ? nullptr : data_.data(); }
  size_t GetSize() const { return data_.size(); }
  std::vector<uint8_t> data_;
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  const StorageShape& GetShape() const { return shape_; }
  int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
  ge::DataType GetDataType() const { return dtype_; }
  // Its formats (exe_graph/runtime/tensor.h): ND, the one format the packages give.
  const StorageFormat& GetFormat() const { return format_; }
  ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
  ExpandDimsType GetExpandDimsType() const { return format_.GetExpandDimsType(); }
  StorageShape shape_;
  ge::DataType dtype_ = ge::DT_UNDEFINED;
  StorageFormat format_;
};

// A list attribute's elements as CANN keeps them: ContinuousVector holds them untyped (GetData
// is a `const void*` the caller casts), TypedContinuousVector<T> reads them as T (a bool as a byte).
class ContinuousVector {
 public:
  size_t GetSize() const { return size_; }
  size_t GetCapacity() const { return size_; }
  const void* GetData() const { return bytes_.data(); }
  template <typename T>
  void Assign(const std::vector<T>& values) {
    size_ = values.size();
    bytes_.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes_.data(), values.data(), bytes_.size());
  }

 private:
  std::vector<uint8_t> bytes_;  // operator new's alignment serves every element type
  size_t size_ = 0;
};

template <typename T>
class TypedContinuousVector : public ContinuousVector {
 public:
  const T* GetData() const { return static_cast<const T*>(ContinuousVector::GetData()); }
};

// One attribute value. As in CANN, a getter returns the stored value's address cast to the type
// asked for, with no type check: GetAttrPointer<int32_t> on an Int attr reads its low 4 bytes
// (little-endian), GetFloat on an Int attr reinterprets the bits; only a missing index is nullptr.
struct AttrValue {
  enum Kind { kInt, kFloat, kBool, kStr, kListInt, kListFloat, kListBool } kind = kInt;
  int64_t i = 0;
  float f = 0;
  bool b = false;
  std::string s;
  TypedContinuousVector<int64_t> list;
  TypedContinuousVector<float> listFloat;
  TypedContinuousVector<bool> listBool;
  const void* Raw() const {
    switch (kind) {
      case kInt:
        return &i;
      case kFloat:
        return &f;
      case kBool:
        return &b;
      case kStr:
        return s.c_str();
      case kListInt:
        return &list;
      case kListFloat:
        return &listFloat;
      case kListBool:
        return &listBool;
    }
    return nullptr;
  }
};

class RuntimeAttrs {
 public:
  const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
  const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
  const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
  const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
  const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
    return GetAttrPointer<TypedContinuousVector<int64_t>>(i);
  }
  const TypedContinuousVector<float>* GetListFloat(size_t i) const {
    return GetAttrPointer<TypedContinuousVector<float>>(i);
  }
  const TypedContinuousVector<bool>* GetListBool(size_t i) const {
    return GetAttrPointer<TypedContinuousVector<bool>>(i);
  }
  template <typename T>
  const T* GetAttrPointer(size_t i) const {
    return i < attrs_.size() ? reinterpret_cast<const T*>(attrs_[i].Raw()) : nullptr;
  }
  size_t GetAttrNum() const { return attrs_.size(); }
  std::vector<AttrValue> attrs_;
};

class TilingData {
 public:
  explicit TilingData(size_t capacity = 0) : buf_(capacity) {}
  void* GetData() { return buf_.data(); }
  size_t GetCapacity() const { return buf_.size(); }
  size_t GetDataSize() const { return size_; }
  void SetDataSize(size_t n) { size_ = n; }
  // Append a value, as the real TilingData's operator<< does.
  template <typename T>
  TilingData& operator<<(const T& v) {
    Append(&v, 1);
    return *this;
  }
  // Append one value or `n` of them after the data written so far (exe_graph/runtime/
  // tiling_data.h): a failure, and nothing written, where they do not fit the capacity.
  template <typename T, typename = std::enable_if_t<std::is_standard_layout_v<T>>>
  ge::graphStatus Append(const T& v) {
    return Append(&v, 1);
  }
  template <typename T>
  ge::graphStatus Append(const T* data, size_t n) {
    if (data == nullptr || n > (buf_.size() - size_) / sizeof(T)) return ge::GRAPH_FAILED;
    std::memcpy(buf_.data() + size_, data, n * sizeof(T));
    size_ += n * sizeof(T);
    return ge::GRAPH_SUCCESS;
  }
  std::vector<uint8_t> buf_;
  size_t size_ = 0;
};

// Where an OpDef input or output (its IR index) sits among the node's instances: a dynamic (list)
// one has one instance per tensor.
class AnchorInstanceInfo {
 public:
  AnchorInstanceInfo() = default;
  AnchorInstanceInfo(size_t start, size_t num) : start_(start), num_(num) {}
  size_t GetInstanceStart() const { return start_; }
  size_t GetInstanceNum() const { return num_; }
  void SetInstanceStart(size_t start) { start_ = start; }
  void SetInstantiationNum(size_t num) { num_ = num; }

 private:
  size_t start_ = 0, num_ = 0;
};

// Inputs and outputs by instance index (GetInputShape(i), GetInputDesc(i), ...: the i-th tensor of
// the node), or by IR index (the Optional/Required/Dynamic getters), as metadef's
// ExtendedKernelContext maps them through the instance info.
class TilingContext;
// A view's strides (metadef exe_graph/runtime/stride.h, as its gert::Stride pages document it:
// a dimension count and up to kMaxDimNum strides). No context hands one out (every launched
// tensor is contiguous: Get*Stride answer nullptr), but a tiling that reads one after a view
// check compiles against it, as ops-nn's arch35 matmul helper does.
class Stride {
 public:
  static constexpr size_t kMaxDimNum = 25;
  // What GetStride answers past kMaxDimNum; the pages name it without its value: Shape's invalid
  // dimension's (shape/GetDim.md: the smallest int64_t), no stride a tensor has.
  static constexpr int64_t kInvalidStrideValue = std::numeric_limits<int64_t>::min();
  Stride() = default;
  Stride(const std::initializer_list<int64_t>& args) {
    for (int64_t v : args) AppendStride(v);
  }
  bool operator==(const Stride& rht) const {
    return dimNum_ == rht.dimNum_ && std::equal(strides_, strides_ + dimNum_, rht.strides_);
  }
  bool operator!=(const Stride& rht) const { return !(*this == rht); }
  const int64_t& operator[](size_t idx) const { return strides_[idx]; }
  int64_t& operator[](size_t idx) { return strides_[idx]; }
  size_t GetDimNum() const { return dimNum_; }
  void SetDimNum(size_t dimNum) { dimNum_ = dimNum; }
  int64_t GetStride(size_t idx) const { return idx < kMaxDimNum ? strides_[idx] : kInvalidStrideValue; }
  void SetStride(size_t idx, int64_t stride) { strides_[idx] = stride; }
  Stride& AppendStride(int64_t value) {
    if (dimNum_ < kMaxDimNum) strides_[dimNum_++] = value;
    return *this;
  }

 private:
  size_t dimNum_ = 0;
  int64_t strides_[kMaxDimNum] = {};
};

// The node a tiling runs for (metadef compute_node_info.h): its type and name, its IR parameters'
// instances and its input / output counts, read from the context the harness filled.
class ComputeNodeInfo {
 public:
  explicit ComputeNodeInfo(const TilingContext& ctx) : ctx_(ctx) {}
  const char* GetNodeType() const;
  const char* GetNodeName() const;
  size_t GetIrInputsNum() const;
  size_t GetIrOutputsNum() const;
  size_t GetInputsNum() const;
  size_t GetOutputsNum() const;
  const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const;
  const AnchorInstanceInfo* GetOutputInstanceInfo(size_t ir) const;
  const CompileTimeTensorDesc* GetInputTdInfo(size_t i) const;
  const CompileTimeTensorDesc* GetOutputTdInfo(size_t i) const;
  const RuntimeAttrs* GetAttrs() const;

 private:
  const TilingContext& ctx_;
};

class TilingContext {
 public:
  TilingContext() = default;
  TilingContext(const TilingContext&) = delete;  // its ComputeNodeInfo refers to it
  TilingContext& operator=(const TilingContext&) = delete;
  const StorageShape* GetInputShape(size_t i) const { return Present(i) ? &inputs_[i].shape_ : nullptr; }
  const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i].shape_ : nullptr; }
  const StorageShape* GetOptionalInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
  const StorageShape* GetRequiredInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
  const StorageShape* GetDynamicInputShape(size_t ir, size_t k) const { return GetInputShape(InputInstance(ir, k)); }
  const StorageShape* GetDynamicOutputShape(size_t ir, size_t k) const {
    return GetOutputShape(Instance(irOutputs_, ir, k));
  }
  const Tensor* GetInputTensor(size_t i) const { return Present(i) ? &inputs_[i] : nullptr; }
  const Tensor* GetOptionalInputTensor(size_t ir) const { return GetDynamicInputTensor(ir, 0); }
  const Tensor* GetRequiredInputTensor(size_t ir) const { return GetDynamicInputTensor(ir, 0); }
  const Tensor* GetDynamicInputTensor(size_t ir, size_t k) const { return GetInputTensor(InputInstance(ir, k)); }
  const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return Present(i) ? &inputDescs_[i] : nullptr; }
  const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
    return i < outputDescs_.size() ? &outputDescs_[i] : nullptr;
  }
  // The view queries (metadef tiling_context.h; InputIsView: atlasopapi_07_00771): whether a
  // tensor carries a non-contiguous description (a TensorV2 with strides and an offset). The
  // harness launches every tensor contiguous, as a plain tensor, so none does: false, no stride
  // (nullptr), offset -1, as documented for a tensor without one.
  bool InputIsView(size_t) const { return false; }
  bool OutputIsView(size_t) const { return false; }
  bool OptionalInputIsView(size_t) const { return false; }
  bool DynamicInputIsView(size_t, size_t) const { return false; }
  bool RequiredInputIsView(size_t) const { return false; }
  const Stride* GetInputStride(size_t) const { return nullptr; }
  const Stride* GetOutputStride(size_t) const { return nullptr; }
  const Stride* GetOptionalInputStride(size_t) const { return nullptr; }
  const Stride* GetDynamicInputStride(size_t, size_t) const { return nullptr; }
  const Stride* GetRequiredInputStride(size_t) const { return nullptr; }
  int64_t GetInputOffset(size_t) const { return -1; }
  int64_t GetOutputOffset(size_t) const { return -1; }
  int64_t GetOptionalInputOffset(size_t) const { return -1; }
  int64_t GetDynamicInputOffset(size_t, size_t) const { return -1; }
  int64_t GetRequiredInputOffset(size_t) const { return -1; }
  const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetDynamicInputDesc(ir, 0); }
  const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetDynamicInputDesc(ir, 0); }
  const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t k) const {
    return GetInputDesc(InputInstance(ir, k));
  }
  const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const {
    return ir < irInputs_.size() ? &irInputs_[ir] : nullptr;
  }
  const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const {
    return ir < irOutputs_.size() ? &irOutputs_[ir] : nullptr;
  }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  size_t GetComputeNodeInputNum() const { return inputs_.size(); }
  size_t GetComputeNodeOutputNum() const { return outputs_.size(); }

  ge::graphStatus SetBlockDim(uint32_t d) {
    blockDim_ = d;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetBlockDim() const { return blockDim_; }
  ge::graphStatus SetSimdNumBlocks(uint32_t d) { return SetBlockDim(d); }  // the block dim's newer name
  uint32_t GetSimdNumBlocks() const { return blockDim_; }
  ge::graphStatus SetTilingKey(uint64_t k) {
    tilingKey_ = k;
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const { return tilingKey_; }
  TilingData* GetRawTilingData() { return &raw_; }
  // The tiling data as a T, whose size it becomes (as the framework's: null when T does not fit).
  template <typename T>
  T* GetTilingData() {
    if (raw_.GetCapacity() < sizeof(T)) return nullptr;
    raw_.SetDataSize(sizeof(T));
    return reinterpret_cast<T*>(raw_.GetData());
  }
  size_t* GetWorkspaceSizes(size_t n);
  size_t GetWorkspaceNum() const { return workspaces_.size(); }
  fe::PlatFormInfos* GetPlatformInfo() const { return &platform_; }
  ge::graphStatus SetLocalMemorySize(uint32_t n) {
    localMemory_ = n;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetLocalMemorySize() const { return localMemory_; }
  ge::graphStatus SetScheduleMode(uint32_t m) {
    scheduleMode_ = m;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetScheduleMode() const { return scheduleMode_; }
  // The tiling condition a tiling may record for its kernel selection; kept, not acted on.
  ge::graphStatus SetTilingCond(int32_t c) {
    tilingCond_ = c;
    return ge::GRAPH_SUCCESS;
  }
  int32_t GetTilingCond() const { return tilingCond_; }
  const ComputeNodeInfo* GetComputeNodeInfo() const { return &nodeInfo_; }
  // The framework's deterministic-computation option (1 when the user enables it): never set by
  // a launch here, so its default, off.
  int32_t GetDeterministic() const { return 0; }
  int32_t GetDeterministicLevel() const { return 0; }
  // The AI CPU block count a tiling may set for an AI CPU part of the op (no AI CPU runs here).
  ge::graphStatus SetAicpuBlockDim(uint32_t d) {
    aicpuBlockDim_ = d;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetAicpuBlockDim() const { return aicpuBlockDim_; }
  ge::graphStatus SetAicpuNumBlocks(uint32_t d) { return SetAicpuBlockDim(d); }
  uint32_t GetAicpuNumBlocks() const { return aicpuBlockDim_; }
  ge::graphStatus SetNeedAtomic(bool a) {
    needAtomic_ = a;
    return ge::GRAPH_SUCCESS;
  }
  bool NeedAtomic() const { return needAtomic_; }
  const char* GetNodeType() const { return opType_.c_str(); }
  const char* GetNodeName() const { return opType_.c_str(); }
  // The CompileInfo an IMPL_OP_OPTILING(...).TilingParse<T>() parse filled (null without one).
  template <typename T>
  const T* GetCompileInfo() const {
    return static_cast<const T*>(compileInfo_);
  }
  const void* GetCompileInfo() const { return compileInfo_; }
  const void* compileInfo_ = nullptr;

  // An optional input left out of the launch reads as null, as the framework's getters return.
  bool Present(size_t i) const { return i < inputs_.size() && (i >= absent_.size() || !absent_[i]); }
  // The instance of the k-th tensor of IR parameter `index` (past the end when there is none;
  // without instance info, one instance per parameter).
  static size_t Instance(const std::vector<AnchorInstanceInfo>& ir, size_t index, size_t k) {
    if (ir.empty()) return k == 0 ? index : SIZE_MAX;
    if (index >= ir.size() || k >= ir[index].GetInstanceNum()) return SIZE_MAX;
    return ir[index].GetInstanceStart() + k;
  }
  size_t InputInstance(size_t ir, size_t k) const { return Instance(irInputs_, ir, k); }

  // Filled by the harness.
  std::vector<uint8_t> absent_;
  std::string opType_;
  std::vector<Tensor> inputs_, outputs_;
  std::vector<CompileTimeTensorDesc> inputDescs_, outputDescs_;
  std::vector<AnchorInstanceInfo> irInputs_, irOutputs_;
  RuntimeAttrs attrs_;
  TilingData raw_{64 * 1024};
  std::vector<size_t> workspaces_;
  uint32_t blockDim_ = 0;
  uint64_t tilingKey_ = 0;
  uint32_t localMemory_ = 0;
  uint32_t scheduleMode_ = 0;
  bool needAtomic_ = false;
  int32_t tilingCond_ = 0;
  uint32_t aicpuBlockDim_ = 0;
  ComputeNodeInfo nodeInfo_{*this};
  mutable fe::PlatFormInfos platform_;
};

inline const char* ComputeNodeInfo::GetNodeType() const { return ctx_.GetNodeType(); }
inline const char* ComputeNodeInfo::GetNodeName() const { return ctx_.GetNodeName(); }
inline size_t ComputeNodeInfo::GetIrInputsNum() const {
  return ctx_.irInputs_.empty() ? ctx_.inputs_.size() : ctx_.irInputs_.size();
}
inline size_t ComputeNodeInfo::GetIrOutputsNum() const {
  return ctx_.irOutputs_.empty() ? ctx_.outputs_.size() : ctx_.irOutputs_.size();
}
inline size_t ComputeNodeInfo::GetInputsNum() const { return ctx_.inputs_.size(); }
inline size_t ComputeNodeInfo::GetOutputsNum() const { return ctx_.outputs_.size(); }
inline const AnchorInstanceInfo* ComputeNodeInfo::GetInputInstanceInfo(size_t ir) const {
  return ctx_.GetIrInputInstanceInfo(ir);
}
inline const AnchorInstanceInfo* ComputeNodeInfo::GetOutputInstanceInfo(size_t ir) const {
  return ctx_.GetIrOutputInstanceInfo(ir);
}
inline const CompileTimeTensorDesc* ComputeNodeInfo::GetInputTdInfo(size_t i) const { return ctx_.GetInputDesc(i); }
inline const CompileTimeTensorDesc* ComputeNodeInfo::GetOutputTdInfo(size_t i) const { return ctx_.GetOutputDesc(i); }
inline const RuntimeAttrs* ComputeNodeInfo::GetAttrs() const { return ctx_.GetAttrs(); }

// Shape and dtype inference contexts: enough for OpDef code to compile and run.
class InferShapeContext {
 public:
  const Shape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
  const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
  const Tensor* GetInputTensor(size_t i) const { return i < tensors_.size() ? &tensors_[i] : nullptr; }
  const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < descs_.size() ? &descs_[i] : nullptr; }
  std::vector<Tensor> tensors_;
  std::vector<CompileTimeTensorDesc> descs_, outputDescs_;
  Shape* GetOutputShape(size_t i) { return i < outputs_.size() ? &outputs_[i] : nullptr; }
  const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
    return i < outputDescs_.size() ? &outputDescs_[i] : nullptr;
  }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  const char* GetNodeName() const { return ""; }
  const char* GetNodeType() const { return ""; }
  std::vector<Shape> inputs_, outputs_;
  RuntimeAttrs attrs_;
};

template <typename T>
class Range {
 public:
  // A shape range's bounds (exe_graph/runtime/range.h): an output's are written in place.
  const T* GetMin() const { return &min_; }
  const T* GetMax() const { return &max_; }
  T* GetMin() { return &min_; }
  T* GetMax() { return &max_; }
  void SetMin(const T* min) { min_ = *min; }
  void SetMax(const T* max) { max_ = *max; }
  bool operator==(const Range& o) const { return min_ == o.min_ && max_ == o.max_; }
  T min_, max_;
};
class InferShapeRangeContext {
 public:
  const char* GetNodeName() const { return ""; }
  const char* GetNodeType() const { return ""; }
  const Range<Shape>* GetInputShapeRange(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
  Range<Shape>* GetOutputShapeRange(size_t i) { return i < outputs_.size() ? &outputs_[i] : nullptr; }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  std::vector<Range<Shape>> inputs_, outputs_;
  RuntimeAttrs attrs_;
};

class InferDataTypeContext {
 public:
  ge::DataType GetInputDataType(size_t i) const { return i < inputs_.size() ? inputs_[i] : ge::DT_UNDEFINED; }
  // An optional input by its IR index: DT_UNDEFINED when the node has none.
  ge::DataType GetOptionalInputDataType(size_t irIndex) const { return GetInputDataType(irIndex); }
  ge::graphStatus SetOutputDataType(size_t i, ge::DataType t);
  const char* GetNodeName() const { return ""; }
  const char* GetNodeType() const { return ""; }
  std::vector<ge::DataType> inputs_, outputs_;  // one an IR argument, DT_UNDEFINED for one absent
};

// The compile-time parse's context (IMPL_OP_OPTILING(...).TilingParse); declared on both sides, since
// tiling headers declare helpers over it that the kernel's view of the header parses too.
class TilingParseContext {
 public:
  template <typename T>
  T* GetCompiledInfo() {
    return static_cast<T*>(compileInfo_);
  }
  fe::PlatFormInfos* GetPlatformInfo() const { return &platform_; }
  const char* GetNodeName() const { return opType_; }
  const char* GetNodeType() const { return opType_; }
  const char* GetCompiledJson() const { return "{}"; }
  void* compileInfo_ = nullptr;
  const char* opType_ = "";
  mutable fe::PlatFormInfos platform_;
};

}  // namespace gert

namespace ascendc_sim {

// Reads the rest of a launch spec's `attr NAME KIND VALUE...` line (the sim harness and the cann
// tiling runner share the format) and appends the value: KIND is int, float, bool (0/1), str (one
// word), or list_int, list_float or list_bool (N V1..VN; a list_bool's values 0/1). A template on
// the stream so that this header, precompiled into every candidate compile, needs no <istream>.
template <typename Istream>
void ReadAttrLine(Istream& in, gert::RuntimeAttrs& attrs) {
  std::string name, kind;
  in >> name >> kind;
  gert::AttrValue a;
  if (kind == "int") {
    a.kind = gert::AttrValue::kInt;
    in >> a.i;
  } else if (kind == "float") {
    a.kind = gert::AttrValue::kFloat;
    in >> a.f;
  } else if (kind == "bool") {
    a.kind = gert::AttrValue::kBool;
    in >> a.b;
  } else if (kind == "str") {
    a.kind = gert::AttrValue::kStr;
    in >> a.s;
  } else if (kind == "list_int") {
    a.kind = gert::AttrValue::kListInt;
    size_t n;
    in >> n;
    std::vector<int64_t> values(n);
    for (auto& v : values) in >> v;
    a.list.Assign(values);
  } else if (kind == "list_float") {
    a.kind = gert::AttrValue::kListFloat;
    size_t n;
    in >> n;
    std::vector<float> values(n);
    for (auto& v : values) in >> v;
    a.listFloat.Assign(values);
  } else if (kind == "list_bool") {
    a.kind = gert::AttrValue::kListBool;
    size_t n;
    in >> n;
    std::vector<uint8_t> values(n);
    for (auto& v : values) {
      int bit;
      in >> bit;
      v = static_cast<uint8_t>(bit != 0);
    }
    a.listBool.Assign(values);
  }
  attrs.attrs_.push_back(a);
}

}  // namespace ascendc_sim
