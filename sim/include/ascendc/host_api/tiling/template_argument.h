// Tiling-key templates (asc-devkit include/utils/tiling/template_argument.h, installed
// as ascendc/host_api/tiling/template_argument.h): an op declares its template
// parameters with ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL in a header that both its
// kernel and its host tiling include; the kernel is a template the CPU-twin program
// instantiates itself (ICPU_RUN_KF(my_kernel<0, 1>, ...)), and TypeFromId maps a
// data-type id to its type. With ASCENDC_TPL_KERNEL (what CANN's op compiler defines
// for a kernel compile) the declarations are empty; without it (the host, and a twin
// build that does not define it) they record the parameters, and GET_TPL_TILING_KEY
// encodes a key from values, as
// template_argument.h's FastEncodeTilingKeyDirect does: each parameter's bit field in
// declaration order, a UINT parameter encoded as the index of its value in the list.
#pragma once
#include <cstdint>

// kernel types
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_MAX 12
// bit widths
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
// parameter types
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
constexpr uint32_t ASCENDC_TPL_KERNEL_TYPE = 4;
constexpr uint32_t ASCENDC_TPL_DETERMINISTIC = 5;
constexpr uint32_t ASCENDC_TPL_SHARED_KERNEL_TYPE = 6;
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))
// how a UINT parameter lists its values
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
constexpr uint64_t INVALID_TILING_KEY = 0XFFFFFFFFFFFFFFFF;

#include "kernel_operator.h"

// The data-type ids a DATATYPE parameter lists (模板参数定义.md: C_DT_*, ge::DataType's
// values, spelled as numbers so that the DT_* macros of an op build, kernel_type.h,
// leave them alone) and the type TypeFromId gives for each.
#define ASCEND_SIM_TPL_TYPES(X) \
    X(FLOAT, 0, float)          \
    X(FLOAT16, 1, half)         \
    X(INT8, 2, int8_t)          \
    X(INT32, 3, int32_t)        \
    X(UINT8, 4, uint8_t)        \
    X(INT16, 6, int16_t)        \
    X(UINT16, 7, uint16_t)      \
    X(UINT32, 8, uint32_t)      \
    X(INT64, 9, int64_t)        \
    X(UINT64, 10, uint64_t)     \
    X(DOUBLE, 11, double)       \
    X(BOOL, 12, bool)           \
    X(BF16, 27, bfloat16_t)
#define ASCEND_SIM_TPL_ID(name, id, t) C_DT_##name = id,
enum : int { ASCEND_SIM_TPL_TYPES(ASCEND_SIM_TPL_ID) };
#undef ASCEND_SIM_TPL_ID

template <int dataTypeId>
struct TypeFromId {
    using type = void;
};
#define ASCEND_SIM_TPL_TYPE(name, id, t) \
    template <>                          \
    struct TypeFromId<id> {              \
        using type = t;                  \
    };
ASCEND_SIM_TPL_TYPES(ASCEND_SIM_TPL_TYPE)
#undef ASCEND_SIM_TPL_TYPE
#undef ASCEND_SIM_TPL_TYPES

// The selections only restrict which kernels CANN compiles: empty in both forms.
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_SEL(...)

#if defined(ASCENDC_TPL_KERNEL)

#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(...)
#define ASCENDC_TPL_ARGS_DECL(...)

#else
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <utility>
#include <vector>

struct ParamStruct {
    const char* name;
    uint32_t paramType;
    uint8_t bitWidth;
    std::vector<uint64_t> vals;
    const char* macroType;
    ParamStruct(const char* inName, uint32_t inParamType, uint8_t inBitWidth, std::vector<uint64_t> inVals,
                const char* inMacroType)
        : name(inName), paramType(inParamType), bitWidth(inBitWidth), vals(std::move(inVals)), macroType(inMacroType) {
        if (paramType == ASCENDC_TPL_UINT) expand_uint_values();
    }
    // {LIST, v...} -> v...; {RANGE, n, lo1, hi1, ...} -> every value of the n ranges;
    // {MIX, n, lo1, hi1, ..., v...} -> the ranges' values, then the listed ones.
    void expand_uint_values() {
        if (vals.empty()) return;
        const uint64_t how = vals[0];
        if (how == ASCENDC_TPL_UI_LIST) {
            vals.erase(vals.begin());
            return;
        }
        std::vector<uint64_t> all;
        const size_t ranges = vals.size() > 1 ? size_t(vals[1]) : 0;
        for (size_t r = 0; r < ranges && 3 + 2 * r < vals.size(); ++r)
            for (uint64_t v = vals[2 + 2 * r]; v <= vals[3 + 2 * r]; ++v) all.push_back(v);
        if (how == ASCENDC_TPL_UI_MIX)
            for (size_t i = 2 + 2 * ranges; i < vals.size(); ++i) all.push_back(vals[i]);
        vals = std::move(all);
    }
};
using TilingDeclareParams = std::vector<ParamStruct>;
using TilingSelectParams = std::vector<std::vector<ParamStruct>>;

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ParamStruct{#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
    ParamStruct{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_ARGS_DECL(x, ...) static TilingDeclareParams g_tilingDeclareParams{__VA_ARGS__}

namespace AscendC {
inline uint64_t FastEncodeTilingKeyDirect(const TilingDeclareParams& declareParams,
                                          std::initializer_list<uint64_t> args) {
    uint32_t bits = 0;
    uint64_t key = 0;
    auto arg = args.begin();
    for (size_t i = 0; i < std::min(declareParams.size(), args.size()); ++i, ++arg) {
        const ParamStruct& p = declareParams[i];
        uint64_t v = *arg;
        if (p.paramType == ASCENDC_TPL_UINT) {
            const auto at = std::find(p.vals.begin(), p.vals.end(), v);
            if (at == p.vals.end()) {
                std::printf("[ERROR] ASCENDC_TPL_UINT_SEL %s value %llu does not exist in ASCENDC_TPL_UINT_DECL, "
                            "please check it!\n",
                            p.name, (unsigned long long)v);
                return INVALID_TILING_KEY;
            }
            v = uint64_t(at - p.vals.begin());
        }
        key |= v << bits;
        bits += p.bitWidth;
    }
    if (bits > 64) {
        std::printf("[ERROR] Tiling key bits %u exceed max bits 64, please check it!\n", bits);
        return INVALID_TILING_KEY;
    }
    return key;
}
}  // namespace AscendC
#define GET_TPL_TILING_KEY(...) AscendC::FastEncodeTilingKeyDirect(g_tilingDeclareParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)               \
    do {                                                  \
        uint64_t key = GET_TPL_TILING_KEY(__VA_ARGS__);   \
        (context)->SetTilingKey(key);                     \
    } while (0)
#endif
