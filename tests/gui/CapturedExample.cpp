#include "CapturedExample.hpp"

#include "TestReports.hpp"

#include <QProcess>
#include <catch2/catch.hpp>

namespace tilescope::gui::test {

const CapturedExample& capturedTraining() {
    static const CapturedExample capture = [] {
        const auto dir = scratchDir("captured-training");
        QProcess p;
        p.setProgram(QStringLiteral(TILESCOPE_EXAMPLE_MLP_TRAINING));
        p.setWorkingDirectory(QString::fromStdString(dir.string()));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("POPLAR_ENGINE_OPTIONS",
                   R"({"autoReport.all":"true","autoReport.directory":"./report"})");
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
    }();
    return capture;
}

} // namespace tilescope::gui::test
