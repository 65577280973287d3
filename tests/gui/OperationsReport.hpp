#pragma once
// A small hand-written report whose figures the Operations and Memory-tab tests check exactly:
// 1 IPU x 8 tiles, two operations (matmul with FLOPs, add without), four programs lowered to five
// steps (one exchange of 4 KiB, one stream copy of 2 KiB), three variables and two vertex types.

#include <cstdint>
#include <filesystem>

namespace tilescope::gui::test {

/// Known figures of operationsReport().
struct OperationsFigures {
    static constexpr std::uint64_t kMatmulCycles = 1000 + 300; // OnTileExecute + DoExchange
    static constexpr std::uint64_t kMatmulCode = 800;
    static constexpr std::uint64_t kMatmulFlops = 1'000'000;
    static constexpr std::uint64_t kWeightsBytes = 8 * 512; // always-live, all 8 tiles
    static constexpr std::uint64_t kActsBytes = 4 * 256;    // not-always-live, tiles 0-3
    static constexpr std::uint64_t kOutBytes = 2 * 128;     // not-always-live, tiles 6-7
    static constexpr std::uint64_t kAddCycles = 200;
    static constexpr std::uint64_t kAddCode = 300;
    static constexpr std::uint64_t kExchangeBytes = 4096;
    static constexpr std::uint64_t kStreamBytes = 2048;
    // Vertices: "Matmul" (state 48 B, code 1200 B) 3 per tile on tiles 0-3; "Add" (state 16 B,
    // code 300 B) 1 per tile on every tile.
    static constexpr std::uint64_t kMatmulState = 48, kMatmulVertexCode = 1200;
    static constexpr std::uint64_t kAddState = 16, kAddVertexCode = 300;
};

const std::filesystem::path& operationsReport();

} // namespace tilescope::gui::test
