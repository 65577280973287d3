#include "SyntheticHostTrace.hpp"

#include "tilescope/report/HostTraceWriter.hpp"

#include <array>
#include <fmt/format.h>
#include <random>

namespace tilescope::report {
namespace {

// A frame is one outer call with two nested phases, each with one leaf: five events.
constexpr std::uint64_t kEventsPerFrame = 5;

constexpr std::array<const char*, 4> kOuter{
    {"Engine::run", "Engine::writeTensor", "Engine::readTensor", "StreamCopy"}};
constexpr std::array<const char*, 6> kMiddle{
    {"prepareHostBuffers", "launch", "waitForDevice", "copyToDevice", "copyFromDevice", "sync"}};
constexpr std::array<const char*, 4> kLeaf{{"memcpy", "syscall", "lockBuffers", "callback"}};

} // namespace

void writeSyntheticHostTrace(const std::filesystem::path& path, const SyntheticSpec& spec,
                             const std::function<void(double)>& progress) {
    HostTraceWriter w(path);
    w.setMetadata("command_line", "tilescope-cli synth");
    std::mt19937_64 rng(spec.seed ^ 0x9e3779b97f4a7c15ull);
    auto uniform = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    const std::int64_t base = 1'780'000'000'000'000'000;
    const std::int64_t process = w.addProcess(4242, "synthetic-program", base);
    const std::int64_t chPoplar = w.addChannel("poplar");
    const std::int64_t chEngine = w.addChannel("engine");
    const std::int64_t chUser = w.addChannel("user");
    std::vector<std::int64_t> outer, middle, leaf;
    for (auto n : kOuter)
        outer.push_back(w.intern(n));
    for (auto n : kMiddle)
        middle.push_back(w.intern(n));
    for (auto n : kLeaf)
        leaf.push_back(w.intern(n));
    const std::int64_t checkpoint = w.intern("checkpoint");

    const std::int64_t graph = w.addGraph(process, "Host memory", "bytes");
    const std::int64_t rss = w.addSeries(graph, "resident");

    const std::uint64_t threads = spec.hostThreads;
    const std::uint64_t framesTotal = (spec.hostEvents + kEventsPerFrame - 1) / kEventsPerFrame;
    std::uint64_t written = 0;
    double memory = 512.0 * 1024 * 1024;
    for (std::uint64_t t = 0; t < threads && written < spec.hostEvents; ++t) {
        const std::int64_t thread =
            w.addThread(process, 4242 + static_cast<std::int64_t>(t),
                        t == 0 ? std::string("main") : fmt::format("worker{}", t));
        const std::uint64_t frames = framesTotal / threads + (t < framesTotal % threads ? 1 : 0);
        std::int64_t now = base + static_cast<std::int64_t>(t) * 1'000;
        for (std::uint64_t f = 0; f < frames && written < spec.hostEvents; ++f) {
            const std::int64_t start = now;
            std::int64_t cursor = start + uniform(200, 2'000);
            // Children first in time order, the outer event once its end is known.
            std::array<std::array<std::int64_t, 4>, 2> mids{};
            for (auto& m : mids) {
                const std::int64_t mStart = cursor;
                const std::int64_t lStart = mStart + uniform(100, 1'000);
                const std::int64_t lEnd = lStart + uniform(500, 20'000);
                const std::int64_t mEnd = lEnd + uniform(100, 2'000);
                m = {mStart, mEnd, lStart, lEnd};
                cursor = mEnd + uniform(50, 500);
            }
            const std::int64_t end = cursor + uniform(100, 1'000);
            const std::int64_t name = outer[static_cast<std::size_t>(f % outer.size())];
            w.addEvent(thread, chPoplar, name, start, end, 0);
            ++written;
            for (std::size_t k = 0; k < mids.size() && written < spec.hostEvents; ++k) {
                w.addEvent(thread, chEngine,
                           middle[static_cast<std::size_t>((f + k) % middle.size())], mids[k][0],
                           mids[k][1], 1);
                ++written;
                if (written < spec.hostEvents) {
                    w.addEvent(thread, chUser,
                               leaf[static_cast<std::size_t>((f + k) % leaf.size())], mids[k][2],
                               mids[k][3], 2);
                    ++written;
                }
            }
            if (f % 64 == 0) {
                w.addInstant(thread, chUser, checkpoint, end, 0);
                if (t == 0) {
                    memory += static_cast<double>(uniform(-1 << 20, 1 << 20));
                    w.addSample(rss, end, memory);
                }
            }
            now = end + uniform(1'000, 50'000);
            if (progress && (written & 0xfffff) < kEventsPerFrame)
                progress(0.9 +
                         0.1 * static_cast<double>(written) / static_cast<double>(spec.hostEvents));
        }
    }
    w.close();
}

} // namespace tilescope::report
