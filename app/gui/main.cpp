// tilescope: the desktop app. Without --screenshot it opens a window (and the report named on the
// command line, if any); with --screenshot it renders one view of a report to a PNG and exits.

#include "DisplayCheck.hpp"
#include "MainWindow.hpp"
#include "ReportPane.hpp"
#include "ScreenshotRunner.hpp"
#include "tilescope/report/Version.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QRegularExpression>
#include <QSurfaceFormat>
#include <cstdio>
#include <optional>

using namespace tilescope::gui;

namespace {

constexpr int kExitUsage = 2;

/// What the command line asked for, validated before any window exists so that usage errors
/// need no display.
struct Options {
    QString file;
    QString view;
    QString screenshot;
    QSize size{1280, 800};
};

int printError(const QString& message, int code) {
    std::fprintf(stderr, "tilescope: %s\n", message.simplified().toLocal8Bit().constData());
    return code;
}

std::optional<Options> parse(const QStringList& arguments, QString* error, bool* exitNow,
                             QCommandLineParser& parser) {
    parser.setApplicationDescription(
        QStringLiteral("TileScope: profiler for tile-based BSP accelerators"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QStringLiteral("A profile report (profile.pop) or a report folder"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("View to show: %1").arg(ReportPane::viewNames().join(", ")),
        QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the view to a PNG and exit"),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot (default 1280x800)"),
                                  QStringLiteral("WxH"));
    parser.addOptions({view, screenshot, size});
    *exitNow = false;
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version"))) {
        *exitNow = true;
        return std::nullopt;
    }
    Options o;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        *error = QStringLiteral("expected one FILE, got %1").arg(positional.size());
        return std::nullopt;
    }
    if (!positional.isEmpty())
        o.file = positional.front();
    o.view = parser.value(view);
    if (!o.view.isEmpty() && !ReportPane::viewNames().contains(o.view)) {
        *error = QStringLiteral("unknown view '%1' (available: %2)")
                     .arg(o.view, ReportPane::viewNames().join(", "));
        return std::nullopt;
    }
    o.screenshot = parser.value(screenshot);
    if (parser.isSet(size)) {
        static const QRegularExpression re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
        const auto m = re.match(parser.value(size));
        if (!m.hasMatch()) {
            *error = QStringLiteral("--size must be WxH, e.g. 1280x800 (got '%1')")
                         .arg(parser.value(size));
            return std::nullopt;
        }
        o.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    if (!o.screenshot.isEmpty() && o.file.isEmpty()) {
        *error = QStringLiteral("--screenshot needs a FILE to open");
        return std::nullopt;
    }
    if (!o.screenshot.isEmpty() && o.view.isEmpty())
        o.view = QStringLiteral("summary");
    return o;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication::setOrganizationName(QStringLiteral("TileScope"));
    QCoreApplication::setApplicationName(QStringLiteral("tilescope"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(tilescope::report::kToolVersion));

    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QCommandLineParser parser;
    QString error;
    bool exitNow = false;
    const std::optional<Options> options = parse(arguments, &error, &exitNow, parser);
    if (!options && !exitNow)
        return printError(error, kExitUsage);

    // Canvases share nothing, but one default format keeps every QOpenGLWidget on GL 3.x-capable
    // contexts without per-widget setup.
    QSurfaceFormat format = QSurfaceFormat::defaultFormat();
    format.setDepthBufferSize(0);
    format.setStencilBufferSize(0);
    QSurfaceFormat::setDefaultFormat(format);

    if (!exitNow && !tilescope::gui::displayAvailable())
        return tilescope::gui::reportNoDisplay("tilescope");

    if (exitNow) {
        // Help and version need no display: a core application is enough to print them.
        QCoreApplication core(argc, argv);
        parser.process(core);
        return 0;
    }
    QApplication app(argc, argv);

    MainWindow window;
    if (!options->screenshot.isEmpty()) {
        ScreenshotRunner runner(window, options->view, options->screenshot, options->size);
        int exitCode = 0;
        QObject::connect(&runner, &ScreenshotRunner::finished, &app,
                         [&](int code, const QString& message) {
                             exitCode = code;
                             if (code != 0)
                                 printError(message, code);
                             app.exit(code);
                         });
        runner.start(options->file);
        app.exec();
        return exitCode;
    }
    window.restoreSavedGeometry();
    window.show();
    if (!options->file.isEmpty()) {
        if (!options->view.isEmpty()) {
            QObject::connect(
                &window, &MainWindow::reportOpened, &window,
                [&] { window.pane()->showView(options->view); }, Qt::SingleShotConnection);
        }
        window.openReport(options->file);
    }
    return app.exec();
}
