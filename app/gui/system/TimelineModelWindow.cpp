// The timeline's window, fetched on the worker: each shown track's boxes from raw events where
// they are sparse and from the level-of-detail pyramid elsewhere, counters from the sample
// pyramid, heatmap cells, device boxes, and the aggregated tracks of a process merged.

#include "DeviceTraceSession.hpp"
#include "FlameAggregate.hpp"
#include "HostTraceSession.hpp"
#include "TimelineModel.hpp"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace tilescope::gui {
namespace {

using report::EventKind;

/// Raw events are read only when a track holds at most this many per pixel in the window.
constexpr double kRawEventsPerPixel = 0.5;
/// ...and while all tracks of the window together read at most this many raw events (the
/// tracks with fewest events first): raw rows cost an index seek each, pyramid rows far less,
/// so this keeps any window's query within a frame. The others are drawn from the pyramid.
constexpr std::uint64_t kRawBudget = 3000;
/// Pyramid buckets are read at most this many pixels wide: with levels a factor 4 apart, each
/// bucket spans 2 to 8 pixels, at most one row per 2 pixels of a track.
constexpr double kPixelsPerBucket = 8;
/// Without pyramids (a killed writer's file), or finer than the finest level, at most this many
/// raw events per track and window.
constexpr std::int64_t kRawLimit = 20000;
constexpr std::int64_t kSampleLimitPerPixel = 2;

double bucketWidth(std::int64_t base, std::int64_t level) {
    return double(base) * std::pow(4.0, double(level));
}

/// Raw events as boxes; events narrower than a pixel that share a pixel column with the previous
/// box are merged into it, so a box is never much narrower than a pixel.
std::vector<TimelineModel::Box> boxesFromEvents(const std::vector<report::HostEvent>& events,
                                                std::int64_t fromNs, std::int64_t toNs,
                                                double nsPerPixel) {
    std::vector<TimelineModel::Box> out;
    out.reserve(events.size());
    for (const auto& e : events) {
        TimelineModel::Box b;
        b.startNs = e.startNs;
        b.endNs = e.kind == EventKind::Instant ? e.startNs : e.endNs.value_or(toNs);
        b.nameId = e.nameId;
        b.kind = e.kind;
        b.eventId = e.id;
        const bool tiny = double(b.endNs - b.startNs) < nsPerPixel && e.kind != EventKind::Instant;
        if (tiny && !out.empty() && out.back().kind != EventKind::Instant &&
            double(b.startNs - out.back().startNs) < nsPerPixel &&
            double(out.back().endNs - out.back().startNs) < nsPerPixel) {
            auto& last = out.back();
            last.endNs = std::max(last.endNs, b.endNs);
            ++last.count;
            last.aggregated = true;
            continue;
        }
        out.push_back(b);
    }
    (void)fromNs;
    return out;
}

/// The tracepoint metadata of the single events among `boxes`: one range query over their ids
/// (a track's events have ids ascending in blocks, so the range is narrow), keeping those shown.
void readMetadata(const report::HostTraceReader& reader,
                  const std::vector<TimelineModel::Box>& boxes,
                  std::map<std::int64_t, QString>& out) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = 0;
    std::unordered_set<std::int64_t> shown;
    for (const auto& b : boxes)
        if (!b.aggregated) {
            lo = std::min(lo, b.eventId);
            hi = std::max(hi, b.eventId);
            shown.insert(b.eventId);
        }
    if (shown.empty())
        return;
    const auto entries = reader.eventMetadataBetween(lo, hi);
    for (auto m = entries.begin(); m != entries.end();) {
        // The entries of one event are adjacent (id order): begin, then end.
        auto next = m;
        while (next != entries.end() && next->eventId == m->eventId)
            ++next;
        if (shown.count(m->eventId))
            out[m->eventId] = metadataText(std::vector(m, next));
        m = next;
    }
}

/// Pyramid buckets (each at most a pixel wide) gathered into one box per pixel column.
std::vector<TimelineModel::Box> boxesFromLod(const std::vector<report::EventLodRow>& lod,
                                             double width, std::int64_t fromNs, double nsPerPixel,
                                             int widthPx) {
    std::vector<TimelineModel::Box> out;
    std::uint64_t longest = 0;
    for (const auto& row : lod) {
        if (row.events == 0)
            continue;
        const std::int64_t startNs = row.bucket * std::int64_t(width);
        const int column =
            std::clamp(int(std::floor(double(startNs - fromNs) / nsPerPixel)), 0, widthPx - 1);
        const auto columnStart = std::int64_t(double(fromNs) + double(column) * nsPerPixel);
        if (out.empty() || out.back().startNs != columnStart) {
            TimelineModel::Box b;
            b.startNs = columnStart;
            b.endNs = std::int64_t(double(fromNs) + double(column + 1) * nsPerPixel);
            b.count = 0;
            b.busy = 0;
            b.aggregated = true;
            out.push_back(b);
            longest = 0;
        }
        auto& b = out.back();
        b.endNs = std::max(b.endNs, startNs + std::int64_t(width));
        b.count += std::uint32_t(std::min<std::uint64_t>(row.events, 0xffffffffu - b.count));
        // A bucket wider than the pixel (the finest stored level when zoomed in) is one box.
        b.busy =
            float(std::min(1.0, double(b.busy) + double(row.busyNs) / std::max(nsPerPixel, width)));
        if (row.longestNs >= longest) {
            longest = row.longestNs;
            b.nameId = row.longestNameId;
        }
    }
    return out;
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

/// The visible tracks of one thread of one file, fetched together.
struct ThreadTracks {
    int file = 0;
    std::int64_t threadId = 0;
    std::vector<int> rows;
    std::vector<std::int32_t> depths;
};

/// Fills `w.tracks` for the tracks of `groups`: one pyramid read per thread (cached by the
/// session), then raw events for the sparsest tracks within kRawBudget.
void fetchTracks(const std::vector<std::shared_ptr<HostTraceSession>>& files,
                 const std::vector<ThreadTracks>& groups, TimelineModel::Window& w) {
    const double nsPerPixel = double(w.toNs - w.fromNs) / double(w.widthPx);
    struct Candidate {
        int row;
        std::uint64_t events;
        const ThreadTracks* group;
        std::int32_t depth;
    };
    std::vector<Candidate> sparse;
    for (const ThreadTracks& g : groups) {
        const HostTraceSession& file = *files[std::size_t(g.file)];
        std::int64_t level = file.eventLevelFor(kPixelsPerBucket * nsPerPixel);
        if (level < 0)
            level = file.finestEventLevel(); // wider than wanted, still cheaper than raw rows
        if (level < 0) {
            // No pyramids (a killed writer's file): bounded raw reads.
            for (std::size_t i = 0; i < g.rows.size(); ++i)
                sparse.push_back({g.rows[i], 0, &g, g.depths[i]});
            continue;
        }
        const auto width = std::int64_t(bucketWidth(file.lodBaseNs(), level));
        const auto lod = file.eventLodWindow(g.threadId, g.depths, level, floorDiv(w.fromNs, width),
                                             floorDiv(w.toNs, width));
        for (std::size_t i = 0; i < g.rows.size(); ++i) {
            std::uint64_t events = 0;
            for (const auto& r : lod[i])
                events += r.events;
            if (double(events) <= kRawEventsPerPixel * w.widthPx)
                sparse.push_back({g.rows[i], events, &g, g.depths[i]});
            w.tracks[g.rows[i]] =
                boxesFromLod(lod[i], double(width), w.fromNs, nsPerPixel, w.widthPx);
        }
    }
    std::stable_sort(sparse.begin(), sparse.end(),
                     [](const Candidate& a, const Candidate& b) { return a.events < b.events; });
    std::uint64_t budget = kRawBudget;
    for (const Candidate& c : sparse) {
        const HostTraceSession& file = *files[std::size_t(c.group->file)];
        const bool noPyramid = file.finestEventLevel() < 0;
        if (!noPyramid && c.events > budget)
            break;
        budget -= noPyramid ? 0 : c.events;
        w.tracks[c.row] = file.read([&](const report::HostTraceReader& reader) {
            auto boxes = boxesFromEvents(
                reader.events(c.group->threadId, c.depth, w.fromNs, w.toNs, kRawLimit), w.fromNs,
                w.toNs, nsPerPixel);
            if (file.hasMetadata())
                readMetadata(reader, boxes, w.metadata[c.row]);
            return boxes;
        });
        w.readRawEvents = true;
    }
}

std::vector<TimelineModel::Series> fetchChart(const HostTraceSession& file,
                                              const report::HostTraceReader& reader,
                                              const TimelineModel::Row& row, std::int64_t fromNs,
                                              std::int64_t toNs, int widthPx) {
    std::vector<TimelineModel::Series> out;
    const double nsPerPixel = double(toNs - fromNs) / double(widthPx);
    const std::int64_t level = file.sampleLevelFor(nsPerPixel);
    for (const auto& s : file.series()) {
        if (s.graphId != row.graphId)
            continue;
        TimelineModel::Series series;
        series.name = QString::fromStdString(s.name);
        // One sample before the window, so the line enters from the left edge.
        const std::int64_t lead = std::int64_t(nsPerPixel * 8);
        if (level >= 0) {
            const double width = bucketWidth(file.lodBaseNs(), level);
            for (const auto& r : reader.sampleLod(s.id, level, fromNs - lead, toNs))
                if (r.samples > 0)
                    series.points.push_back(
                        {r.bucket * std::int64_t(width) + std::int64_t(width) / 2, r.minValue,
                         r.maxValue, r.sumValue / double(r.samples)});
        }
        if (series.points.empty())
            for (const auto& [t, v] :
                 reader.samples(s.id, fromNs - lead, toNs, kSampleLimitPerPixel * widthPx + 16))
                series.points.push_back({t, v, v, v});
        out.push_back(std::move(series));
    }
    return out;
}

} // namespace

TimelineModel::Window TimelineModel::fetchWindow(const HostFiles& files,
                                                 const std::vector<Row>& rows, std::int64_t fromNs,
                                                 std::int64_t toNs, int widthPx,
                                                 const std::vector<int>& shown,
                                                 const DeviceFiles& devices) {
    Window w;
    w.fromNs = fromNs;
    w.toNs = std::max(toNs, fromNs + 1);
    w.widthPx = std::max(1, widthPx);
    w.rows = shown;
    std::vector<ThreadTracks> groups;
    std::map<int, std::vector<int>> aggregated; // aggregated track -> its threads' stand-ins
    int nextStandIn = -1;
    for (const int index : shown) {
        if (index < 0 || index >= int(rows.size()))
            continue;
        const Row& row = rows[std::size_t(index)];
        if (row.kind == RowKind::DeviceTrack) {
            w.tracks[index] =
                devices[std::size_t(row.file)]->boxes(row.depth, w.fromNs, w.toNs, w.widthPx);
            continue;
        }
        if (row.kind == RowKind::Device)
            continue;
        const HostTraceSession& file = *files[std::size_t(row.file)];
        if (row.kind == RowKind::Track) {
            // An aggregated track reads the same depth of each thread of its process under
            // stand-in row numbers (negative), merged into the track below.
            std::vector<std::pair<std::int64_t, int>> sources; // (thread, row to fill)
            if (row.threadId == kAllThreads) {
                for (const auto& t : file.threads())
                    if (t.processId == row.processId && row.depth <= file.maxDepth(t.id)) {
                        sources.emplace_back(t.id, nextStandIn);
                        aggregated[index].push_back(nextStandIn--);
                    }
            } else {
                sources.emplace_back(row.threadId, index);
            }
            for (const auto& [threadId, target] : sources) {
                auto g = std::find_if(groups.begin(), groups.end(), [&](const ThreadTracks& t) {
                    return t.file == row.file && t.threadId == threadId;
                });
                if (g == groups.end())
                    g = groups.insert(groups.end(), ThreadTracks{row.file, threadId, {}, {}});
                g->rows.push_back(target);
                g->depths.push_back(row.depth);
            }
        } else if (row.kind == RowKind::AsyncTrack) {
            // Async slices are few next to events: raw rows, bounded like a track without
            // pyramids.
            w.tracks[index] = file.read([&](const report::HostTraceReader& reader) {
                std::vector<report::HostEvent> events;
                for (const auto& a :
                     reader.asyncSlices(row.asyncTrackId, w.fromNs, w.toNs, kRawLimit))
                    if (a.depth == row.depth)
                        events.push_back(
                            {a.id, 0, 0, a.nameId, a.kind, a.startNs, a.endNs, a.depth});
                return boxesFromEvents(events, w.fromNs, w.toNs,
                                       double(w.toNs - w.fromNs) / double(w.widthPx));
            });
        } else if (row.kind == RowKind::Counter) {
            w.charts[index] = file.read([&](const report::HostTraceReader& reader) {
                return fetchChart(file, reader, row, w.fromNs, w.toNs, w.widthPx);
            });
        } else if (row.kind == RowKind::Heatmap) {
            w.heatmaps[index] = file.read([&](const report::HostTraceReader& reader) {
                return HeatmapCells::fetch(reader, file.heatmapOverviews(), row.heatmapId, w.fromNs,
                                           w.toNs, w.widthPx);
            });
        }
    }
    fetchTracks(files, groups, w);
    for (const auto& [index, standIns] : aggregated) {
        std::vector<std::vector<Box>> perThread;
        for (const int s : standIns) {
            auto it = w.tracks.find(s);
            if (it != w.tracks.end()) {
                perThread.push_back(std::move(it->second));
                w.tracks.erase(it);
            }
        }
        w.tracks[index] = mergeThreadFlames(perThread);
        for (const int standIn : standIns) {
            const auto it = w.metadata.find(standIn);
            if (it == w.metadata.end())
                continue;
            w.metadata[index].merge(it->second);
            w.metadata.erase(it);
        }
    }
    // Colours by name text, so a name has one colour in every file; worked out here so the
    // frame does no hashing.
    for (auto& [index, boxes] : w.tracks) {
        if (rows[std::size_t(index)].kind == RowKind::DeviceTrack)
            continue; // coloured by phase
        const HostTraceSession& file = *files[std::size_t(rows[std::size_t(index)].file)];
        for (Box& b : boxes)
            b.colour = std::uint8_t(qHash(file.name(b.nameId)) % kPaletteSize);
    }
    return w;
}

} // namespace tilescope::gui
