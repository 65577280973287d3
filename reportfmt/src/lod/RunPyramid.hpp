#pragma once
// The execution-trace pyramid of one run: run_lod (cycles per phase) and run_ipu_lod (busy cycles
// per IPU), the same levels and buckets. The writer feeds it each step as it is written; the v2
// migration feeds it the steps of a finished run from run_step. Both then store the same levels,
// so a migrated file reads exactly like one written with the table.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileTypes.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report::detail {

/// Level-0 buckets of one run, built as its steps arrive in start order: a step counts whole in
/// the bucket its start falls in (run_lod's rule), so each level's buckets partition the steps.
/// Per-IPU busy cycles are kept beside the buckets (ipus values each) once any step carries them.
class RunPyramid {
public:
    RunPyramid() = default;
    RunPyramid(std::uint64_t baseCycles, std::uint32_t ipus) : base_(baseCycles), ipus_(ipus) {}

    /// Counts a step starting at `startCycle` of `row` (run_step id) and adds each IPU's cycles
    /// (`perIpu`, empty when not recorded; entries past the target's IPUs are ignored). Returns
    /// its bucket so that the caller can add the step's phase cycles.
    RunLodRow& addStep(std::int64_t row, std::uint64_t startCycle, std::uint64_t cycles,
                       std::span<const std::uint64_t> perIpu);

    bool hasIpuCycles() const { return ipuCycles_; }
    std::uint32_t ipus() const { return ipus_; }

    /// Calls `store` with each level worth storing, finest first, and its busy cycles: buckets x
    /// ipus values, bucket-major (empty when no step had per-IPU cycles).
    /// A level is stored when it is at least 4x smaller than the raw steps or is the top (at most
    /// 1024 buckets): a finer one costs as much to read as the steps themselves. Leaves the
    /// pyramid empty.
    using StoreLevel = std::function<void(std::int64_t level, const std::vector<RunLodRow>& buckets,
                                          const std::vector<std::uint64_t>& busy)>;
    void takeLevels(std::uint64_t numSteps, const StoreLevel& store);

private:
    std::uint64_t base_ = 4096;
    std::uint32_t ipus_ = 0;
    bool ipuCycles_ = false;
    std::vector<RunLodRow> buckets_;
    std::vector<std::uint64_t> busy_;
};

/// run_ipu_lod.busy: one little-endian uint64 per IPU.
void encodeIpuBusy(std::span<const std::uint64_t> busy, std::string& out);
/// Decodes run_ipu_lod.busy; throws ReportError (without a file) when its size is not a multiple
/// of 8 bytes.
std::vector<std::uint64_t> decodeIpuBusy(const void* data, std::size_t size);

/// Fills `<schema>.run_ipu_lod` for run `runId` from its run_step.per_ipu with the metadata's
/// run_lod_base_cycles: the v2 -> v3 migration (on "temp"), run by run on first use since it scans
/// every executed step. A run whose steps carry no per-IPU cycles gets no rows, as from the
/// writer; an undecodable series counts as not recorded. Returns false, writing nothing, when the
/// run has not finished (the writer builds its pyramid at the run's end too).
bool buildRunIpuPyramid(sql::Database& db, std::string_view schema, std::int64_t runId);

} // namespace tilescope::report::detail
