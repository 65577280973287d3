#pragma once
// Timestamps for tracepoints. Reading the CPU's invariant time-stamp counter costs a few
// nanoseconds where clock_gettime costs tens in a virtual machine, which is the difference between
// meeting and missing the tracepoint budget. Ticks are converted to wall-clock nanoseconds at
// flush time by interpolating between (ticks, steady clock) anchors, one taken at the start and
// one at every flush: every tick converted at a flush lies before its newest anchor, so its error
// is the anchors' read jitter (tens of nanoseconds), not a rate estimated over the first
// milliseconds, which drifted microseconds from the engine's own system-clock run stamps.

#include <chrono>
#include <climits>
#include <cstdint>
#include <thread>
#include <vector>

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
        c.anchors_.push_back({c.ticks0_, c.steady0_});
        c.ticksPerNs_ = 1.0;
        c.recalibrate();
        return c;
    }

    /// Takes a new anchor (at least 2 ms after the start, so the rate used past the newest anchor
    /// is measured over a useful interval) and re-measures that rate over the whole session.
    void recalibrate() {
#if defined(__x86_64__) || defined(__i386__)
        std::int64_t elapsed = steadyNs() - steady0_;
        if (elapsed < 2'000'000)
            std::this_thread::sleep_for(std::chrono::nanoseconds(2'000'000 - elapsed));
        // The counter read bracketed by two clock reads; the tightest of three brackets, so a
        // preemption between the reads cannot skew the anchor.
        std::uint64_t ticks = 0;
        std::int64_t steady = 0, bracket = INT64_MAX;
        for (int attempt = 0; attempt < 3; ++attempt) {
            const std::int64_t before = steadyNs();
            const std::uint64_t t = now();
            const std::int64_t after = steadyNs();
            if (after - before < bracket) {
                bracket = after - before;
                ticks = t;
                steady = before + (after - before) / 2;
            }
        }
        if (ticks > anchors_.back().ticks && steady > anchors_.back().steadyNs)
            anchors_.push_back({ticks, steady});
        ticksPerNs_ = static_cast<double>(ticks - ticks0_) / static_cast<double>(steady - steady0_);
        segment_ = 0;
#endif
    }

    std::uint64_t startTicks() const {
        return ticks0_;
    }

    std::int64_t wallNs(std::uint64_t ticks) const {
#if defined(__x86_64__) || defined(__i386__)
        return wall0_ + (steadyAt(ticks) - steady0_);
#else
        // The ticks are steady-clock nanoseconds already.
        return wall0_ + (static_cast<std::int64_t>(ticks) - steady0_);
#endif
    }

private:
    static std::int64_t steadyNs() {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }

    struct Anchor {
        std::uint64_t ticks;
        std::int64_t steadyNs;
    };

    /// Steady-clock nanoseconds at `ticks`: interpolated between the anchors around it,
    /// extrapolated at the session's rate outside them. Flushes convert mostly recent ticks, so
    /// the segment of the previous call is tried first.
    std::int64_t steadyAt(std::uint64_t ticks) const {
        const auto within = [&](std::size_t i) {
            return anchors_[i].ticks <= ticks && ticks <= anchors_[i + 1].ticks;
        };
        if (anchors_.size() >= 2 && !within(segment_)) {
            std::size_t lo = 0, hi = anchors_.size() - 1; // anchors_[lo].ticks <= ticks < hi's
            if (ticks < anchors_.front().ticks || ticks >= anchors_.back().ticks) {
                lo = hi;
            } else {
                while (hi - lo > 1) {
                    const std::size_t mid = (lo + hi) / 2;
                    (anchors_[mid].ticks <= ticks ? lo : hi) = mid;
                }
            }
            segment_ = std::min(lo, anchors_.size() - 2);
        }
        if (anchors_.size() >= 2 && within(segment_)) {
            const Anchor& a = anchors_[segment_];
            const Anchor& b = anchors_[segment_ + 1];
            // The writer converts every event's two times here: the segment's reciprocal span is
            // kept (a multiply, not a divide, per call), and the offsets, far below 2^63, are
            // converted as signed values (cheaper than unsigned 64-bit to double).
            if (spanSegment_ != segment_ || spanAnchors_ != anchors_.size()) {
                inverseSpan_ = 1.0 / static_cast<double>(b.ticks - a.ticks);
                spanSegment_ = segment_;
                spanAnchors_ = anchors_.size();
            }
            const double f =
                static_cast<double>(static_cast<std::int64_t>(ticks - a.ticks)) * inverseSpan_;
            return a.steadyNs +
                   static_cast<std::int64_t>(f * static_cast<double>(b.steadyNs - a.steadyNs));
        }
        const Anchor& edge = ticks < anchors_.front().ticks ? anchors_.front() : anchors_.back();
        const double delta = ticks >= edge.ticks ? static_cast<double>(ticks - edge.ticks)
                                                 : -static_cast<double>(edge.ticks - ticks);
        return edge.steadyNs + static_cast<std::int64_t>(delta / ticksPerNs_);
    }

    std::uint64_t ticks0_ = 0;
    std::int64_t steady0_ = 0;
    std::int64_t wall0_ = 0;
    double ticksPerNs_ = 1.0;
    std::vector<Anchor> anchors_;
    mutable std::size_t segment_ = 0;
    mutable std::size_t spanSegment_ = ~std::size_t{0}, spanAnchors_ = 0;
    mutable double inverseSpan_ = 0;
};

} // namespace tilescope::capture
