// GlobalTensor and LocalTensor (CANN: kernel_tensor_impl.h). A LocalTensor is
// a UB address plus a length in BYTES (dataLen); operator[] moves the address
// and shrinks dataLen; ReinterpretCast keeps both. Element accesses are
// PIPE_S instructions and go through the hazard tracker. int4b_t elements are
// nibbles: sizes count them, byte lengths and offsets are half of that, and an
// element access reads or rewrites its whole byte.
#pragma once
#include <cstdint>
#include <cstring>

#include "cache_hint.h"
#include "device_runtime.h"
#include "kernel_defs.h"
#include "numerics/int4.h"

namespace AscendC {

// CANN: kernel_struct_data_copy.h (DataFormat), kernel_tensor.h (ShapeInfo,
// GetShapeSize). A tensor's shape is metadata: no API of the simulator reads it
// for its own sizes, as dav_c220's basic APIs do not.
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
constexpr uint32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
    ShapeInfo() = default;
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(check_dim(inputShapeDim)),
          originalShapeDim(check_dim(inputOriginalShapeDim)),
          dataFormat(inputFormat) {
        for (uint32_t i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
        for (uint32_t i = 0; i < originalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, DataFormat::ND) {}

    // CANN leaves a default ShapeInfo unset; here it is zero (0 dims, size 1).
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    static uint8_t check_dim(uint8_t dim) {
        if (dim > K_MAX_SHAPE_DIM)
            ascend_sim::detail::fail("ShapeInfo::ShapeInfo", "too many dims", "%u dims; at most %u", unsigned(dim),
                                     K_MAX_SHAPE_DIM);
        return dim;
    }
};

inline uint64_t GetShapeSize(const ShapeInfo& shapeInfo) {
    uint64_t size = 1;
    for (uint32_t i = 0; i < shapeInfo.shapeDim; ++i) size *= shapeInfo.shape[i];
    return size;
}

template <class T>
class LocalTensor {
public:
    using PrimType = PrimT<T>;

    LocalTensor() = default;
    // tileSize elements at byte address addr of pos's memory (static tensor
    // programming, LocalMemAllocator); no TPipe buffer behind it.
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
        : addr_(static_cast<PrimType*>(ascend_sim::detail::ub_raw("LocalTensor::LocalTensor", uint8_t(pos), addr,
                                                                    ascend_sim::elem_bytes<T>(tileSize)))),
          dataLen_(uint32_t(ascend_sim::elem_bytes<T>(tileSize))),
          pos_(pos) {}

    PrimType GetValue(const uint32_t index, ASCEND_SIM_SITE) const { ASCEND_SIM_ENTER;
        check_index("LocalTensor::GetValue", index);
        if constexpr (kNibble) {
            auto* byte = reinterpret_cast<uint8_t*>(addr_) + index / 2;
            ascend_sim::detail::scalar_ub("LocalTensor::GetValue", byte, 1, false);
            return PrimType(uint8_t(*byte >> (4 * (index % 2))));
        } else {
            ascend_sim::detail::scalar_ub("LocalTensor::GetValue", addr_ + index, sizeof(T), false);
            return addr_[index];
        }
    }
    // int4b_t: the byte is read, its other nibble kept (so that byte must be written before).
    template <class T1>
    void SetValue(const uint32_t index, const T1 value, ASCEND_SIM_SITE) const { ASCEND_SIM_ENTER;
        check_index("LocalTensor::SetValue", index);
        if constexpr (kNibble) {
            auto* byte = reinterpret_cast<uint8_t*>(addr_) + index / 2;
            const uint32_t shift = 4 * (index % 2);
            ascend_sim::detail::scalar_ub("LocalTensor::SetValue", byte, 1, false);
            const uint8_t kept = uint8_t(*byte & (0xF0 >> shift));
            ascend_sim::detail::scalar_ub("LocalTensor::SetValue", byte, 1, true);
            *byte = uint8_t(kept | (PrimType(value).storage << shift));
        } else {
            ascend_sim::detail::scalar_ub("LocalTensor::SetValue", addr_ + index, sizeof(T), true);
            addr_[index] = static_cast<PrimType>(value);
        }
    }
    // A reference may be written: tracked as a scalar write.
    PrimType& operator()(const uint32_t index) const {
        static_assert(!kNibble, "LocalTensor<int4b_t>::operator(): a nibble has no reference; use GetValue/SetValue");
        check_index("LocalTensor::operator()", index);
        ascend_sim::detail::scalar_ub("LocalTensor::operator()", addr_ + index, sizeof(T), true);
        return addr_[index];
    }

    // A view starting past the end is legal to form (CANN's dataLen wraps); here it
    // holds 0 bytes, so any use of it is refused.
    LocalTensor operator[](const uint32_t offset) const {
        if (kNibble && offset % 2 != 0)
            ascend_sim::detail::fail("LocalTensor::operator[]", "odd int4b_t offset",
                                     "offset %u of an int4b_t tensor is odd; a view must start on a byte (even offset)",
                                     offset);
        const uint64_t bytes = ascend_sim::elem_bytes<T>(offset);
        LocalTensor r = *this;
        r.addr_ = reinterpret_cast<PrimType*>(reinterpret_cast<uint8_t*>(addr_) + bytes);
        r.dataLen_ = bytes > dataLen_ ? 0 : dataLen_ - uint32_t(bytes);
        return r;
    }

    template <class U>
    LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> r;
        r.addr_ = reinterpret_cast<U*>(addr_);
        r.dataLen_ = dataLen_;
        r.pos_ = pos_;
        r.bufId_ = bufId_;
        return r;
    }

    uint32_t GetSize() const { return uint32_t(ascend_sim::byte_elems<T>(dataLen_)); }
    [[deprecated("GetLength is deprecated in CANN; use GetSize")]] uint32_t GetLength() const { return dataLen_; }
    void SetSize(const uint32_t size) {
        if (kNibble && size % 2 != 0)
            ascend_sim::detail::fail("LocalTensor::SetSize", "odd int4b_t size",
                                     "size %u of an int4b_t tensor is odd; it must fill whole bytes", size);
        ascend_sim::detail::ub_set_size("LocalTensor::SetSize", addr_, ascend_sim::elem_bytes<T>(size));
        dataLen_ = uint32_t(ascend_sim::elem_bytes<T>(size));
    }
    int32_t GetPosition() const { return int32_t(pos_); }
    // Copies keep the shape; ReinterpretCast's tensor has none, as in CANN.
    void SetShapeInfo(const ShapeInfo& shapeInfo) {
        shapeInfo_ = shapeInfo;
    }
    ShapeInfo GetShapeInfo() const {
        return shapeInfo_;
    }
    __ubuf__ PrimType* GetPhyAddr() const { return addr_; }
    __ubuf__ PrimType* GetPhyAddr(const uint32_t offset) const {
        check_index("LocalTensor::GetPhyAddr", offset);
        if (kNibble && offset % 2 != 0)
            ascend_sim::detail::fail("LocalTensor::GetPhyAddr", "odd int4b_t offset",
                                     "offset %u of an int4b_t tensor is odd; the address of a nibble is its byte's "
                                     "only for even offsets",
                                     offset);
        return reinterpret_cast<PrimType*>(reinterpret_cast<uint8_t*>(addr_) + ascend_sim::elem_bytes<T>(offset));
    }

    // --- simulator internals (used by the API templates) ---
    ascend_sim::detail::UbRef ub_ref() const { return {addr_, dataLen_, uint8_t(pos_)}; }
    int32_t buf_id() const { return bufId_; }
    static LocalTensor from_slot(const ascend_sim::detail::Slot& s, TPosition pos) {
        LocalTensor r;
        r.addr_ = static_cast<PrimType*>(s.p);
        r.dataLen_ = s.len;
        r.pos_ = pos;
        r.bufId_ = s.bufId;
        return r;
    }

private:
    template <class U>
    friend class LocalTensor;

    void check_index(const char* api, uint32_t index) const {
        if (ascend_sim::elem_bytes<T>(index) < dataLen_) return;
        if constexpr (kNibble)
            ascend_sim::detail::fail(api, "index out of range",
                                     "index %u (byte %u) is outside the tensor's %u B (%u int4b_t elements, 2 a byte)",
                                     index, index / 2, dataLen_, dataLen_ * 2);
        else
            ascend_sim::detail::fail(api, "index out of range",
                                     "index %u (%llu B) is outside the tensor's %u B (%u elements of %u B)", index,
                                     (unsigned long long)(uint64_t(index) * sizeof(T)), dataLen_,
                                     unsigned(dataLen_ / sizeof(T)), unsigned(sizeof(T)));
    }
    static constexpr bool kNibble = ascend_sim::is_nibble_v<PrimType>;

    PrimType* addr_ = nullptr;
    uint32_t dataLen_ = 0;
    TPosition pos_ = TPosition::GM;
    int32_t bufId_ = -1;
    ShapeInfo shapeInfo_;
};

template <class T>
class GlobalTensor {
public:
    using PrimType = PrimT<T>;
    static_assert(!ascend_sim::is_nibble_v<PrimType>,
                  "GlobalTensor<int4b_t> is not modelled: address the bytes as int8_t or uint8_t (ReinterpretCast the "
                  "LocalTensor to int4b_t)");

    GlobalTensor() = default;

    void SetGlobalBuffer(__gm__ PrimType* buffer, uint64_t bufferSize) {
        addr_ = buffer;
        ori_ = buffer;
        size_ = bufferSize;
    }
    void SetGlobalBuffer(__gm__ PrimType* buffer) { SetGlobalBuffer(buffer, 0); }

    // Through the core's DCache: a read may see a stale line (see DataCacheCleanAndInvalid).
    PrimType GetValue(const uint64_t offset, ASCEND_SIM_SITE) const { ASCEND_SIM_ENTER;
        PrimType v;
        ascend_sim::detail::scalar_gm("GlobalTensor::GetValue", gm_ref(offset), sizeof(T), false, &v);
        return v;
    }
    // Into the core's DCache, not written through to GM on the NPU.
    void SetValue(const uint64_t offset, PrimType value, ASCEND_SIM_SITE) const { ASCEND_SIM_ENTER;
        ascend_sim::detail::scalar_gm("GlobalTensor::SetValue", gm_ref(offset), sizeof(T), true, &value);
    }
    // Tracked as a read; write through SetValue so the DCache model sees it.
    __gm__ PrimType& operator()(const uint64_t offset) const {
        ascend_sim::detail::scalar_gm("GlobalTensor::operator()", gm_ref(offset), sizeof(T), false, nullptr);
        return addr_[offset];
    }

    GlobalTensor operator[](const uint64_t offset) const {
        GlobalTensor r = *this;
        r.addr_ = addr_ + offset;
        return r;
    }
    template <class U>
    GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> r;
        r.addr_ = reinterpret_cast<U*>(addr_);
        r.ori_ = reinterpret_cast<U*>(ori_);
        r.size_ = size_ * sizeof(T) / sizeof(U);
        r.cacheMode_ = cacheMode_;
        return r;
    }
    uint64_t GetSize() const { return size_; }
    void SetShapeInfo(const ShapeInfo& shapeInfo) {
        shapeInfo_ = shapeInfo;
    }
    ShapeInfo GetShapeInfo() const {
        return shapeInfo_;
    }
    const __gm__ PrimType* GetPhyAddr() const { return addr_; }
    const __gm__ PrimType* GetPhyAddr(const uint64_t offset) const { return addr_ + offset; }
    // Recorded only: the addresses the checks see stay the same (cache_hint.h).
    template <CacheRwMode rwMode = CacheRwMode::RW>
    void SetL2CacheHint(CacheMode mode) {
        cacheMode_ = mode;
    }

    // --- simulator internals ---
    ascend_sim::detail::GmRef gm_ref(uint64_t offset = 0) const {
        return {addr_ + offset, ori_, size_ * sizeof(T), uint8_t(cacheMode_)};
    }
    PrimType* raw() const { return addr_; }
    CacheMode sim_cache_mode() const { return cacheMode_; }

private:
    template <class U>
    friend class GlobalTensor;

    PrimType* addr_ = nullptr;
    PrimType* ori_ = nullptr;  // SetGlobalBuffer's address: the size is measured from it
    uint64_t size_ = 0;
    CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
    ShapeInfo shapeInfo_;
};

}  // namespace AscendC
