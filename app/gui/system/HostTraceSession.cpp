#include "HostTraceSession.hpp"

#include "core/Format.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceStatistics.hpp"
#include "tilescope/report/ReportError.hpp"

#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <limits>
#include <new>

namespace tilescope::gui {
namespace {
/// Flow arrows read at open; a file with more shows the first ones.
constexpr std::int64_t kMaxFlows = 1 << 20;
} // namespace
namespace {
constexpr int kMaxLevel = 40;

std::int64_t levelFor(const std::vector<std::int64_t>& levels, std::int64_t base, double ns) {
    std::int64_t best = -1;
    for (const std::int64_t level : levels)
        if (double(base) * std::pow(4.0, double(level)) <= ns)
            best = level;
    return best;
}
} // namespace

QString metadataText(const std::vector<report::EventMetadataEntry>& entries) {
    QStringList parts;
    for (const auto& m : entries) {
        const QString text = QString::fromStdString(report::metadataText(m.metadata));
        parts << (m.point == report::MetadataPoint::End ? QObject::tr("At the end:\n") + text
                                                        : text);
    }
    return parts.join(QLatin1Char('\n'));
}

QString HostTraceSession::metadataText(std::int64_t eventId) const {
    if (!hasMetadata_)
        return {};
    return gui::metadataText(
        read([&](const report::HostTraceReader& r) { return r.eventMetadata(eventId); }));
}

std::shared_ptr<HostTraceSession> HostTraceSession::open(const std::string& path) {
    std::shared_ptr<HostTraceSession> s(new HostTraceSession(path));
    s->reader_.read([&](const report::HostTraceReader& r) {
        s->processes_ = r.processes();
        s->threads_ = r.threads();
        for (const auto& t : s->threads_)
            s->maxDepth_[t.id] = r.maxDepth(t.id);
        s->graphs_ = r.graphs();
        s->series_ = r.series();
        s->counts_ = r.counts();
        s->asyncTracks_ = r.asyncTracks();
        s->flows_ = r.flows(kMaxFlows);
        s->hasMetadata_ = r.hasEventMetadata();
        const auto& file = r.file();
        auto detail = [&](const QString& label, const std::string& value) {
            s->details_.emplace_back(label, QString::fromStdString(value));
        };
        detail(QObject::tr("File"), path);
        detail(QObject::tr("Format version"), std::to_string(file.formatVersion()));
        detail(QObject::tr("Tool version"), file.metadataValue("tool_version", "(not recorded)"));
        detail(QObject::tr("Created"), file.metadataValue("created_utc", "(not recorded)"));
        detail(QObject::tr("Writer state"), file.complete() ? "complete" : "incomplete");
        for (const auto& [label, value] : report::chromeImportDetails(file))
            detail(QObject::tr(label.c_str()), value);
        for (const auto& drop : r.droppedEvents()) {
            QString thread = QString::number(drop.threadId);
            for (const auto& t : s->threads_)
                if (t.id == drop.threadId)
                    thread = t.name.empty() ? QString::number(t.tid)
                                            : QStringLiteral("%1 (%2)").arg(t.tid).arg(
                                                  QString::fromStdString(t.name));
            s->dropWarnings_ << QObject::tr("%1 events dropped on thread %2")
                                    .arg(formatCount(drop.events), thread);
            s->details_.emplace_back(QObject::tr("Dropped events"), s->dropWarnings_.back());
        }
        s->names_ = report::hostTraceNames(r);
        for (const auto& [id, text] : s->names_)
            s->nameText_.emplace(id, QString::fromStdString(text));
        if (const auto span = r.timeSpan()) {
            s->hasSpan_ = true;
            s->beginNs_ = span->first;
            s->endNs_ = std::max(span->second, span->first + 1);
        }
        s->lodBaseNs_ = r.lodBaseNs();
        if (r.hasLevelOfDetail()) {
            // The reader answers "coarsest level at most this wide": asking at every level's own
            // width lists the stored levels.
            double width = double(s->lodBaseNs_);
            for (int level = 0; level <= kMaxLevel; ++level, width *= 4) {
                if (r.eventLodLevelFor(width) == level)
                    s->eventLevels_.push_back(level);
                if (r.sampleLodLevelFor(width) == level)
                    s->sampleLevels_.push_back(level);
            }
        }
        s->readCoarsestLevel(r);
        s->readOverview(r);
    });
    return s;
}

void HostTraceSession::readCoarsestLevel(const report::HostTraceReader& reader) {
    const std::int64_t level = coarsestEventLevel();
    if (level < 0 || !hasSpan_)
        return;
    for (const auto& t : threads_) {
        const std::int32_t deepest = maxDepth(t.id);
        if (deepest < 0)
            continue;
        std::vector<std::int32_t> depths;
        for (std::int32_t d = 0; d <= deepest; ++d)
            depths.push_back(d);
        LodSlice& slice = coarsest_[t.id];
        slice.level = level;
        slice.fromBucket = std::numeric_limits<std::int64_t>::min();
        slice.toBucket = std::numeric_limits<std::int64_t>::max();
        for (auto& [depth, row] :
             reader.eventLodBuckets(t.id, depths, level, slice.fromBucket, slice.toBucket))
            slice.rows[depth].push_back(row);
    }
}

namespace {
/// The rows of `rows` (in bucket order) with buckets in [from, to].
std::vector<report::EventLodRow> bucketRange(const std::vector<report::EventLodRow>& rows,
                                             std::int64_t from, std::int64_t to) {
    auto byBucket = [](const report::EventLodRow& r, std::int64_t b) { return r.bucket < b; };
    const auto first = std::lower_bound(rows.begin(), rows.end(), from, byBucket);
    const auto last = std::lower_bound(
        first, rows.end(), to == std::numeric_limits<std::int64_t>::max() ? to : to + 1, byBucket);
    if (to == std::numeric_limits<std::int64_t>::max())
        return {first, rows.end()};
    return {first, last};
}
} // namespace

std::vector<std::vector<report::EventLodRow>>
HostTraceSession::eventLodWindow(std::int64_t threadId, const std::vector<std::int32_t>& depths,
                                 std::int64_t level, std::int64_t fromBucket,
                                 std::int64_t toBucket) const {
    std::vector<std::vector<report::EventLodRow>> out(depths.size());
    auto sliceOut = [&](const LodSlice& slice) {
        for (std::size_t i = 0; i < depths.size(); ++i)
            if (const auto it = slice.rows.find(depths[i]); it != slice.rows.end())
                out[i] = bucketRange(it->second, fromBucket, toBucket);
    };
    if (level == coarsestEventLevel()) {
        if (const auto it = coarsest_.find(threadId); it != coarsest_.end())
            sliceOut(it->second);
        return out;
    }
    reader_.read([&](const report::HostTraceReader& reader) {
        LodSlice& slice = recent_[threadId];
        const bool holdsDepths = std::all_of(
            depths.begin(), depths.end(), [&](std::int32_t d) { return slice.rows.count(d) > 0; });
        const bool overlaps =
            slice.level == level && fromBucket <= slice.toBucket && toBucket >= slice.fromBucket;
        auto read = [&](std::int64_t from, std::int64_t to,
                        std::unordered_map<std::int32_t, std::vector<report::EventLodRow>>& into) {
            for (auto& [depth, row] : reader.eventLodBuckets(threadId, depths, level, from, to))
                into[depth].push_back(row);
        };
        if (holdsDepths && overlaps) {
            // Extend the held range by the newly exposed buckets on either side.
            if (fromBucket < slice.fromBucket) {
                std::unordered_map<std::int32_t, std::vector<report::EventLodRow>> left;
                read(fromBucket, slice.fromBucket - 1, left);
                for (auto& [depth, rows] : left) {
                    auto& held = slice.rows[depth];
                    held.insert(held.begin(), rows.begin(), rows.end());
                }
                slice.fromBucket = fromBucket;
            }
            if (toBucket > slice.toBucket) {
                std::unordered_map<std::int32_t, std::vector<report::EventLodRow>> right;
                read(slice.toBucket + 1, toBucket, right);
                for (auto& [depth, rows] : right) {
                    auto& held = slice.rows[depth];
                    held.insert(held.end(), rows.begin(), rows.end());
                }
                slice.toBucket = toBucket;
            }
            // Bound what is held to a few windows around the current one.
            const std::int64_t keep = 2 * (toBucket - fromBucket + 1);
            if (slice.toBucket - slice.fromBucket > 3 * keep) {
                const std::int64_t lo = fromBucket - keep, hi = toBucket + keep;
                for (auto& [depth, rows] : slice.rows)
                    rows = bucketRange(rows, lo, hi);
                slice.fromBucket = std::max(slice.fromBucket, lo);
                slice.toBucket = std::min(slice.toBucket, hi);
            }
        } else {
            slice = LodSlice{};
            slice.level = level;
            slice.fromBucket = fromBucket;
            slice.toBucket = toBucket;
            for (const std::int32_t d : depths)
                slice.rows[d];
            read(fromBucket, toBucket, slice.rows);
        }
        sliceOut(slice);
    });
    return out;
}

void HostTraceSession::readOverview(const report::HostTraceReader& reader) {
    overview_.assign(kOverviewColumns, 0.0);
    if (!hasSpan_)
        return;
    const double span = double(endNs_ - beginNs_);
    const double columnNs = span / kOverviewColumns;
    // The coarsest level read at open covers the whole trace in at most ~1024 buckets: enough for
    // the overview's columns without another pass over the pyramid.
    const std::int64_t level = coarsestEventLevel();
    for (const auto& t : threads_) {
        if (maxDepth(t.id) < 0)
            continue;
        // Times relative to the trace start: epoch nanoseconds do not fit a double's mantissa.
        auto add = [&](double start, double end) {
            // Spread [start, end) over the columns it covers, as busy fractions.
            start = std::max(start, 0.0);
            end = std::min(end, span);
            for (double at = start; at < end;) {
                const int c = std::clamp(int(at / columnNs), 0, kOverviewColumns - 1);
                const double until = std::min(end, std::max(double(c + 1) * columnNs, at + 1));
                overview_[std::size_t(c)] += (until - at) / columnNs;
                at = until;
            }
        };
        if (level >= 0) {
            const double width = double(lodBaseNs_) * std::pow(4.0, double(level));
            const auto slice = coarsest_.find(t.id);
            if (slice == coarsest_.end() || !slice->second.rows.count(0))
                continue;
            for (const auto& row : slice->second.rows.at(0)) {
                // A bucket's busy time is drawn evenly over the bucket.
                const double b = double(row.bucket * std::int64_t(width) - beginNs_);
                const double fill = std::min(1.0, double(row.busyNs) / width);
                add(b, b + width * fill);
            }
        } else {
            for (const auto& e : reader.events(t.id, 0, beginNs_, endNs_, 100000))
                add(double(e.startNs - beginNs_), double(e.endNs.value_or(endNs_) - beginNs_));
        }
    }
}

QString HostTraceSession::fileName() const {
    return QFileInfo(QString::fromStdString(path_)).fileName();
}

std::int32_t HostTraceSession::maxDepth(std::int64_t threadId) const {
    const auto it = maxDepth_.find(threadId);
    return it == maxDepth_.end() ? -1 : it->second;
}

const QString& HostTraceSession::name(std::int64_t nameId) const {
    static const QString none;
    const auto it = nameText_.find(nameId);
    return it == nameText_.end() ? none : it->second;
}

std::int64_t HostTraceSession::eventLevelFor(double nsPerBucket) const {
    return levelFor(eventLevels_, lodBaseNs_, nsPerBucket);
}

std::int64_t HostTraceSession::sampleLevelFor(double nsPerBucket) const {
    return levelFor(sampleLevels_, lodBaseNs_, nsPerBucket);
}

} // namespace tilescope::gui
