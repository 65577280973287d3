#pragma once

#include "LivenessGroupSeries.hpp"
#include "core/LatestFetch.hpp"
#include "core/TileSelection.hpp"

#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// Memory over program steps for the Liveness view: always-live bytes (constant) plus the
/// not-always-live bytes of each step, summed over tiles. The canvas asks for a step window at a
/// pixel width with requestWindow(); a worker thread answers with at most one point per pixel,
/// from the steps themselves while there are at most four per pixel and from the liveness
/// level-of-detail pyramid beyond (exact where a bucket fits in a pixel, the buckets' range where
/// even the finest is wider), so any window costs a few thousand rows at most. Requests that
/// arrive while one runs replace each other: only the latest is fetched next. A grouping other
/// than AllTiles builds a LivenessGroupSeries (per IPU, or the selected tiles) on a worker; its
/// windows come from that series' own pyramid, in memory.
class LivenessModel : public QObject {
    Q_OBJECT
public:
    /// Not-always-live bytes over steps [firstStep, lastStep] (one step when zoomed in).
    struct Point {
        std::int64_t firstStep = 0;
        std::int64_t lastStep = 0;
        double minNotAlwaysLive = 0;
        double maxNotAlwaysLive = 0;
    };
    struct Window {
        std::int64_t firstStep = 0;
        std::int64_t endStep = 0; // exclusive
        int widthPx = 0;
        std::int64_t lodLevel = -1; // -1: exact steps
        std::vector<Point> points;
    };

    enum Grouping { AllTiles, PerIpu, SelectedTiles };

    explicit LivenessModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    /// Shows memory per IPU or for `selection` (SelectedTiles); AllTiles drops the groups.
    void setGrouping(Grouping grouping, const TileSelection& selection = {});
    Grouping grouping() const { return grouping_; }
    /// The tiles of the SelectedTiles grouping.
    const TileSelection& groupSelection() const { return groupSelection_; }
    /// The series of the current grouping once built (null for AllTiles or while building).
    const LivenessGroupSeries* groupSeries() const { return groups_.get(); }
    /// Columns of the group series over a step window (cached for repeated frames).
    const std::vector<LivenessGroupSeries::Column>& groupWindow(std::int64_t firstStep,
                                                                std::int64_t endStep, int widthPx);
    /// Blocking build of a grouping's series, for workers and tests.
    static LivenessGroupSeries fetchGroups(const ReportSession& session, Grouping grouping,
                                           const TileSelection& selection);

    /// Reads the step count and the peak of the whole program (for a stable y axis).
    void load();
    bool isLoaded() const { return loaded_; }
    QString error() const { return error_; }
    std::int64_t stepCount() const { return stepCount_; }
    double alwaysLiveBytes() const { return alwaysLive_; }
    double peakNotAlwaysLiveBytes() const { return peak_; }

    void requestWindow(std::int64_t firstStep, std::int64_t endStep, int widthPx);
    const Window& window() const { return window_; }
    bool hasWindow() const { return !window_.points.empty(); }
    /// Blocking form of a window request, for workers and tests: what requestWindow delivers.
    static Window fetchWindow(const ReportSession& session, std::int64_t firstStep,
                              std::int64_t endStep, int widthPx);

signals:
    void loadedChanged();
    void windowChanged();
    void groupsChanged();
    void failed(const QString& message);

private:
    void startFetch(const Window& request);
    /// Keeps `message` as the error shown and emits failed.
    void reportFailure(const QString& message);

    std::shared_ptr<ReportSession> session_;
    bool loaded_ = false;
    QString error_;
    std::int64_t stepCount_ = 0;
    double alwaysLive_ = 0;
    double peak_ = 0;
    Window window_;
    LatestFetch<Window> fetch_{[](const Window& a, const Window& b) {
                                   return a.firstStep == b.firstStep && a.endStep == b.endStep &&
                                          a.widthPx == b.widthPx;
                               },
                               [this](const Window& request) { startFetch(request); }};
    Grouping grouping_ = AllTiles;
    TileSelection groupSelection_;
    std::shared_ptr<const LivenessGroupSeries> groups_;
    std::uint64_t groupGeneration_ = 0;
    std::vector<LivenessGroupSeries::Column> groupColumns_;
    std::int64_t groupFirst_ = -1, groupEnd_ = -1;
    int groupWidth_ = -1;
};

} // namespace tilescope::gui
