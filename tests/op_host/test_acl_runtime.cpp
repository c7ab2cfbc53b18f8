// The ACL runtime calls CANN host programs make around a launch: contexts (one
// device, a current context per thread), the fp16 conversions and aclCreateTensor.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "xtest.h"

XTEST(contexts_are_current_per_thread) {
    aclrtContext ctx = nullptr, got = nullptr;
    XCHECK_EQ(aclrtCreateContext(&ctx, 1), ACL_ERROR_INVALID_DEVICE);
    XCHECK_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
    XCHECK_EQ(aclrtGetCurrentContext(&got), ACL_SUCCESS);  // creating one makes it current
    XCHECK(got == ctx);
    aclError other = ACL_SUCCESS;
    std::string otherMsg;
    std::thread([&] {
        aclrtContext none = nullptr;
        other = aclrtGetCurrentContext(&none);
        otherMsg = aclGetRecentErrMsg();  // the message is per thread, as in CANN
    }).join();
    XCHECK_EQ(other, ACL_ERROR_INVALID_PARAM);
    XCHECK(otherMsg.find("no current context") != std::string::npos);
    XCHECK_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
    XCHECK_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
    XCHECK_EQ(aclrtGetCurrentContext(&got), ACL_ERROR_INVALID_PARAM);
    XCHECK_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
}

XTEST(fp16_conversions_round_to_nearest_even) {
    XCHECK_EQ(aclFloat16ToFloat(0x3C00), 1.0f);
    XCHECK_EQ(aclFloat16ToFloat(0xC000), -2.0f);
    XCHECK_EQ(aclFloat16ToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
    XCHECK(std::isinf(aclFloat16ToFloat(0x7C00)));
    XCHECK_EQ(aclFloatToFloat16(1.0f), aclFloat16(0x3C00));
    XCHECK_EQ(aclFloatToFloat16(65504.0f), aclFloat16(0x7BFF));
    // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: even is 1.
    XCHECK_EQ(aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11)), aclFloat16(0x3C00));
    XCHECK_EQ(aclFloatToFloat16(1.0f + 3 * std::ldexp(1.0f, -11)), aclFloat16(0x3C02));
}

// aclCreateTensor refuses what it cannot describe, with a message, instead of storing
// it: a format code that is no aclFormat, and view dims whose contiguous strides
// (a null stride array) overflow int64.
XTEST(create_tensor_refuses_unknown_formats_and_overflowing_strides) {
    float data[4] = {};
    const int64_t dims[2] = {2, 2};
    for (int code : {5, 48, 64, 1000, -2, 1 << 30}) {
        aclFormat format;
        std::memcpy(&format, &code, sizeof code);  // a code a caller could pass through a cast
        XCHECK(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, format, dims, 2, data) == nullptr);
        const std::string msg = aclGetRecentErrMsg();
        XCHECK(msg.find("format") != std::string::npos && msg.find(std::to_string(code)) != std::string::npos);
    }
    for (aclFormat ok : {ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_UNDEFINED, ACL_FORMAT_FRACTAL_NZ}) {
        aclTensor* t = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ok, dims, 2, data);
        XCHECK(t != nullptr);
        aclFormat got = ACL_FORMAT_NCL;
        XCHECK_EQ(aclGetFormat(t, &got), 0);
        XCHECK_EQ(int(got), int(ok));
        aclDestroyTensor(t);
    }
    const int64_t huge[3] = {int64_t(1) << 40, int64_t(1) << 40, int64_t(1) << 40};
    XCHECK(aclCreateTensor(huge, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, huge, 3, data) == nullptr);
    XCHECK(std::string(aclGetRecentErrMsg()).find("strides") != std::string::npos);
    // Strides that fit are computed as before, even when the element count would not:
    // the aclnn checks refuse such a tensor with their own message.
    const int64_t wide[2] = {int64_t(1) << 40, int64_t(1) << 40};
    aclTensor* t = aclCreateTensor(wide, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, wide, 2, data);
    XCHECK(t != nullptr);
    int64_t* strides = nullptr;
    uint64_t n = 0;
    XCHECK_EQ(aclGetViewStrides(t, &strides, &n), 0);
    XCHECK_EQ(n, uint64_t(2));
    XCHECK_EQ(strides[0], int64_t(1) << 40);
    XCHECK_EQ(strides[1], int64_t(1));
    delete[] strides;
    aclDestroyTensor(t);
}
