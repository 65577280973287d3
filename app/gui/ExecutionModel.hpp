#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <QObject>
#include <QString>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// Where the cycles of a run go, for the Execution Trace view. load() lists the runs and sums the
/// selected run's cycles per BSP phase from the coarsest level of the run_lod pyramid. The canvas
/// asks for a cycle window at a pixel width with requestWindow(); a worker answers with at most
/// one column per pixel, each the cycles of every phase in it: from the executed steps while there
/// are at most a few per pixel (then each column also names the step it shows), otherwise from
/// the run_lod pyramid, buckets shared out between the columns they overlap. A window therefore
/// reads a few thousand rows at most. Later requests replace queued ones.
class ExecutionModel : public QObject {
    Q_OBJECT
public:
    enum Phase { Compute, Exchange, Sync, Stream, PhaseCount };
    static Phase phaseFromName(const std::string& name);
    static QString phaseName(int phase);

    struct Column {
        std::uint64_t firstCycle = 0;
        std::uint64_t endCycle = 0;              // exclusive
        std::array<double, PhaseCount> cycles{}; // pyramid buckets are shared out by overlap
        double steps = 0;
        std::optional<report::RunStepSpan> step; // zoomed in: the step this column shows
    };
    struct Window {
        std::uint64_t firstCycle = 0;
        std::uint64_t endCycle = 0;
        int widthPx = 0;
        std::int64_t lodLevel = -1; // -1: executed steps
        std::vector<Column> columns;
    };

    explicit ExecutionModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    void load();
    bool isLoaded() const { return loaded_; }
    QString error() const { return error_; }
    const std::vector<report::RunRecord>& runs() const { return runs_; }
    /// Index into runs() of the run shown; selecting another reloads its totals.
    int currentRun() const { return current_; }
    void setCurrentRun(int index);
    const report::RunRecord* run() const;
    /// Cycles of the current run per phase (sums of its steps).
    const std::array<std::uint64_t, PhaseCount>& phaseCycles() const { return totals_; }

    void requestWindow(std::uint64_t firstCycle, std::uint64_t endCycle, int widthPx);
    const Window& window() const { return window_; }
    bool hasWindow() const { return !window_.columns.empty(); }
    static Window fetchWindow(const ReportSession& session, const report::RunRecord& run,
                              std::uint64_t firstCycle, std::uint64_t endCycle, int widthPx);
    /// Cycles per phase of a whole run, as load() computes them.
    static std::array<std::uint64_t, PhaseCount> fetchTotals(const ReportSession& session,
                                                             const report::RunRecord& run);

signals:
    void loadedChanged();
    void runChanged();
    void windowChanged();
    void failed(const QString& message);

private:
    void loadTotals();
    void startNext();

    std::shared_ptr<ReportSession> session_;
    bool loaded_ = false;
    QString error_;
    std::vector<report::RunRecord> runs_;
    int current_ = 0;
    std::array<std::uint64_t, PhaseCount> totals_{};
    Window window_;
    bool fetching_ = false;
    std::optional<Window> pending_;
    std::optional<Window> requested_;
    std::uint64_t generation_ = 0; // bumped when the run changes: older answers are dropped
};

} // namespace tilescope::gui
