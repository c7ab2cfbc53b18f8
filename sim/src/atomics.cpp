// The DMA atomic mode (SetAtomicAdd/Max/Min, SetAtomicType, DisableDmaAtomic):
// a UB->GM copy under it combines each element with the one in GM instead of
// overwriting it, in the mode's type whatever the copy's T. Blocks on different
// host threads combine under one launch-wide lock, so the sum is exact in any order.
#include <cstring>
#include <limits>
#include <mutex>

#include "ascend_sim/numerics/types.h"
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

namespace {
const char* op_word(AtomicOp op) {
    switch (op) {
    case AtomicOp::ADD: return "add";
    case AtomicOp::MAX: return "max";
    case AtomicOp::MIN: return "min";
    default: return "none";
    }
}

const char* type_word(AtomicType t) {
    switch (t) {
    case AtomicType::F32: return "float";
    case AtomicType::F16: return "half";
    case AtomicType::S16: return "int16_t";
    case AtomicType::S32: return "int32_t";
    case AtomicType::S8: return "int8_t";
    case AtomicType::BF16: return "bfloat16_t";
    default: return "no type";
    }
}

size_t type_bytes(AtomicType t) {
    switch (t) {
    case AtomicType::F32:
    case AtomicType::S32: return 4;
    case AtomicType::F16:
    case AtomicType::S16:
    case AtomicType::BF16: return 2;
    default: return 1;
    }
}

// Floating types: one IEEE operation in float, rounded once to T (exact for
// half and bfloat16_t, whose sums fit in float's 24 bits before rounding).
template <class T>
T combine_float(const char*, AtomicOp op, T g, T u) {
    const float a = float(g), b = float(u);
    if (op == AtomicOp::ADD) return T(a + b);
    if (op == AtomicOp::MAX) return a > b ? g : u;
    return a < b ? g : u;
}

// Integer types: an overflowing add has no documented result, so it is refused.
template <class T>
T combine_int(const char* api, AtomicOp op, T g, T u) {
    if (op == AtomicOp::MAX) return g > u ? g : u;
    if (op == AtomicOp::MIN) return g < u ? g : u;
    const int64_t s = int64_t(g) + int64_t(u);
    if (s < int64_t(std::numeric_limits<T>::min()) || s > int64_t(std::numeric_limits<T>::max()))
        fail(api, "integer atomic add overflows",
             "atomic add of %lld to %lld overflows the atomic type's range [%lld, %lld]; the result is undefined",
             (long long)u, (long long)g, (long long)std::numeric_limits<T>::min(),
             (long long)std::numeric_limits<T>::max());
    return T(s);
}

template <class T, class F>
void combine_all(const char* api, AtomicOp op, uint8_t* g, const uint8_t* u, size_t n, F f) {
    for (size_t i = 0; i < n; i += sizeof(T)) {
        T a, b;
        std::memcpy(&a, g + i, sizeof(T));
        std::memcpy(&b, u + i, sizeof(T));
        const T r = f(api, op, a, b);
        std::memcpy(g + i, &r, sizeof(T));
    }
}
}  // namespace

std::string atomic_name(uint8_t code) {
    return std::string("atomic ") + op_word(AtomicOp(code / 8)) + " (" + type_word(AtomicType(code % 8)) + ")";
}

void set_atomic_op(const char* api, AtomicOp op) { cur(api).atomic.op = op; }

void set_atomic_type(const char* api, AtomicType type) { cur(api).atomic.type = type; }

bool atomic_on(const char* api) { return cur(api).atomic.op != AtomicOp::NONE; }

void atomic_store(const char* api, uint8_t* g, const uint8_t* u, size_t n) {
    Block& b = cur(api);
    const AtomicMode m = b.atomic;
    if (n % type_bytes(m.type) != 0)
        fail(api, "atomic copy not a whole number of atomic-type elements",
             "%zu B copied under %s is not a multiple of the atomic type's %zu B", n, atomic_name(m.code()).c_str(),
             type_bytes(m.type));
    std::lock_guard<std::mutex> lk(b.launch->atomicMu);
    switch (m.type) {
    case AtomicType::F32: return combine_all<float>(api, m.op, g, u, n, combine_float<float>);
    case AtomicType::F16: return combine_all<half>(api, m.op, g, u, n, combine_float<half>);
    case AtomicType::BF16: return combine_all<bfloat16_t>(api, m.op, g, u, n, combine_float<bfloat16_t>);
    case AtomicType::S32: return combine_all<int32_t>(api, m.op, g, u, n, combine_int<int32_t>);
    case AtomicType::S16: return combine_all<int16_t>(api, m.op, g, u, n, combine_int<int16_t>);
    case AtomicType::S8: return combine_all<int8_t>(api, m.op, g, u, n, combine_int<int8_t>);
    case AtomicType::NONE: return;  // not reached: SetAtomicAdd/Max/Min always set a type
    }
}

}  // namespace ascend_sim::detail
