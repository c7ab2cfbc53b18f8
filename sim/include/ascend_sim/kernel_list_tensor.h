// ListTensorDesc / TensorDesc: a kernel argument that lists several GM tensors
// (CANN: include/basic_api/kernel_operator_list_tensor_intf.h, dav_c220
// kernel_operator_list_tensor_impl.h). The GM layout, as dav_c220 decodes it:
//   word 0: the byte offset of the data pointers from the start;
//   then one descriptor per tensor: a word (dim in the low 32 bits, the tensor
//   count in the high 32 bits of the first one; for the last, its index), dim
//   shape words (dim 0: one word 0xffffffff);
//   then one data pointer word per tensor.
// Every word is a scalar GM read of the descriptor (bounds, DCache rules, race
// records); the dav_c220 ASSERTs on a malformed descriptor are violations.
#pragma once
#include <cstdint>

#include "device_runtime.h"
#include "kernel_tensor.h"

namespace AscendC {

namespace sim_list {
inline uint64_t word(const char* api, const uint64_t* p) {
    uint64_t v;  // the word as the DCache holds it
    ascend_sim::detail::scalar_gm(api, ascend_sim::detail::GmRef{p, p, 0}, 8, false, &v);
    return v;
}
[[noreturn]] inline void malformed(const char* api, const char* what) {
    ascend_sim::detail::fail(api, "malformed list descriptor", "%s", what);
}
}  // namespace sim_list

class ListTensorDesc;

template <class T>
class TensorDesc {
public:
    TensorDesc() {}
    // Where GetDesc writes the dim shape words (the caller's array).
    void SetShapeAddr(uint64_t* shapePtr) {
        if (shapePtr == nullptr) ascend_sim::detail::fail("TensorDesc::SetShapeAddr", "null shape", "shapePtr is null");
        shape_ = shapePtr;
    }
    uint64_t GetDim() { return dim_; }
    uint64_t GetIndex() { return index_; }
    uint64_t GetShape(uint32_t offset) {
        if (offset >= dim_)
            ascend_sim::detail::fail("TensorDesc::GetShape", "offset beyond dim", "offset %u is not below dim %u",
                                     offset, dim_);
        return shape_[offset];
    }
    __gm__ T* GetDataPtr() { return ptr_; }
    // As dav_c220: SetGlobalBuffer(ptr, sizeof(T) x the shape's product), a
    // length in elements that is sizeof(T) times the tensor's.
    GlobalTensor<T> GetDataObj() {
        uint64_t size = sizeof(T);
        for (uint32_t i = 0; i < dim_; ++i) size *= shape_[i];
        GlobalTensor<T> obj;
        obj.SetGlobalBuffer(ptr_, size);
        return obj;
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
    ListTensorDesc() {}
    ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        Init(data, length, shapeSize);
    }
    void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        const char* api = "ListTensorDesc";
        if (data == nullptr) sim_list::malformed(api, "data is null");
        const auto* head = static_cast<const uint64_t*>(data);
        const uint64_t ptrOffset = sim_list::word(api, head);
        shapeStart_ = head + 1;
        dataPtr_ = head + ptrOffset / sizeof(uint64_t);
        const uint64_t first = sim_list::word(api, shapeStart_);
        dim_ = uint32_t(first & 0xffffffff);
        const uint32_t count = uint32_t(first >> 32);
        descWords_ = dim_ == 0 ? 2 : 1 + dim_;
        if (ptrOffset < sizeof(uint64_t) * (1 + descWords_))
            sim_list::malformed(api, "the data pointer offset leaves no room for one descriptor");
        count_ = count != 0 ? count : uint32_t(sim_list::word(api, dataPtr_ - descWords_) >> 32) + 1;
        const bool ok = dim_ != 0 ? count_ == (ptrOffset - sizeof(uint64_t)) / (descWords_ * sizeof(uint64_t))
                                  : sim_list::word(api, shapeStart_ + 1) == 0xffffffff && ptrOffset == 24;
        if (!ok)
            sim_list::malformed(api, dim_ != 0 ? "the tensor count does not match the data pointer offset"
                                               : "a pointer-only list needs shape word 0xffffffff and offset 24");
        if (length != 0xffffffff && shapeSize != 0xffffffff) {
            if (count_ != shapeSize) sim_list::malformed(api, "shapeSize differs from the tensor count");
            if (length != ptrOffset + uint64_t(count_) * sizeof(uint64_t))
                sim_list::malformed(api, "length differs from the descriptor's size");
        }
    }
    template <class T>
    void GetDesc(TensorDesc<T>& desc, uint32_t index) {
        const char* api = "ListTensorDesc::GetDesc";
        check_index(api, index);
        if (dim_ == 0) sim_list::malformed(api, "the list holds data pointers only (dim 0): no shapes to get");
        if (desc.shape_ == nullptr)
            ascend_sim::detail::fail(api, "no shape array", "call SetShapeAddr on the TensorDesc first");
        desc.dim_ = dim_;
        desc.ptr_ = reinterpret_cast<__gm__ T*>(sim_list::word(api, dataPtr_ + index));
        desc.index_ = index;
        const uint64_t* shape = shapeStart_ + uint64_t(index) * descWords_ + 1;
        for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = sim_list::word(api, shape + i);
    }
    template <class T>
    __gm__ T* GetDataPtr(uint32_t index) {
        check_index("ListTensorDesc::GetDataPtr", index);
        return reinterpret_cast<__gm__ T*>(sim_list::word("ListTensorDesc::GetDataPtr", dataPtr_ + index));
    }
    uint32_t GetSize() { return count_; }

private:
    void check_index(const char* api, uint32_t index) const {
        if (index >= count_)
            ascend_sim::detail::fail(api, "index beyond the list", "index %u is not below the list's %u tensors",
                                     index, count_);
    }
    const uint64_t* dataPtr_ = nullptr;
    const uint64_t* shapeStart_ = nullptr;
    uint32_t dim_ = 0;
    uint32_t descWords_ = 0;
    uint32_t count_ = 0;
};

}  // namespace AscendC
