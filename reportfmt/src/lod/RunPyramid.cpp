#include "RunPyramid.hpp"

#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace tilescope::report::detail {

RunLodRow& RunPyramid::addStep(std::int64_t row, std::uint64_t startCycle, std::uint64_t cycles,
                               std::span<const std::uint64_t> perIpu) {
    const auto bucket = static_cast<std::int64_t>(startCycle / base_);
    if (buckets_.empty() || buckets_.back().bucket != bucket) {
        RunLodRow r;
        r.bucket = bucket;
        r.firstRow = row;
        buckets_.push_back(r);
        if (ipuCycles_)
            busy_.resize(busy_.size() + ipus_, 0);
    }
    if (!perIpu.empty() && ipus_ > 0) {
        if (!ipuCycles_) { // the first step with per-IPU cycles: earlier buckets had none
            ipuCycles_ = true;
            busy_.assign(buckets_.size() * ipus_, 0);
        }
        std::uint64_t* busy = busy_.data() + (buckets_.size() - 1) * ipus_;
        const std::size_t n = std::min<std::size_t>(perIpu.size(), ipus_);
        for (std::size_t i = 0; i < n; ++i)
            busy[i] += perIpu[i];
    }
    RunLodRow& b = buckets_.back();
    ++b.steps;
    b.maxStepCycles = std::max(b.maxStepCycles, cycles);
    return b;
}

void RunPyramid::takeLevels(std::uint64_t numSteps, const StoreLevel& store) {
    std::vector<RunLodRow> level = std::move(buckets_);
    std::vector<std::uint64_t> busy = std::move(busy_);
    buckets_.clear();
    busy_.clear();
    const std::size_t ipus = ipuCycles_ ? ipus_ : 0;
    ipuCycles_ = false;
    // Coarsen by 4 until a whole run fits in a screenful of buckets. Writing a level finer than
    // 4 steps per bucket cost more than the steps did, and readers fall back to raw steps below
    // the finest stored level.
    for (std::int64_t lv = 0;; ++lv) {
        if (level.size() * 4 <= numSteps || level.size() <= 1024)
            store(lv, level, busy);
        if (level.size() <= 1024)
            break;
        std::vector<RunLodRow> up;
        std::vector<std::uint64_t> upBusy;
        for (std::size_t k = 0; k < level.size(); ++k) {
            const RunLodRow& r = level[k];
            const std::int64_t b = r.bucket / 4;
            if (up.empty() || up.back().bucket != b) {
                RunLodRow n = r;
                n.level = lv + 1;
                n.bucket = b;
                up.push_back(n);
                upBusy.insert(upBusy.end(), busy.begin() + std::ptrdiff_t(k * ipus),
                              busy.begin() + std::ptrdiff_t((k + 1) * ipus));
                continue;
            }
            RunLodRow& u = up.back();
            u.steps += r.steps;
            u.computeCycles += r.computeCycles;
            u.exchangeCycles += r.exchangeCycles;
            u.syncCycles += r.syncCycles;
            u.streamCycles += r.streamCycles;
            u.maxStepCycles = std::max(u.maxStepCycles, r.maxStepCycles);
            std::uint64_t* to = upBusy.data() + (up.size() - 1) * ipus;
            for (std::size_t i = 0; i < ipus; ++i)
                to[i] += busy[k * ipus + i];
        }
        level = std::move(up);
        busy = std::move(upBusy);
    }
}

void encodeIpuBusy(std::span<const std::uint64_t> busy, std::string& out) {
    out.resize(busy.size() * 8);
    for (std::size_t i = 0; i < busy.size(); ++i)
        for (int b = 0; b < 8; ++b)
            out[i * 8 + std::size_t(b)] = static_cast<char>((busy[i] >> (8 * b)) & 0xff);
}

std::vector<std::uint64_t> decodeIpuBusy(const void* data, std::size_t size) {
    if (size % 8 != 0)
        throw ReportError("", fmt::format("file is damaged (a run_ipu_lod bucket of {} bytes, not "
                                          "a whole number of 8-byte IPU figures)",
                                          size));
    const auto* bytes = static_cast<const unsigned char*>(data);
    std::vector<std::uint64_t> out(size / 8, 0);
    for (std::size_t i = 0; i < out.size(); ++i)
        for (int b = 0; b < 8; ++b)
            out[i] |= std::uint64_t{bytes[i * 8 + std::size_t(b)]} << (8 * b);
    return out;
}

bool buildRunIpuPyramid(sql::Database& db, std::string_view schema, std::int64_t runId) {
    auto run = db.prepare("SELECT first_row, num_steps FROM run WHERE id = ? "
                          "AND host_end_ns IS NOT NULL");
    if (!run.bind(1, runId).step())
        return false; // unknown or still being written: no pyramid yet, as from the writer
    const std::int64_t firstRow = run.int64(0);
    const std::int64_t numSteps = std::max<std::int64_t>(0, run.int64(1));
    std::uint64_t base = 4096;
    {
        auto st = db.prepare("SELECT value FROM metadata WHERE key = 'run_lod_base_cycles'");
        if (st.step()) {
            try {
                base = std::max<std::uint64_t>(1, std::stoull(st.text(0)));
            } catch (const std::exception&) { // the reader reports it when it loads
            }
        }
    }
    std::uint32_t ipus = 0;
    {
        auto st = db.prepare("SELECT num_ipus FROM target WHERE id = 1");
        if (st.step())
            ipus = static_cast<std::uint32_t>(std::clamp<std::int64_t>(st.int64(0), 0, 1024));
    }
    RunPyramid pyramid(base, ipus);
    auto steps = db.prepare("SELECT id, start_cycle, cycles, per_ipu FROM run_step "
                            "WHERE id >= ? AND id < ? ORDER BY id");
    steps.bind(1, firstRow).bind(2, firstRow + numSteps);
    std::vector<std::uint64_t> perIpu;
    while (steps.step()) {
        perIpu.clear();
        if (!steps.isNull(3)) {
            const auto b = steps.blob(3);
            try {
                TileSeries::decode(b.data(), b.size(), perIpu);
            } catch (const ReportError&) {
                perIpu.clear(); // damaged: as if not recorded, the rest still reads
            }
        }
        const auto start = static_cast<std::uint64_t>(std::max<std::int64_t>(0, steps.int64(1)));
        const auto cycles = static_cast<std::uint64_t>(std::max<std::int64_t>(0, steps.int64(2)));
        pyramid.addStep(steps.int64(0), start, cycles, perIpu);
    }
    if (!pyramid.hasIpuCycles())
        return true;
    auto insert = db.prepare(fmt::format(
        "INSERT OR REPLACE INTO {}.run_ipu_lod(run_id, level, bucket, busy) VALUES(?,?,?,?)",
        schema));
    std::string blob;
    sql::Transaction inserts(db); // one commit of the temp rows, not one per bucket
    pyramid.takeLevels(static_cast<std::uint64_t>(numSteps),
                       [&](std::int64_t level, const std::vector<RunLodRow>& buckets,
                           const std::vector<std::uint64_t>& busy) {
                           for (std::size_t k = 0; k < buckets.size(); ++k) {
                               encodeIpuBusy(std::span(busy).subspan(k * ipus, ipus), blob);
                               insert.bind(1, runId).bind(2, level).bind(3, buckets[k].bucket);
                               insert.bindBlob(4, blob).run();
                           }
                       });
    inserts.commit();
    return true;
}

} // namespace tilescope::report::detail
