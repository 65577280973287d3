#include "TileMemoryMapModel.hpp"

#include "core/Background.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <algorithm>
#include <map>

namespace tilescope::gui {

std::uint64_t TileMemoryMap::includingGaps() const {
    // Regions lie in address order; the highest one holding anything sets how far up the tile is
    // used, and every region below it counts whole.
    std::uint64_t total = 0;
    bool above = false;
    for (std::size_t r = regions.size(); r-- > 0;) {
        const MemoryMapRegion& region = regions[r];
        if (above) {
            total += region.size;
        } else if (region.top > region.start) {
            total += region.top - region.start;
            above = true;
        }
    }
    return total;
}

QStringList TileMemoryMap::layoutProblems() const {
    QStringList problems;
    const auto where = [](const MemoryMapBlock& b) {
        return QObject::tr("%1 at %2 (%3 bytes)")
            .arg(b.what)
            .arg(b.address)
            .arg(formatCount(std::int64_t(b.bytes)));
    };
    for (const MemoryMapBlock& b : blocks) {
        if (b.region < 0 || std::size_t(b.region) >= regions.size()) {
            problems << QObject::tr("%1 lies in no region of the tile").arg(where(b));
            continue;
        }
        const MemoryMapRegion& r = regions[std::size_t(b.region)];
        if (b.address < r.start || b.end() > r.start + r.size)
            problems << QObject::tr("%1 lies outside its region %2").arg(where(b), r.name);
    }
    // Blocks are in address order: each is compared with the later ones that start before it
    // ends.
    for (std::size_t i = 0; i < blocks.size(); ++i)
        for (std::size_t j = i + 1; j < blocks.size() && blocks[j].address < blocks[i].end(); ++j) {
            const MemoryMapBlock& a = blocks[i];
            const MemoryMapBlock& b = blocks[j];
            if (a.bytes == 0 || b.bytes == 0)
                continue;
            const bool bothLive = a.alwaysLive() || b.alwaysLive() ||
                                  (*a.firstStep <= b.lastStep.value_or(*b.firstStep) &&
                                   *b.firstStep <= a.lastStep.value_or(*a.firstStep));
            if (bothLive)
                problems
                    << QObject::tr("%1 overlaps %2 while both are live").arg(where(a), where(b));
        }
    return problems;
}

TileMemoryMap TileMemoryMap::read(const report::ProfileReader& reader, std::uint32_t tile) {
    TileMemoryMap map;
    map.tile = tile;
    map.tileBytes = reader.target().bytesPerTile;
    std::map<std::int64_t, int> regionIndex;
    auto regions = reader.target().regions;
    std::sort(regions.begin(), regions.end(),
              [](const auto& a, const auto& b) { return a.startOffset < b.startOffset; });
    for (const report::MemoryRegion& r : regions) {
        regionIndex[r.id] = int(map.regions.size());
        map.regions.push_back(
            {QString::fromStdString(r.name), r.interleaved, r.startOffset, r.sizeBytes, 0, 0});
    }
    std::map<std::int64_t, QString> categories;
    for (const report::MemoryCategory& c : reader.memoryCategories())
        categories[c.id] = QString::fromStdString(c.label);

    const auto allocations = reader.tileAllocations(tile);
    std::vector<std::int64_t> ids;
    for (const auto& a : allocations)
        if (a.variableId)
            ids.push_back(*a.variableId);
    const auto names = reader.variableNames(ids);
    for (const report::TileAllocation& a : allocations) {
        MemoryMapBlock b;
        b.address = a.address;
        b.bytes = a.bytes;
        const auto region = regionIndex.find(a.regionId);
        b.region = region == regionIndex.end() ? -1 : region->second;
        b.categoryId = a.categoryId;
        const auto category = categories.find(a.categoryId);
        b.category = category == categories.end() ? QObject::tr("category %1").arg(a.categoryId)
                                                  : category->second;
        b.what = b.category;
        if (a.variableId) {
            b.variableId = a.variableId;
            const auto name = names.find(*a.variableId);
            b.what = name == names.end() ? QObject::tr("variable %1").arg(*a.variableId)
                                         : QString::fromStdString(name->second);
        }
        b.firstStep = a.firstStep;
        b.lastStep = a.lastStep;
        if (b.region >= 0) {
            MemoryMapRegion& r = map.regions[std::size_t(b.region)];
            r.used += b.bytes;
            r.top = std::max(r.top, b.end());
        }
        map.blocks.push_back(std::move(b));
    }
    std::stable_sort(map.blocks.begin(), map.blocks.end(),
                     [](const auto& a, const auto& b) { return a.address < b.address; });
    const auto total = reader.tileMemoryTotal(true);
    map.reportedIncludingGaps = tile < total.size() ? total[tile] : 0;
    return map;
}

TileMemoryMapModel::TileMemoryMapModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QObject(parent), session_(std::move(session)) {}

void TileMemoryMapModel::setSelection(const TileSelection& tiles) {
    tiles_ = tiles;
    auto session = session_;
    const int version = session->formatVersion();
    struct Answer {
        TileMemoryMap map;
        QString message;
    };
    load_.start<Answer>(
        this,
        [session, tiles, version] {
            return session->read([&](const report::ProfileReader& reader) {
                Answer answer;
                if (!reader.hasTileAllocations()) {
                    answer.message =
                        version < 6
                            ? QObject::tr("The tile memory map is not recorded in this report "
                                          "(format v%1).")
                                  .arg(version)
                            : QObject::tr("The tile memory map is not recorded in this report.");
                    return answer;
                }
                // The first selected tile, else the fullest one (gaps included).
                std::uint32_t tile = 0;
                if (!tiles.empty()) {
                    tile = tiles.ranges().front().first;
                } else {
                    const auto total = reader.tileMemoryTotal(true);
                    tile =
                        std::uint32_t(std::max_element(total.begin(), total.end()) - total.begin());
                }
                answer.map = TileMemoryMap::read(reader, tile);
                return answer;
            });
        },
        [this](Answer answer) {
            map_ = std::move(answer.map);
            message_ = std::move(answer.message);
            emit loaded();
        },
        [this](const QString& message) {
            map_ = {};
            message_ = tr("Cannot read the tile memory map: %1").arg(message);
            emit failed(message);
        });
}

} // namespace tilescope::gui
