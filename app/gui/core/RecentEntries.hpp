#pragma once

#include <QString>
#include <QStringList>
#include <vector>

namespace tilescope::gui {

/// The app's one list of recently opened things, shared by every window (QSettings): single
/// reports, sets of host traces opened together in the system analyser, comparisons of two
/// reports and comparisons of two host traces, newest first, at most kMax. A report is stored as
/// its location (the format of older versions' recent files, which therefore keep working); traces
/// and comparisons as a tagged, tab-separated line.
struct RecentEntry {
    enum Kind { Report, Traces, Comparison, TraceComparison };
    Kind kind = Report;
    QStringList paths; ///< one report; the traces (and reports) of a set; source and target

    /// What the menus show: the path, "traces: a.pvti + b.pvti", "compare: A ↔ B", "compare
    /// traces: A ↔ B".
    QString label() const;
    /// The settings form of the entry, and back (nullopt-like: an entry with no paths when the
    /// line is not one).
    QString encode() const;
    static RecentEntry decode(const QString& line);
    bool operator==(const RecentEntry& other) const {
        return kind == other.kind && paths == other.paths;
    }
};

namespace recent {
constexpr int kMax = 64;
/// Every entry, newest first.
std::vector<RecentEntry> entries();
/// Those of one kind, newest first.
std::vector<RecentEntry> entries(RecentEntry::Kind kind);
/// Puts `entry` first (removing an equal older one) and drops the oldest beyond kMax.
void add(const RecentEntry& entry);
/// Forgets every entry (tests, a "Clear" action).
void clear();
} // namespace recent

} // namespace tilescope::gui
