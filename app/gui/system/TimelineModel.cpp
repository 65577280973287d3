// The timeline's rows (files, processes, threads, tracks, counters, heatmaps, devices), their
// expanded and pinned states, what the canvas asks of an event, and the window's requests to the
// worker (the fetch itself: TimelineModelWindow.cpp).

#include "TimelineModel.hpp"

#include "DeviceTraceSession.hpp"
#include "HostTraceSession.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"

#include <algorithm>
#include <chrono>

namespace tilescope::gui {

TimelineModel::TimelineModel(HostFiles files, DeviceFiles devices, QObject* parent)
    : QObject(parent), files_(std::move(files)), devices_(std::move(devices)) {
    bool first = true;
    auto extend = [&](const auto& f) {
        if (f->empty())
            return;
        beginNs_ = first ? f->beginNs() : std::min(beginNs_, f->beginNs());
        endNs_ = first ? f->endNs() : std::max(endNs_, f->endNs());
        first = false;
    };
    for (const auto& f : files_)
        extend(f);
    for (const auto& d : devices_)
        extend(d);
    empty_ = first;
    if (empty_) {
        beginNs_ = 0;
        endNs_ = 1;
    }
    buildRows();
}

void TimelineModel::setFlameMode(FlameMode mode) {
    if (mode == flameMode_)
        return;
    flameMode_ = mode;
    buildRows();
    fetch_.dropAnswers(); // a window of the old rows would index other rows
    window_ = Window{};
    emit rowsChanged();
}

void TimelineModel::buildRows() {
    rows_.clear();
    auto add = [&](Row r) {
        rows_.push_back(std::move(r));
        return int(rows_.size()) - 1;
    };
    // A row of a file's process (a thread, an async track, a counter or a heatmap), one level in.
    auto processChild = [](RowKind kind, int f, std::int64_t processId, int processIndex) {
        Row r;
        r.kind = kind;
        r.file = f;
        r.parent = processIndex;
        r.indent = 2;
        r.processId = processId;
        return r;
    };
    // Under a Thread or Async row, a track per nesting depth from 0 to `deepest`.
    auto addDepthTracks = [&](int headerIndex, RowKind trackKind, std::int32_t deepest) {
        for (std::int32_t d = 0; d <= deepest; ++d) {
            Row track = rows_[std::size_t(headerIndex)];
            track.kind = trackKind;
            track.parent = headerIndex;
            track.indent = 3;
            track.depth = d;
            track.label = tr("depth %1").arg(d);
            add(track);
        }
    };
    // One Thread row for all threads of a process, with a track per depth up to the deepest.
    auto addAggregatedThreads = [&](const HostTraceSession& file, int f, std::int64_t processId,
                                    int processIndex) {
        std::int32_t deepest = -1;
        int threads = 0;
        for (const auto& t : file.threads())
            if (t.processId == processId) {
                deepest = std::max(deepest, file.maxDepth(t.id));
                ++threads;
            }
        if (threads == 0)
            return;
        Row all = processChild(RowKind::Thread, f, processId, processIndex);
        all.threadId = kAllThreads;
        all.label = tr("all %1 threads (aggregated)").arg(threads);
        addDepthTracks(add(all), RowKind::Track, deepest);
    };
    for (int f = 0; f < int(files_.size()); ++f) {
        const HostTraceSession& file = *files_[std::size_t(f)];
        Row fileRow;
        fileRow.kind = RowKind::File;
        fileRow.file = f;
        fileRow.label = file.fileName();
        const int fileIndex = add(fileRow);
        const auto heatmaps =
            file.read([](const report::HostTraceReader& reader) { return reader.heatmaps(); });
        for (const auto& p : file.processes()) {
            Row pr;
            pr.kind = RowKind::Process;
            pr.file = f;
            pr.parent = fileIndex;
            pr.indent = 1;
            pr.processId = p.id;
            pr.label = tr("%1 (pid %2)").arg(QString::fromStdString(p.name)).arg(p.pid);
            const int processIndex = add(pr);
            if (flameMode_ == FlameMode::PerProcess)
                addAggregatedThreads(file, f, p.id, processIndex);
            for (const auto& t : file.threads()) {
                if (t.processId != p.id || flameMode_ == FlameMode::PerProcess)
                    continue;
                Row thread = processChild(RowKind::Thread, f, p.id, processIndex);
                thread.threadId = t.id;
                thread.label = tr("%1 (tid %2)").arg(QString::fromStdString(t.name)).arg(t.tid);
                addDepthTracks(add(thread), RowKind::Track, file.maxDepth(t.id));
            }
            for (const auto& a : file.asyncTracks()) {
                if (a.processId != p.id)
                    continue;
                Row header = processChild(RowKind::Async, f, p.id, processIndex);
                header.asyncTrackId = a.id;
                header.label =
                    tr("%1 (async %2 %3)")
                        .arg(QString::fromStdString(a.name), QString::fromStdString(a.category),
                             QString::fromStdString(a.asyncId));
                addDepthTracks(add(header), RowKind::AsyncTrack, a.maxDepth);
            }
            for (const auto& g : file.graphs()) {
                if (g.processId != p.id)
                    continue;
                Row c = processChild(RowKind::Counter, f, p.id, processIndex);
                c.graphId = g.id;
                c.label = QString::fromStdString(g.name);
                c.unit = QString::fromStdString(g.unit);
                add(c);
            }
            for (const auto& h : heatmaps) {
                if (h.processId != p.id)
                    continue;
                Row c = processChild(RowKind::Heatmap, f, p.id, processIndex);
                c.heatmapId = h.id;
                c.label = QString::fromStdString(h.name);
                c.unit = QString::fromStdString(h.unit);
                c.buckets = heatmapBucketLabels(h);
                add(c);
            }
        }
    }
    for (int d = 0; d < int(devices_.size()); ++d) {
        const DeviceTraceSession& device = *devices_[std::size_t(d)];
        Row header;
        header.kind = RowKind::Device;
        header.file = d;
        header.label = tr("%1: %2 × %3, %4 GHz")
                           .arg(device.fileName())
                           .arg(device.target().numIpus)
                           .arg(QString::fromStdString(device.target().ipuVersion).toUpper())
                           .arg(device.target().clockHz / 1e9, 0, 'g', 4);
        if (device.unplacedBlocks() > 0)
            header.label += tr("; %1 blocks of runs the report does not store")
                                .arg(formatCount(std::int64_t(device.unplacedBlocks())));
        const int headerIndex = add(header);
        for (const auto track : {DeviceTraceSession::Runs, DeviceTraceSession::Steps}) {
            Row r;
            r.kind = RowKind::DeviceTrack;
            r.file = d;
            r.parent = headerIndex;
            r.indent = 1;
            r.depth = track;
            r.label = track == DeviceTraceSession::Runs ? tr("engine runs") : tr("steps");
            add(r);
        }
        // Lightweight-profiling blocks: a track per recording tile, nested blocks below.
        const auto& blockTracks = device.blockTracks();
        for (std::size_t i = 0; i < blockTracks.size(); ++i) {
            Row r;
            r.kind = RowKind::DeviceTrack;
            r.file = d;
            r.parent = headerIndex;
            r.indent = blockTracks[i].depth == 0 ? 1 : 2;
            r.depth = DeviceTraceSession::FirstBlockTrack + std::int32_t(i);
            r.label = blockTracks[i].depth == 0 ? tr("blocks, tile %1").arg(blockTracks[i].tile)
                                                : tr("blocks, tile %1, nested %2")
                                                      .arg(blockTracks[i].tile)
                                                      .arg(blockTracks[i].depth);
            add(r);
        }
    }
}

std::vector<int> TimelineModel::shownRows() const {
    std::vector<int> pinned, rest;
    std::vector<char> visible(rows_.size(), 0);
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        const bool parentOpen = r.parent < 0 || (visible[std::size_t(r.parent)] &&
                                                 rows_[std::size_t(r.parent)].expanded);
        visible[i] = parentOpen;
        if (r.pinned)
            pinned.push_back(int(i));
        else if (parentOpen)
            rest.push_back(int(i));
    }
    pinned.insert(pinned.end(), rest.begin(), rest.end());
    return pinned;
}

void TimelineModel::setExpanded(int row, bool expanded) {
    if (row < 0 || row >= int(rows_.size()) || rows_[std::size_t(row)].expanded == expanded)
        return;
    rows_[std::size_t(row)].expanded = expanded;
    emit rowsChanged();
}

void TimelineModel::setAllExpanded(bool expanded) {
    for (Row& r : rows_)
        if (!isTrack(r.kind) && r.kind != RowKind::Counter && r.kind != RowKind::Heatmap)
            // Collapsing all keeps files and processes open: threads are what there are many of.
            r.expanded = expanded || (r.kind != RowKind::Thread && r.kind != RowKind::Async);
    emit rowsChanged();
}

void TimelineModel::setPinned(int row, bool pinned) {
    if (row < 0 || row >= int(rows_.size()) || rows_[std::size_t(row)].pinned == pinned)
        return;
    rows_[std::size_t(row)].pinned = pinned;
    emit rowsChanged();
}

const QString& TimelineModel::eventName(int row, std::int64_t nameId) const {
    const Row& r = rows_[std::size_t(row)];
    if (r.kind == RowKind::DeviceTrack)
        return devices_[std::size_t(r.file)]->name(nameId);
    return files_[std::size_t(r.file)]->name(nameId);
}

std::vector<report::FlowArrow> TimelineModel::flowsAt(int row, std::int64_t fromNs,
                                                      std::int64_t toNs) const {
    std::vector<report::FlowArrow> out;
    if (row < 0 || row >= int(rows_.size()))
        return out;
    const Row& r = rows_[std::size_t(row)];
    if (r.kind != RowKind::Track)
        return out;
    for (const auto& f : files_[std::size_t(r.file)]->flows())
        if ((f.fromThreadId == r.threadId && f.fromNs >= fromNs && f.fromNs <= toNs) ||
            (f.toThreadId == r.threadId && f.toNs >= fromNs && f.toNs <= toNs))
            out.push_back(f);
    return out;
}

QString TimelineModel::metadataText(int row, std::int64_t eventId) const {
    const auto it = window_.metadata.find(row);
    if (it == window_.metadata.end())
        return {};
    const auto m = it->second.find(eventId);
    return m == it->second.end() ? QString() : m->second;
}

QString TimelineModel::describeBox(int row, const Box& box) const {
    const Row& r = rows_[std::size_t(row)];
    if (r.kind != RowKind::DeviceTrack)
        return {};
    return devices_[std::size_t(r.file)]->describe(r.depth, box);
}
void TimelineModel::requestWindow(std::int64_t fromNs, std::int64_t toNs, int widthPx,
                                  std::vector<int> rows) {
    if (window_.fromNs == fromNs && window_.toNs == std::max(toNs, fromNs + 1) &&
        window_.widthPx == widthPx && window_.rows == rows)
        return;
    Window r;
    r.fromNs = fromNs;
    r.toNs = toNs;
    r.widthPx = widthPx;
    r.rows = std::move(rows);
    fetch_.ask(std::move(r));
}

void TimelineModel::startFetch(const Window& r) {
    auto files = files_;
    auto devices = devices_;
    auto rows = rows_;
    fetch_.run<Window>(
        this,
        [files, devices, rows, r] {
            const auto started = std::chrono::steady_clock::now();
            Window w = fetchWindow(files, rows, r.fromNs, r.toNs, r.widthPx, r.rows, devices);
            w.fetchMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                                  started)
                            .count();
            return w;
        },
        [this](Window w) {
            window_ = std::move(w);
            emit windowChanged();
        },
        [this](const QString& message) { reportFailure(message); });
}

void TimelineModel::reportFailure(const QString& message) {
    error_ = message;
    emit failed(message);
}

} // namespace tilescope::gui
