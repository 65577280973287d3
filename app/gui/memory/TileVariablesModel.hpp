#pragma once

#include "core/NewestLoad.hpp"
#include "core/TileSelection.hpp"
#include "tables/RecordTableModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QStringList>
#include <cstdint>
#include <memory>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// The Memory view's Variables tab, following the tile selection: with no selection the largest
/// variables of the report, with one the variables that hold bytes on the selected tiles, largest
/// there first. Columns: those of every variables table (variableColumns()) and the bytes on the
/// selected tiles. At most `limit` rows. setSelection() reads on a worker (with a selection, every
/// variable's per-tile series is decoded once, a page at a time); a newer selection supersedes an
/// older one still running.
class TileVariablesModel : public RecordTableModel {
    Q_OBJECT
public:
    TileVariablesModel(std::shared_ptr<ReportSession> session, int limit,
                       QObject* parent = nullptr);

    /// The column with the bytes on the selected tiles (after variableColumns()).
    int selectedBytesColumn() const { return columnCount() - 1; }
    void setSelection(const TileSelection& tiles);
    const TileSelection& selection() const { return tiles_; }
    bool isLoading() const { return load_.busy(); }
    /// True when more variables qualified than `limit`.
    bool limitReached() const { return limitReached_; }
    /// The report's id of the variable in `row` (-1 when out of range).
    std::int64_t variableIdAt(int row) const;

signals:
    void loaded();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    int limit_;
    TileSelection tiles_;
    std::vector<std::int64_t> ids_;
    bool limitReached_ = false;
    NewestLoad load_;
};

/// Bytes per tile of a few chosen variables, for the Memory view's Variables graph: one series
/// per variable in software tile order. fetch() reads them (blocking: call on a worker).
struct VariableTileSeries {
    QStringList names;
    std::vector<report::PerTile> bytes; // per variable: one value per tile
    std::uint32_t tiles = 0;

    static VariableTileSeries fetch(const report::ProfileReader& reader,
                                    const std::vector<std::int64_t>& ids);
};

} // namespace tilescope::gui
