#pragma once
// The tilescope binary run as a user would, for the tests of its command line (screenshots, bad
// input, remote files): on one Xvfb display per test process, started on first use.

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace tilescope::gui::test {

/// What a run of the binary ended with.
struct TilescopeRun {
    int exitCode = -1; // -1 when it crashed
    QString stderrText;
};

/// Runs TILESCOPE_GUI_PATH with `args` on this process's Xvfb display (1920x1200x24). `env`
/// entries are added to the environment (HOME for remote tests, say). The status is the app's
/// own: unlike a wrapper per run (xvfb-run), nothing of the display's set-up or clean-up can
/// replace it.
TilescopeRun runTilescope(const QStringList& args,
                          const QProcessEnvironment& env = QProcessEnvironment());

} // namespace tilescope::gui::test
