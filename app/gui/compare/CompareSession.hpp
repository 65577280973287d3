#pragma once

#include "core/ReportSession.hpp"
#include "tilescope/report/ReportComparison.hpp"
#include "tilescope/report/StructureComparison.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace tilescope::gui {

/// Two open reports compared: the source (baseline) and the target (changed build), each a
/// ReportSession opened the way the app opens a single report (files, folders, ssh:// URLs), and
/// the summary comparison computed while opening. The structural comparisons (programs,
/// operations, liveness and execution steps) and the memory per tile are computed on first use
/// through `compare`, which holds both sessions' locks (always source first, then target), so it
/// is meant for worker threads; results are kept for the session's lifetime.
class CompareSession {
public:
    /// Opens both reports (the target on a second thread while the source opens on this one) and
    /// compares their summaries. `progress` receives (fraction, stage); `keepGoing` returning false
    /// abandons the open between stages (returns nullptr).
    static std::shared_ptr<CompareSession>
    open(const std::string& source, const std::string& target,
         const std::function<void(double, const char*)>& progress,
         const std::function<bool()>& keepGoing);

    const ReportSession& source() const { return *source_; }
    const ReportSession& target() const { return *target_; }
    const report::SummaryComparison& summary() const { return summary_; }

    /// Runs `f(StructureComparison&)` with both readers locked. Worker threads only.
    template <class F> auto structure(F&& f) const {
        return lockedBoth([&](const report::ProfileReader& s, const report::ProfileReader& t) {
            return f(structureLocked(s, t));
        });
    }
    /// Memory per tile of both reports (including gaps), computed once. Worker threads only.
    const report::TileMemoryComparison& tileMemory() const;

private:
    CompareSession() = default;
    template <class F> auto lockedBoth(F&& f) const {
        return source_->read([&](const report::ProfileReader& s) {
            return target_->read([&](const report::ProfileReader& t) { return f(s, t); });
        });
    }
    report::StructureComparison& structureLocked(const report::ProfileReader& source,
                                                 const report::ProfileReader& target) const;

    std::shared_ptr<ReportSession> source_;
    std::shared_ptr<ReportSession> target_;
    report::SummaryComparison summary_;
    // Created on first use under both locks; refers to the sessions' readers.
    mutable std::unique_ptr<report::StructureComparison> structure_;
    mutable std::unique_ptr<report::TileMemoryComparison> tileMemory_;
};

} // namespace tilescope::gui
