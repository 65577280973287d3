#pragma once

#include "CompareSeries.hpp"
#include "ComparisonTableModel.hpp"
#include "memory/TileOrder.hpp"

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace tilescope::gui {

class CompareSession;

/// Memory per tile of both reports (every category, gaps included) and its difference, loaded
/// off the UI thread (CompareSession::tileMemory): the series for the compare Memory canvases and
/// the worst tiles table (largest increase first, Tile / IPU / Source / Target / Diff / Diff %).
/// When both reports place their tiles on the die the same way, the series also come in physical
/// order (positions of report::TilePlacement::physicalOrder; tileAt() maps them back).
class TileMemoryCompareModel : public QObject {
    Q_OBJECT
public:
    static constexpr int kWorstTiles = 200;

    explicit TileMemoryCompareModel(std::shared_ptr<CompareSession> session,
                                    QObject* parent = nullptr);

    bool isLoaded() const { return series_ != nullptr; }
    QString error() const { return error_; }
    std::shared_ptr<const CompareSeries> series() const { return series_; }
    /// The series with points in `order`; null before loading or without a physical order.
    std::shared_ptr<const CompareSeries> series(TileOrder order) const {
        return order == TileOrder::Physical ? physical_ : series_;
    }
    bool hasPhysicalOrder() const { return physical_ != nullptr; }
    /// Why there is no physical order (no placement in a report, different placements).
    QString placementProblem() const { return placementProblem_; }
    /// Tile at a point of the series in `order`.
    std::size_t tileAt(TileOrder order, std::size_t point) const;
    ComparisonTableModel& worstTiles() { return worst_; }
    std::uint32_t tilesPerIpu() const { return tilesPerIpu_; }
    bool sameTileCount() const { return sameTileCount_; }
    /// "Tile 12 (IPU 0, tile 12)".
    QString tileLabel(std::size_t tile) const;

signals:
    void loaded();
    void failed(const QString& message);

private:
    std::shared_ptr<const CompareSeries> series_;
    std::shared_ptr<const CompareSeries> physical_;
    std::vector<std::uint32_t> physicalTiles_; // [point of physical_] -> tile
    QString placementProblem_;
    ComparisonTableModel worst_;
    QString error_;
    std::uint32_t tilesPerIpu_ = 0;
    bool sameTileCount_ = true;
};

} // namespace tilescope::gui
