#pragma once

#include "core/NewestLoad.hpp"
#include "tables/RecordTableModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// What changed in not-always-live memory between two program steps: the variables live at
/// `toStep` but not at `fromStep` (became live), those live at `fromStep` but not at `toStep`
/// (stopped being live), and the change of the steps' not-always-live bytes. Two live-at-step
/// queries, whatever the distance between the steps.
struct StepLiveDiff {
    std::int64_t fromStep = -1;
    std::int64_t toStep = -1;
    std::uint64_t fromBytes = 0; // not-always-live bytes at each step, all tiles
    std::uint64_t toBytes = 0;
    std::vector<report::VariableRecord> becameLive;  // largest first
    std::vector<report::VariableRecord> stoppedLive; // largest first
    std::uint64_t becameLiveBytes = 0;
    std::uint64_t stoppedLiveBytes = 0;

    std::int64_t byteDelta() const { return std::int64_t(toBytes) - std::int64_t(fromBytes); }
    static StepLiveDiff fetch(const report::ProfileReader& reader, std::int64_t fromStep,
                              std::int64_t toStep);
};

/// The Liveness view's step-diff table (two steps of ONE report; comparing two reports is
/// compare/'s business): one row per variable that became live or stopped being
/// live between two steps (change, name, signed bytes, live range). compare() queries on a worker;
/// a newer request supersedes an older one still running.
class LivenessStepDiffModel : public RecordTableModel {
    Q_OBJECT
public:
    explicit LivenessStepDiffModel(std::shared_ptr<ReportSession> session,
                                   QObject* parent = nullptr);

    void compare(std::int64_t fromStep, std::int64_t toStep);
    const StepLiveDiff& comparison() const { return comparison_; }
    bool isLoading() const { return load_.busy(); }

signals:
    void compared();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    StepLiveDiff comparison_;
    NewestLoad load_;
};

} // namespace tilescope::gui
