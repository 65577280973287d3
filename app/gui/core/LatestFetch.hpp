#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

class QObject;

namespace tilescope::gui {

/// One window fetch at a time for a chart model: a request asked while one runs waits, and a newer
/// one replaces it, so a fast pan fetches only where it stops. A request `same` as the latest one
/// asked is ignored; `dropAnswers()` (the run or rows changed) discards what is running and
/// waiting. `start` is called with each request taken from the queue and must hand its job to
/// `run`, which shows the answer only if it is still current and then starts whatever waits.
template <class Request> class LatestFetch {
public:
    using Same = std::function<bool(const Request& asked, const Request& latest)>;
    using Start = std::function<void(const Request&)>;

    LatestFetch(Same same, Start start) : same_(std::move(same)), start_(std::move(start)) {}

    /// Queues `request` unless it repeats the latest one; returns whether it was queued.
    bool ask(Request request) {
        if (latest_ && same_(request, *latest_))
            return false;
        latest_ = request;
        pending_ = std::move(request);
        if (!running_)
            startNext();
        return true;
    }

    /// Queues a follow-up (e.g. the same window again once more is known) only if nothing else
    /// waits: a request the user asked for meanwhile wins.
    void askUnlessWaiting(Request request) {
        if (!pending_)
            pending_ = std::move(request);
        if (!running_)
            startNext();
    }

    /// The next ask is fetched even if it repeats the last (what it would fetch changed).
    void forgetLatest() { latest_.reset(); }

    /// Answers of fetches already started are dropped, the waiting request too.
    void dropAnswers() {
        ++generation_;
        pending_.reset();
        latest_.reset();
    }

    /// No fetch running or waiting.
    bool idle() const { return !running_ && !pending_; }

    /// Runs `job` (returning `Answer`) in the background for the request `start` was given:
    /// `show(Answer)` if nothing dropped it meanwhile, then the next waiting request starts;
    /// `fail(message)` on failure (nothing further starts until the next ask).
    template <class Answer, class Job, class Show, class Fail>
    void run(QObject* context, Job job, Show show, Fail fail); // defined in core/Background.hpp

private:
    void startNext() {
        if (!pending_)
            return;
        const Request request = std::move(*pending_);
        pending_.reset();
        start_(request);
    }

    Same same_;
    Start start_;
    bool running_ = false;
    std::optional<Request> pending_; // the latest request not yet started
    std::optional<Request> latest_;  // the latest request asked, started or not
    std::uint64_t generation_ = 0;
};

} // namespace tilescope::gui
