// The device half of the joint Chrome trace export: a profile report's engine runs and executed
// steps on the host's time axis (see exportChromeTrace).

#include "ChromeTraceJsonOut.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <cmath>
#include <unordered_map>

namespace tilescope::report::detail {
namespace {

constexpr std::int64_t kRunsTid = 1;
constexpr std::int64_t kStepsTid = 2;

} // namespace

std::uint64_t exportDeviceEvents(const std::filesystem::path& profile, std::int64_t pid,
                                 JsonOut& out) {
    const ProfileReader reader(profile.string());
    const double clockHz = reader.target().clockHz;
    if (!(clockHz > 0) || !std::isfinite(clockHz))
        throw ReportError(profile.string(), "target clock is not a positive frequency");
    const double nsPerCycle = 1e9 / clockHz;
    out.event(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":{}}}}})",
                          pid, quoted("device: " + profile.filename().string())));
    for (const auto& [tid, name] : {std::pair{kRunsTid, "engine runs"}, {kStepsTid, "steps"}})
        out.event(fmt::format(
            R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":{}}}}})", pid, tid,
            quoted(name)));

    std::unordered_map<std::int64_t, std::string> programNames;
    auto programName = [&](std::int64_t id) -> const std::string& {
        auto it = programNames.find(id);
        if (it == programNames.end()) {
            std::string text = "unknown program";
            for (const auto& node : reader.programNodes({id}))
                if (node.id == id)
                    text = node.name.empty() ? node.kind : node.name;
            it = programNames.emplace(id, std::move(text)).first;
        }
        return it->second;
    };
    std::vector<std::string> controlNames;
    for (const auto& c : reader.controlPrograms())
        if (!c.isFunction) {
            if (std::size_t(c.index) >= controlNames.size())
                controlNames.resize(std::size_t(c.index) + 1);
            controlNames[std::size_t(c.index)] = c.name;
        }

    std::uint64_t events = 0;
    // Steps stream row by row: a run may hold millions.
    auto steps = reader.file().database().prepare(
        "SELECT r.start_cycle, r.cycles, s.phase, s.program_id FROM run_step r "
        "LEFT JOIN step s ON s.id = r.step_id WHERE r.id >= ? AND r.id < ? ORDER BY r.id");
    for (const auto& run : reader.runs()) {
        const auto at = [&](std::uint64_t cycle) {
            return run.hostStartNs + std::llround(double(cycle) * nsPerCycle);
        };
        const std::string program = std::size_t(run.programIndex) < controlNames.size() &&
                                            !controlNames[std::size_t(run.programIndex)].empty()
                                        ? controlNames[std::size_t(run.programIndex)]
                                        : "program " + std::to_string(run.programIndex);
        out.event(fmt::format(
            R"({{"ph":"X","name":{},"cat":"run","pid":{},"tid":{},"ts":{},"dur":{},"args":{{"cycles":{},"steps":{}}}}})",
            quoted("run " + std::to_string(run.id) + ": " + program), pid, kRunsTid,
            micros(run.hostStartNs), micros(at(run.totalCycles) - run.hostStartNs), run.totalCycles,
            run.numSteps));
        ++events;
        steps.reset();
        steps.bind(1, run.firstRow).bind(2, run.firstRow + std::int64_t(run.numSteps));
        while (steps.step()) {
            const auto start = std::uint64_t(steps.int64(0));
            const auto cycles = std::uint64_t(steps.int64(1));
            const std::string phase = steps.isNull(2) ? "unknown" : steps.text(2);
            const std::string& name = steps.isNull(3) ? phase : programName(steps.int64(3));
            out.event(fmt::format(
                R"({{"ph":"X","name":{},"cat":{},"pid":{},"tid":{},"ts":{},"dur":{},"args":{{"cycles":{}}}}})",
                quoted(name), quoted(phase), pid, kStepsTid, micros(at(start)),
                micros(at(start + cycles) - at(start)), cycles));
            ++events;
        }
    }
    return events;
}

} // namespace tilescope::report::detail
