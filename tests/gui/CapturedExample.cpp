#include "CapturedExample.hpp"

#include "TestReports.hpp"

#include <QProcess>
#include <catch2/catch.hpp>
#include <string>

namespace tilescope::gui::test {

namespace {

/// Runs the example with autoReport on and `extraOptions` (JSON members) in POPLAR_ENGINE_OPTIONS.
CapturedExample captureTraining(const std::string& folder, const std::string& extraOptions) {
    {
        const auto dir = scratchDir(folder);
        QProcess p;
        p.setProgram(QStringLiteral(TILESCOPE_EXAMPLE_MLP_TRAINING));
        p.setWorkingDirectory(QString::fromStdString(dir.string()));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(
            "POPLAR_ENGINE_OPTIONS",
            QString::fromStdString(R"({"autoReport.all":"true","autoReport.directory":"./report")" +
                                   extraOptions + "}"));
        p.setProcessEnvironment(env);
        p.start();
        REQUIRE(p.waitForStarted(10000));
        REQUIRE(p.waitForFinished(120000));
        INFO(p.readAllStandardError().toStdString());
        REQUIRE(p.exitStatus() == QProcess::NormalExit);
        REQUIRE(p.exitCode() == 0);
        CapturedExample c;
        c.profile = dir / "report" / "profile.pop";
        REQUIRE(std::filesystem::exists(c.profile));
        int traces = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir / "report"))
            if (entry.path().extension() == ".pvti") {
                c.hostTrace = entry.path();
                ++traces;
            }
        REQUIRE(traces == 1);
        return c;
    }
}

} // namespace

const CapturedExample& capturedTraining() {
    static const CapturedExample capture = captureTraining("captured-training", "");
    return capture;
}

const CapturedExample& capturedTrainingWithBlocks() {
    static const CapturedExample capture = captureTraining(
        "captured-training-blocks",
        R"(,"profiler.programs.filter":".*","debug.instrumentExternalExchange":"true",)"
        R"("profiler.blocks.bufferSize":"400000")");
    return capture;
}

} // namespace tilescope::gui::test
