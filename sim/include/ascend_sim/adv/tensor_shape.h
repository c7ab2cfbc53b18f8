// ge::Shape and ge::DataType as the tiling helpers take them (asc-devkit
// include/adv_api/utils/types.h: AscendC::TensorShape = ge::Shape,
// AscendC::TensorDataType = ge::DataType): a list of dims and their product.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ge {
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    // The element count; 0 for a shape without dims.
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};
}  // namespace ge

namespace ge {
// The element types the tiling helpers take (graph/types.h's values).
enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
};
}  // namespace ge

namespace AscendC {
using TensorShape = ge::Shape;
using TensorDataType = ge::DataType;
}
