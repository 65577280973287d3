#pragma once

#include "HeatmapTrack.hpp"
#include "core/LockedReader.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tilescope::gui {

/// Tracepoint metadata of one event as text for people: each piece pretty-printed (JSON), the
/// end's after the begin's under "At the end:". Empty when there is none.
QString metadataText(const std::vector<report::EventMetadataEntry>& entries);

/// One open host trace (*.pvti) for the system analyser: the reader behind a lock and the small
/// tables every view needs at once (processes, threads and their depths, graphs and series,
/// names, the time span, the stored pyramid levels, and a whole-trace activity profile for the
/// overview strip), all read by open() on a worker thread in a fixed number of indexed queries,
/// whatever the trace's size. Later reads go through read(), which serializes access (a
/// HostTraceReader is not thread-safe) and names the file in every failure.
class HostTraceSession {
public:
    /// Columns of the overview's activity profile.
    static constexpr int kOverviewColumns = 512;

    static std::shared_ptr<HostTraceSession> open(const std::string& path);

    const std::string& path() const { return path_; }
    QString fileName() const;
    const std::vector<report::ProcessInfo>& processes() const { return processes_; }
    const std::vector<report::ThreadInfo>& threads() const { return threads_; }
    std::int32_t maxDepth(std::int64_t threadId) const;
    const std::vector<report::GraphInfo>& graphs() const { return graphs_; }
    const std::vector<report::SeriesInfo>& series() const { return series_; }
    /// Async tracks (format v2 files; none in older ones) and every flow arrow, read at open
    /// (both tables hold a row per async slice or arrow, far fewer than events).
    const std::vector<report::AsyncTrackInfo>& asyncTracks() const { return asyncTracks_; }
    const std::vector<report::FlowArrow>& flows() const { return flows_; }
    const report::HostTraceCounts& counts() const { return counts_; }
    /// Whether any event carries tracepoint metadata (format v5), so windows look it up.
    bool hasMetadata() const { return hasMetadata_; }
    /// The tracepoint metadata of one event as text (JSON pretty-printed; begin, then end);
    /// empty when it has none. Takes the session's lock.
    QString metadataText(std::int64_t eventId) const;
    /// The file's details as (label, value) lines: format, writer, and for a Chrome trace import
    /// where from and every repair it counted (read once at open).
    const std::vector<std::pair<QString, QString>>& details() const { return details_; }
    /// "N events dropped on thread T" for each thread whose tracer dropped events because its
    /// writer fell behind (pvti's bound on buffered events); empty when nothing was dropped.
    const QStringList& dropWarnings() const { return dropWarnings_; }
    bool empty() const { return !hasSpan_; }
    std::int64_t beginNs() const { return beginNs_; }
    std::int64_t endNs() const { return endNs_; }
    /// Text of an interned name (empty when unknown).
    const QString& name(std::int64_t nameId) const;
    const std::vector<std::pair<std::int64_t, std::string>>& names() const { return names_; }
    /// Busy fraction of depth-0 events over all threads in each of kOverviewColumns columns of
    /// the time span (0..1 per thread, summed: up to the thread count).
    const std::vector<double>& overview() const { return overview_; }

    /// Coarsest stored event (sample) pyramid level whose buckets are at most `nsPerBucket` wide;
    /// -1 when none is (or the file has no pyramids).
    std::int64_t eventLevelFor(double nsPerBucket) const;
    std::int64_t sampleLevelFor(double nsPerBucket) const;
    std::int64_t lodBaseNs() const { return lodBaseNs_; }
    /// Coarsest stored event pyramid level (-1 without pyramids); open() reads it whole for every
    /// track, so whole-trace windows need no query.
    std::int64_t finestEventLevel() const {
        return eventLevels_.empty() ? -1 : eventLevels_.front();
    }
    std::int64_t coarsestEventLevel() const {
        return eventLevels_.empty() ? -1 : eventLevels_.back();
    }

    /// Pyramid rows at `level` of the given depths of one thread for buckets [fromBucket,
    /// toBucket], one vector per depth. Served from the coarsest level read at open, or from the
    /// thread's cached bucket range at the current level, extended by reading only the buckets
    /// not yet held (so panning reads just the newly exposed range). Takes the session's lock.
    std::vector<std::vector<report::EventLodRow>>
    eventLodWindow(std::int64_t threadId, const std::vector<std::int32_t>& depths,
                   std::int64_t level, std::int64_t fromBucket, std::int64_t toBucket) const;

    /// Runs `f(const HostTraceReader&)` under the session's lock; worker threads only.
    /// Whole-span overviews of the file's heatmaps, built on first use; only under read().
    HeatmapOverviews& heatmapOverviews() const { return heatmapOverviews_; }

    template <class F>
    auto read(F&& f) const -> decltype(f(std::declval<const report::HostTraceReader&>())) {
        return reader_.read(std::forward<F>(f));
    }

    /// Like read(), on a second reader of the same file with its own lock, for long scans (call
    /// tree, search) that must not hold up the timeline's window queries.
    template <class F>
    auto readLong(F&& f) const -> decltype(f(std::declval<const report::HostTraceReader&>())) {
        return longReader_.read(std::forward<F>(f));
    }

private:
    explicit HostTraceSession(std::string path)
        : path_(std::move(path)), reader_(path_), longReader_(path_) {}
    void readCoarsestLevel(const report::HostTraceReader& reader);
    void readOverview(const report::HostTraceReader& reader);

    /// The buckets [fromBucket, toBucket] of one level held for some depths of one thread.
    struct LodSlice {
        std::int64_t level = -1;
        std::int64_t fromBucket = 0, toBucket = -1;
        std::unordered_map<std::int32_t, std::vector<report::EventLodRow>> rows; ///< by depth
    };

    std::string path_;
    LockedReader<report::HostTraceReader> reader_;
    LockedReader<report::HostTraceReader> longReader_;
    std::vector<report::ProcessInfo> processes_;
    std::vector<report::ThreadInfo> threads_;
    std::unordered_map<std::int64_t, std::int32_t> maxDepth_;
    std::vector<report::GraphInfo> graphs_;
    std::vector<report::SeriesInfo> series_;
    std::vector<std::pair<std::int64_t, std::string>> names_;
    std::unordered_map<std::int64_t, QString> nameText_;
    report::HostTraceCounts counts_;
    std::vector<std::pair<QString, QString>> details_;
    QStringList dropWarnings_;
    std::vector<report::AsyncTrackInfo> asyncTracks_;
    std::vector<report::FlowArrow> flows_;
    bool hasMetadata_ = false;
    bool hasSpan_ = false;
    std::int64_t beginNs_ = 0, endNs_ = 0;
    std::int64_t lodBaseNs_ = 1000;
    std::vector<std::int64_t> eventLevels_, sampleLevels_;
    std::vector<double> overview_;
    std::unordered_map<std::int64_t, LodSlice> coarsest_;       ///< by thread, whole trace
    mutable std::unordered_map<std::int64_t, LodSlice> recent_; ///< by thread; under reader_'s lock
    mutable HeatmapOverviews heatmapOverviews_;                 ///< under reader_'s lock
};

} // namespace tilescope::gui
