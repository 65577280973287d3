// Writes a host trace with libpvti heatmaps for the timeline screenshot
// (resources/screenshots/timeline-heatmap.png): run with
// PVTI_OPTIONS='{"enable":"true","directory":"DIR"}'. A "step" per iteration on two threads, a
// latency heatmap whose distribution drifts up and back down, and a message-size heatmap.

#include "pvti/pvti.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

pvti::TraceChannel channel = {"app"};

// A deterministic pseudo-random number in [0, 1).
double uniform(std::uint64_t& state) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return double(state >> 11) / double(std::uint64_t{1} << 53);
}

} // namespace

int main() {
    pvti::HeatmapDouble latency("Request latency", {0.5, 1, 2, 4, 8, 16, 32, 64}, "ms");
    pvti::HeatmapUInt64 sizes("Message size", {64, 256, 1024, 4096, 16384, 65536}, "bytes");
    std::uint64_t state = 42;
    auto work = [&](int iterations, double phase) {
        for (int i = 0; i < iterations; ++i) {
            pvti::Tracepoint step(&channel, "step");
            const double centre = 2.0 + 1.5 * std::sin(phase + double(i) / 25.0);
            std::vector<double> values;
            for (int k = 0; k < 40; ++k)
                values.push_back(std::exp2(centre + 1.2 * (uniform(state) - 0.5) * 2));
            latency.add(values);
            for (int k = 0; k < 10; ++k)
                sizes.add(std::uint64_t(std::exp2(6 + 10 * uniform(state))));
            std::this_thread::sleep_for(std::chrono::microseconds(400));
        }
    };
    work(150, 0.0);
    std::thread other([&] { work(100, 1.0); });
    other.join();
    return 0;
}
