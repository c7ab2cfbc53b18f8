// CANN's host tiling-data classes (register/tilingdata_base.h): BEGIN_TILING_DATA_DEF
// declares a class in the caller's namespace (optiling, by convention) whose
// fields are set on the host and serialised by SaveToBuffer into the bytes the
// kernel receives. As in CANN the fields are packed in declaration order with no
// padding (each field's offset is the sum of the sizes before it); a nested
// TILING_DATA_FIELD_DEF_STRUCT contributes its own packed bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ascend_sim/sim.h"
#include "securec.h"

namespace ascend_sim::twin {

// One field of a tiling class: where its value lives (an offset into the object,
// so copies of the object stay valid) and how its packed bytes are written.
struct TilingField {
    const char* name;
    size_t memberOffset;
    size_t bytes;
    void (*write)(const void* member, uint8_t* dst, size_t bytes);
};

class TilingDataBase {
public:
    size_t GetDataSize() const {
        size_t n = 0;
        for (const TilingField& f : fields_) n += f.bytes;
        return n;
    }
    const char* GetTilingClassName() const { return className_; }
    void SaveToBuffer(void* pdata, size_t capacity) const {
        const size_t need = GetDataSize();
        if (pdata == nullptr || capacity < need)
            throw ascend_sim::SimViolation("SaveToBuffer", -1, "buffer too small",
                                           "SaveToBuffer: " + std::string(className_) + " needs " + std::to_string(need) +
                                               " bytes; the buffer holds " + std::to_string(pdata ? capacity : 0));
        write_packed(static_cast<uint8_t*>(pdata));
    }
    void write_packed(uint8_t* dst) const {
        for (const TilingField& f : fields_) {
            f.write(reinterpret_cast<const uint8_t*>(this) + f.memberOffset, dst, f.bytes);
            dst += f.bytes;
        }
    }

protected:
    explicit TilingDataBase(const char* className) : className_(className) {}
    // Called by each field's registration member, in declaration order.
    int add_field(const char* name, const void* member, size_t bytes,
                  void (*write)(const void*, uint8_t*, size_t)) {
        fields_.push_back({name, size_t(static_cast<const uint8_t*>(member) - reinterpret_cast<const uint8_t*>(this)),
                           bytes, write});
        return 0;
    }
    static void write_bytes(const void* member, uint8_t* dst, size_t bytes) { std::memcpy(dst, member, bytes); }
    template <class S>
    static void write_struct(const void* member, uint8_t* dst, size_t) {
        static_cast<const S*>(member)->write_packed(dst);
    }

private:
    const char* className_;
    std::vector<TilingField> fields_;
};

// REGISTER_TILING_DATA_CLASS's registry: op type -> a new instance of its class.
class TilingDataRegistry {
public:
    using Constructor = std::shared_ptr<TilingDataBase> (*)();
    static TilingDataRegistry& GetInstance() {
        static TilingDataRegistry r;
        return r;
    }
    void RegisterTilingData(const char* opType, Constructor c) { ctors_[opType] = c; }
    std::shared_ptr<TilingDataBase> CreateTilingDataInstance(const char* opType) const {
        auto it = ctors_.find(opType);
        return it == ctors_.end() ? nullptr : it->second();
    }

private:
    std::map<std::string, Constructor> ctors_;
};

}  // namespace ascend_sim::twin

namespace optiling {
using TilingDef = ascend_sim::twin::TilingDataBase;
using CTilingDataClassFactory = ascend_sim::twin::TilingDataRegistry;
}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                            \
    class class_name : public ascend_sim::twin::TilingDataBase {     \
    public:                                                          \
        class_name() : ascend_sim::twin::TilingDataBase(#class_name) {}

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                       \
public:                                                                                                    \
    void set_##field_name(data_type v) { field_name##_ = v; }                                              \
    data_type get_##field_name() const { return field_name##_; }                                           \
                                                                                                           \
private:                                                                                                   \
    data_type field_name##_ = 0;                                                                           \
    int field_name##_field_ = add_field(#field_name, &field_name##_, sizeof(data_type), &write_bytes);

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                          \
public:                                                                                                    \
    void set_##field_name(const arr_type* v) {                                                             \
        if (v != field_name##_) std::memcpy(field_name##_, v, sizeof(field_name##_));                      \
    }                                                                                                      \
    arr_type* get_##field_name() { return field_name##_; }                                                 \
                                                                                                           \
private:                                                                                                   \
    arr_type field_name##_[arr_size] = {};                                                                 \
    int field_name##_field_ = add_field(#field_name, field_name##_, sizeof(field_name##_), &write_bytes);

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                              \
public:                                                                                                    \
    struct_type field_name;                                                                                \
                                                                                                           \
private:                                                                                                   \
    int field_name##_field_ =                                                                              \
        add_field(#field_name, &field_name, field_name.GetDataSize(), &write_struct<struct_type>);

#define END_TILING_DATA_DEF \
    }                       \
    ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                     \
    static const int ascend_sim_tiling_registered_##op_type##class_name = [] {                             \
        ascend_sim::twin::TilingDataRegistry::GetInstance().RegisterTilingData(                             \
            #op_type, []() -> std::shared_ptr<ascend_sim::twin::TilingDataBase> {                           \
                return std::make_shared<class_name>();                                                      \
            });                                                                                             \
        return 0;                                                                                           \
    }();
