#pragma once

#include "ExecutionBlockRows.hpp"
#include "ExecutionBsp.hpp"
#include "ExecutionFigures.hpp"
#include "ExecutionFilter.hpp"
#include "ExecutionFlame.hpp"
#include "ExecutionIpuRows.hpp"
#include "core/LatestFetch.hpp"
#include "core/LockedReader.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QObject>
#include <QString>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// A second reader of the report, opened on first use, with its own lock: the Execution Trace's
/// long queries (the run's summary figures, batches of program paths) run on it so that window
/// queries, which frames wait for, never queue behind them on the session's lock.
using ExecutionSideReader = LockedReader<report::ProfileReader>;

/// Where the cycles of a run go, for the Execution Trace view. load() lists the runs and sums the
/// selected run's cycles per BSP phase from the coarsest level of the run_lod pyramid. The canvas
/// asks for a cycle window at a pixel width with requestWindow(); a worker answers with at most
/// one column per pixel, each the cycles of every phase in it: from the executed steps while there
/// are at most a few per pixel (then each column also names the step it shows), otherwise from
/// the run_lod pyramid, buckets shared out between the columns they overlap. A window therefore
/// reads a few thousand rows at most. Long queries (summary figures, program paths) run on an
/// ExecutionSideReader so windows never wait for them. Later requests replace queued ones. The mode
/// adds a layer to the window: Flame nests the cycles by program (FlameRows, from the same steps or
/// pyramid buckets), Bsp shows a tile range step by step (BspBands, zoomed in only), PerIpu each
/// IPU's busy cycles (IpuRows: step by step zoomed in, per column from run_ipu_lod zoomed out).
/// load() also reads the run's summary figures (RunFigures). setStepFilter() resolves a step
/// filter against the run once, on the side reader (StepFilterIndex); windows then carry each
/// column's matching cycles, exact at any zoom.
class ExecutionModel : public QObject {
    Q_OBJECT
public:
    enum Phase { Compute, Exchange, Sync, Stream, PhaseCount };
    enum Mode { Flat, Flame, Bsp, PerIpu, Blocks };
    /// Most blocks a Blocks window reads.
    static constexpr std::int64_t kMaxBlocks = 20000;
    /// Most executed steps a BSP window reads per-tile cycles for.
    static constexpr std::int64_t kMaxBspSteps = 400;
    /// Most tiles the BSP view shows at once (one row each).
    static constexpr std::uint32_t kMaxBspTiles = 64;
    /// Most executed steps a per-IPU window reads step by step (beyond: the pyramid).
    static constexpr std::int64_t kMaxIpuSteps = 2000;
    static Phase phaseFromName(const std::string& name);
    static QString phaseName(int phase);

    struct Column {
        std::uint64_t firstCycle = 0;
        std::uint64_t endCycle = 0;              // exclusive
        std::array<double, PhaseCount> cycles{}; // pyramid buckets are shared out by overlap
        double steps = 0;
        std::optional<report::RunStepSpan> step;  // zoomed in: the step this column shows
        std::array<double, PhaseCount> matched{}; // cycles of steps matching the filter
    };
    struct Window {
        std::uint64_t firstCycle = 0;
        std::uint64_t endCycle = 0;
        int widthPx = 0;
        std::int64_t lodLevel = -1;  // -1: executed steps
        std::vector<Column> columns; // flat and flame modes only
        Mode mode = Flat;
        std::uint32_t firstTile = 0, tileCount = 0; // Bsp: the tile range asked for
        FlameRows flame;                            // Flame only
        BspBands bsp;                               // Bsp only
        IpuRows ipu;                                // PerIpu only
        BlockRows blocks;                           // Blocks only
        bool filtered = false; // columns' `matched` hold the step filter's share
    };
    /// What a window adds to its columns.
    struct Layers {
        Mode mode = Flat;
        std::uint32_t firstTile = 0;
        std::uint32_t tileCount = 0;
        ProgramPathCache* programs = nullptr;    // needed by Flame
        const StepFilterIndex* filter = nullptr; // fills Column::matched when set
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
    /// Summary figures of the current run (valid once runChanged has been emitted).
    const RunFigures& figures() const { return figures_; }
    static RunFigures fetchFigures(const ReportSession& session, ExecutionSideReader& reader,
                                   const report::RunRecord& run);

    Mode mode() const { return mode_; }
    /// Switches the layer shown; the next requestWindow fetches it.
    void setMode(Mode mode);
    std::uint32_t firstTile() const { return firstTile_; }
    std::uint32_t tileCount() const { return tileCount_; }
    /// The BSP view's tiles (global numbers), at most kMaxBspTiles.
    void setTileRange(std::uint32_t firstTile, std::uint32_t count);
    ProgramPathCache& programs() const { return *programs_; }

    /// Resolves `filter` against the current run on a worker (and again when the run changes);
    /// filterChanged is emitted once stepFilter() answers for it.
    void setStepFilter(const StepFilter& filter);
    const StepFilter& requestedFilter() const { return filterRequest_; }
    /// The resolved filter of the current run; null when no filter is active.
    const StepFilterIndex* stepFilter() const { return filter_.get(); }
    bool isFiltering() const { return filterBuilding_; }

    void requestWindow(std::uint64_t firstCycle, std::uint64_t endCycle, int widthPx);
    const Window& window() const { return window_; }
    bool hasWindow() const { return window_.endCycle > window_.firstCycle && window_.widthPx > 0; }
    /// True while a window or the program paths its flame lacks are being read: the window shown
    /// will change without another request (windowChanged is emitted when it has settled).
    bool isSettling() const { return !fetch_.idle() || resolving_; }
    static Window fetchWindow(const ReportSession& session, const report::RunRecord& run,
                              std::uint64_t firstCycle, std::uint64_t endCycle, int widthPx,
                              const Layers& layers);
    static Window fetchWindow(const ReportSession& session, const report::RunRecord& run,
                              std::uint64_t firstCycle, std::uint64_t endCycle, int widthPx) {
        return fetchWindow(session, run, firstCycle, endCycle, widthPx, Layers());
    }
    /// Cycles per phase of a whole run, as load() computes them.
    static std::array<std::uint64_t, PhaseCount> fetchTotals(const ReportSession& session,
                                                             const report::RunRecord& run);

signals:
    void loadedChanged();
    void runChanged();
    void windowChanged();
    void modeChanged();
    void filterChanged();
    void failed(const QString& message);

private:
    void loadTotals();
    void startFetch(const Window& request);
    /// Keeps `message` as the error shown and emits failed.
    void reportFailure(const QString& message);
    /// Reads the paths the window's flame lacked on the side reader, then fetches it again.
    void resolvePrograms(const Window& w);
    void buildFilter();

    std::shared_ptr<ReportSession> session_;
    bool loaded_ = false;
    QString error_;
    std::vector<report::RunRecord> runs_;
    int current_ = 0;
    std::array<std::uint64_t, PhaseCount> totals_{};
    RunFigures figures_;
    Mode mode_ = Flat;
    std::uint32_t firstTile_ = 0;
    std::uint32_t tileCount_ = 32;
    std::shared_ptr<ProgramPathCache> programs_ = std::make_shared<ProgramPathCache>();
    std::shared_ptr<ExecutionSideReader> sideReader_;
    Window window_;
    bool resolving_ = false;
    // Repeats are judged by the cycles and width alone: a mode, tile or filter change forgets the
    // latest request instead.
    LatestFetch<Window> fetch_{[](const Window& a, const Window& b) {
                                   return a.firstCycle == b.firstCycle &&
                                          a.endCycle == b.endCycle && a.widthPx == b.widthPx;
                               },
                               [this](const Window& request) { startFetch(request); }};
    // Bumped when the run changes: totals and program paths of the older run are dropped.
    std::uint64_t generation_ = 0;
    StepFilter filterRequest_;
    std::shared_ptr<const StepFilterIndex> filter_;
    bool filterBuilding_ = false;
    std::uint64_t filterGeneration_ = 0;
};

} // namespace tilescope::gui
