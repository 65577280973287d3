// The joint timeline's lightweight-profiling blocks: one track per recording tile and nesting
// depth, each block placed where its run's device time puts it (the run's host start plus its
// run-relative cycles at the target's clock, as steps are). User blocks are coloured by name,
// stream copies and buffer flushes in the stream-copy colour, overflows red, as in the
// Execution Trace's Blocks mode.
#include "DeviceTraceSession.hpp"
#include "core/Format.hpp"

#include <QCoreApplication>
#include <QHash>
#include <algorithm>
#include <cmath>
#include <map>

namespace tilescope::gui {
namespace {

using Box = TimelineModel::Box;

constexpr std::uint8_t kOverflowColour = 2; // red in the timeline palette

QString tr(const char* text) {
    return QCoreApplication::translate("DeviceTraceSession", text);
}

/// A user block's colour from its name, never the stream-copy or overflow colour.
std::uint8_t nameColour(const std::string& name, std::uint8_t streamColour) {
    auto c = std::uint8_t(qHash(QString::fromStdString(name)) % TimelineModel::kPaletteSize);
    while (c == streamColour || c == kOverflowColour)
        c = std::uint8_t((c + 1) % TimelineModel::kPaletteSize);
    return c;
}

} // namespace

void DeviceTraceSession::loadBlocks() {
    const std::uint8_t stream = phaseColour("stream");
    for (const std::uint32_t tile : reader_->blockTiles()) {
        // The reader gives a tile's blocks by first cycle, enclosing ones first; a block's depth
        // is the number of blocks still open when it starts, so blocks of one depth never
        // overlap and stay in time order.
        std::vector<std::uint64_t> openEnds; // absolute end cycles of the enclosing blocks
        std::map<std::uint32_t, std::vector<PlacedBlock>> byDepth;
        for (const auto& b : reader_->blocks(tile)) {
            if (b.runIndex < 0 || std::size_t(b.runIndex) >= runs_.size()) {
                ++unplacedBlocks_;
                continue;
            }
            while (!openEnds.empty() && openEnds.back() <= b.cyclesFrom)
                openEnds.pop_back();
            const auto depth = std::uint32_t(openEnds.size());
            openEnds.push_back(b.cyclesTo);

            const auto& run = runs_[std::size_t(b.runIndex)];
            const auto nsAt = [&](std::uint64_t cycle) -> std::int64_t {
                const double relative = double(cycle) - double(b.runStartCycle);
                return runBeginNs(run) + std::llround(std::max(relative, 0.0) * nsPerCycle_);
            };
            PlacedBlock p;
            p.startNs = nsAt(b.cyclesFrom);
            p.endNs = std::max(nsAt(b.cyclesTo), p.startNs + 1);
            p.cycles = b.cyclesTo > b.cyclesFrom ? b.cyclesTo - b.cyclesFrom : 0;
            p.dropped = b.dropped;
            p.kind = b.kind;
            std::string name(report::blockKindName(b.kind));
            if (b.kind == report::BlockKind::Common && b.programId)
                name = names_[std::size_t(programName(*b.programId))].toStdString();
            else if (b.programId)
                name += ": " + names_[std::size_t(programName(*b.programId))].toStdString();
            p.nameId = intern(name);
            p.colour = b.kind == report::BlockKind::Overflow ? kOverflowColour
                       : report::isStreamCopyKind(b.kind)    ? stream
                                                             : nameColour(name, stream);
            beginNs_ = std::min(beginNs_, p.startNs);
            endNs_ = std::max(endNs_, p.endNs);
            byDepth[depth].push_back(p);
        }
        for (auto& [depth, blocks] : byDepth) {
            blockTracks_.push_back({tile, depth});
            blocks_.push_back(std::move(blocks));
        }
    }
}

std::vector<Box> DeviceTraceSession::blockBoxes(std::size_t track, std::int64_t fromNs,
                                                std::int64_t toNs, int widthPx) const {
    std::vector<Box> out;
    if (track >= blocks_.size())
        return out;
    const auto& blocks = blocks_[track];
    const double nsPerPixel = double(std::max<std::int64_t>(toNs - fromNs, 1)) / widthPx;
    // Blocks of one track are disjoint and in time order, so their ends are sorted too.
    auto it = std::lower_bound(blocks.begin(), blocks.end(), fromNs,
                               [](const PlacedBlock& b, std::int64_t ns) { return b.endNs < ns; });
    std::uint64_t longest = 0; // cycles of the longest block in the last box
    for (; it != blocks.end() && it->startNs <= toNs; ++it) {
        Box b;
        b.startNs = it->startNs;
        b.endNs = it->endNs;
        b.nameId = it->nameId;
        b.eventId = std::int64_t(it - blocks.begin());
        b.colour = it->colour;
        b.cycles = it->cycles;
        // Neighbours narrower than a pixel share a box named after its longest block; an
        // overflow stays visible in it.
        const bool overflow = it->kind == report::BlockKind::Overflow;
        appendOrMergeNarrow(out, 0, b, overflow ? ~0ull : it->cycles, overflow, nsPerPixel,
                            longest);
    }
    return out;
}

QString DeviceTraceSession::describeBlock(std::size_t track, const Box& box) const {
    const QString cycles = tr("%1 on the device (%2)")
                               .arg(formatDuration(double(box.cycles) * nsPerCycle_))
                               .arg(formatCycles(box.cycles, 0));
    if (track >= blocks_.size())
        return cycles;
    const QString where = tr("tile %1").arg(blockTracks_[track].tile);
    if (box.aggregated)
        return tr("%1 blocks on %2; %3").arg(formatCount(box.count), where, cycles);
    const auto& blocks = blocks_[track];
    if (box.eventId < 0 || std::size_t(box.eventId) >= blocks.size())
        return cycles;
    const PlacedBlock& b = blocks[std::size_t(box.eventId)];
    const QString kind = QString::fromUtf8(report::blockKindName(b.kind).data(),
                                           int(report::blockKindName(b.kind).size()));
    if (b.kind == report::BlockKind::Overflow)
        return tr("buffer full on %1: %2 records dropped; %3")
            .arg(where, formatCount(std::int64_t(b.dropped)), cycles);
    return tr("%1 block on %2; %3").arg(kind, where, cycles);
}

} // namespace tilescope::gui
