// Compile-failure cases (ctest runs the compiler on this file with one
// -DSIM_CASE_* defined and expects the static_assert text). Without a case it
// must compile cleanly.
#include "kernel_operator.h"

using namespace AscendC;

void cases(LocalTensor<bfloat16_t> b, LocalTensor<float> f, LocalTensor<uint8_t> m, LocalTensor<half> h,
           LocalTensor<int64_t> i64) {
    (void)b, (void)f, (void)m, (void)h, (void)i64;
#ifdef SIM_CASE_EXP_BF16
    Exp(b, b, 128);
#endif
#ifdef SIM_CASE_MUL_BF16
    Mul(b, b, b, 128);
#endif
#ifdef SIM_CASE_MULS_BF16
    Muls(b, b, bfloat16_t(2.0f), 128);
#endif
#ifdef SIM_CASE_ADD_BF16
    Add(b, b, b, 128);
#endif
#ifdef SIM_CASE_REDUCESUM_BF16
    ReduceSum(b, b, b, 128);
#endif
#ifdef SIM_CASE_COMPARE_BF16
    Compare(m, b, b, CMPMODE::LT, 128);
#endif
#ifdef SIM_CASE_COMPARESCALAR_INT8
    CompareScalar(m.ReinterpretCast<int8_t>(), f, 1.0f, CMPMODE::EQ, 64);
#endif
#ifdef SIM_CASE_SETPADVALUE_POS
    SetPadValue<float, TPosition::VECCALC>(1.0f);
#endif
#ifdef SIM_CASE_CAST_PAIR
    Cast(h, i64, RoundMode::CAST_RINT, 64);
#endif
#ifdef SIM_CASE_MULS_DOUBLE_SCALAR
    Muls(f, f, 2.0, 64);
#endif
#ifdef SIM_CASE_PIPEBARRIER_S
    PipeBarrier<PIPE_S>();
#endif
#ifdef SIM_CASE_TQUEBIND_HOP
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    q.EnQue<TPosition::GM, TPosition::GM>(f);
#endif
#ifdef SIM_CASE_TILING_UNREGISTERED
    GET_TILING_DATA(t, nullptr);
#endif
#ifdef SIM_CASE_TQUE_VECCALC
    TQue<TPosition::VECCALC, 1> q;
#endif
#ifdef SIM_CASE_ABS_HIGHDIM_INT16
    Abs(m.ReinterpretCast<int16_t>(), m.ReinterpretCast<int16_t>(), 128, 1, {1, 1, 8, 8});
#endif
#ifdef SIM_CASE_NOT_FLOAT
    Not(f, f, 64);
#endif
#ifdef SIM_CASE_ADD_HIGHDIM_BF16
    Add(b, b, b, 128, 1, {1, 1, 1, 8, 8, 8});
#endif
#ifdef SIM_CASE_WHOLEREDUCESUM_BF16
    WholeReduceSum(b, b, 128, 1, 1, 1, 8);
#endif
#ifdef SIM_CASE_REDUCEPAIRELEM_MAX
    ReducePairElem<ReduceType::MAX, float, float>(f, f, 64, 1, 1, 1, 8);
#endif
#ifdef SIM_CASE_GATHERMASK_PATTERN_TYPE
    GatherMask(f, f, h.ReinterpretCast<uint16_t>(), false, 0, {1, 1, 8, 8}, *(uint64_t*)nullptr);
#endif
#ifdef SIM_CASE_ADDRELU_INT32
    AddRelu(f.ReinterpretCast<int32_t>(), f.ReinterpretCast<int32_t>(), f.ReinterpretCast<int32_t>(), 64);
#endif
#ifdef SIM_CASE_MULADDDST_PAIR
    MulAddDst(h, f, f, 64);
#endif
#ifdef SIM_CASE_CREATEVECINDEX_UINT16
    CreateVecIndex(h.ReinterpretCast<uint16_t>(), uint16_t(0), 64);
#endif
#ifdef SIM_CASE_PRELU
    Prelu(f, f, f, 64u);
#endif
#ifdef SIM_CASE_INTERLEAVE
    Interleave(f, f, f, f, 64);
#endif
    // Legal forms compile.
    Cast(f, b, RoundMode::CAST_NONE, 64);
    Cast(b, f, RoundMode::CAST_RINT, 64);
    Muls(f, f, 2.0f, 64);
    Duplicate(b, bfloat16_t(1.0f), 64);
    PipeBarrier<PIPE_V>();
}
