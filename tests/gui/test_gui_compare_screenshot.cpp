// `tilescope --compare SOURCE TARGET --view NAME --screenshot OUT.png` under Xvfb for every
// compare view: a PNG of the requested size that is not blank, with the canvases' own series
// colours where the view draws charts; bad compare arguments exit non-zero with one line.
#include "ComparePair.hpp"
#include "TestReports.hpp"
#include "TilescopeProcess.hpp"

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <catch2/catch.hpp>

using namespace tilescope::gui;

namespace {

using Run = test::TilescopeRun;
using test::runTilescope;

QString pairArg(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

QImage compareShot(const QString& view) {
    const auto out = test::scratchDir("compare-shots") / (view.toStdString() + ".png");
    const auto& pair = test::comparePair();
    const Run r = runTilescope({"--compare", pairArg(pair.source), pairArg(pair.target), "--view",
                                view, "--screenshot", pairArg(out), "--size", "1000x700"});
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    QImage image(pairArg(out));
    REQUIRE_FALSE(image.isNull());
    REQUIRE(image.size() == QSize(1000, 700));
    return image;
}

int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

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

const QRgb kSource = qRgb(0x4e, 0x79, 0xa7);
const QRgb kTarget = qRgb(0xf2, 0x8e, 0x2b);
const QRgb kWorse = qRgb(0xd6, 0x27, 0x28);
const QRgb kBetter = qRgb(0x2c, 0xa0, 0x2c);

} // namespace

TEST_CASE("compare screenshot: summary") {
    const QImage image = compareShot("summary");
    CHECK(distinctColours(image) > 20);
    CHECK(pixelsNear(image, kWorse) > 20); // growth figures in red text
}

TEST_CASE("compare screenshot: memory draws both curves and the difference") {
    const QImage image = compareShot("memory");
    CHECK(distinctColours(image) > 20);
    // Four tiles: each curve is a few thin segments, about 200 pixels at this size.
    CHECK(pixelsNear(image, kSource) > 150);
    CHECK(pixelsNear(image, kTarget) > 150);
    CHECK(pixelsNear(image, kWorse) > 200); // tiles 1 and 3 grew
    CHECK(pixelsNear(image, kBetter) > 50); // tile 2 shrank
}

TEST_CASE("compare screenshot: liveness") {
    const QImage image = compareShot("liveness");
    CHECK(distinctColours(image) > 20);
    CHECK(pixelsNear(image, kSource) > 50);
    CHECK(pixelsNear(image, kTarget) > 50);
}

TEST_CASE("compare screenshot: program tree") {
    CHECK(distinctColours(compareShot("programs")) > 20);
}

TEST_CASE("compare screenshot: operations") {
    CHECK(distinctColours(compareShot("operations")) > 20);
}

TEST_CASE("compare screenshot: execution trace lanes and regressions") {
    const QImage image = compareShot("execution");
    CHECK(distinctColours(image) > 20);
    CHECK(pixelsNear(image, kSource) > 200); // the source run's lane
    CHECK(pixelsNear(image, kWorse) > 200);  // added and slower steps
}

TEST_CASE("compare arguments: bad input exits non-zero with one line") {
    const auto& pair = test::comparePair();
    const Run one = runTilescope({"--compare", pairArg(pair.source)});
    CHECK(one.exitCode == 2);
    CHECK(one.stderrText.contains("--compare expects two reports"));

    const Run view = runTilescope({"--compare", pairArg(pair.source), pairArg(pair.target),
                                   "--view", "insights", "--screenshot", "/tmp/x.png"});
    CHECK(view.exitCode == 2);
    CHECK(view.stderrText.contains("unknown compare view 'insights'"));

    const auto missing = test::scratchDir("compare-bad") / "missing.pop";
    const auto out = test::scratchDir("compare-bad") / "out.png";
    const Run bad = runTilescope(
        {"--compare", pairArg(pair.source), pairArg(missing), "--screenshot", pairArg(out)});
    CHECK(bad.exitCode == 1);
    CHECK(bad.stderrText.contains("missing.pop"));
    // One line from the app (Qt may add its own environment warnings around it).
    const QStringList lines = bad.stderrText.split('\n').filter(QRegularExpression("^tilescope: "));
    CHECK(lines.size() == 1);
}
