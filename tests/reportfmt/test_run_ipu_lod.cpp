// The per-IPU execution pyramid (run_ipu_lod, format v3): each bucket holds every IPU's busy cycles
// summed over the steps run_lod counts in it, at every stored level; files written without it
// (format v2: the committed fixture of the v2 writer, and a v3 file turned back into v2 here) get
// the same buckets through the read-only migration.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

using namespace tilescope::report;
using tilescope::testing::fileBytes;
using tilescope::testing::formatFixtureSpec;
using tilescope::testing::TempDir;
using tilescope::testing::writeCompileProfile;
namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kIpus = 3;
constexpr std::uint64_t kBase = 1024;

/// Step `seq` of run `run`: uneven gaps (several steps share small buckets, a few long steps
/// span many), IPUs busy for different cycles, some idle, every 97th step without per-IPU cycles.
RunStepRecord handStep(std::int64_t run, std::int64_t seq, std::uint64_t start) {
    RunStepRecord s;
    s.stepId = seq % 5;
    s.startCycle = start;
    s.cycles = seq % 211 == 0 ? 40000 : 50 + std::uint64_t(seq * 7 + run * 3) % 900;
    if (seq % 97 != 0) {
        s.perIpu.resize(kIpus);
        for (std::uint32_t i = 0; i < kIpus; ++i)
            s.perIpu[i] = (seq + i) % 4 == 0 ? 0 : s.cycles - std::uint64_t(seq * (i + 1)) % 50;
    }
    return s;
}

struct Written {
    std::map<std::int64_t, std::vector<RunStepRecord>> steps; // per run id
};

/// Two runs of `steps` hand-made steps (the first with per-IPU cycles, the second too unless
/// `secondWithoutIpus`), with run_lod base kBase.
Written writeHandReport(const fs::path& path, std::int64_t steps, bool secondWithoutIpus = false) {
    ProfileWriterOptions options;
    options.lodBaseCycles = kBase;
    ProfileWriter w(path, options);
    const auto profile = writeCompileProfile(w, kIpus, 4);
    REQUIRE(profile.steps.size() >= 5);
    w.finishCompilation();
    Written out;
    for (std::int64_t r = 0; r < 2; ++r) {
        const std::int64_t id = w.beginRun(0, 1000 + r);
        std::uint64_t start = 0;
        for (std::int64_t seq = 0; seq < steps; ++seq) {
            RunStepRecord s = handStep(r, seq, start);
            if (r == 1 && secondWithoutIpus)
                s.perIpu.clear();
            w.addRunStep(s);
            out.steps[id].push_back(s);
            start += seq % 3 == 0 ? s.cycles : s.cycles + std::uint64_t(seq % 13) * 30;
        }
        w.endRun(2000 + r);
    }
    w.close();
    return out;
}

double bucketWidth(std::int64_t level) {
    return double(kBase) * std::pow(4.0, double(level));
}

/// Turns a current profile back into what the v2 writer wrote: no run_ipu_lod or tile_placement,
/// version 2.
void downgradeToV2(const fs::path& path) {
    tilescope::testing::execSql(
        path, "DROP TABLE run_ipu_lod; DROP TABLE tile_placement; "
              "DROP TABLE block; DROP TABLE operation_debug; DROP TABLE tile_allocation; "
              "PRAGMA user_version = 2; UPDATE metadata SET value = '2' "
              "WHERE key = 'format_version'; PRAGMA journal_mode = DELETE;");
}

/// Every level's per-IPU buckets of every run of `a` and `b` are the same; returns how many
/// (run, level) pairs had buckets.
int compareBuckets(const ProfileReader& a, const ProfileReader& b) {
    const auto runsA = a.runs(), runsB = b.runs();
    REQUIRE(runsA.size() == runsB.size());
    int levels = 0;
    for (std::size_t r = 0; r < runsA.size(); ++r) {
        for (std::int64_t level = 0; level < 12; ++level) {
            const auto x = a.runIpuLod(runsA[r], level, 0, runsA[r].totalCycles);
            const auto y = b.runIpuLod(runsB[r], level, 0, runsB[r].totalCycles);
            REQUIRE(x.size() == y.size());
            for (std::size_t k = 0; k < x.size(); ++k) {
                CHECK(x[k].bucket == y[k].bucket);
                CHECK(x[k].steps == y[k].steps);
                CHECK(x[k].busyCycles == y[k].busyCycles);
            }
            levels += !x.empty();
        }
    }
    return levels;
}

} // namespace

TEST_CASE("run_ipu_lod sums each IPU's cycles over the steps run_lod counts, at every level") {
    TempDir dir("tilescope-run-ipu-lod");
    const fs::path path = dir / "profile.pop";
    const std::int64_t numSteps = 40000;
    const Written written = writeHandReport(path, numSteps);
    ProfileReader reader(path.string());
    REQUIRE(reader.file().formatVersion() == Schema::kProfileVersion);
    REQUIRE(reader.runLodBaseCycles() == kBase);
    for (const RunRecord& run : reader.runs()) {
        const auto& steps = written.steps.at(run.id);
        REQUIRE(run.numSteps == std::uint64_t(numSteps));
        int levels = 0;
        for (std::int64_t level = 0; level < 12; ++level) {
            const auto lod = reader.runLod(run, level, 0, run.totalCycles);
            const auto ipu = reader.runIpuLod(run, level, 0, run.totalCycles);
            REQUIRE(ipu.size() == lod.size()); // same levels, same buckets
            if (ipu.empty())
                continue;
            ++levels;
            // Expected from the raw steps: a step counts whole in the bucket of its start.
            std::map<std::int64_t, std::vector<std::uint64_t>> busy;
            std::map<std::int64_t, std::uint64_t> count;
            for (const auto& s : steps) {
                const auto b = std::int64_t(double(s.startCycle) / bucketWidth(level));
                auto& sums = busy[b];
                sums.resize(kIpus, 0);
                for (std::size_t i = 0; i < s.perIpu.size(); ++i)
                    sums[i] += s.perIpu[i];
                ++count[b];
            }
            REQUIRE(ipu.size() == busy.size());
            std::vector<std::uint64_t> levelTotal(kIpus, 0);
            for (std::size_t k = 0; k < ipu.size(); ++k) {
                INFO("level " << level << " bucket " << ipu[k].bucket);
                REQUIRE(ipu[k].level == level);
                REQUIRE(ipu[k].bucket == lod[k].bucket);
                REQUIRE(ipu[k].steps == lod[k].steps);
                REQUIRE(ipu[k].steps == count.at(ipu[k].bucket));
                REQUIRE(ipu[k].busyCycles == busy.at(ipu[k].bucket));
                for (std::uint32_t i = 0; i < kIpus; ++i)
                    levelTotal[i] += ipu[k].busyCycles[i];
            }
            // Coarser levels regroup the same cycles: the run's per-IPU totals at every level.
            for (std::uint32_t i = 0; i < kIpus; ++i) {
                std::uint64_t total = 0;
                for (const auto& s : steps)
                    total += s.perIpu.empty() ? 0 : s.perIpu[i];
                CHECK(levelTotal[i] == total);
            }
            // A window reads the buckets overlapping it, no others.
            const auto w = bucketWidth(level);
            const auto from = std::uint64_t(run.totalCycles / 3), to = from + std::uint64_t(3 * w);
            const auto part = reader.runIpuLod(run, level, from, to);
            REQUIRE_FALSE(part.empty());
            for (const auto& row : part) {
                CHECK(double(row.bucket + 1) * w > double(from));
                CHECK(double(row.bucket) * w <= double(to));
            }
        }
        // 40,000 steps over about 32 M cycles: levels 1 to 3 are stored (level 0 would hold about
        // one step per bucket, so raw steps serve instead).
        CHECK(levels == 3);
    }
    // Busy figures differ between IPUs (a check that the IPUs are not mixed up).
    const auto top = reader.runIpuLod(reader.runs()[0], 3, 0, reader.runs()[0].totalCycles);
    REQUIRE_FALSE(top.empty());
    CHECK(top[0].busyCycles[0] != top[0].busyCycles[1]);
}

TEST_CASE("A run without per-IPU cycles gets no run_ipu_lod rows, its buckets no busy figures") {
    TempDir dir("tilescope-run-ipu-lod");
    const fs::path path = dir / "profile.pop";
    writeHandReport(path, 3000, true);
    ProfileReader reader(path.string());
    const auto runs = reader.runs();
    REQUIRE(runs.size() == 2);
    const std::int64_t level = reader.runLodLevelFor(runs[1], double(runs[1].totalCycles));
    REQUIRE(level >= 0);
    const auto without = reader.runIpuLod(runs[1], level, 0, runs[1].totalCycles);
    REQUIRE_FALSE(without.empty()); // run_lod's buckets are still listed
    for (const auto& row : without)
        CHECK(row.busyCycles.empty());
    const auto with = reader.runIpuLod(runs[0], level, 0, runs[0].totalCycles);
    REQUIRE_FALSE(with.empty());
    CHECK(with[0].busyCycles.size() == kIpus);
}

TEST_CASE("A v3 file turned back into v2 gets identical per-IPU buckets through the migration") {
    TempDir dir("tilescope-run-ipu-lod");
    const fs::path fresh = dir / "fresh.pop", old = dir / "old.pop";
    writeHandReport(fresh, 12000);
    fs::copy_file(fresh, old);
    downgradeToV2(old);
    const std::string before = fileBytes(old);
    {
        ProfileReader v2(old.string());
        ProfileReader v3(fresh.string());
        REQUIRE(v2.file().formatVersion() == 2);
        REQUIRE(v3.file().formatVersion() == Schema::kProfileVersion);
        CHECK(compareBuckets(v2, v3) == 4); // two runs, two levels each
    }
    CHECK(fileBytes(old) == before); // read-only: the migration lives in the temp schema
}

TEST_CASE("Files of the v1 and v2 writers get the per-IPU buckets the current writer stores") {
    TempDir dir("tilescope-run-ipu-lod");
    generateSyntheticReport(dir / "fresh", formatFixtureSpec()); // the fixtures' spec
    ProfileReader now((dir / "fresh" / "profile.pop").string());
    REQUIRE(now.file().formatVersion() == Schema::kProfileVersion);
    for (int version : {1, 2}) {
        INFO("format v" << version);
        const fs::path copy = dir / ("v" + std::to_string(version) + ".pop");
        fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / ("format-v" + std::to_string(version)) /
                          "profile.pop",
                      copy);
        const std::string before = fileBytes(copy);
        {
            ProfileReader old(copy.string());
            REQUIRE(old.file().formatVersion() == version);
            CHECK(compareBuckets(old, now) == 2); // one level per run at 90 steps
            const auto run = old.runs().at(0);
            const auto rows = old.runIpuLod(run, 0, 0, run.totalCycles);
            REQUIRE_FALSE(rows.empty());
            REQUIRE(rows[0].busyCycles.size() == 2);
            // The fixtures' steps carry per-IPU cycles: their sums are the pyramid's.
            std::vector<std::uint64_t> total(2, 0), fromSteps(2, 0);
            for (const auto& r : rows)
                for (std::size_t i = 0; i < 2; ++i)
                    total[i] += r.busyCycles[i];
            for (const auto& s : old.runSteps(run, 0, std::int64_t(run.numSteps)))
                for (std::size_t i = 0; i < s.perIpu.size() && i < 2; ++i)
                    fromSteps[i] += s.perIpu[i];
            CHECK(total == fromSteps);
            CHECK(total[0] > 0);
        }
        CHECK(fileBytes(copy) == before);
    }
}
