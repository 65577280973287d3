// Catch2 main for the GUI tests: one QApplication for the whole run (models deliver results
// through the event loop). Without a display (as when Catch2 lists tests at build time) the
// offscreen platform is used; ctest sets it explicitly for the model tests, and the canvas tests
// run under xvfb-run with a real X display.
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <catch2/catch.hpp>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    // Keep tests away from the user's settings (recent files).
    QCoreApplication::setOrganizationName(QStringLiteral("TileScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tilescope-tests"));
    return Catch::Session().run(argc, argv);
}
