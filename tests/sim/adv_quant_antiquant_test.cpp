// AscendAntiQuant (int8_t and int4b_t -> half) against (src + offset) x scale in float64,
// rounded once to half's 11 significant bits (round to nearest even): the
// inputs are chosen so that src + offset and the product are exact in float,
// which leaves the output rounding as the only one, so the comparison is exact.
// Per channel without transpose (several 128-column strips, a column tail, more
// than 255 rows), scale only with groups, per tensor, transposed (the broadcast
// path with K below and above 128, and the per-row fallback), the form without
// sharedTmpBuffer, in both auto-sync modes; bfloat16_t output refused at its
// overlapping staging; the checks and the host tmp sizes.
#include <cmath>
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_antiquant", 1, body); }

template <class S>
int8_t src_value(uint32_t i) {
    if constexpr (std::is_same_v<S, int4b_t>) return int8_t(int((i * 7u) % 16u) - 8);
    else return int8_t(int((i * 37u) % 255u) - 127);
}
float offset_value(uint32_t c) { return float(int(c % 9) - 4) * 0.75f + 0.25f; }
float scale_value(uint32_t c) { return float((c % 7) + 1) * 0.0625f * ((c % 3) == 0 ? -1.0f : 1.0f); }

double round_sig(double x, int bits) {
    if (x == 0) return 0;
    int e = 0;
    std::frexp(x, &e);
    return std::ldexp(std::nearbyint(std::ldexp(x, bits - e)), e - bits);
}
template <class D>
double golden(int8_t s, float o, float sc) {
    return round_sig((double(s) + double(o)) * double(sc), std::is_same_v<D, half> ? 11 : 8);
}

enum class Form { Tensors, ScaleOnly, Scalars, NoTmp };

// rows x cols source; channel c of element (r, col): col without transpose, r when transposed.
// Scale only with groups: scale is [groups, cols], row r takes scale row r / (rows / groups).
template <class D, bool isTranspose, Form form = Form::Tensors, class S = int8_t>
void check_antiquant(uint32_t rows, uint32_t cols, uint32_t tmpBytes, uint32_t groups = 1) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(160 * 1024);
            const uint32_t n = rows * cols;
            auto src = c.get<S>();
            auto dst = c.get<D>()[16384 / sizeof(D)];
            auto offset = c.get<D>()[(16384 + 65536) / sizeof(D)];
            auto scale = c.get<D>()[(16384 + 65536 + 8192) / sizeof(D)];
            auto tmp = c.get<uint8_t>()[16384 + 65536 + 16384];
            src.SetSize(n);
            const uint32_t channels = isTranspose ? rows : cols;
            const uint32_t scaleRows = form == Form::ScaleOnly ? groups : 1;
            offset.SetSize(channels);
            scale.SetSize(channels * scaleRows);
            tmp.SetSize(tmpBytes);
            const uint32_t shape[2] = {isTranspose ? channels : scaleRows, isTranspose ? 1 : channels};
            offset.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
            scale.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
            if constexpr (std::is_same_v<S, int4b_t>) {  // a nibble's SetValue rewrites its byte
                for (uint32_t b = 0; b < n / 2; ++b) src.template ReinterpretCast<uint8_t>().SetValue(b, uint8_t(0));
            }
            for (uint32_t i = 0; i < n; ++i) src.SetValue(i, S(src_value<S>(i)));
            sim_test::fill(offset, channels, [](uint32_t i) { return offset_value(i); });
            sim_test::fill(scale, channels * scaleRows, [](uint32_t i) { return scale_value(i); });
            sim_test::sync<HardEvent::S_V>();
            const uint32_t k = isTranspose ? cols : rows;
            const D so = D(offset_value(3)), ss = D(scale_value(5));
            if constexpr (form == Form::Tensors) AscendAntiQuant<S, D, isTranspose>(dst, src, offset, scale, tmp, k);
            if constexpr (form == Form::NoTmp) AscendAntiQuant<S, D, isTranspose>(dst, src, offset, scale, k);
            if constexpr (form == Form::ScaleOnly) AscendAntiQuant<S, D, isTranspose>(dst, src, scale, tmp, k);
            if constexpr (form == Form::Scalars) AscendAntiQuant<S, D, isTranspose>(dst, src, so, ss, tmp, k);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t col = 0; col < cols; ++col) {
                    const uint32_t i = r * cols + col, ch = isTranspose ? r : col;
                    double ref;
                    if constexpr (form == Form::Scalars) ref = golden<D>(src_value<S>(i), float(so), float(ss));
                    else if constexpr (form == Form::ScaleOnly)
                        ref = golden<D>(src_value<S>(i), 0.0f,
                                        scale_value(isTranspose ? ch : (r / (rows / groups)) * cols + ch));
                    else ref = golden<D>(src_value<S>(i), offset_value(ch), scale_value(ch));
                    XCHECK_EQ(double(float(dst.GetValue(i))), ref);
                }
        });
    }
}

template <class F>
void refused(F body, const char* msg) {
    XCHECK_THROWS_WITH(one([&] {
                           sim_test::Calc c(64 * 1024);
                           auto src = c.get<int8_t>();
                           auto dst = c.get<half>()[8192];
                           auto offset = c.get<half>()[12288];
                           auto scale = c.get<half>()[14336];
                           auto tmp = c.get<uint8_t>()[32768];
                           src.SetSize(1024), offset.SetSize(128), scale.SetSize(128), tmp.SetSize(4096);
                           body(dst, src, offset, scale, tmp);
                       }),
                       msg);
}
}  // namespace

XTEST(antiquant_per_channel_half) {
    check_antiquant<half, false>(8, 128, 0);   // the example's shape, no tmp needed
    check_antiquant<half, false>(6, 416, 0);   // three 128-column strips and a 32-column tail
    check_antiquant<half, false>(300, 32, 0);  // 255 rows, then 45
}

// bfloat16_t: every branch stages the int8 rows as half in the upper half of
// the float buffer they are widened into (and the transposed one broadcasts
// offset/scale in place), the partial overlap the address-overlap rules refuse;
// the simulator reports it at that Cast / Brcb.
XTEST(antiquant_bf16_staging_overlap_refused) {
    const char* overlap = "overlap other than element for element within a repeat";
    // per channel, the full tmp (2 x N floats and a 64 x K strip) and a smaller one
    XCHECK_THROWS_WITH((check_antiquant<bfloat16_t, false>(8, 128, 128 * 8 + 64 * 8 * 4)), "Cast (block 0): dst",
                       overlap);
    XCHECK_THROWS_WITH((check_antiquant<bfloat16_t, false>(4, 64, 1024)), "Cast (block 0): dst", overlap);
    XCHECK_THROWS_WITH((check_antiquant<bfloat16_t, false, Form::ScaleOnly>(6, 32, 1024, 3)), "Cast (block 0): dst",
                       overlap);
    XCHECK_THROWS_WITH((check_antiquant<bfloat16_t, false, Form::Scalars>(4, 160, 1024)), "Cast (block 0): dst",
                       overlap);
    XCHECK_THROWS_WITH((check_antiquant<bfloat16_t, true>(8, 128, 8 * 80 * 4)), "Brcb (block 0): dst", overlap);
    XCHECK_THROWS_WITH((check_antiquant<bfloat16_t, true>(4, 32, 1024)), "Cast (block 0): dst", overlap);
}

XTEST(antiquant_scale_only_groups) {
    check_antiquant<half, false, Form::ScaleOnly>(8, 64, 0, 4);
}

XTEST(antiquant_per_tensor) {
    check_antiquant<half, false, Form::Scalars>(4, 160, 0);
    check_antiquant<half, true, Form::Scalars>(4, 64, 0);
    check_antiquant<half, true, Form::NoTmp>(8, 64, 0);
}

XTEST(antiquant_transposed_half) {
    check_antiquant<half, true>(16, 64, 2 * 16 * 16 * 2);   // K below 128: the tail columns only
    check_antiquant<half, true>(8, 160, 2 * 16 * 8 * 2);    // a 128 strip and 32 tail columns
    check_antiquant<half, true>(8, 64, 64);                 // tmp below 2 x 16 x N halves: per row
    check_antiquant<half, true, Form::ScaleOnly>(16, 32, 16 * 16 * 2);
}

XTEST(antiquant_int4_input) {
    check_antiquant<half, false, Form::Tensors, int4b_t>(8, 128, 0);
    check_antiquant<half, false, Form::Tensors, int4b_t>(4, 160, 0);
    check_antiquant<half, false, Form::ScaleOnly, int4b_t>(8, 64, 0, 2);
    check_antiquant<half, false, Form::Scalars, int4b_t>(4, 64, 0);
    check_antiquant<half, true, Form::Tensors, int4b_t>(16, 64, 2 * 16 * 16 * 2);
    check_antiquant<half, true, Form::Tensors, int4b_t>(8, 192, 2 * 16 * 8 * 2);
    check_antiquant<half, true, Form::Tensors, int4b_t>(8, 64, 64);
}

XTEST(antiquant_refusals) {
    using T = LocalTensor<half>;
    using B = LocalTensor<int8_t>;
    using U = LocalTensor<uint8_t>;
    refused([](T d, B s, T o, T sc, U t) { AscendAntiQuant<int8_t, half, true>(d, s, o, sc, t, 48); },
            "AscendAntiQuant (block 0): src's 1024 elements are not a whole number of rows of k 48");
    refused([](T d, B s, T o, T sc, U t) { AscendAntiQuant<int8_t, half, true>(d, s, o, sc, t, 16); },
            "with isTranspose true k x sizeof(InputDataType) is 16; it must be a multiple of 32");
    refused([](T d, B s, T o, T sc, U t) { AscendAntiQuant<int8_t, half, false>(d, s, o, sc, t, 0); },
            "k must be above 0");
    // the scale's group count comes from its ShapeInfo, never set here
    refused([](T d, B s, T, T sc, U t) { AscendAntiQuant<int8_t, half, false>(d, s, sc, t, 8); },
            "scale has no shape[0] (SetShapeInfo on it, or pass shapeInfo.scaleHeight)");
    refused(
        [](T d, B s, T o, T sc, U t) {
            AntiQuantShapeInfo info;
            info.scaleHeight = 2, info.scaleWidth = 128;
            AscendAntiQuant<int8_t, half, false>(d, s, o, sc, t, 8, info);
        },
        "shapeInfo.scaleHeight x scaleWidth give 256 elements, more than scale's size 128");
    refused([](T d, B s, T o, T sc, U t) {
                d.SetSize(384);
                AscendAntiQuant<int8_t, half, false>(d, s, o, sc, t, 8);
            },
            "calCount 1024 is larger than dst's size 384");
    // bfloat16_t transposed: 80 floats a channel
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(64 * 1024);
                           auto src = c.get<int8_t>();
                           auto dst = c.get<bfloat16_t>()[8192];
                           auto offset = c.get<bfloat16_t>()[12288];
                           auto scale = c.get<bfloat16_t>()[14336];
                           auto tmp = c.get<uint8_t>()[32768];
                           src.SetSize(512), offset.SetSize(8), scale.SetSize(8), tmp.SetSize(1024);
                           AscendAntiQuant<int8_t, bfloat16_t, true>(dst, src, offset, scale, tmp, 64);
                       }),
                       "sharedTmpBuffer holds 1024 B, less than the 2560 B minimum GetAscendAntiQuantMaxMinTmpSize");
    // an unwritten offset reaches the Add
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(64 * 1024);
                           auto src = c.get<int8_t>();
                           auto dst = c.get<half>()[8192];
                           auto offset = c.get<half>()[12288];
                           auto scale = c.get<half>()[14336];
                           auto tmp = c.get<uint8_t>()[32768];
                           src.SetSize(1024), offset.SetSize(128), scale.SetSize(128), tmp.SetSize(1024);
                           Duplicate(src.ReinterpretCast<int16_t>(), int16_t(0), 512);
                           Duplicate(scale, half(1), 128);
                           AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 8);
                       }),
                       "Add", "uninitialised read");
}

XTEST(antiquant_tmp_sizes) {
    uint32_t maxV = 1, minV = 1;
    // the example's host: 1-D shapes, half output
    GetAscendAntiQuantMaxMinTmpSize(TensorShape({1024}), TensorShape({128}), false, ge::DT_INT8, ge::DT_FLOAT16, maxV,
                                    minV);
    XCHECK_EQ(maxV, 0u);
    XCHECK_EQ(minV, 0u);
    GetAscendAntiQuantMaxMinTmpSize(TensorShape({8, 128}), TensorShape({128}), false, ge::DT_INT8, ge::DT_BF16, maxV,
                                    minV);
    XCHECK_EQ(minV, 128u * 8 + 64 * 8 * 4);
    XCHECK_EQ(maxV, minV);
    GetAscendAntiQuantMaxMinTmpSize(TensorShape({8, 128}), TensorShape({8}), true, ge::DT_INT8, ge::DT_BF16, maxV,
                                    minV);
    XCHECK_EQ(minV, 8u * 80 * 4);
    GetAscendAntiQuantMaxMinTmpSize(TensorShape({8, 128}), TensorShape({1}), true, ge::DT_INT8, ge::DT_BF16, maxV,
                                    minV);
    XCHECK_EQ(minV, 1024u);
    XCHECK_EQ(maxV, 8u * 128 * 4);
    uint32_t live = 9, extra = 9;
    GetAscendAntiQuantTmpBufferFactorSize(TensorShape({8, 128}), TensorShape({1}), false, ge::DT_INT8, ge::DT_BF16,
                                          live, extra);
    XCHECK_EQ(live, 1u);
    XCHECK_EQ(extra, 0u);
    XCHECK_THROWS_WITH(GetAscendAntiQuantMinTmpSize(TensorShape({8, 24}), TensorShape({8}), true, ge::DT_INT8,
                                                    ge::DT_BF16),
                       "with isTranspose true srcShape's K 24 must be 32 B aligned");
}
