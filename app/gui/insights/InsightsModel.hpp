#pragma once

#include "TileAdvice.hpp"
#include "tables/RecordTableModel.hpp"

#include <QObject>
#include <cstdint>
#include <memory>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// The Insights view's answers to "does it fit, and what takes the space": the fraction of
/// memory used, the fullest tiles, a histogram of memory per tile, the vertex types with the most
/// state (with their code size per tile), the largest always-live variables and the largest
/// exchanges (steps that move the most bytes), and for the fullest tile what fills it and what to
/// change (TileAdvice: recommendations with their estimated saving and why). load() gathers
/// everything on a worker thread: one per-tile total, the vertex tables without per-tile data, two
/// LIMIT queries and the fullest tile's categories and variables.
class InsightsModel : public QObject {
    Q_OBJECT
public:
    /// Tiles per bin of memory per tile; bins split [0, histogramMaximum) evenly.
    struct Histogram {
        std::vector<std::uint32_t> tiles;
        double binBytes = 0;
        double maximum = 0;
        std::uint64_t bytesPerTile = 0;
    };

    explicit InsightsModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    void load();
    bool isLoaded() const { return loaded_; }

    /// Used bytes (with gaps) over capacity, over all tiles.
    double usedFraction() const;
    bool fits() const;
    const Histogram& histogram() const { return histogram_; }
    RecordTableModel& topTiles() { return topTiles_; }
    RecordTableModel& vertexTypes() { return vertexTypes_; }
    RecordTableModel& alwaysLiveVariables() { return variables_; }
    /// Columns of exchangeStepColumns(), largest first.
    RecordTableModel& largestExchanges() { return exchanges_; }
    /// The fullest tile's advice, and as tables: what fills it (What, Name, Bytes, Detail) and the
    /// recommendations (Change, Estimated saving, Applies to, Why).
    const TileAdvice& advice() const { return advice_; }
    RecordTableModel& tileContents() { return tileContents_; }
    RecordTableModel& recommendations() { return recommendations_; }

    static constexpr int kTopTiles = 20;
    static constexpr int kHistogramBins = 40;
    static constexpr int kLargestVariables = 20;
    static constexpr int kLargestExchanges = 20;

signals:
    void loadedChanged();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    bool loaded_ = false;
    Histogram histogram_;
    RecordTableModel topTiles_;
    RecordTableModel vertexTypes_;
    RecordTableModel variables_;
    RecordTableModel exchanges_;
    TileAdvice advice_;
    RecordTableModel tileContents_;
    RecordTableModel recommendations_;
};

} // namespace tilescope::gui
