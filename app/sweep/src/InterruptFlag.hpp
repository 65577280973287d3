#pragma once
// SIGINT/SIGTERM caught while an executor waits: the executor stops its variants and returns
// instead of dying with them running.

#include <atomic>
#include <csignal>

namespace tilescope::sweep {

/// Installs handlers for SIGINT and SIGTERM for its lifetime; the old ones come back after.
class InterruptFlag {
public:
    InterruptFlag();
    ~InterruptFlag();
    InterruptFlag(const InterruptFlag&) = delete;
    InterruptFlag& operator=(const InterruptFlag&) = delete;

    /// The signal caught (0: none).
    int caught() const;

private:
    struct sigaction oldInt_ {};
    struct sigaction oldTerm_ {};
};

} // namespace tilescope::sweep
