// A report damaged after its header: opening may succeed (only a few pages are read), but every
// model must then end in `loaded` or `failed` with a message naming the file, never crash.
#include "TestReports.hpp"
#include "insights/InsightsModel.hpp"
#include "liveness/LiveVariablesModel.hpp"
#include "liveness/LivenessModel.hpp"
#include "memory/TileMemoryModel.hpp"
#include "programs/ProgramTreeModel.hpp"

#include <QDeadlineTimer>
#include <QTest>
#include <catch2/catch.hpp>
#include <fstream>
#include <random>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

/// Waits until one of two spies fired; returns true if it was `ok`.
bool settles(QSignalSpy& ok, QSignalSpy& failed) {
    QDeadlineTimer deadline(20000);
    while (ok.isEmpty() && failed.isEmpty() && !deadline.hasExpired())
        QTest::qWait(2);
    REQUIRE(ok.size() + failed.size() >= 1);
    if (!failed.isEmpty())
        REQUIRE(failed.front().front().toString().contains("profile.pop"));
    return !ok.isEmpty();
}

std::filesystem::path damagedCopy(int seed) {
    const auto dir = gui::test::scratchDir("damaged-" + std::to_string(seed));
    const auto path = dir / "profile.pop";
    std::filesystem::copy_file(gui::test::smallReport(), path);
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = std::filesystem::file_size(path);
    std::mt19937 rng{std::uint32_t(seed)};
    // Overwrite a few 512-byte runs past the first pages (the header and schema stay valid).
    for (int i = 0; i < 6; ++i) {
        const auto at = 16384 + rng() % (size - 16384 - 512);
        std::string junk(512, '\0');
        for (char& c : junk)
            c = char(rng());
        f.seekp(std::streamoff(at));
        f.write(junk.data(), std::streamsize(junk.size()));
    }
    return path;
}

} // namespace

TEST_CASE("Models on a report damaged past its header end in loaded or failed, never crash") {
    int opened = 0, failures = 0;
    for (int seed = 1; seed <= 12; ++seed) {
        const auto path = damagedCopy(seed);
        std::shared_ptr<ReportSession> session;
        try {
            session = gui::test::openSession(path);
        } catch (const std::exception& e) {
            REQUIRE(std::string(e.what()).find(path.string()) == 0);
            continue;
        }
        ++opened;
        TileMemoryModel memory(session);
        QSignalSpy memoryOk(&memory, &TileMemoryModel::loadedChanged);
        QSignalSpy memoryFailed(&memory, &TileMemoryModel::failed);
        memory.load();
        failures += settles(memoryOk, memoryFailed) ? 0 : 1;

        LivenessModel liveness(session);
        QSignalSpy livenessOk(&liveness, &LivenessModel::loadedChanged);
        QSignalSpy livenessFailed(&liveness, &LivenessModel::failed);
        liveness.load();
        if (settles(livenessOk, livenessFailed)) {
            QSignalSpy windowOk(&liveness, &LivenessModel::windowChanged);
            QSignalSpy windowFailed(&liveness, &LivenessModel::failed);
            liveness.requestWindow(0, liveness.stepCount(), 7);
            failures += settles(windowOk, windowFailed) ? 0 : 1;
        } else {
            ++failures;
        }

        LiveVariablesModel variables(session);
        QSignalSpy variablesOk(&variables, &LiveVariablesModel::stepLoaded);
        QSignalSpy variablesFailed(&variables, &LiveVariablesModel::failed);
        variables.showStep(150);
        failures += settles(variablesOk, variablesFailed) ? 0 : 1;

        InsightsModel insights(session);
        QSignalSpy insightsOk(&insights, &InsightsModel::loadedChanged);
        QSignalSpy insightsFailed(&insights, &InsightsModel::failed);
        insights.load();
        failures += settles(insightsOk, insightsFailed) ? 0 : 1;

        ProgramTreeModel programs(session);
        QSignalSpy programsDone(&programs, &ProgramTreeModel::fetchFinished);
        QSignalSpy programsFailed(&programs, &ProgramTreeModel::failed);
        programs.load();
        settles(programsDone, programsFailed);
    }
    // The damage must have been noticed somewhere, or the test proves nothing.
    const int refusedAtOpen = 12 - opened;
    INFO("damaged copies refused at open: " << refusedAtOpen << ", model failures: " << failures);
    REQUIRE(refusedAtOpen + failures > 0);
}
