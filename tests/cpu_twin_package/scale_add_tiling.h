// Tiling of scale_add: host and kernel share it.
#pragma once
#include <cstdint>

struct ScaleAddTiling {
    uint32_t totalLength;  // elements over all blocks
    uint32_t tileLength;   // elements per tile, a multiple of 16
    float alpha;
};
