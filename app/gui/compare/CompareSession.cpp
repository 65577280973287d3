#include "CompareSession.hpp"

#include <future>

namespace tilescope::gui {

std::shared_ptr<CompareSession>
CompareSession::open(const std::string& source, const std::string& target,
                     const std::function<void(double, const char*)>& progress,
                     const std::function<bool()>& keepGoing) {
    std::shared_ptr<CompareSession> s(new CompareSession);
    // Both opens are mostly waiting on SQLite pages: running them side by side keeps the compare
    // open close to the cost of one report.
    auto targetOpen = std::async(std::launch::async,
                                 [&] { return ReportSession::open(target, nullptr, keepGoing); });
    try {
        s->source_ = ReportSession::open(
            source,
            [&](double fraction, const char* stage) {
                if (progress)
                    progress(fraction * 0.8, stage);
            },
            keepGoing);
    } catch (...) {
        targetOpen.wait(); // never leave the worker running on references to this frame
        throw;
    }
    s->target_ = targetOpen.get();
    if (!s->source_ || !s->target_)
        return nullptr; // abandoned
    if (progress)
        progress(0.85, "Comparing summaries");
    if (keepGoing && !keepGoing())
        return nullptr;
    s->summary_ = s->lockedBoth([](const report::ProfileReader& a, const report::ProfileReader& b) {
        return report::compareSummaries(a, b);
    });
    if (progress)
        progress(1.0, "Done");
    return s;
}

report::StructureComparison&
CompareSession::structureLocked(const report::ProfileReader& source,
                                const report::ProfileReader& target) const {
    if (!structure_)
        structure_ = std::make_unique<report::StructureComparison>(source, target);
    return *structure_;
}

const report::TileMemoryComparison& CompareSession::tileMemory() const {
    return *lockedBoth(
        [this](const report::ProfileReader& a,
               const report::ProfileReader& b) -> const report::TileMemoryComparison* {
            if (!tileMemory_)
                tileMemory_ = std::make_unique<report::TileMemoryComparison>(
                    report::compareTileMemory(a, b, true));
            return tileMemory_.get();
        });
}

} // namespace tilescope::gui
