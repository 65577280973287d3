#pragma once
// The messages of one exchange, as Poplar's compiler builds them: what each tile sends and
// receives, how many exchange instructions that takes, and which received data must be rearranged
// on the tile afterwards. Used for memory accounting (exchange code, temporaries, copy
// descriptors) only; the executor moves the data by its own plans.

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/CostModel.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// Whether elements [from, to) of variable `v` hold nothing of it on `tile`, so that the element
/// before `from` and the one at `to` are neighbours in the tile's memory (a variable's part on a
/// tile is stored in element order, whichever elements other tiles hold).
bool adjacentOnTile(const VariableInfo& v, std::uint32_t tile, std::uint64_t from,
                    std::uint64_t to);

/// A run of elements that is contiguous on its source tile and goes to one destination tile.
/// `dstVariable`/`dstBegin` give where it lands; pieces of one (source, destination) tile pair
/// whose destinations follow one another in source order land directly, others are received into
/// a temporary and rearranged on the destination tile.
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
    capture::PerTile bytes;         ///< sent plus received
    capture::PerTile codeBytes;     ///< exchange instructions, in bytes
    capture::PerTile receivedBytes; ///< bytes landing on the tile
    capture::PerTile rearranged;    ///< bytes received into a temporary and rearranged
    capture::PerTile copyPieces;    ///< contiguous pieces the rearrangement copies
    capture::PerTile messageCount;  ///< (source, destination) tile pairs the tile is part of
    capture::PerTile sentBytes;     ///< bytes leaving the tile, once per destination
    capture::PerTile instructions;  ///< exchange instructions the tile issues
    bool any = false;
    bool global = false; ///< some message crosses IPUs
};

/// Builds the messages of an exchange from its pieces (any order; reordered in place). With
/// `intoTemporary`, every destination tile receives into a fresh contiguous temporary (a vertex's
/// remote inputs): pieces read more than once are sent once and nothing is rearranged.
///
/// Exchange code per tile: a sender issues `sendInstructionsPerRegion` per contiguous source
/// region it sends to a tile; a receiver issues `receiveInstructionsPerSourceTile` per tile it
/// receives from; each instruction is `exchangeInstructionBytes`.
ExchangeMessages planExchangeMessages(std::vector<ExchangePiece>& pieces, bool intoTemporary,
                                      const GraphModel& model, const CostModel& costs);

} // namespace tilescope::sim
