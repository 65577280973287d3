// The tilescope binary under Xvfb on host traces: the timeline and call tree views, and the compare
// view of two traces (--compare-trace), rendered with --screenshot give PNGs that are not blank
// (the timeline's event colours, drawn by OpenGL, are present); bad input exits non-zero with one
// line.
#include "CapturedExample.hpp"
#include "TestReports.hpp"
#include "TilescopeProcess.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <QImage>
#include <QProcess>
#include <QSet>
#include <catch2/catch.hpp>
#include <optional>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

using Run = test::TilescopeRun;
using test::runTilescope;

/// A generated program's capture: profile.pop and host.pvti (4 threads, 6000 events).
const report::SyntheticOutput& capture() {
    static const report::SyntheticOutput out = [] {
        report::SyntheticSpec spec;
        spec.tilesPerIpu = 32;
        spec.steps = 200;
        spec.hostEvents = 6000;
        spec.hostThreads = 4;
        return report::generateSyntheticReport(test::scratchDir("system-capture"), spec);
    }();
    return out;
}

QImage screenshot(const QString& view, const QStringList& files, const QStringList& options = {}) {
    const auto out = test::scratchDir("system-shots") / (view.toStdString() + ".png");
    const Run r =
        runTilescope(QStringList{"--view", view, "--screenshot",
                                 QString::fromStdString(out.string()), "--size", "1200x800"} +
                     options + files);
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    QImage image(QString::fromStdString(out.string()));
    REQUIRE_FALSE(image.isNull());
    REQUIRE(image.size() == QSize(1200, 800));
    return image;
}

int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

/// Pixels of the timeline's event palette (seriesColour), which widgets never use.
int eventPixels(const QImage& image) {
    static const QRgb palette[] = {qRgb(0x4e, 0x79, 0xa7), qRgb(0xf2, 0x8e, 0x2b),
                                   qRgb(0xe1, 0x57, 0x59), qRgb(0x76, 0xb7, 0xb2),
                                   qRgb(0x59, 0xa1, 0x4f), qRgb(0xed, 0xc9, 0x48)};
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            for (const QRgb c : palette)
                if (image.pixel(x, y) == c)
                    ++n;
    return n;
}

QString str(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

} // namespace

TEST_CASE("Screenshot of the timeline of a host trace") {
    const QImage image = screenshot("timeline", {str(capture().hostTrace)});
    REQUIRE(distinctColours(image) > 20);
    REQUIRE(eventPixels(image) > 5000);
}

TEST_CASE("Screenshot of the call tree of a host trace") {
    const QImage image = screenshot("calltree", {str(capture().hostTrace)});
    REQUIRE(distinctColours(image) > 10);
    REQUIRE(eventPixels(image) == 0); // tables only: the canvas is on the other tab
}

TEST_CASE("Screenshot of two host traces on one time axis") {
    const QImage image =
        screenshot("timeline", {str(capture().hostTrace), str(capture().hostTrace)});
    REQUIRE(eventPixels(image) > 5000);
}

/// Pixels of the BSP phase colours the device steps use (compute, exchange, stream).
int phasePixels(const QImage& image) {
    static const QRgb phases[] = {qRgb(0x59, 0xa1, 0x4f), qRgb(0x4e, 0x79, 0xa7),
                                  qRgb(0xf2, 0x8e, 0x2b)};
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            for (const QRgb c : phases)
                if (image.pixel(x, y) == c)
                    ++n;
    return n;
}

TEST_CASE("Screenshots of the timeline and call tree of a captured example") {
    const auto& capture = test::capturedTraining();
    CHECK(eventPixels(screenshot("timeline", {str(capture.hostTrace)})) > 2000);
    const QImage tree = screenshot("calltree", {str(capture.hostTrace)});
    CHECK(distinctColours(tree) > 10);
}

TEST_CASE("Screenshot of the joint host and device timeline of a captured example") {
    const auto& capture = test::capturedTraining();
    // Zoom on the first engine run: from just before its host start to past its device end.
    const report::ProfileReader profile(capture.profile.string());
    const report::HostTraceReader host(capture.hostTrace.string());
    const auto run = profile.runs().front();
    const std::int64_t begin = std::min(host.timeSpan()->first, run.hostStartNs);
    const auto deviceNs = std::int64_t(double(run.totalCycles) * 1e9 / profile.target().clockHz);
    const std::int64_t from = run.hostStartNs - begin - deviceNs / 10;
    const std::int64_t to = run.hostStartNs - begin + deviceNs + deviceNs / 5;
    const QString range = QStringLiteral("%1ns:%2ns").arg(std::max<std::int64_t>(from, 0)).arg(to);
    const QImage joint =
        screenshot("timeline", {str(capture.hostTrace), str(capture.profile)}, {"--range", range});
    const QImage hostOnly = screenshot("timeline", {str(capture.hostTrace)}, {"--range", range});
    // The device's steps add their phase colours under the host's Engine::run.
    CHECK(distinctColours(joint) > 20);
    CHECK(phasePixels(joint) > phasePixels(hostOnly) + 5000);
}

TEST_CASE("Screenshot of the joint timeline with lightweight-profiling blocks") {
    const auto& capture = test::capturedTrainingWithBlocks();
    const report::ProfileReader profile(capture.profile.string());
    REQUIRE(profile.numBlocks() > 0);
    const report::HostTraceReader host(capture.hostTrace.string());
    const auto run = profile.runs().front();
    const std::int64_t begin = std::min(host.timeSpan()->first, run.hostStartNs);
    const auto deviceNs = std::int64_t(double(run.totalCycles) * 1e9 / profile.target().clockHz);
    const std::int64_t from = run.hostStartNs - begin - deviceNs / 10;
    const std::int64_t to = run.hostStartNs - begin + deviceNs + deviceNs / 5;
    const QString range = QStringLiteral("%1ns:%2ns").arg(std::max<std::int64_t>(from, 0)).arg(to);
    const QStringList files{str(capture.hostTrace), str(capture.profile)};
    const QImage blocks = screenshot("timeline", files, {"--range", range});
    // Without the report's block tracks (the same capture, host trace only, then joint) the
    // picture has far fewer event pixels: the block tracks fill the rows below the steps (rows
    // of tiles 0, 12, 24 and 36 and tile 0's nesting: about 11,500 pixels at this zoom).
    const QImage hostOnly = screenshot("timeline", {str(capture.hostTrace)}, {"--range", range});
    CHECK(distinctColours(blocks) > 20);
    CHECK(eventPixels(blocks) > eventPixels(hostOnly) + 5000);
}

TEST_CASE("Screenshot of the timeline with flames merged per process and graphs stacked") {
    const QImage perThread = screenshot("timeline", {str(capture().hostTrace)});
    const QImage perProcess =
        screenshot("timeline", {str(capture().hostTrace)}, {"--flame", "process"});
    const QImage stacked = screenshot("timeline", {str(capture().hostTrace)},
                                      {"--flame", "process", "--chart", "stacked"});
    CHECK(eventPixels(perProcess) > 2000);
    // Four threads' flames become one: fewer rows of events, so a different picture.
    CHECK(perProcess != perThread);
    CHECK(distinctColours(stacked) > 20);
}

TEST_CASE("The system views refuse bad input with one line and a non-zero status") {
    const auto dir = test::scratchDir("system-bad");
    const auto out = str(dir / "out.png");
    SECTION("a missing trace") {
        const Run r =
            runTilescope({"--view", "timeline", "--screenshot", out, str(dir / "missing.pvti")});
        REQUIRE(r.exitCode == 1);
        REQUIRE(r.stderrText.contains("missing.pvti"));
    }
    SECTION("a profile report without a host trace") {
        const Run r = runTilescope(
            {"--view", "timeline", "--screenshot", out, str(test::capturedTraining().profile)});
        REQUIRE(r.exitCode == 2);
        REQUIRE(r.stderrText.contains("host trace"));
    }
    SECTION("a joined file that is not a profile report") {
        const Run r =
            runTilescope({"--view", "timeline", "--screenshot", out, str(capture().hostTrace),
                          str(capture().hostTrace.parent_path() / "nothing.pop")});
        REQUIRE(r.exitCode == 1);
        REQUIRE(r.stderrText.contains("nothing.pop"));
    }
    SECTION("a bad --range") {
        const Run r = runTilescope({"--view", "timeline", "--range", "5ms:2ms", "--screenshot", out,
                                    str(capture().hostTrace)});
        REQUIRE(r.exitCode == 2);
        REQUIRE(r.stderrText.contains("--range"));
    }
    SECTION("a bad --flame or --chart") {
        for (const QStringList& option :
             {QStringList{"--flame", "per-core"}, QStringList{"--chart", "pie"},
              QStringList{"--view", "calltree", "--flame", "process"}}) {
            const Run r =
                runTilescope(option + QStringList{"--screenshot", out, str(capture().hostTrace)});
            INFO(option.join(' ').toStdString());
            REQUIRE(r.exitCode == 2);
            REQUIRE((r.stderrText.contains("--flame") || r.stderrText.contains("--chart")));
            REQUIRE_FALSE(r.stderrText.trimmed().contains('\n'));
        }
    }
    SECTION("a profile view of a host trace") {
        const Run r =
            runTilescope({"--view", "memory", "--screenshot", out, str(capture().hostTrace)});
        REQUIRE(r.exitCode == 2);
    }
}

TEST_CASE("Screenshot of the compare view of two host traces") {
    report::SyntheticSpec spec;
    spec.tilesPerIpu = 32;
    spec.steps = 100;
    spec.hostEvents = 9000;
    spec.hostThreads = 2;
    const auto other = report::generateSyntheticReport(test::scratchDir("system-capture-b"), spec);
    const auto out = test::scratchDir("system-shots") / "compare.png";
    const Run r = runTilescope({"--compare-trace", str(capture().hostTrace), str(other.hostTrace),
                                "--screenshot", str(out), "--size", "1200x800"});
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    const QImage image(str(out));
    REQUIRE(image.size() == QSize(1200, 800));
    REQUIRE(distinctColours(image) > 20);
    REQUIRE(eventPixels(image) > 2000); // both flames are drawn
}

TEST_CASE("Compare traces: what is not two host traces is refused with one line") {
    const auto dir = test::scratchDir("system-compare-bad");
    const auto out = str(dir / "out.png");
    const QString trace = str(capture().hostTrace);
    for (const QStringList& args :
         {QStringList{"--compare-trace", trace},
          QStringList{"--compare-trace", trace, trace, trace},
          QStringList{"--compare-trace", trace, str(capture().profile)},
          QStringList{"--compare-trace", "--compare", trace, trace},
          QStringList{"--compare-trace", "--view", "timeline", trace, trace},
          QStringList{"--compare-trace", "--range", "1ms:2ms", trace, trace}}) {
        INFO(args.join(' ').toStdString());
        const Run r = runTilescope(args + QStringList{"--screenshot", out});
        REQUIRE(r.exitCode == 2);
        REQUIRE(r.stderrText.contains("--"));
        REQUIRE_FALSE(r.stderrText.trimmed().contains('\n'));
    }
    const Run missing =
        runTilescope({"--compare-trace", trace, str(dir / "missing.pvti"), "--screenshot", out});
    REQUIRE(missing.exitCode == 1);
    REQUIRE(missing.stderrText.contains("missing.pvti"));
}

namespace {

/// A one-second trace: a long event on "main", optionally a 150 µs event on "worker" and a
/// host-memory counter sampled once, at the start or at the end.
std::filesystem::path shortSpanTrace(const std::string& name, bool shortEvent,
                                     std::optional<bool> counterAtStart) {
    const auto path = test::scratchDir("system-fixes") / (name + ".pvti");
    report::HostTraceWriter w(path);
    const std::int64_t t0 = 1'700'000'000'000'000'000;
    const auto p = w.addProcess(7, "transformer_block_3_attention_heads", t0);
    const auto main = w.addThread(p, 1, "main");
    const auto worker = w.addThread(p, 2, "worker");
    const auto ch = w.addChannel("user");
    w.addEvent(main, ch, w.intern("epoch"), t0, t0 + 1'000'000'000, 0);
    if (shortEvent)
        w.addEvent(worker, ch, w.intern("device run"), t0 + 500'000'000, t0 + 500'150'000, 0);
    if (counterAtStart) {
        const auto s = w.addSeries(w.addGraph(p, "host memory", "bytes"), "rss");
        w.addSample(s, *counterAtStart ? t0 : t0 + 1'000'000'000, 2e9);
    }
    w.close();
    return path;
}

} // namespace

TEST_CASE("Timeline fixes: short spans stay visible, a counter sampled once draws its level") {
    const auto without = screenshot("timeline", {str(shortSpanTrace("plain", false, {}))});
    const auto withShort = screenshot("timeline", {str(shortSpanTrace("short", true, {}))});
    // A 150 µs event in a second is 0.15 pixels wide at full zoom: drawn as a whole pixel
    // column on its row (below the overview and the ruler, which also change).
    int changed = 0;
    for (int y = 80; y < withShort.height(); ++y)
        for (int x = 0; x < withShort.width(); ++x)
            changed += withShort.pixel(x, y) != without.pixel(x, y) ? 1 : 0;
    CHECK(changed >= 10);
    // The counter's level, held from its only sample to the end of the trace: a line across the
    // plot in the first series colour (and a tinted area under it).
    const auto atStart = screenshot("timeline", {str(shortSpanTrace("start", false, true))});
    const auto atEnd = screenshot("timeline", {str(shortSpanTrace("end", false, false))});
    const auto near = [](const QImage& image) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += image.pixel(x, y) == qRgb(0x4e, 0x79, 0xa7) ? 1 : 0;
        return n;
    };
    CHECK(near(atStart) - near(atEnd) > 300);
}
