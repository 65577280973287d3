#pragma once
// Timestamps for tracepoints. Reading the CPU's invariant time-stamp counter costs a few
// nanoseconds where clock_gettime costs tens in a virtual machine, which is the difference between
// meeting and missing the tracepoint budget. Ticks are converted to wall-clock nanoseconds at
// flush time from two (ticks, steady clock) pairs, refined at every flush.

#include <chrono>
#include <cstdint>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace tilescope::capture {

class CycleClock {
public:
    static std::uint64_t now() {
#if defined(__x86_64__) || defined(__i386__)
        return __rdtsc();
#else
        return static_cast<std::uint64_t>(
            std::chrono::steady_clock::now().time_since_epoch().count());
#endif
    }

    static CycleClock start() {
        CycleClock c;
        c.ticks0_ = now();
        c.steady0_ = steadyNs();
        c.wall0_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
        c.ticksPerNs_ = 1.0;
        c.recalibrate();
        return c;
    }

    /// Re-measures the tick rate over the whole session so far (at least 2 ms of it).
    void recalibrate() {
#if defined(__x86_64__) || defined(__i386__)
        std::int64_t elapsed = steadyNs() - steady0_;
        if (elapsed < 2'000'000) {
            std::this_thread::sleep_for(std::chrono::nanoseconds(2'000'000 - elapsed));
            elapsed = steadyNs() - steady0_;
        }
        const std::uint64_t ticks = now() - ticks0_;
        ticksPerNs_ = static_cast<double>(ticks) / static_cast<double>(elapsed);
#endif
    }

    std::uint64_t startTicks() const {
        return ticks0_;
    }

    std::int64_t wallNs(std::uint64_t ticks) const {
        const double sinceStart = static_cast<double>(static_cast<std::int64_t>(ticks - ticks0_));
        return wall0_ + static_cast<std::int64_t>(sinceStart / ticksPerNs_);
    }

private:
    static std::int64_t steadyNs() {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }

    std::uint64_t ticks0_ = 0;
    std::int64_t steady0_ = 0;
    std::int64_t wall0_ = 0;
    double ticksPerNs_ = 1.0;
};

} // namespace tilescope::capture
