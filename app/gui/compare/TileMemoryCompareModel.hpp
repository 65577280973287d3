#pragma once

#include "CompareSeries.hpp"
#include "ComparisonTableModel.hpp"

#include <QObject>
#include <QString>
#include <memory>

namespace tilescope::gui {

class CompareSession;

/// Memory per tile of both reports (every category, gaps included) and its difference, loaded
/// off the UI thread (CompareSession::tileMemory): the series for the compare Memory canvases and
/// the worst tiles table (largest increase first, Tile / IPU / Source / Target / Diff / Diff %).
class TileMemoryCompareModel : public QObject {
    Q_OBJECT
public:
    static constexpr int kWorstTiles = 200;

    explicit TileMemoryCompareModel(std::shared_ptr<CompareSession> session,
                                    QObject* parent = nullptr);

    bool isLoaded() const { return series_ != nullptr; }
    QString error() const { return error_; }
    std::shared_ptr<const CompareSeries> series() const { return series_; }
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
    ComparisonTableModel worst_;
    QString error_;
    std::uint32_t tilesPerIpu_ = 0;
    bool sameTileCount_ = true;
};

} // namespace tilescope::gui
