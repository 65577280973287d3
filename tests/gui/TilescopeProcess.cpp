#include "TilescopeProcess.hpp"

#include "TestReports.hpp"

#include <QProcess>
#include <catch2/catch.hpp>
#include <csignal>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tilescope::gui::test {
namespace {

/// An Xvfb server for the whole test process. -displayfd lets the server pick a free display
/// and write its number to a pipe, so parallel test processes never race for one.
class XvfbDisplay {
public:
    XvfbDisplay() {
        int fds[2];
        if (pipe(fds) != 0)
            return;
        pid_ = fork();
        if (pid_ == 0) {
            close(fds[0]);
            const std::string fd = std::to_string(fds[1]);
            execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1920x1200x24",
                   "-nolisten", "tcp", static_cast<char*>(nullptr));
            _exit(127);
        }
        close(fds[1]);
        char c = 0;
        std::string number;
        while (pid_ > 0 && read(fds[0], &c, 1) == 1 && c != '\n')
            number += c;
        close(fds[0]);
        if (!number.empty())
            display_ = QStringLiteral(":") + QString::fromStdString(number);
    }
    ~XvfbDisplay() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            waitpid(pid_, nullptr, 0);
        }
    }
    const QString& display() const { return display_; }

private:
    pid_t pid_ = -1;
    QString display_;
};

const QString& display() {
    static const XvfbDisplay server;
    return server.display();
}

} // namespace

TilescopeRun runTilescope(const QStringList& args, const QProcessEnvironment& extra) {
    const QString& x = display();
    INFO("Xvfb could not be started");
    REQUIRE_FALSE(x.isEmpty());
    QProcess p;
    p.setProgram(QStringLiteral(TILESCOPE_GUI_PATH));
    p.setArguments(args);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("QT_QPA_PLATFORM"); // the app must use the X display, not offscreen
    env.remove("WAYLAND_DISPLAY");
    env.insert("DISPLAY", x);
    env.insert("XDG_RUNTIME_DIR", QString::fromStdString(scratchDir("runtime").string()));
    for (const QString& key : extra.keys())
        env.insert(key, extra.value(key));
    p.setProcessEnvironment(env);
    p.start();
    REQUIRE(p.waitForStarted(10000));
    REQUIRE(p.waitForFinished(240000));
    TilescopeRun r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.stderrText = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    return r;
}

} // namespace tilescope::gui::test
