// Catch2 main for the GUI tests: one QApplication for the whole run (models deliver results
// through the event loop). Without a display (as when Catch2 lists tests at build time) the
// offscreen platform is used; ctest sets it explicitly for the model tests, and the canvas tests
// run under xvfb-run with a real X display.
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace {

/// A settings and runtime folder of this process, removed when it exits. ctest -j runs several
/// test processes at once (two cases of one binary, too): sharing one settings file, one case's
/// recent list would be rewritten by another's; and tests must not touch the user's settings.
/// Set before QApplication exists, so QSettings and QStandardPaths never see another folder;
/// child processes (the tilescope binary) inherit it.
class ProcessSettingsFolder {
public:
    ProcessSettingsFolder() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "tilescope-gui-settings-XXXXXX").string();
        if (!mkdtemp(pattern.data())) {
            std::perror("GuiTestMain: cannot make a settings folder");
            std::exit(2);
        }
        dir_ = pattern;
        std::filesystem::create_directory(dir_ / "config");
        std::filesystem::create_directory(dir_ / "runtime");
        std::filesystem::permissions(dir_ / "runtime", std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::replace);
        qputenv("XDG_CONFIG_HOME", (dir_ / "config").c_str());
        qputenv("XDG_RUNTIME_DIR", (dir_ / "runtime").c_str());
    }
    ~ProcessSettingsFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    ProcessSettingsFolder(const ProcessSettingsFolder&) = delete;
    ProcessSettingsFolder& operator=(const ProcessSettingsFolder&) = delete;

private:
    std::filesystem::path dir_;
};

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const ProcessSettingsFolder settings;
    int code = 0;
    {
        QApplication app(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("TileScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tilescope-tests"));
        code = Catch::Session().run(argc, argv);
    }
    return code;
}
