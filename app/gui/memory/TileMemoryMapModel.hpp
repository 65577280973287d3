#pragma once

#include "core/NewestLoad.hpp"
#include "core/TileSelection.hpp"

#include <QObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::report {
class ProfileReader;
}

namespace tilescope::gui {

class ReportSession;

/// One object of a tile's memory map: where it lies and what it is.
struct MemoryMapBlock {
    std::uint64_t address = 0; ///< from the bottom of the tile's memory
    std::uint64_t bytes = 0;
    int region = 0; ///< index in TileMemoryMap::regions
    std::int64_t categoryId = 0;
    QString category; ///< the category's label
    QString what;     ///< the variable's name, or the category's label
    std::optional<std::int64_t> variableId;
    std::optional<std::int64_t> firstStep; ///< not-always-live: live steps, inclusive
    std::optional<std::int64_t> lastStep;

    std::uint64_t end() const { return address + bytes; }
    bool alwaysLive() const { return !firstStep; }
};

/// One memory region of the tile and how far up it is used.
struct MemoryMapRegion {
    QString name;
    bool interleaved = false;
    std::uint64_t start = 0;
    std::uint64_t size = 0;
    std::uint64_t used = 0; ///< bytes of the blocks in it (shared addresses counted once each)
    std::uint64_t top = 0;  ///< the end of its highest block, 0 when it holds none
};

/// What the memory map shows of one tile: its regions and blocks in address order.
struct TileMemoryMap {
    std::uint32_t tile = 0;
    std::uint64_t tileBytes = 0;
    std::vector<MemoryMapRegion> regions;
    std::vector<MemoryMapBlock> blocks;
    /// The tile's memory including gaps as the report's memory figures state it (every category
    /// of the tile, gaps included).
    std::uint64_t reportedIncludingGaps = 0;

    /// Memory including gaps as the map lays it out: each region counted from its start to its
    /// highest block, and a region below one that holds anything counted whole (the tile's
    /// memory runs from its bottom to its last byte used).
    std::uint64_t includingGaps() const;
    /// What is wrong with the layout, one sentence each: blocks outside their region, and blocks
    /// that share addresses while both live (always-live ones, or overlapping live steps).
    QStringList layoutProblems() const;
    /// Reads tile `tile`'s map from `reader` (empty blocks when the report has none).
    static TileMemoryMap read(const report::ProfileReader& reader, std::uint32_t tile);
};

/// The Memory view's Memory map tab: the memory of one tile (the first selected, else the
/// fullest) at its addresses. setSelection() reads on a worker; a newer selection supersedes an
/// older one still running. When the report records no map, message() says why.
class TileMemoryMapModel : public QObject {
    Q_OBJECT
public:
    explicit TileMemoryMapModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    void setSelection(const TileSelection& tiles);
    const TileSelection& selection() const { return tiles_; }
    bool isLoading() const { return load_.busy(); }
    const TileMemoryMap& map() const { return map_; }
    /// Why there is nothing to draw (empty when map() is the tile's map).
    const QString& message() const { return message_; }

signals:
    void loaded();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    TileSelection tiles_;
    TileMemoryMap map_;
    QString message_;
    NewestLoad load_;
};

} // namespace tilescope::gui
