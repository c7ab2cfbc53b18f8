// The host tiling-data classes CANN programs define with BEGIN_TILING_DATA_DEF:
// bytes in declaration order with CANN's alignment placeholders, arrays, nested
// structs, the registry and SaveToBuffer's capacity check.
#include <cstring>

#include "register/tilingdata_base.h"
#include "xtest.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InnerTiling)
TILING_DATA_FIELD_DEF(uint16_t, a);
TILING_DATA_FIELD_DEF(uint32_t, b);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(OuterTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF_ARR(int16_t, 3, dims);
TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);
TILING_DATA_FIELD_DEF(int64_t, last);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(OuterOp, OuterTiling)
}  // namespace optiling

namespace {
template <class T>
T at(const uint8_t* p, size_t off) {
    T v;
    std::memcpy(&v, p + off, sizeof(T));
    return v;
}
}  // namespace

XTEST(fields_are_aligned_in_declaration_order) {
    optiling::OuterTiling t;
    // TilingDef::CheckAlignAndGenPlaceHolder: each field at a multiple of its element
    // size, a struct at a multiple of 8, the class a multiple of 8:
    // total@0 flag@4 [1] dims@6 [4] inner@16 (a@0 [2] b@4) last@24.
    XCHECK_EQ(t.GetDataSize(), size_t(32));
    XCHECK(sizeof(t) >= t.GetDataSize());  // CANN programs allocate sizeof(class) for SaveToBuffer
    t.set_total(1000);
    t.set_flag(7);
    const int16_t dims[3] = {-1, 2, 300};
    t.set_dims(dims);
    t.inner.set_a(0xBEEF);
    t.inner.set_b(123456);
    t.set_last(-5);
    XCHECK_EQ(t.get_total(), 1000u);
    XCHECK_EQ(t.get_dims()[2], int16_t(300));
    uint8_t buf[64];
    std::memset(buf, 0xAA, sizeof buf);
    t.SaveToBuffer(buf, sizeof buf);
    XCHECK_EQ(at<uint32_t>(buf, 0), 1000u);
    XCHECK_EQ(at<uint8_t>(buf, 4), uint8_t(7));
    XCHECK_EQ(buf[5], uint8_t(0));  // placeholders are zero
    XCHECK_EQ(at<int16_t>(buf, 6), int16_t(-1));
    XCHECK_EQ(at<int16_t>(buf, 10), int16_t(300));
    XCHECK_EQ(at<uint32_t>(buf, 12), 0u);
    XCHECK_EQ(at<uint16_t>(buf, 16), uint16_t(0xBEEF));
    XCHECK_EQ(at<uint32_t>(buf, 20), 123456u);
    XCHECK_EQ(at<int64_t>(buf, 24), int64_t(-5));
    XCHECK_EQ(buf[32], uint8_t(0xAA));  // nothing past the data
    optiling::OuterTiling copy = t;  // a copy serialises its own values
    copy.set_total(1);
    copy.SaveToBuffer(buf, sizeof buf);
    XCHECK_EQ(at<uint32_t>(buf, 0), 1u);
    XCHECK_EQ(at<int64_t>(buf, 24), int64_t(-5));
}

XTEST(registry_and_capacity) {
    auto made = optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("OuterOp");
    XCHECK(made != nullptr);
    XCHECK_EQ(std::string(made->GetTilingClassName()), std::string("OuterTiling"));
    XCHECK(optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("NoSuchOp") == nullptr);
    optiling::OuterTiling t;
    uint8_t small[31];
    XCHECK_THROWS_WITH(t.SaveToBuffer(small, sizeof small), "SaveToBuffer", "OuterTiling needs 32 bytes",
                       "holds 31");
}

// Host code copies tiling with securec's memcpy_s, which the tiling headers bring in.
XTEST(securec_copies_are_bounded) {
    uint8_t dst[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    const uint8_t src[12] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0};
    XCHECK_EQ(memcpy_s(dst, sizeof dst, src, 4), EOK);
    XCHECK_EQ(dst[3], uint8_t(6));
    XCHECK_EQ(dst[4], uint8_t(1));
    XCHECK_EQ(memcpy_s(dst, sizeof dst, src, 12), ERANGE | 0x80);  // too long: dst zeroed
    XCHECK_EQ(dst[0], uint8_t(0));
    XCHECK_EQ(memcpy_s(dst, 0, src, 1), ERANGE);
    XCHECK_EQ(memcpy_s(nullptr, 8, src, 1), EINVAL);
    XCHECK_EQ(memcpy_s(dst, sizeof dst, dst + 1, 4), 54 | 0x80);  // overlapping
    XCHECK_EQ(memset_s(dst, sizeof dst, 0x5A, 8), EOK);
    XCHECK_EQ(dst[7], uint8_t(0x5A));
    XCHECK_EQ(memset_s(dst, 4, 0, 8), ERANGE | 0x80);
}
