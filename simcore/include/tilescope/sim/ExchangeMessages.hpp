#pragma once
// The messages of one exchange, as Poplar's compiler builds them: what each tile sends and
// receives, how long that takes and how many exchange instructions (code) it needs. The executor
// moves the data by its own plans.

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/CostModel.hpp"
#include "tilescope/sim/GraphModel.hpp"
#include "tilescope/sim/TileMappingRuns.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// A run of elements that is contiguous on its source tile and goes to one destination tile.
/// `dstVariable`/`dstBegin` give where it lands; the receiver sets a new destination address for
/// each run of a sender's data that does not follow the previous one in its memory.
struct ExchangePiece {
    std::uint32_t srcTile = 0, dstTile = 0;
    std::uint32_t srcVariable = 0;
    std::uint64_t srcBegin = 0;
    std::uint32_t dstVariable = 0;
    std::uint64_t dstBegin = 0;
    std::uint64_t length = 0; ///< elements
    std::uint32_t elementBytes = 0;
};

/// Per tile results of planning one exchange.
struct ExchangeMessages {
    /// Cycles the tile's data takes: it sends and receives at once, so the busier direction.
    /// Sends stream at the exchange rate; each message received takes its bytes at that rate
    /// (twice it for data shared with the super-tile partner), and at least
    /// CostModel::minCyclesPerReceivedMessage.
    std::uint64_t transferCycles(std::uint32_t tile) const {
        return sendCycles[tile] > receiveCycles[tile] ? sendCycles[tile] : receiveCycles[tile];
    }

    capture::PerTile bytes;         ///< sent plus received
    capture::PerTile codeBytes;     ///< exchange instructions, in bytes
    capture::PerTile receivedBytes; ///< bytes landing on the tile
    capture::PerTile messageCount;  ///< (source, destination) tile pairs the tile is part of
    capture::PerTile sentBytes;     ///< distinct bytes leaving the tile (sends multicast)
    /// Bytes the tile receives that the other tile of its super tile receives too: the pair
    /// takes them in the same cycles at twice the rate (TargetSpec::kTilesPerSharedExchangeBus).
    capture::PerTile busSharedBytes;
    capture::PerTile sendCycles, receiveCycles; ///< see transferCycles()
    capture::PerTile instructions;              ///< exchange instructions the tile issues
    bool any = false;
    bool global = false; ///< some message crosses IPUs
};

/// Builds the messages of an exchange from its pieces (any order; reordered in place). With
/// `intoTemporary`, every destination tile receives into a fresh contiguous temporary (a vertex's
/// remote inputs): pieces read more than once are sent once and land in one run per sender.
///
/// Exchange code per tile: a sender issues `sendInstructionsPerRegion` per contiguous source
/// region it sends to a tile; a receiver issues `receiveInstructionsPerSourceTile` per tile it
/// receives from and `receiveInstructionsPerDestinationRun` for each further place the data
/// lands in; each instruction is `exchangeInstructionBytes`. `runs` holds the model's tile
/// mappings (which elements are neighbours on a tile).
ExchangeMessages planExchangeMessages(std::vector<ExchangePiece>& pieces, bool intoTemporary,
                                      const GraphModel& model, const TileMappingRuns& runs,
                                      const CostModel& costs);

} // namespace tilescope::sim
