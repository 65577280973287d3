// The tilescope binary itself under Xvfb: every view rendered with --screenshot must give a PNG
// of the requested size that is not blank, with the canvases' own pixels in it; bad input must
// exit non-zero with one line on stderr.
#include "CapturedExample.hpp"
#include "OperationsReport.hpp"
#include "TestReports.hpp"
#include "TilescopeProcess.hpp"
#include "canvas/SeriesColours.hpp"
#include "operations/OperationGraphWidget.hpp"

#include <QImage>
#include <QProcess>
#include <QSet>
#include <catch2/catch.hpp>
#include <fstream>
#include <sqlite3.h>

using namespace tilescope::gui;

namespace {

using Run = test::TilescopeRun;
using test::runTilescope;

/// Pixels within a small distance of `rgb`: the canvases' series colours never occur in widgets.
int pixelsNear(const QImage& image, QRgb rgb) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            if (std::abs(qRed(p) - qRed(rgb)) + std::abs(qGreen(p) - qGreen(rgb)) +
                    std::abs(qBlue(p) - qBlue(rgb)) <
                12)
                ++n;
        }
    return n;
}

QImage screenshot(const QString& view, const QString& size = "1000x700",
                  const std::filesystem::path& report = test::smallReport()) {
    const auto out = test::scratchDir("shots") / (view.toStdString() + ".png");
    const Run r =
        runTilescope({"--view", view, "--screenshot", QString::fromStdString(out.string()),
                      "--size", size, QString::fromStdString(report.string())});
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    QImage image(QString::fromStdString(out.string()));
    REQUIRE_FALSE(image.isNull());
    return image;
}

int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

/// `tilescope ARGS --screenshot OUT --size 1000x700 REPORT` must succeed; its image.
QImage screenshotWith(const QString& name, QStringList args,
                      const std::filesystem::path& report = test::smallReport()) {
    const auto out = test::scratchDir("shots") / (name.toStdString() + ".png");
    args << "--screenshot" << QString::fromStdString(out.string()) << "--size"
         << "1000x700" << QString::fromStdString(report.string());
    const Run r = runTilescope(args);
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    QImage image(QString::fromStdString(out.string()));
    REQUIRE(image.size() == QSize(1000, 700));
    return image;
}

const QRgb kBlueSeries = qRgb(0x4e, 0x79, 0xa7);   // total / always-live
const QRgb kOrangeSeries = qRgb(0xf2, 0x8e, 0x2b); // not-always-live

} // namespace

TEST_CASE("Screenshot of the Summary view") {
    const QImage image = screenshot("summary");
    REQUIRE(image.size() == QSize(1000, 700));
    REQUIRE(distinctColours(image) > 20);
}

TEST_CASE("Screenshot of the Insights view") {
    const QImage image = screenshot("insights");
    REQUIRE(image.size() == QSize(1000, 700));
    REQUIRE(distinctColours(image) > 20);
    REQUIRE(pixelsNear(image, kBlueSeries) > 2000); // the histogram's bars
}

TEST_CASE("Screenshot of the Memory view with its canvas") {
    const QImage image = screenshot("memory", "1100x760");
    REQUIRE(image.size() == QSize(1100, 760));
    REQUIRE(distinctColours(image) > 20);
    // The per-tile bars (drawn by OpenGL) cover a good part of the chart.
    REQUIRE(pixelsNear(image, kBlueSeries) > 20000);
}

TEST_CASE("Screenshot of the Liveness view with its canvas") {
    const QImage image = screenshot("liveness");
    REQUIRE(image.size() == QSize(1000, 700));
    REQUIRE(distinctColours(image) > 20);
    REQUIRE(pixelsNear(image, kBlueSeries) > 20000);
    REQUIRE(pixelsNear(image, kOrangeSeries) > 500);
}

TEST_CASE("Screenshot of the Liveness view without always-live memory") {
    // Left out, the chart shows no always-live band and the not-always-live area fills more of
    // the plot.
    const auto out = test::scratchDir("shots") / "liveness-exclude.png";
    const Run r = runTilescope({"--always-live", "exclude", "--screenshot",
                                QString::fromStdString(out.string()), "--size", "1000x700",
                                QString::fromStdString(test::smallReport().string())});
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    const QImage without(QString::fromStdString(out.string()));
    REQUIRE(without.size() == QSize(1000, 700));
    const QImage with = screenshot("liveness");
    REQUIRE(pixelsNear(without, kBlueSeries) < 200);
    // The not-always-live area is stretched by (always-live + peak) / peak: never smaller.
    REQUIRE(pixelsNear(without, kOrangeSeries) > pixelsNear(with, kOrangeSeries));
}

TEST_CASE("Screenshots of the Memory view's Compute sets tab and Variables graph") {
    const QImage memory = screenshot("memory", "1000x700", test::operationsReport());
    const QImage graph = screenshotWith("memory-graph", {"--memory-tab", "variables-graph"},
                                        test::operationsReport());
    // The graph draws the largest variables' bytes per tile, the second in the second series
    // colour, which the memory chart above it does not use.
    CHECK(pixelsNear(graph, kOrangeSeries) > pixelsNear(memory, kOrangeSeries) + 100);
    const QImage computeSets = screenshotWith(
        "memory-compute-sets", {"--memory-tab", "compute-sets"}, test::operationsReport());
    CHECK(distinctColours(computeSets) > 20);
    const Run bad = runTilescope({"--memory-tab", "nope", "--screenshot", "/tmp/x.png",
                                  QString::fromStdString(test::smallReport().string())});
    CHECK(bad.exitCode == 2);
    CHECK(bad.stderrText.contains("compute-sets"));
}

TEST_CASE("Screenshot of the Memory view's Memory map tab") {
    // A report the simulator laid out: the fullest tile's blocks in the categories' colours,
    // the regions' bands and the hatched gaps.
    const auto& capture = test::capturedTraining();
    const QImage memory = screenshotWith("memory-plain", {}, capture.profile);
    const QImage map = screenshotWith("memory-map", {"--memory-tab", "map"}, capture.profile);
    CHECK(distinctColours(map) > 20);
    CHECK(map != memory);
    // A report of the v5 writer has no map: the tab says so and the screenshot still succeeds.
    const QImage old = screenshotWith("memory-map-v5", {"--memory-tab", "map"},
                                      std::filesystem::path(TILESCOPE_TEST_DATA) / "format-v5" /
                                          "mlp_forward.pop");
    CHECK(distinctColours(old) > 5);
}

TEST_CASE("Screenshot of the Operations Graph view") {
    // The operations report: matmul then add, each a box in the ramp's colours.
    const QImage image = screenshot("operations-graph", "1000x700", test::operationsReport());
    REQUIRE(image.size() == QSize(1000, 700));
    REQUIRE(distinctColours(image) > 20);
    // The darkest end of the ramp (the costliest operation) is on screen.
    const QColor top = OperationGraphWidget::rampColour(1, 1);
    CHECK(pixelsNear(image, qRgb(top.red(), top.green(), top.blue())) > 500);
}

TEST_CASE("Screenshot of the Program Tree view") {
    const QImage image = screenshot("programs");
    REQUIRE(image.size() == QSize(1000, 700));
    REQUIRE(distinctColours(image) > 20);
}

TEST_CASE("Screenshot of the Execution Trace view with its canvas") {
    // It opens on the flame: bars in the programs' colours, not the phase chart.
    const QImage flame = screenshot("execution");
    REQUIRE(flame.size() == QSize(1000, 700));
    REQUIRE(distinctColours(flame) > 20);
    // Bars are drawn at 85% opacity over the white plot.
    int programColours = 0;
    for (int id = 0; id < 15; ++id) {
        const QColor c = programColour(id);
        const auto blend = [](int v) { return int(v * 0.85 + 255 * 0.15 + 0.5); };
        programColours +=
            pixelsNear(flame, qRgb(blend(c.red()), blend(c.green()), blend(c.blue()))) > 300 ? 1
                                                                                             : 0;
    }
    CHECK(programColours >= 3);
    // The phase shares stay one mode away.
    const QImage flat = screenshotWith("execution-flat", {"--execution-mode", "flat"});
    REQUIRE(distinctColours(flat) > 20);
    REQUIRE(pixelsNear(flat, kBlueSeries) > 20000);  // compute
    REQUIRE(pixelsNear(flat, kOrangeSeries) > 1000); // exchange
}

TEST_CASE("Screenshot of the Execution Trace with a selected cycle range") {
    const QImage without = screenshotWith("execution-no-range", {"--execution-mode", "flat"});
    const QImage with = screenshotWith("execution-range",
                                       {"--execution-mode", "flat", "--cycle-range", "2000:9000"});
    // The range panel takes room from the chart, and the range is shaded over it.
    CHECK(pixelsNear(with, kBlueSeries) < pixelsNear(without, kBlueSeries));
    CHECK(distinctColours(with) > 20);
    for (const QStringList& bad :
         {QStringList{"--cycle-range", "9000:2000"}, QStringList{"--cycle-range", "abc"},
          QStringList{"--view", "memory", "--cycle-range", "1:2"}}) {
        QStringList args = bad;
        args << "--screenshot"
             << "/tmp/x.png" << QString::fromStdString(test::smallReport().string());
        const Run r = runTilescope(args);
        INFO(bad.join(' ').toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.stderrText.startsWith("tilescope: "));
    }
}

TEST_CASE("Screenshot of the Execution Trace's lightweight-profiling blocks") {
    // The small report with blocks added as the engine writes them (format v5 `block` rows):
    // nested user blocks on tile 0, a stream copy's phases on tile 1, an overflow on tile 0.
    const auto dir = test::scratchDir("blocks-shot");
    const auto report = dir / "blocks.pop";
    std::filesystem::copy_file(test::smallReport(), report,
                               std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(report.string().c_str(), &db) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT total_cycles FROM run ORDER BY id LIMIT 1", -1, &st,
                               nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    const std::int64_t cycles = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    REQUIRE(cycles > 100);
    const std::int64_t q = cycles / 10;
    const std::string sql =
        "INSERT INTO block(run_index, run_start, tile, kind, program_id, step_id, cycles_from, "
        "cycles_to, dropped) VALUES "
        "(0, 0, 0, 0, (SELECT min(id) FROM program), NULL, 0, " +
        std::to_string(6 * q) +
        ", 0),"
        "(0, 0, 0, 0, (SELECT max(id) FROM program), NULL, " +
        std::to_string(q) + ", " + std::to_string(3 * q) +
        ", 0),"
        "(0, 0, 1, 1, NULL, NULL, " +
        std::to_string(6 * q) + ", " + std::to_string(7 * q) +
        ", 0),"
        "(0, 0, 1, 2, NULL, NULL, " +
        std::to_string(7 * q) + ", " + std::to_string(8 * q) +
        ", 0),"
        "(0, 0, 1, 3, NULL, NULL, " +
        std::to_string(8 * q) + ", " + std::to_string(9 * q) +
        ", 0),"
        "(0, 0, 0, 7, NULL, NULL, " +
        std::to_string(7 * q) + ", " + std::to_string(cycles) + ", 12)";
    char* message = nullptr;
    INFO((message ? message : ""));
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK);
    sqlite3_close(db);

    const auto out = dir / "blocks.png";
    const Run r = runTilescope({"--execution-mode", "blocks", "--screenshot",
                                QString::fromStdString(out.string()), "--size", "1000x700",
                                QString::fromStdString(report.string())});
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    QImage image(QString::fromStdString(out.string()));
    REQUIRE_FALSE(image.isNull());
    CHECK(pixelsNear(image, qRgb(0x59, 0xa1, 0x4f)) > 200); // stream copy phases
    CHECK(pixelsNear(image, qRgb(0xe1, 0x57, 0x59)) > 200); // the overflow
    // A mode that does not apply to the view is refused.
    CHECK(runTilescope({"--execution-mode", "blocks", "--view", "memory", "--screenshot",
                        QString::fromStdString(out.string()),
                        QString::fromStdString(report.string())})
              .exitCode != 0);
}

TEST_CASE("Screenshot of the Operations view") {
    const QImage image = screenshot("operations", "1000x700", test::operationsReport());
    REQUIRE(image.size() == QSize(1000, 700));
    REQUIRE(distinctColours(image) > 20);
}

TEST_CASE("Screenshot of the Memory view in physical tile order") {
    // --tile-order implies the memory view; the bars change places with the order.
    const auto dir = test::scratchDir("tile-order");
    const QString report = QString::fromStdString(test::smallReport().string());
    QImage shots[2];
    for (int i = 0; i < 2; ++i) {
        const auto out = dir / (i ? "physical.png" : "software.png");
        const Run r =
            runTilescope({"--tile-order", i ? "physical" : "software", "--screenshot",
                          QString::fromStdString(out.string()), "--size", "1000x700", report});
        INFO(r.stderrText.toStdString());
        REQUIRE(r.exitCode == 0);
        shots[i] = QImage(QString::fromStdString(out.string()));
        REQUIRE(pixelsNear(shots[i], kBlueSeries) > 5000);
    }
    REQUIRE(shots[0] != shots[1]);

    // A report without a tile placement has no physical order: exit 1 with the reason.
    const auto v3 = dir / "v3.pop";
    std::filesystem::copy_file(
        std::filesystem::path(TILESCOPE_TEST_DATA) / "format-v3" / "profile.pop", v3);
    const auto out = dir / "none.png";
    const Run r =
        runTilescope({"--tile-order", "physical", "--screenshot",
                      QString::fromStdString(out.string()), QString::fromStdString(v3.string())});
    REQUIRE(r.exitCode == 1);
    REQUIRE(r.stderrText.contains("no tile placement"));
    REQUIRE_FALSE(std::filesystem::exists(out));
}

TEST_CASE("Screenshot of a file that is not a report exits non-zero with one line") {
    const auto dir = test::scratchDir("bad-screenshot");
    const std::string text = (dir / "notes.txt").string();
    std::ofstream(text) << "hello\nworld\n";
    const auto out = dir / "out.png";
    const Run r =
        runTilescope({"--view", "memory", "--screenshot", QString::fromStdString(out.string()),
                      QString::fromStdString(text)});
    REQUIRE(r.exitCode == 1);
    const QStringList lines = r.stderrText.split('\n', Qt::SkipEmptyParts);
    // xvfb-run and Qt may add their own notices; ours is exactly one line naming the file.
    QStringList ours;
    for (const QString& l : lines)
        if (l.startsWith("tilescope: "))
            ours << l;
    REQUIRE(ours.size() == 1);
    REQUIRE(ours.front().contains(QString::fromStdString(text)));
    REQUIRE_FALSE(std::filesystem::exists(out));
}

TEST_CASE("Screenshot usage errors exit 2 with one line") {
    const QString report = QString::fromStdString(test::smallReport().string());
    for (const QStringList& args :
         {QStringList{"--view", "nonsense", "--screenshot", "/tmp/x.png", report},
          QStringList{"--view", "memory", "--screenshot", "/tmp/x.png", "--size", "big", report},
          QStringList{"--view", "memory", "--screenshot", "/tmp/x.png"},
          QStringList{"--tile-order", "diagonal", "--screenshot", "/tmp/x.png", report},
          QStringList{"--view", "summary", "--tile-order", "physical", "--screenshot", "/tmp/x.png",
                      report},
          QStringList{"--always-live", "sometimes", "--screenshot", "/tmp/x.png", report},
          QStringList{"--view", "memory", "--always-live", "exclude", "--screenshot", "/tmp/x.png",
                      report}}) {
        const Run r = runTilescope(args);
        INFO(args.join(' ').toStdString());
        REQUIRE(r.exitCode == 2);
        REQUIRE(r.stderrText.startsWith("tilescope: "));
        REQUIRE_FALSE(r.stderrText.contains('\n'));
    }
}
