// CANN's host tiling-data classes (register/tilingdata_base.h): BEGIN_TILING_DATA_DEF
// declares a class in the caller's namespace (optiling, by convention) whose
// fields are set on the host and serialised by SaveToBuffer into the bytes the
// kernel receives. The layout is CANN's TilingDef's: fields in declaration order,
// each at a multiple of its element size (a nested struct at a multiple of 8), the
// gap before it a uint8_t placeholder field named <field>PH, and the class's size
// a multiple of 8 (placeholder <class>PH). GetFieldInfo lists the fields with
// their placeholders, as the kernel-side struct is generated from them
// (sim/kernel_tiling.cmake, docs/cpu_twin.md).
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

namespace optiling {
// CANN's FieldInfo: classType "0" a scalar, "1" an array of arrSize_, "2" a nested struct.
class FieldInfo {
public:
    FieldInfo(const char* dtype, const char* name) : dtype_(dtype), name_(name), classType_("0") {}
    FieldInfo(const char* dtype, const char* name, size_t arrSize)
        : dtype_(dtype), name_(name), arrSize_(arrSize), classType_("1") {}
    FieldInfo(const char* dtype, const char* name, const char* structType, size_t structSize)
        : dtype_(dtype), name_(name), structType_(structType), structSize_(structSize), classType_("2") {}

    const char* dtype_;
    const char* name_;
    size_t arrSize_ = 0;
    const char* structType_ = nullptr;
    size_t structSize_ = 0;
    const char* classType_;
};
}  // namespace optiling

namespace ascend_sim::twin {

// One field's value: where it lives (an offset into the object, so copies of the
// object stay valid), where its bytes go in the serialised data, and how.
struct TilingField {
    size_t memberOffset;
    size_t dataOffset;
    size_t bytes;
    void (*write)(const void* member, uint8_t* dst, size_t bytes);
};

class TilingDataBase {
public:
    size_t GetDataSize() const { return dataSize_; }
    const char* GetTilingClassName() const { return className_; }
    std::vector<optiling::FieldInfo> GetFieldInfo() const { return info_; }
    void SaveToBuffer(void* pdata, size_t capacity) const {
        if (pdata == nullptr || capacity < dataSize_)
            throw ascend_sim::SimViolation("SaveToBuffer", -1, "buffer too small",
                                           "SaveToBuffer: " + std::string(className_) + " needs " +
                                               std::to_string(dataSize_) + " bytes; the buffer holds " +
                                               std::to_string(pdata ? capacity : 0));
        write_data(static_cast<uint8_t*>(pdata));
    }
    // The serialised bytes, placeholders zero (CANN's data buffer is zero-initialised).
    void write_data(uint8_t* dst) const {
        std::memset(dst, 0, dataSize_);
        for (const TilingField& f : fields_)
            f.write(reinterpret_cast<const uint8_t*>(this) + f.memberOffset, dst + f.dataOffset, f.bytes);
    }

protected:
    explicit TilingDataBase(const char* className) : className_(className) {}
    // CANN's CheckAlignAndGenPlaceHolder: pad the data to a multiple of typeSize
    // with a uint8_t array field of that name.
    void CheckAlignAndGenPlaceHolder(const char* name, size_t typeSize) {
        if (dataSize_ % typeSize == 0) return;
        const size_t gap = typeSize - dataSize_ % typeSize;
        info_.emplace_back("uint8_t", name, gap);
        dataSize_ += gap;
    }
    // Called by each field's registration member, in declaration order.
    int add_field(const optiling::FieldInfo& info, const char* placeholder, size_t align, const void* member,
                  size_t bytes, void (*write)(const void*, uint8_t*, size_t)) {
        CheckAlignAndGenPlaceHolder(placeholder, align);
        info_.push_back(info);
        fields_.push_back({size_t(static_cast<const uint8_t*>(member) - reinterpret_cast<const uint8_t*>(this)),
                           dataSize_, bytes, write});
        dataSize_ += bytes;
        return 0;
    }
    static void write_bytes(const void* member, uint8_t* dst, size_t bytes) { std::memcpy(dst, member, bytes); }
    template <class S>
    static void write_struct(const void* member, uint8_t* dst, size_t) {
        static_cast<const S*>(member)->write_data(dst);
    }

private:
    const char* className_;
    size_t dataSize_ = 0;
    std::vector<optiling::FieldInfo> info_;
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
    std::vector<std::string> op_types() const {
        std::vector<std::string> names;
        for (const auto& entry : ctors_) names.push_back(entry.first);
        return names;
    }

private:
    std::map<std::string, Constructor> ctors_;
};

}  // namespace ascend_sim::twin

namespace optiling {
using TilingDef = ascend_sim::twin::TilingDataBase;
using CTilingDataClassFactory = ascend_sim::twin::TilingDataRegistry;
}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                                      \
    class class_name : public ascend_sim::twin::TilingDataBase {                               \
    public:                                                                                    \
        class_name() : ascend_sim::twin::TilingDataBase(#class_name) {                         \
            CheckAlignAndGenPlaceHolder(#class_name "PH", 8);                                  \
        }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                         \
public:                                                                                                      \
    void set_##field_name(data_type v) { field_name##_ = v; }                                                \
    data_type get_##field_name() const { return field_name##_; }                                             \
                                                                                                             \
private:                                                                                                     \
    data_type field_name##_ = 0;                                                                             \
    int field_name##_field_ = add_field(optiling::FieldInfo(#data_type, #field_name), #field_name "PH",      \
                                        sizeof(data_type), &field_name##_, sizeof(data_type), &write_bytes);

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                             \
public:                                                                                                       \
    void set_##field_name(const arr_type* v) {                                                                \
        if (v != field_name##_) std::memcpy(field_name##_, v, sizeof(field_name##_));                         \
    }                                                                                                         \
    arr_type* get_##field_name() { return field_name##_; }                                                    \
                                                                                                              \
private:                                                                                                      \
    arr_type field_name##_[arr_size] = {};                                                                    \
    int field_name##_field_ = add_field(optiling::FieldInfo(#arr_type, #field_name, size_t(arr_size)),       \
                                        #field_name "PH", sizeof(arr_type), field_name##_, sizeof(field_name##_), \
                                        &write_bytes);

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                                \
public:                                                                                                      \
    struct_type field_name;                                                                                  \
                                                                                                             \
private:                                                                                                     \
    int field_name##_field_ =                                                                                \
        add_field(optiling::FieldInfo("struct", #field_name, #struct_type, field_name.GetDataSize()),        \
                  #field_name "PH", 8, &field_name, field_name.GetDataSize(), &write_struct<struct_type>);

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
