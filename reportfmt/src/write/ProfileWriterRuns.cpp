// Runs: their steps (the hot path, batched), the level-of-detail pyramid written at endRun(), and
// the blocks of each tile's execution.
#include "ProfileWriterImpl.hpp"

#include <algorithm>

namespace tilescope::report {

using detail::bindOptional;
using detail::Phase;

std::int64_t ProfileWriter::beginRun(std::int64_t programIndex, std::int64_t hostStartNs) {
    auto& im = *impl_;
    if (im.run)
        im.misuse("beginRun() while a run is open");
    RunRecord r;
    r.programIndex = programIndex;
    r.hostStartNs = hostStartNs;
    r.firstRow = im.nextRow;
    auto& db = im.session.db();
    db.prepare("INSERT INTO run(program_index, host_start_ns, host_end_ns, first_row, num_steps, "
               "total_cycles) VALUES(?,?,NULL,?,0,0)")
        .bind(1, programIndex)
        .bind(2, hostStartNs)
        .bind(3, r.firstRow)
        .run();
    r.id = db.lastInsertRowid();
    im.run = r;
    im.pyramid =
        detail::RunPyramid(im.options.lodBaseCycles, im.haveTarget ? im.target.numIpus : 0);
    return r.id;
}

void ProfileWriter::addRunStep(const RunStepRecord& s) {
    auto& im = *impl_;
    if (!im.run)
        im.misuse("addRunStep() outside a run");
    if (s.stepId < 0 || static_cast<std::size_t>(s.stepId) >= im.stepPhases.size())
        im.misuse(fmt::format("run step refers to unknown step {}", s.stepId));
    RunRecord& run = *im.run;
    const std::uint64_t runEnd = run.totalCycles;
    if (run.numSteps > 0 && s.startCycle < im.lastStartCycle)
        im.misuse(fmt::format("run step starting at cycle {} comes after one starting at {}",
                              s.startCycle, im.lastStartCycle));
    im.lastStartCycle = s.startCycle;
    im.checkTiles(s.perTile, "run step cycles per tile");

    std::uint32_t active = s.activeTiles;
    double balance = s.tileBalance;
    if (!s.perTile.empty()) {
        std::uint64_t maxC = 0, sum = 0;
        active = 0;
        for (auto c : s.perTile) {
            if (c) {
                ++active;
                sum += c;
                maxC = std::max(maxC, c);
            }
        }
        balance = maxC ? static_cast<double>(sum) / (static_cast<double>(active) * maxC) : 1.0;
    }
    // Everything that can throw comes before the row enters the batch.
    if (!s.perTileEncoded.empty())
        im.checkEncoded(s.perTileEncoded, "run step cycles per tile");
    auto& row = im.runSteps;
    row.value(im.nextRow).value(run.id).value(s.stepId).value(s.startCycle).value(s.cycles);
    row.value(std::int64_t{active}).value(balance);
    if (s.perIpu.empty())
        row.null();
    else
        TileSeries::encode(s.perIpu, row.blobSlot());
    if (!s.perTileEncoded.empty())
        row.blob(s.perTileEncoded);
    else if (s.perTile.empty())
        row.null();
    else
        TileSeries::encode(s.perTile, row.blobSlot());

    RunLodRow& b = im.pyramid.addStep(im.nextRow, s.startCycle, s.cycles, s.perIpu);
    switch (im.stepPhases[static_cast<std::size_t>(s.stepId)]) {
    case Phase::Compute:
        b.computeCycles += s.cycles;
        break;
    case Phase::Exchange:
        b.exchangeCycles += s.cycles;
        break;
    case Phase::Sync:
        b.syncCycles += s.cycles;
        break;
    case Phase::Stream:
        b.streamCycles += s.cycles;
        break;
    }

    ++im.nextRow;
    ++run.numSteps;
    run.totalCycles = std::max(runEnd, s.startCycle + s.cycles);
    im.session.countRows(row.endRow());
}

void ProfileWriter::endRun(std::int64_t hostEndNs, std::uint64_t deviceCycles) {
    auto& im = *impl_;
    if (!im.run)
        im.misuse("endRun() without beginRun()");
    im.session.countRows(im.runSteps.flush());
    im.writeRunLod();
    im.run->totalCycles = std::max(im.run->totalCycles, deviceCycles);
    im.session.db()
        .prepare("UPDATE run SET host_end_ns = ?, num_steps = ?, total_cycles = ? WHERE id = ?")
        .bind(1, hostEndNs)
        .bind(2, im.run->numSteps)
        .bind(3, im.run->totalCycles)
        .bind(4, im.run->id)
        .run();
    im.run.reset();
    im.session.commit();
}

void ProfileWriter::addBlocks(std::int64_t runIndex, const std::vector<BlockRecord>& blocks) {
    auto& im = *impl_;
    if (blocks.empty())
        return;
    if (!im.haveTarget)
        im.misuse("addBlocks() before setTarget()");
    auto st = im.session.db().prepare(
        "INSERT INTO block(run_index, run_start, tile, kind, program_id, step_id, cycles_from, "
        "cycles_to, dropped) VALUES(?,?,?,?,?,?,?,?,?)");
    const std::uint64_t tiles = std::uint64_t{im.target.numIpus} * im.target.tilesPerIpu;
    for (const auto& b : blocks) {
        if (b.tile >= tiles || b.cyclesTo < b.cyclesFrom || b.cyclesFrom < b.runStartCycle)
            im.misuse(fmt::format("block on tile {} from cycle {} to {}: the target has {} tiles "
                                  "and a block lies within its run",
                                  b.tile, b.cyclesFrom, b.cyclesTo, tiles));
        st.bind(1, runIndex)
            .bind(2, b.runStartCycle)
            .bind(3, static_cast<std::int64_t>(b.tile))
            .bind(4, static_cast<std::int64_t>(b.kind));
        bindOptional(st, 5, b.programId);
        bindOptional(st, 6, b.stepId);
        st.bind(7, b.cyclesFrom).bind(8, b.cyclesTo).bind(9, b.dropped).run();
    }
    im.session.countRows(blocks.size());
}

} // namespace tilescope::report
