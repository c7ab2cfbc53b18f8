// The ACL runtime calls CANN host programs make around a launch: contexts (one
// device, a current context per thread) and the fp16 conversions.
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>

#include "acl/acl.h"
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
