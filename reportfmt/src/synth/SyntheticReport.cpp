// generateSyntheticReport: checks the spec, then writes the report (SyntheticReportBuilder) and,
// when host events are asked, the host trace (SyntheticHostTrace).

#include "tilescope/report/SyntheticReport.hpp"

#include "SyntheticHostTrace.hpp"
#include "SyntheticReportBuilder.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace tilescope::report {
namespace {

void validate(const SyntheticSpec& s) {
    if (s.ipus < 1 || s.ipus > 1024)
        throw std::invalid_argument(fmt::format("--ipus must be 1..1024 (got {})", s.ipus));
    if (s.tilesPerIpu < 1 || s.tilesPerIpu > 65536)
        throw std::invalid_argument(
            fmt::format("--tiles-per-ipu must be 1..65536 (got {})", s.tilesPerIpu));
    if (s.steps < 6)
        throw std::invalid_argument(fmt::format("--steps must be at least 6 (got {})", s.steps));
    if (s.ipuVersion != "ipu1" && s.ipuVersion != "ipu2")
        throw std::invalid_argument("--ipu-version must be ipu1 or ipu2 (got '" + s.ipuVersion +
                                    "')");
    if (s.hostEvents > 0 && s.hostThreads == 0)
        throw std::invalid_argument("--host-threads must be at least 1 when host events are asked");
}

} // namespace

SyntheticOutput generateSyntheticReport(const std::filesystem::path& dir, const SyntheticSpec& spec,
                                        const std::function<void(double)>& progress) {
    validate(spec);
    SyntheticOutput out;
    out.profile = dir / "profile.pop";
    synthetic::SyntheticReportBuilder(dir, spec, progress).build();
    if (spec.hostEvents > 0) {
        out.hostTrace = dir / "host.pvti";
        writeSyntheticHostTrace(out.hostTrace, spec, progress);
    }
    if (progress)
        progress(1.0);
    return out;
}

} // namespace tilescope::report
