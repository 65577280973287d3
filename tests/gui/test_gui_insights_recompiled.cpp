// The Insights view's recommendations checked against the simulator: a program with a fullest
// tile (tests/gui/InsightsVariant.cpp) is captured, TileAdvice recommends changes for that tile
// with estimated savings, then the program is recompiled with each change made and captured
// again; the tile's measured saving (the bytes it uses before minus after, gaps excluded: a gap
// below data placed high in the interleaved region does not shrink when a variable does) must be
// within the stated tolerance of the estimate.
#include "TestReports.hpp"
#include "insights/TileAdvice.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QProcess>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

/// Compiles the variant with `args` under autoReport; returns its profile.pop.
std::filesystem::path capture(const std::string& name, const QStringList& args) {
    const auto dir = gui::test::scratchDir("insights-variant-" + name);
    QProcess p;
    p.setProgram(QStringLiteral(TILESCOPE_INSIGHTS_VARIANT));
    p.setArguments(args);
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
    const auto profile = dir / "report" / "profile.pop";
    REQUIRE(std::filesystem::exists(profile));
    return profile;
}

std::uint64_t tileBytes(const std::filesystem::path& profile, std::uint32_t tile) {
    report::ProfileReader reader(profile.string());
    const report::PerTile totals = reader.tileMemoryTotal(false);
    REQUIRE(tile < totals.size());
    return totals[tile];
}

const TileAdvice::Recommendation* find(const TileAdvice& advice, const QString& start) {
    for (const auto& r : advice.recommendations)
        if (r.action.startsWith(start))
            return &r;
    return nullptr;
}

} // namespace

TEST_CASE("Insights: estimated savings against the program recompiled with each change made",
          "[insights][recompiled]") {
    const auto base = capture("base", {});
    report::ProfileReader reader(base.string());
    const TileAdvice advice = TileAdvice::fullestTile(reader);
    REQUIRE(advice.tile == 0); // the table mapped on tile 0 alone
    for (const auto& r : advice.recommendations)
        UNSCOPED_INFO(r.action.toStdString() << ": " << r.savingBytes << " B");
    // The tile's exchanges, as the Memory view's Exchanges tab lists them for tile 0.
    std::size_t exchanges = 0, vertices = 0;
    for (const auto& part : advice.parts) {
        exchanges += part.kind == "exchange";
        vertices += part.kind == "vertices";
    }
    const auto onTile = reader.exchangeStepsOnTiles({{0, 1}});
    CHECK(exchanges == std::min<std::size_t>(20, onTile.size()));
    CHECK(exchanges > 0);
    CHECK(vertices > 0);
    // The advice states the tile's memory as the fullest-tile ranking does (gaps included).
    REQUIRE(reader.tileMemoryTotal(true)[0] == advice.bytes);
    const std::uint64_t before = tileBytes(base, 0);

    // Each change, the recommendation that asks for it, and the tolerance of its estimate: a
    // share of the measured saving, or kSlackBytes where that is larger (a change also moves
    // what the advice does not model: vertex state, exchange code, alignment gaps).
    constexpr double kTolerance = 0.25;
    constexpr double kSlackBytes = 1024;
    struct Change {
        const char* name;
        QString action;
        QStringList args;
    };
    const Change changes[] = {
        {"spread", QStringLiteral("Spread the mapping of table"), {"--spread"}},
        {"half", QStringLiteral("Use HALF"), {"--half"}},
        {"recompute", QStringLiteral("Recompute act"), {"--recompute"}},
        {"amp", QStringLiteral("Lower availableMemoryProportion"), {"--amp", "0.3"}},
        {"batch", QStringLiteral("Halve the batch size"), {"--batch", "16"}},
    };
    // The matMul's temporaries are far under 0.3 of the tile's memory: the planner keeps its
    // plan, so lowering the option is not recommended (and saves nothing below).
    CHECK(find(advice, QStringLiteral("Lower availableMemoryProportion")) == nullptr);
    for (const Change& c : changes) {
        CAPTURE(c.name);
        // No recommendation is an estimate of nothing to save.
        const TileAdvice::Recommendation* r = find(advice, c.action);
        const std::uint64_t after = tileBytes(capture(c.name, c.args), 0);
        const double measured = double(before) - double(after);
        const double estimate = r ? double(r->savingBytes) : 0.0;
        CAPTURE(r ? r->why.toStdString() : "not recommended", before, after, measured, estimate);
        WARN(c.name << ": estimated " << estimate << " B, measured " << measured << " B");
        CHECK(std::abs(estimate - measured) <=
              std::max(kTolerance * std::abs(measured), kSlackBytes));
    }
}
