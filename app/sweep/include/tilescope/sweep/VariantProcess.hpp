#pragma once
// One variant's program as a child process: started in its own process group with its output
// going to DIR/<variant>/output.log, polled, stopped, and its end turned into a VariantStatus.

#include "tilescope/sweep/SweepPlan.hpp"
#include "tilescope/sweep/VariantStatus.hpp"

#include <chrono>
#include <optional>
#include <sys/types.h>

namespace tilescope::sweep {

/// A running variant. start() empties the variant's folder (a rerun must not inherit the old
/// report), writes its launch (variant.json) and starts the program; poll() reaps it without
/// waiting; stop() signals the whole process group (the program and anything it started).
class VariantProcess {
public:
    VariantProcess(const SweepPlan& plan, const Variant& variant, std::string executor);
    VariantProcess(VariantProcess&&) noexcept;
    VariantProcess& operator=(VariantProcess&&) noexcept;
    ~VariantProcess();

    /// Throws SweepError when the folder cannot be prepared or the process cannot be forked.
    void start();
    /// The status once the process has ended (written to status.json), else none. A variant
    /// running longer than the plan's timeout is killed and reported failed ("timed out").
    std::optional<VariantStatus> poll();
    /// SIGTERM to the process group, SIGKILL after `grace`, reaped; the status is written with
    /// `state` and `reason` (for example "cancelled" / "interrupted by Ctrl-C").
    VariantStatus stop(const std::string& state, const std::string& reason,
                       std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

    const Variant& variant() const { return *variant_; }
    bool running() const { return pid_ > 0; }

private:
    VariantStatus finish(int waitStatus, const std::string& forcedState,
                         const std::string& forcedReason);

    const SweepPlan* plan_;
    const Variant* variant_;
    std::string executor_;
    pid_t pid_ = -1;
    std::chrono::steady_clock::time_point started_;
    std::string startedUtc_;
    bool timedOut_ = false;
};

/// Runs one variant to its end in this process (a Slurm array task): SIGTERM and SIGINT (Slurm's
/// time limit, scancel) stop the program and record the variant as failed with that reason.
VariantStatus runVariantToEnd(const SweepPlan& plan, const Variant& variant,
                              const std::string& executor);

} // namespace tilescope::sweep
