#pragma once

#include "TileOrder.hpp"
#include "core/TileSelection.hpp"
#include "tilescope/report/TilePlacement.hpp"

#include <QObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// Memory per tile for the Memory view. `load()` reads, on a worker thread, one per-tile series
/// per (category, region) of the report (a few dozen blobs, whatever the program size) and keeps
/// them in memory; everything after that is arithmetic on those arrays. The chosen breakdown
/// (total, by category, by region, by liveness) and the gaps toggle define the series; columns()
/// aggregates any tile window into at most one column per pixel (min/max/mean of the total and
/// the mean of each series), with prefix sums so a frame costs O(columns x series) plus one pass
/// over the visible tiles for min/max: a 23,552-tile report stays fluid at any zoom.
/// The chart runs over positions: tile ids in software order, or the tiles sorted by their place
/// on the die (report::TilePlacement) in physical order; tileAt() and positionOf() convert.
class TileMemoryModel : public QObject {
    Q_OBJECT
public:
    enum class Breakdown { Total = 0, Category = 1, Region = 2, Liveness = 3 };
    using TileOrder = gui::TileOrder;

    /// One pixel column (or one tile when zoomed in) of the chart: positions [first, end).
    struct Column {
        std::uint32_t first = 0;
        std::uint32_t end = 0; // exclusive
        double minTotal = 0;
        double maxTotal = 0;
        double meanTotal = 0;
    };
    /// Columns of a tile window; `seriesMean[c * seriesCount + s]` is series s in column c.
    struct Columns {
        std::vector<Column> columns;
        std::vector<double> seriesMean;
        int seriesCount = 0;
        double maxTotal = 0;
    };
    /// Bytes of one category in one region, summed over a tile selection.
    struct CategoryBytes {
        std::int64_t categoryId = 0;
        QString label;
        QString group;
        std::vector<std::uint64_t> perRegion; // indexed like regionNames()
    };

    explicit TileMemoryModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);
    ~TileMemoryModel() override;

    void load();
    bool isLoaded() const { return loaded_; }
    QString error() const { return error_; }

    std::uint32_t tileCount() const;
    std::uint32_t tilesPerIpu() const;
    std::uint64_t bytesPerTile() const;
    QStringList regionNames() const;

    void setBreakdown(Breakdown b);
    Breakdown breakdown() const { return breakdown_; }
    void setIncludeGaps(bool include);
    bool includeGaps() const { return includeGaps_; }
    /// Physical order needs the report's tile placement; placementProblem() says why it is
    /// unavailable (none recorded, or a damaged one) when it is not.
    bool hasPhysicalOrder() const;
    QString placementProblem() const;
    /// Empty when the report records no placement.
    const report::TilePlacement& placement() const;
    void setTileOrder(TileOrder order);
    TileOrder tileOrder() const { return order_; }
    /// Global tile at chart position `position`, and the reverse (identity in software order).
    std::uint32_t tileAt(std::uint32_t position) const;
    std::uint32_t positionOf(std::uint32_t tile) const;
    /// The tiles at positions [first, end).
    TileSelection tilesAt(std::uint32_t first, std::uint32_t end) const;
    /// True if a tile at positions [first, end) is in `tiles`.
    bool anySelected(const TileSelection& tiles, std::uint32_t first, std::uint32_t end) const;
    /// Positions [first, end) covering every tile of `tiles` (for zooming to a tile list).
    std::pair<std::uint32_t, std::uint32_t> positionSpan(const TileSelection& tiles) const;

    /// Names of the current series, bottom of the stack first.
    const QStringList& seriesNames() const { return seriesNames_; }
    /// Category ids each current series adds up (for colours that stay stable across breakdowns).
    const std::vector<std::int64_t>& seriesKeys() const { return seriesKeys_; }

    /// Total bytes of one tile under the current gaps setting.
    std::uint64_t tileTotal(std::uint32_t tile) const;
    /// Value of series `s` on one tile.
    std::uint64_t seriesValue(int s, std::uint32_t tile) const;
    /// Aggregates positions [first, end) into at most `maxColumns` columns.
    Columns columns(std::uint32_t first, std::uint32_t end, int maxColumns) const;
    /// Per category, bytes per region summed over `tiles` (categories with no bytes left out).
    std::vector<CategoryBytes> categoryBytes(const TileSelection& tiles) const;
    /// Largest tile total in the whole report under the current gaps setting.
    std::uint64_t maxTileTotal() const { return maxTileTotal_; }

signals:
    void loadedChanged();
    void seriesChanged();
    void failed(const QString& message);

private:
    struct Data;
    void rebuildSeries();
    void rebuildPrefixSums();

    std::shared_ptr<ReportSession> session_;
    std::shared_ptr<const Data> data_;
    bool loaded_ = false;
    QString error_;
    Breakdown breakdown_ = Breakdown::Total;
    bool includeGaps_ = true;
    TileOrder order_ = TileOrder::Software;
    QStringList seriesNames_;
    std::vector<std::int64_t> seriesKeys_;
    std::vector<std::vector<std::uint64_t>> series_; // [series][tile]
    std::vector<std::uint64_t> total_;               // [tile]
    std::vector<std::vector<double>> seriesPrefix_;  // [series][position + 1], for O(1) means
    std::vector<double> totalPrefix_;
    std::uint64_t maxTileTotal_ = 0;
};

} // namespace tilescope::gui
