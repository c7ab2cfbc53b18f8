// The source surface CANN's CPU-twin programs use compiles and behaves as
// CANN declares it: qualifiers, block_idx, InitSocState, static tensors from
// LocalMemAllocator, tiling macros and keys, printf, DumpTensor, assert, utilities.
#undef NDEBUG  // the kernel-side assert is empty with NDEBUG, as in CANN; Release builds set it
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul_intf.h"  // included by vector kernels that never use Matmul
#include "tikicpulib.h"
#include "xtest.h"

namespace {
struct AddTiling {
    uint32_t blockLength;
    uint32_t scale;
};
constexpr uint32_t kBlockLength = 256;
struct FillTiling {
    uint32_t length;
    float value;
};
}  // namespace

// Registered at file scope, as ops-nn's kernels do: every GET_TILING_DATA below
// without a registration of its own fills a FillTiling.
REGISTER_TILING_DEFAULT(FillTiling);

// Static tensor programming, as asc-devkit's cpu_debug example writes it.
template <typename T, uint32_t blockLength>
__global__ __vector__ void add_static(__gm__ T* x, __gm__ T* y, __gm__ T* z) {
    AscendC::InitSocState();
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(x + block_idx * blockLength, blockLength);
    yGm.SetGlobalBuffer(y + block_idx * blockLength, blockLength);
    zGm.SetGlobalBuffer(z + block_idx * blockLength, blockLength);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
    AscendC::LocalTensor<T> xLocal = ubAllocator.Alloc<T, blockLength>();
    AscendC::LocalTensor<T> yLocal = ubAllocator.Alloc<T, blockLength>();
    AscendC::LocalTensor<T> zLocal = ubAllocator.Alloc<AscendC::TPosition::VECOUT, T>(blockLength);
    AscendC::DataCopy(xLocal, xGm, blockLength);
    AscendC::DataCopy(yLocal, yGm, blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(zLocal, xLocal, yLocal, blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, zLocal, blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
}

// Without the barrier between the copy in and Add: the hazard msSanitizer's racecheck would report.
__global__ __mix__(0, 1) void add_static_unsynced(GM_ADDR x, GM_ADDR z) {
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    zGm.SetGlobalBuffer((__gm__ float*)z, 64);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    auto t = ub.Alloc<float, 64>();
    AscendC::DataCopy(t, xGm, 64);
    AscendC::Adds(t, t, 1.0f, 64);
}

extern "C" __global__ __aicore__ void scale_by_key(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(AddTiling);
    GET_TILING_DATA(tilingData, tiling);
    GET_TILING_DATA_MEMBER(AddTiling, scale, scale, tiling);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, AscendC::AlignUp(tilingData.blockLength * sizeof(float), 32));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, tilingData.blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z, tilingData.blockLength);
    AscendC::DataCopy(t, xGm, tilingData.blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    float factor = 1.0f;
    if (TILING_KEY_IS(1)) factor = float(scale);
    else if (TILING_KEY_LIST(2, 3)) factor = -1.0f;
    AscendC::Muls(t, t, factor, tilingData.blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, t, tilingData.blockLength);
}

extern "C" __global__ __aicore__ void fill_from_file_scope_tiling(GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, AscendC::AlignUp(tilingData.length * sizeof(float), 32));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float*)z, tilingData.length);
    AscendC::Duplicate(t, tilingData.value, tilingData.length);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, t, tilingData.length);
}

extern "C" __global__ __aicore__ void tiling_without_register(GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddTiling, t, tiling);
    AscendC::printf("block %lld of %lld: blockLength %u\n", (long long)block_idx, (long long)block_num,
                    t.blockLength);
}

extern "C" __global__ __aicore__ void dump_tensors(GM_ADDR x) {
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    auto t = ub.Alloc<float, 8>();
    AscendC::DataCopy(t, xGm, 8);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DumpTensor(t, 5, 4);
    AscendC::DumpTensor(xGm, 6, 2);
    AscendC::PRINTF("done %d\n", 1);
}

XTEST(static_tensor_program_runs_with_block_idx) {
    constexpr uint32_t blocks = 4, total = blocks * kBlockLength;
    auto* x = (float*)AscendC::GmAlloc(total * sizeof(float));
    auto* y = (float*)AscendC::GmAlloc(total * sizeof(float));
    auto* z = (float*)AscendC::GmAlloc(total * sizeof(float));
    for (uint32_t i = 0; i < total; ++i) x[i] = float(i), y[i] = 0.5f;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ascend_sim::run_kernel("add_static", blocks, [&] { add_static<float, kBlockLength>(x, y, z); });
    for (uint32_t i = 0; i < total; ++i) XCHECK_EQ(z[i], float(i) + 0.5f);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
}

XTEST(static_tensors_get_the_hazard_and_alignment_checks) {
    auto* x = (uint8_t*)AscendC::GmAlloc(256);
    auto* z = (uint8_t*)AscendC::GmAlloc(256);
    XCHECK_THROWS_WITH(ICPU_RUN_KF(add_static_unsynced, 1, x, z), "RAW on UB [0x0000, 0x0100)", "PIPE_V Adds",
                       "written by PIPE_MTE2 DataCopy", "no MTE2_V flag");
    XCHECK_THROWS_WITH(ascend_sim::run_kernel("bad", 1,
                                              [] { AscendC::LocalTensor<float> t(AscendC::TPosition::VECCALC, 16, 8); }),
                       "LocalTensor::LocalTensor (block 0)", "addr 16 is not 32-byte aligned");
    XCHECK_THROWS_WITH(ascend_sim::run_kernel("bad", 1,
                                              [] { AscendC::LocalTensor<float> t(AscendC::TPosition::VECIN, 0, 7); }),
                       "tensor length 28 B is not a positive multiple of 32 B");
    XCHECK_THROWS_WITH(ascend_sim::run_kernel("bad", 1,
                                              [] { AscendC::LocalTensor<float> t(AscendC::TPosition::GM, 0, 8); }),
                       "position GM is not a UB position");
    XCHECK_THROWS_WITH(
        ascend_sim::run_kernel("bad", 1, [] { AscendC::LocalTensor<float> t(AscendC::TPosition::VECCALC, 196576, 16); }),
        "addr 196576 + 64 B exceeds the UB's 196608 B");
    // Never-written static UB is undefined for the initcheck.
    XCHECK_THROWS_WITH(ascend_sim::run_kernel("bad", 1,
                                              [] {
                                                  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
                                                  auto t = ub.Alloc<float, 64>();
                                                  AscendC::Exp(t[8], t, 8);
                                              }),
                       "uninitialised read");
    // An allocator of a cube memory compiles (a cube kernel beside the vector ones)
    // and stops at its first Alloc.
    XCHECK_THROWS_WITH(ascend_sim::run_kernel("bad", 1,
                                              [] {
                                                  AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
                                                  auto t = l1.Alloc<float, 64>();
                                                  (void)t;
                                              }),
                       "LocalMemAllocator::Alloc (block 0)", "LocalMemAllocator<Hardware::L1>: the simulator models the UB only");
    AscendC::GmFree(x);
    AscendC::GmFree(z);
}

XTEST(tiling_macros_and_keys) {
    auto* x = (float*)AscendC::GmAlloc(64 * sizeof(float));
    auto* z = (float*)AscendC::GmAlloc(64 * sizeof(float));
    auto* tiling = (AddTiling*)AscendC::GmAlloc(sizeof(AddTiling));
    *tiling = AddTiling{64, 3};
    for (int i = 0; i < 64; ++i) x[i] = float(i);
    for (uint64_t key : {1, 2, 7}) {
        ICPU_SET_TILING_KEY(key);
        ICPU_RUN_KF(scale_by_key, 1, (uint8_t*)x, (uint8_t*)z, (uint8_t*)tiling);
        const float factor = key == 1 ? 3.0f : key == 2 ? -1.0f : 1.0f;
        for (int i = 0; i < 64; ++i) XCHECK_EQ(z[i], factor * float(i));
    }
    ICPU_SET_TILING_KEY(0);
    auto* fill = (FillTiling*)AscendC::GmAlloc(sizeof(FillTiling));
    *fill = FillTiling{64, 2.5f};
    ICPU_RUN_KF(fill_from_file_scope_tiling, 1, (uint8_t*)z, (uint8_t*)fill);
    for (int i = 0; i < 64; ++i) XCHECK_EQ(z[i], 2.5f);
    AscendC::GmFree(fill);
    // The tiling bytes must be GM the host allocated.
    AddTiling onStack{64, 1};
    XCHECK_THROWS_WITH(ICPU_RUN_KF(tiling_without_register, 1, (uint8_t*)&onStack), "GET_TILING_DATA_WITH_STRUCT (block 0)",
                       "are not inside one GM allocation");
    AscendC::GmFree(x);
    AscendC::GmFree(z);
    AscendC::GmFree(tiling);
}

XTEST(printf_and_dump_tensor_print_on_the_host) {
    auto* x = (float*)AscendC::GmAlloc(8 * sizeof(float));
    auto* tiling = (AddTiling*)AscendC::GmAlloc(sizeof(AddTiling));
    *tiling = AddTiling{96, 1};
    for (int i = 0; i < 8; ++i) x[i] = float(i) + 0.25f;
    std::fflush(stdout);
    char* out = nullptr;
    size_t len = 0;
    FILE* mem = open_memstream(&out, &len);
    FILE* saved = stdout;
    stdout = mem;
    ICPU_RUN_KF(dump_tensors, 1, (uint8_t*)x);
    ICPU_RUN_KF(tiling_without_register, 2, (uint8_t*)tiling);
    stdout = saved;
    std::fclose(mem);
    const std::string s(out, len);
    std::free(out);
    XCHECK(s.find("DumpTensor: desc=5, addr=0, data_type=float32, position=UB, dump_size=4\n"
                  "[0.250000, 1.250000, 2.250000, 3.250000]\n") != std::string::npos);
    XCHECK(s.find("DumpTensor: desc=6, addr=") != std::string::npos);
    XCHECK(s.find("position=GM, dump_size=2\n[0.250000, 1.250000]\n") != std::string::npos);
    XCHECK(s.find("done 1\n") != std::string::npos);
    XCHECK(s.find("block 1 of 2: blockLength 96\n") != std::string::npos);
    AscendC::GmFree(x);
    AscendC::GmFree(tiling);
}

XTEST(utilities_follow_cann) {
    static_assert(AscendC::IsSameType<float, float>::value && !AscendC::IsSameType<float, half>::value);
    static_assert(AscendC::SupportType<half, float, half>() && !AscendC::SupportType<int8_t, float, half>());
    static_assert(AscendC::DivCeil(33, 32) == 2 && AscendC::AlignUp(33, 32) == 64 && AscendC::ConstCeil(64, 32) == 2);
    XCHECK_EQ(AscendC::Ceil(1, 8), 1u);
    XCHECK_EQ(AscendC::CeilDivision(9, 0), 0);
    static_assert(std::is_same_v<AscendC::Conditional<false, int8_t, float>::type, float>);
    static_assert(std::is_same_v<AscendC::ConditionalMulti<true, false, int8_t, half, float, int>::type, half>);
    static_assert(g_coreType == AscendC::AIV && ASCEND_IS_AIV && ASCEND_IS_NOT_AIC);
}

// kernel_utils_constants.h's vector constants, as kernels do their tile arithmetic with them.
XTEST(vector_constants_kernels_compute_with) {
    using namespace AscendC;
    static_assert(FULL_MASK == ~uint64_t(0) && FULL_MASK_LEN == 128 && HALF_MASK_LEN == 64);
    static_assert(B32_DATA_NUM_PER_BLOCK * B32_BYTE_SIZE == ONE_BLK_SIZE && B16_DATA_NUM_PER_BLOCK * B16_BYTE_SIZE == ONE_BLK_SIZE);
    static_assert(B32_DATA_NUM_PER_REPEAT == 64 && B16_DATA_NUM_PER_REPEAT == 128 && ONE_REPEAT_FLOAT_SIZE == 64);
    static_assert(MAX_REPEAT_FLOAT_SIZE == 64 * 255 && ONE_BLK_HALF_NUM == 16 && BRCB_MAX_REPEAT_SIZE == 8 * 255);
    static_assert(std::is_same_v<decltype(+B32_BYTE_SIZE), int>);  // uint8_t, promoted as in CANN
    XCHECK_EQ(F32_INF, 0x7f800000u);
}

XTEST(kernel_assert_fails_its_block_with_the_message) {
    XCHECK_THROWS_WITH(ascend_sim::run_kernel("asserting", 2,
                                              [] {
                                                  const int64_t i = AscendC::GetBlockIdx();
                                                  assert(i == 0, "block %lld is not 0\n", (long long)i);
                                                  ascendc_assert(i >= 0);
                                              }),
                       "assert (block 1)", "Assertion `i == 0' failed. block 1 is not 0");
    ascend_sim::run_kernel("asserting", 1, [] { assert(AscendC::GetBlockIdx() == 0); });
    static_assert(AscendC::GetUBSizeInBytes() == 0 && AscendC::GetDataBlockSizeInBytes() == 32);
}

// The tiling structs a kernel names through kernel_tiling/kernel_tiling.h are plain data.
static_assert(std::is_trivially_copyable<AscendC::tiling::SoftMaxTiling>::value, "SoftMaxTiling");
static_assert(std::is_trivially_copyable<AscendC::tiling::TopkTiling>::value, "TopkTiling");

// The defines CANN's compiler gives a dav-c220 vector kernel, and kernel_utils_macros.h's
// branch hints: an A2 path under #if __CCE_AICORE__ == 220 is compiled, not emptied.
XTEST(cce_aicore_and_branch_hints) {
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
    const bool a2Path = true;
#else
    const bool a2Path = false;
#endif
    XCHECK(a2Path);
    int taken = 0;
    if (likely(taken == 0)) ++taken;
    if (unlikely(taken == 0)) ++taken;
    XCHECK_EQ(taken, 1);
}

namespace {
constexpr AscendC::TQueConfig buffers(uint32_t n) {
    AscendC::TQueConfig c;
    c.bufferNumber = n;
    return c;
}
constexpr AscendC::TQueConfig kOneBuffer = buffers(1);
constexpr AscendC::TQueConfig kAnyCount = buffers(0);
}  // namespace

// TQue<pos, depth, &config>: InitBuffer asserts that a config's bufferNumber, when set,
// is the buffer count it is given (kernel_tpipe_impl.h); 0 accepts any count.
XTEST(tque_config_buffer_number) {
    ascend_sim::run_kernel("tque_config", 1, [] {
        AscendC::TPipe pipe;
        AscendC::TQue<AscendC::TPosition::VECIN, 1, &kOneBuffer> one;
        AscendC::TQue<AscendC::TPosition::VECOUT, 1, &kAnyCount> any;
        pipe.InitBuffer(one, 1, 256);
        pipe.InitBuffer(any, 2, 256);
        auto t = one.AllocTensor<float>();
        one.FreeTensor(t);
    });
    XCHECK_THROWS_WITH(ascend_sim::run_kernel("tque_config", 1,
                                              [] {
                                                  AscendC::TPipe pipe;
                                                  AscendC::TQue<AscendC::TPosition::VECIN, 1, &kOneBuffer> q;
                                                  pipe.InitBuffer(q, 2, 256);
                                              }),
                       "TPipe::InitBuffer (block 0)",
                       "buffer number is 2, which should be the same as TQueConfig::bufferNumber(1)");
}
