// Dynamic (list) inputs and outputs: the kernel gets one parameter, the GM address of a
// tensor-list descriptor, and reads its members through ListTensorDesc. The layout is the one
// asc-devkit's decoder reads (impl/basic_api/dav_c220/kernel_operator_list_tensor_impl.h), built
// by the launch (runtime/launcher.cpp, ListDescriptor): word 0 the byte offset of the member
// addresses; then per member a word of dim (low 32 bits) and index (high 32 bits) and its dims
// (two words, dim 0 and 0xffffffff, when the list holds addresses only); then one GM address per
// member. Reading the descriptor is scalar GM access, as on the device.
// Both engines compile this one definition (each after its own kernel_operator.h); the guest engine
// reads a descriptor whose member addresses the launch gave in the guest's GM (runtime/candidate.cpp).
#pragma once

namespace AscendC {

class ListTensorDesc;

// One member's description: its rank, index, dims (into storage the caller gives) and address.
template <class T>
class TensorDesc {
 public:
  __aicore__ inline void SetShapeAddr(uint64_t* shape) { shape_ = shape; }
  __aicore__ inline uint64_t GetDim() { return dim_; }
  __aicore__ inline uint64_t GetIndex() { return index_; }
  __aicore__ inline uint64_t GetShape(uint32_t i) { return shape_[i]; }
  __aicore__ inline __gm__ T* GetDataPtr() { return ptr_; }
  __aicore__ inline GlobalTensor<T> GetDataObj() {
    uint64_t count = 1;
    for (uint32_t i = 0; i < dim_; ++i) count *= shape_[i];
    GlobalTensor<T> tensor;
    tensor.SetGlobalBuffer(ptr_, count);
    return tensor;
  }

 private:
  friend class ListTensorDesc;
  uint32_t dim_ = 0;
  uint32_t index_ = 0;
  uint64_t* shape_ = nullptr;
  __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
 public:
  __aicore__ inline ListTensorDesc() = default;
  __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  // `length` (the descriptor's bytes) and `shapeSize` (the member count) are checks of the
  // caller's expectation in asc-devkit's debug build only.
  __aicore__ inline void Init(__gm__ void* data, uint32_t = 0xffffffff, uint32_t = 0xffffffff) {
    __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(data);
    shapes_ = words + 1;
    addrs_ = words + words[0] / sizeof(uint64_t);
    const uint64_t first = shapes_[0];
    dim_ = static_cast<uint32_t>(first & 0xffffffffu);
    stride_ = dim_ == 0 ? 2 : 1 + dim_;
    // The first member's index word is 0 unless it holds the count; else the last member's
    // index plus one.
    const uint32_t high = static_cast<uint32_t>(first >> 32);
    count_ = high != 0 ? high : static_cast<uint32_t>(*(addrs_ - stride_) >> 32) + 1;
  }
  template <class T>
  __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    desc.dim_ = dim_;
    desc.index_ = index;
    desc.ptr_ = GetDataPtr<T>(index);
    const __gm__ uint64_t* dims = shapes_ + static_cast<uint64_t>(index) * stride_ + 1;
    for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = dims[i];
  }
  template <class T>
  __aicore__ inline __gm__ T* GetDataPtr(uint32_t index) {
    return reinterpret_cast<__gm__ T*>(addrs_[index]);
  }
  __aicore__ inline uint32_t GetSize() { return count_; }

 private:
  __gm__ uint64_t* shapes_ = nullptr;
  __gm__ uint64_t* addrs_ = nullptr;
  uint32_t dim_ = 0;
  uint32_t stride_ = 0;
  uint32_t count_ = 0;
};

}  // namespace AscendC
