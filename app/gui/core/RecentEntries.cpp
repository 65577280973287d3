#include "RecentEntries.hpp"

#include <QObject>
#include <QSettings>

namespace tilescope::gui {
namespace {
// The key of the version that kept report locations only: plain lines there are reports.
const char* const kKey = "recentFiles";
const QLatin1String kTracesTag("traces\t"), kComparisonTag("compare\t"),
    kTraceComparisonTag("compare-traces\t");
} // namespace

QString RecentEntry::label() const {
    switch (kind) {
    case Traces:
        return QObject::tr("traces: %1").arg(paths.join(QStringLiteral(" + ")));
    case Comparison:
        return QObject::tr("compare: %1 ↔ %2").arg(paths.value(0), paths.value(1));
    case TraceComparison:
        return QObject::tr("compare traces: %1 ↔ %2").arg(paths.value(0), paths.value(1));
    case Report:
        break;
    }
    return paths.value(0);
}

QString RecentEntry::encode() const {
    switch (kind) {
    case Traces:
        return kTracesTag + paths.join(QLatin1Char('\t'));
    case Comparison:
        return kComparisonTag + paths.join(QLatin1Char('\t'));
    case TraceComparison:
        return kTraceComparisonTag + paths.join(QLatin1Char('\t'));
    case Report:
        break;
    }
    return paths.value(0);
}

RecentEntry RecentEntry::decode(const QString& line) {
    RecentEntry e;
    if (line.startsWith(kTracesTag)) {
        e.kind = Traces;
        e.paths = line.mid(kTracesTag.size()).split(QLatin1Char('\t'), Qt::SkipEmptyParts);
    } else if (line.startsWith(kComparisonTag) || line.startsWith(kTraceComparisonTag)) {
        const bool traces = line.startsWith(kTraceComparisonTag);
        e.kind = traces ? TraceComparison : Comparison;
        e.paths = line.mid(traces ? kTraceComparisonTag.size() : kComparisonTag.size())
                      .split(QLatin1Char('\t'), Qt::SkipEmptyParts);
        if (e.paths.size() != 2)
            e.paths.clear(); // not a comparison: dropped by entries()
    } else if (!line.isEmpty()) {
        e.paths = {line};
    }
    return e;
}

namespace recent {

std::vector<RecentEntry> entries() {
    std::vector<RecentEntry> out;
    for (const QString& line : QSettings().value(QLatin1String(kKey)).toStringList()) {
        RecentEntry e = RecentEntry::decode(line);
        if (!e.paths.isEmpty())
            out.push_back(std::move(e));
    }
    return out;
}

std::vector<RecentEntry> entries(RecentEntry::Kind kind) {
    std::vector<RecentEntry> out;
    for (RecentEntry& e : entries())
        if (e.kind == kind)
            out.push_back(std::move(e));
    return out;
}

void add(const RecentEntry& entry) {
    if (entry.paths.isEmpty())
        return;
    QStringList lines{entry.encode()};
    for (const RecentEntry& e : entries())
        if (!(e == entry) && lines.size() < kMax)
            lines << e.encode();
    QSettings().setValue(QLatin1String(kKey), lines);
}

void clear() {
    QSettings().remove(QLatin1String(kKey));
}

} // namespace recent
} // namespace tilescope::gui
