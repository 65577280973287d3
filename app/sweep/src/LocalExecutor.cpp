// The local executor: a pool of child processes (Executors.hpp), and the interrupt flag.

#include "InterruptFlag.hpp"
#include "tilescope/sweep/Executors.hpp"
#include "tilescope/sweep/VariantProcess.hpp"

#include <deque>
#include <fmt/format.h>
#include <list>
#include <thread>

namespace tilescope::sweep {
namespace {
std::atomic<int> caughtSignal{0};
extern "C" void onInterrupt(int sig) {
    caughtSignal.store(sig);
}
} // namespace

InterruptFlag::InterruptFlag() {
    caughtSignal.store(0);
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &oldInt_);
    ::sigaction(SIGTERM, &action, &oldTerm_);
}

InterruptFlag::~InterruptFlag() {
    ::sigaction(SIGINT, &oldInt_, nullptr);
    ::sigaction(SIGTERM, &oldTerm_, nullptr);
}

int InterruptFlag::caught() const {
    return caughtSignal.load();
}

ExecutionResult runLocal(const SweepPlan& plan, const std::vector<std::size_t>& indices,
                         unsigned jobs, const ProgressSink& progress) {
    if (jobs == 0)
        jobs = std::max(1u, std::thread::hardware_concurrency());
    InterruptFlag interrupt;
    std::deque<std::size_t> pending(indices.begin(), indices.end());
    std::list<VariantProcess> running;
    ExecutionResult result;
    std::string lastLine;
    const auto report = [&] {
        const std::string line =
            fmt::format("sweep: {} of {} done ({} failed), {} running", result.finished,
                        indices.size(), result.failed, running.size());
        if (progress && line != lastLine)
            progress(line);
        lastLine = line;
    };
    while (!pending.empty() || !running.empty()) {
        if (interrupt.caught()) {
            for (auto& p : running)
                p.stop("cancelled", "interrupted (Ctrl-C)");
            running.clear();
            result.interrupted = true;
            break;
        }
        while (!pending.empty() && running.size() < jobs) {
            running.emplace_back(plan, plan.variants.at(pending.front()), "local");
            pending.pop_front();
            running.back().start();
        }
        for (auto it = running.begin(); it != running.end();) {
            if (auto status = it->poll()) {
                ++result.finished;
                result.failed += status->succeeded() ? 0 : 1;
                if (progress && !status->succeeded())
                    progress(fmt::format("sweep: variant {} failed: {}", it->variant().name,
                                         status->reason));
                it = running.erase(it);
            } else {
                ++it;
            }
        }
        report();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return result;
}

} // namespace tilescope::sweep
