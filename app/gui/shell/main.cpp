// tilescope: the desktop app. Without --screenshot it opens a window (and the report named on the
// command line, if any); with --screenshot it renders one view of a report to a PNG and exits.

#include "CommandLine.hpp"
#include "DisplayCheck.hpp"
#include "MainWindow.hpp"
#include "ReportPane.hpp"
#include "ScreenshotRunner.hpp"
#include "compare/ComparePane.hpp"
#include "compare/CompareScreenshotRunner.hpp"
#include "compare/CompareWindow.hpp"
#include "core/RecentEntries.hpp"
#include "core/ReportSession.hpp"
#include "core/ViewState.hpp"
#include "remote/QtSshInteraction.hpp"
#include "sweep/SweepScreenshotRunner.hpp"
#include "sweep/SweepWindow.hpp"
#include "system/SystemAnalyserView.hpp"
#include "system/SystemAnalyserWindow.hpp"
#include "system/SystemScreenshotRunner.hpp"
#include "tilescope/report/RemoteStorage.hpp"
#include "tilescope/report/Version.hpp"

#include <QApplication>
#include <QFileInfo>
#include <QSurfaceFormat>
#include <cstdio>
#include <optional>

using namespace tilescope::gui;

namespace {

constexpr int kExitUsage = 2;

int printError(const QString& message, int code) {
    std::fprintf(stderr, "tilescope: %s\n", message.simplified().toLocal8Bit().constData());
    return code;
}

/// Starts a screenshot runner with `start` and runs the event loop until it finishes; its exit
/// code (a failure printed first) is the program's.
template <typename Runner, typename Start>
int runScreenshot(QApplication& app, Runner& runner, Start start) {
    int exitCode = 0;
    QObject::connect(&runner, &Runner::finished, &app, [&](int code, const QString& message) {
        exitCode = code;
        if (code != 0)
            printError(message, code);
        app.exit(code);
    });
    start();
    app.exec();
    return exitCode;
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
    const std::optional<CommandLineOptions> options =
        parseCommandLine(arguments, &error, &exitNow, parser);
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

    // ssh:// reports: questions (passphrases, passwords, unknown host keys) go to dialogs, except
    // when rendering a screenshot, which must never wait for a person.
    tilescope::report::SshOptions ssh;
    ssh.configFile = options->sshConfig.toStdString();
    ssh.knownHostsFile = options->knownHosts.toStdString();
    ssh.acceptNewHostKey = options->acceptNewHostKey;
    if (options->screenshot.isEmpty())
        ssh.interaction = std::make_shared<QtSshInteraction>();
    tilescope::report::setDefaultSshOptions(ssh);

    if (!options->comparedTraces.isEmpty()) {
        SystemAnalyserWindow window;
        const QString& a = options->comparedTraces[0];
        const QString& b = options->comparedTraces[1];
        if (options->screenshot.isEmpty()) {
            window.show();
            window.compareTraces(a, b);
            return app.exec();
        }
        SystemScreenshotRunner runner(window, options->view, options->screenshot, options->size);
        return runScreenshot(app, runner, [&] { runner.startComparison(a, b); });
    }

    if (!options->traces.isEmpty()) {
        SystemAnalyserWindow window;
        if (options->screenshot.isEmpty()) {
            window.show();
            QObject::connect(
                &window, &SystemAnalyserWindow::opened, &window,
                [&] {
                    if (!options->view.isEmpty())
                        window.view()->showView(options->view);
                    if (options->range)
                        window.view()->showRelativeRange(options->range->first,
                                                         options->range->second);
                    if (options->flame)
                        window.view()->setFlameMode(*options->flame);
                    if (options->chart)
                        window.view()->setChartMode(*options->chart);
                },
                Qt::SingleShotConnection);
            window.openTraces(options->traces);
            return app.exec();
        }
        SystemScreenshotRunner runner(window, options->view, options->screenshot, options->size);
        if (options->range)
            runner.setRange(*options->range);
        if (options->flame)
            runner.setFlameMode(*options->flame);
        if (options->chart)
            runner.setChartMode(*options->chart);
        return runScreenshot(app, runner, [&] { runner.start(options->traces); });
    }

    if (options->sweep) {
        SweepWindow window;
        if (options->screenshot.isEmpty()) {
            window.resize(options->size);
            window.show();
            window.openSweep(options->file);
            return app.exec();
        }
        SweepScreenshotRunner runner(window, options->screenshot, options->size);
        return runScreenshot(app, runner, [&] { runner.start(options->file); });
    }

    if (!options->compared.isEmpty()) {
        CompareWindow window;
        const QString& source = options->compared[0];
        const QString& target = options->compared[1];
        if (options->screenshot.isEmpty()) {
            window.show();
            if (!options->view.isEmpty())
                QObject::connect(
                    &window, &CompareWindow::comparisonOpened, &window,
                    [&] { window.pane()->showView(options->view); }, Qt::SingleShotConnection);
            QObject::connect(
                &window, &CompareWindow::comparisonOpened, &window,
                [&] {
                    const auto where = [](const QString& p) {
                        return p.contains(QLatin1String("://")) ? p
                                                                : QFileInfo(p).absoluteFilePath();
                    };
                    recent::add({RecentEntry::Comparison, {where(source), where(target)}});
                },
                Qt::SingleShotConnection);
            window.openComparison(source, target);
            return app.exec();
        }
        CompareScreenshotRunner runner(window, options->view, options->screenshot, options->size);
        return runScreenshot(app, runner, [&] { runner.start(source, target); });
    }

    MainWindow window;
    if (!options->screenshot.isEmpty()) {
        ScreenshotRunner runner(window, options->view, options->screenshot, options->size);
        if (options->tileOrder)
            runner.setTileOrder(*options->tileOrder);
        if (options->executionMode)
            runner.setExecutionMode(*options->executionMode);
        runner.setViewStateSetup([&](ViewState& state) { options->applyTo(state); });
        return runScreenshot(app, runner, [&] { runner.start(options->file); });
    }
    window.restoreSavedGeometry();
    window.show();
    if (!options->file.isEmpty()) {
        if (!options->view.isEmpty()) {
            QObject::connect(
                &window, &MainWindow::reportOpened, &window,
                [&] {
                    options->applyTo(window.pane()->session()->state());
                    window.pane()->showView(options->view);
                },
                Qt::SingleShotConnection);
        }
        window.openReport(options->file);
    }
    return app.exec();
}
