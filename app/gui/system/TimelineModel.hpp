#pragma once

#include "HeatmapTrack.hpp"
#include "core/LatestFetch.hpp"
#include "tilescope/report/HostTraceTypes.hpp"

#include <QObject>
#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class DeviceTraceSession;
class HostTraceSession;

/// The rows and the visible window of the system analyser's timeline, over one or more host
/// traces on one time axis (nanoseconds since the Unix epoch). Rows form a tree: file > process >
/// thread > one track per nesting depth, with a process's counter graphs after its threads; rows
/// can be collapsed and pinned. The canvas asks for a time window at a pixel width for the rows
/// it shows with requestWindow(); a worker answers with at most a few boxes per pixel per track:
/// the raw events when the window holds few of them (each box one event, sub-pixel neighbours
/// merged), otherwise one box per pixel column from the level-of-detail pyramid, so a zoomed-out
/// window never reads raw events. Counters come from the sample pyramid likewise. Later requests
/// replace queued ones.
/// Profile reports opened with the traces (the joint view) add, after the files, a Device row per
/// report with two tracks on the same axis: its engine runs, and their executed steps coloured by
/// BSP phase (see DeviceTraceSession), then a track per tile and nesting depth of its
/// lightweight-profiling blocks, if any. Async tracks (Chrome b/e/n, S/T/F) follow a process's
/// threads, one row per nesting depth; flow arrows are looked up by flowsAt() for the canvas.
/// A process's libpvti heatmaps follow its counters, one Heatmap row each, binned by the worker
/// into counts per time bin and bucket (HeatmapCells).
class TimelineModel : public QObject {
    Q_OBJECT
public:
    /// Async: an async track's header under its process; AsyncTrack: one nesting depth of it.
    enum class RowKind {
        File,
        Process,
        Thread,
        Track,
        Counter,
        Heatmap,
        Device,
        DeviceTrack,
        Async,
        AsyncTrack
    };
    struct Row {
        RowKind kind = RowKind::File;
        int file = 0;    ///< index into files(), or into devices() for Device and DeviceTrack rows
        int parent = -1; ///< index of the enclosing row, -1 at the top
        int indent = 0;
        std::int64_t processId = 0;
        std::int64_t threadId = 0;
        std::int32_t depth = 0; ///< tracks: nesting depth; device tracks: DeviceTraceSession::Track
        std::int64_t graphId = 0;
        std::int64_t asyncTrackId = 0; ///< Async and AsyncTrack rows
        QString label;
        QString unit;                 ///< counters and heatmaps
        std::int64_t heatmapId = 0;   ///< Heatmap rows
        std::vector<QString> buckets; ///< Heatmap rows: what each bucket holds, bucket 0 first
        bool expanded = true;
        bool pinned = false;
    };
    /// One drawn box of a track: an event, several sub-pixel events, or a pixel column of the
    /// pyramid (`aggregated`; `busy` is the share of the box's time covered by events).
    struct Box {
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        std::int64_t nameId = 0; ///< the event's name, or the longest event's in an aggregate
        std::uint32_t count = 1;
        float busy = 1.0f;
        bool aggregated = false;
        report::EventKind kind = report::EventKind::Complete;
        std::int64_t eventId = 0; ///< single events only
        std::uint8_t colour = 0;  ///< palette index from the name (same name, same colour)
        std::uint64_t cycles = 0; ///< device boxes: the cycles of the step, run or aggregate
    };
    static constexpr int kPaletteSize = 15;
    /// How a process's threads are drawn: one flame per thread, or all threads merged into one
    /// flame per process (a Thread row with threadId kAllThreads and its tracks).
    enum class FlameMode { PerThread, PerProcess };
    static constexpr std::int64_t kAllThreads = -1;
    /// One point of a counter series: a sample, or min/max/mean of a pyramid bucket.
    struct Point {
        std::int64_t tNs = 0;
        double min = 0, max = 0, mean = 0;
    };
    struct Series {
        QString name;
        std::vector<Point> points;
    };
    struct Window {
        std::int64_t fromNs = 0;
        std::int64_t toNs = 0;
        int widthPx = 0;
        std::vector<int> rows;
        std::map<int, std::vector<Box>> tracks;    ///< by row index
        std::map<int, std::vector<Series>> charts; ///< by row index
        std::map<int, HeatmapCells> heatmaps;      ///< by row index
        /// Tracepoint metadata of single events shown, by row index then event id, as text for
        /// people (JSON pretty-printed); read with the raw events, so the canvas runs no query.
        std::map<int, std::map<std::int64_t, QString>> metadata;
        bool readRawEvents = false; ///< any track of the window from raw events
        double fetchMs = 0;         ///< how long the worker took to compute this window
    };

    using HostFiles = std::vector<std::shared_ptr<HostTraceSession>>;
    using DeviceFiles = std::vector<std::shared_ptr<DeviceTraceSession>>;

    explicit TimelineModel(HostFiles files, DeviceFiles devices = {}, QObject* parent = nullptr);

    const HostFiles& files() const { return files_; }
    const DeviceFiles& devices() const { return devices_; }
    /// Rows that hold boxes: host event tracks and device tracks.
    static bool isTrack(RowKind kind) {
        return kind == RowKind::Track || kind == RowKind::DeviceTrack ||
               kind == RowKind::AsyncTrack;
    }
    /// Flow arrows of the row's file with an end on the row's thread within [fromNs, toNs]
    /// (thread tracks only; empty for other rows).
    std::vector<report::FlowArrow> flowsAt(int row, std::int64_t fromNs, std::int64_t toNs) const;
    const std::vector<Row>& rows() const { return rows_; }
    FlameMode flameMode() const { return flameMode_; }
    /// Rebuilds the rows for `mode` (expansion and pins are reset); emits rowsChanged.
    void setFlameMode(FlameMode mode);
    /// Rows not hidden by a collapsed ancestor, pinned rows first, each group in tree order.
    std::vector<int> shownRows() const;
    void setExpanded(int row, bool expanded);
    void setAllExpanded(bool expanded);
    void setPinned(int row, bool pinned);
    /// Name of an event of the row's file.
    const QString& eventName(int row, std::int64_t nameId) const;
    /// A further tooltip line for a box of the row (device tracks: cycles, phase); empty if none.
    QString describeBox(int row, const Box& box) const;
    /// The tracepoint metadata of a single event of the current window (text, JSON
    /// pretty-printed); empty when it has none.
    QString metadataText(int row, std::int64_t eventId) const;

    /// The union of the files' time spans; [0, 1) when every file is empty.
    std::int64_t beginNs() const { return beginNs_; }
    std::int64_t endNs() const { return endNs_; }
    bool empty() const { return empty_; }

    void requestWindow(std::int64_t fromNs, std::int64_t toNs, int widthPx, std::vector<int> rows);
    const Window& window() const { return window_; }
    bool hasWindow() const { return window_.widthPx > 0; }
    /// No window query running or queued.
    bool isIdle() const { return fetch_.idle(); }
    QString error() const { return error_; }
    /// What requestWindow's worker computes (public for tests and the benchmark).
    static Window fetchWindow(const HostFiles& files, const std::vector<Row>& rows,
                              std::int64_t fromNs, std::int64_t toNs, int widthPx,
                              const std::vector<int>& shown, const DeviceFiles& devices = {});

signals:
    void rowsChanged();
    void windowChanged();
    void failed(const QString& message);

private:
    void buildRows();
    void startFetch(const Window& request);
    /// Keeps `message` as the error shown and emits failed.
    void reportFailure(const QString& message);

    HostFiles files_;
    DeviceFiles devices_;
    std::vector<Row> rows_;
    FlameMode flameMode_ = FlameMode::PerThread;
    std::int64_t beginNs_ = 0, endNs_ = 1;
    bool empty_ = true;
    Window window_;
    LatestFetch<Window> fetch_{[](const Window& a, const Window& b) {
                                   return a.fromNs == b.fromNs && a.toNs == b.toNs &&
                                          a.widthPx == b.widthPx && a.rows == b.rows;
                               },
                               [this](const Window& request) { startFetch(request); }};
    QString error_;
};

} // namespace tilescope::gui
