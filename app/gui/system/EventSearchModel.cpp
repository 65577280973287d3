#include "EventSearchModel.hpp"

#include "HostTraceSession.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"
#include "tilescope/report/HostTraceStatistics.hpp"

#include <QRegularExpression>
#include <algorithm>
#include <stdexcept>

namespace tilescope::gui {
namespace {

std::vector<RecordTableModel::Column> searchColumns() {
    auto duration = [](const QVariant& v) { return formatDuration(v.toDouble()); };
    return {{QObject::tr("File"), {}, false},
            {QObject::tr("Thread"), {}, false},
            {QObject::tr("Name"), {}, false},
            {QObject::tr("Start (after trace start)"), duration, true},
            {QObject::tr("Duration"), duration, true}};
}

} // namespace

EventSearchModel::EventSearchModel(std::vector<std::shared_ptr<HostTraceSession>> files,
                                   QObject* parent)
    : RecordTableModel(searchColumns(), parent), files_(std::move(files)) {}

std::vector<EventSearchModel::Hit>
EventSearchModel::find(const std::vector<std::shared_ptr<HostTraceSession>>& files,
                       const QString& pattern, bool regularExpression, bool* truncated) {
    QRegularExpression re;
    if (regularExpression) {
        re.setPattern(pattern);
        if (!re.isValid())
            throw std::invalid_argument(
                QObject::tr("invalid regular expression: %1").arg(re.errorString()).toStdString());
    }
    std::vector<Hit> hits;
    bool more = false;
    for (int f = 0; f < int(files.size()); ++f) {
        const HostTraceSession& file = *files[std::size_t(f)];
        std::vector<std::int64_t> ids;
        for (const auto& [id, text] : file.names()) {
            const QString& name = file.name(id);
            if (regularExpression ? re.match(name).hasMatch()
                                  : name.contains(pattern, Qt::CaseInsensitive))
                ids.push_back(id);
        }
        bool cut = false;
        const auto events = file.readLong([&](const report::HostTraceReader& reader) {
            return report::findEventsByName(reader, ids, kMaxHits, &cut);
        });
        more = more || cut;
        for (const auto& e : events)
            hits.push_back({f, e});
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [](const Hit& a, const Hit& b) { return a.event.startNs < b.event.startNs; });
    if (std::int64_t(hits.size()) > kMaxHits) {
        hits.resize(std::size_t(kMaxHits));
        more = true;
    }
    if (truncated)
        *truncated = more;
    return hits;
}

void EventSearchModel::search(const QString& pattern, bool regularExpression) {
    if (pattern.isEmpty()) {
        search_.cancel();
        setHits({}, false);
        return;
    }
    if (regularExpression && !QRegularExpression(pattern).isValid()) {
        search_.cancel();
        setHits({}, false);
        emit failed(
            tr("invalid regular expression: %1").arg(QRegularExpression(pattern).errorString()));
        return;
    }
    struct Result {
        std::vector<Hit> hits;
        bool truncated = false;
    };
    auto files = files_;
    search_.start<Result>(
        this,
        [files, pattern, regularExpression] {
            Result r;
            r.hits = find(files, pattern, regularExpression, &r.truncated);
            return r;
        },
        [this](Result r) { setHits(std::move(r.hits), r.truncated); },
        [this](const QString& message) { emit failed(message); });
}

void EventSearchModel::setHits(std::vector<Hit> hits, bool truncated) {
    hits_ = std::move(hits);
    truncated_ = truncated;
    std::vector<Row> rows;
    rows.reserve(hits_.size());
    for (const Hit& h : hits_) {
        const HostTraceSession& file = *files_[std::size_t(h.file)];
        QString thread;
        for (const auto& t : file.threads())
            if (t.id == h.event.threadId)
                thread = QString::fromStdString(t.name);
        const std::int64_t end = h.event.endNs.value_or(file.endNs());
        rows.push_back({file.fileName(), thread, file.name(h.event.nameId),
                        QVariant::fromValue<qlonglong>(h.event.startNs - file.beginNs()),
                        QVariant::fromValue<qlonglong>(h.event.kind == report::EventKind::Instant
                                                           ? 0
                                                           : end - h.event.startNs)});
    }
    setRows(std::move(rows));
    current_ = -1;
    emit finished();
}

void EventSearchModel::setCurrent(int index) {
    if (hits_.empty() || index < 0 || index >= int(hits_.size()))
        return;
    current_ = index;
    emit currentChanged(index);
}

void EventSearchModel::next() {
    if (!hits_.empty())
        setCurrent((current_ + 1) % int(hits_.size()));
}

void EventSearchModel::previous() {
    if (!hits_.empty())
        setCurrent(current_ <= 0 ? int(hits_.size()) - 1 : current_ - 1);
}

} // namespace tilescope::gui
