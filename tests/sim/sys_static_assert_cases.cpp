// Compile-time refusals of the system, memory and synchronisation APIs (ctest
// compiles this file with one -DSIM_CASE_* and expects the compiler's message);
// without a case it must compile. SIM_ARCH_3510 is built with __NPU_ARCH__=3510.
#include "kernel_operator.h"

#ifdef SIM_ARCH_3510
static_assert(AscendC::GetUBSizeInBytes() == 248 * 1024, "GetUBSizeInBytes is TOTAL_UB_SIZE on arch 3510");
#endif

void cases() {
#ifdef SIM_CASE_SETATOMICADD_UINT32
    AscendC::SetAtomicAdd<uint32_t>();
#endif
#ifdef SIM_CASE_SETATOMICMAX_DOUBLE
    AscendC::SetAtomicMax<double>();
#endif
#ifdef SIM_CASE_DATACACHEPRELOAD_INT32
    AscendC::DataCachePreload(AscendC::GlobalTensor<uint64_t>{}, int32_t(0));
#endif
#ifdef SIM_CASE_READGMBYPASS_FLOAT
    (void)AscendC::ReadGmByPassDCache<float>(nullptr);
#endif
#ifdef SIM_CASE_GETTPIPEPTR_QUALIFIED
    (void)AscendC::GetTPipePtr();
#endif
#ifdef SIM_CASE_TBUFPOOL_L1
    AscendC::TBufPool<AscendC::TPosition::A1> pool;
#endif
#ifdef SIM_CASE_POPSTACKBUFFER_GM
    AscendC::LocalTensor<float> t;
    AscendC::PopStackBuffer<float, AscendC::TPosition::GM>(t);
#endif
#ifdef SIM_CASE_INITBUFPOOL_NOT_A_POOL
    AscendC::TPipe* pipe = nullptr;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe->InitBufPool(buf, 32);
#endif
    // Legal forms compile.
    AscendC::TBufPool<AscendC::TPosition::VECCALC> legalPool;
    AscendC::GlobalTensor<float>{}.SetL2CacheHint<AscendC::CacheRwMode::READ>(AscendC::CacheMode::CACHE_MODE_DISABLE);
    AscendC::SetAtomicAdd<bfloat16_t>();
    AscendC::SetAtomicMin<int8_t>();
    AscendC::SetAtomicType<int16_t>();
    AscendC::DisableDmaAtomic();
}
