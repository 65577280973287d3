#pragma once

#include "core/NewestLoad.hpp"
#include "tables/RecordTableModel.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// The not-always-live variables live at one program step, largest first, with the step itself
/// (kind, phase, cycle estimate, bytes, the vertices of its compute set). showStep() queries on a
/// worker thread; a newer request supersedes an older one still running, so clicking along the
/// chart never shows a stale step.
class LiveVariablesModel : public RecordTableModel {
    Q_OBJECT
public:
    struct StepInfo {
        std::int64_t id = -1;
        QString kind;
        QString phase;
        QString program;
        std::int64_t programId = -1;
        std::uint64_t estimatedCycles = 0;
        std::uint64_t exchangeBytes = 0;
        std::uint64_t notAlwaysLiveBytes = 0;
        std::uint64_t maxTileNotAlwaysLiveBytes = 0;
        std::uint64_t variableBytes = 0; // sum over the listed variables
        std::uint64_t vertexCount = 0;   // vertices of the step's compute set (0: none)
        QString vertexTypes;             // "Type x count, ..." largest first
    };

    explicit LiveVariablesModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    void showStep(std::int64_t step);
    std::optional<std::int64_t> step() const { return step_; }
    const StepInfo& stepInfo() const { return info_; }
    bool isLoading() const { return load_.busy(); }
    /// The report's id of the variable in `row` (-1 when out of range).
    std::int64_t variableIdAt(int row) const {
        return row >= 0 && row < int(variableIds_.size()) ? variableIds_[std::size_t(row)] : -1;
    }

signals:
    void stepLoaded();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    std::optional<std::int64_t> step_;
    StepInfo info_;
    std::vector<std::int64_t> variableIds_;
    NewestLoad load_;
};

} // namespace tilescope::gui
