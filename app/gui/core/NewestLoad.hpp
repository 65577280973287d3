#pragma once

#include <cstdint>

class QObject;

namespace tilescope::gui {

/// Background loads of which only the newest counts (a table refilled for another selection or
/// step): starting one makes the answer or failure of any still running irrelevant, so `done` and
/// `failed` are called only for the newest, after `busy()` has turned false. `start` is defined in
/// core/Background.hpp (which the model's .cpp includes), so model headers stay light.
class NewestLoad {
public:
    bool busy() const { return busy_; }

    /// Drops the answer of any load still running (nothing needs loading any more).
    void cancel() {
        ++generation_;
        busy_ = false;
    }

    /// Runs `job` (returning `T`) in the background as the newest load, on `context`'s thread.
    template <class T, class Job, class Done, class Failed>
    void start(QObject* context, Job job, Done done, Failed failed);

private:
    bool busy_ = false;
    std::uint64_t generation_ = 0;
};

} // namespace tilescope::gui
