// Opening reports on another machine from the desktop app, against a real sshd on 127.0.0.1
// (tests/remote's SshTestServer): the remote folder model and the Open Remote dialog, the SSH
// questions asked in dialogs (a passphrase that must end up in no file), refused host keys, a
// dropped connection, and `tilescope --screenshot ssh://...`. Widgets run offscreen; the
// screenshot runs the real binary under its own Xvfb.
#include "RemoteGuiFixture.hpp"
#include "TestReports.hpp"
#include "TilescopeProcess.hpp"
#include "remote/QtSshInteraction.hpp"
#include "remote/RemoteDirectoryModel.hpp"
#include "remote/RemoteOpenDialog.hpp"
#include "remote/SshConfigHosts.hpp"
#include "shell/MainWindow.hpp"
#include "shell/ReadFailureBar.hpp"
#include "shell/ReportPane.hpp"

#include <QComboBox>
#include <QCompleter>
#include <QFont>
#include <QImage>
#include <QInputDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>
#include <pwd.h>
#include <unistd.h>

using namespace tilescope;
using namespace tilescope::gui;
using namespace tilescope::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* kPassphrase = "gui-passphrase-5d0b-never-on-disk";

QString qs(const fs::path& p) {
    return QString::fromStdString(p.string());
}

int rowNamed(const RemoteDirectoryModel& model, const std::string& name) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.entry(row).name == name)
            return row;
    return -1;
}

std::vector<std::string> filesContaining(const fs::path& root, const std::string& secret) {
    std::vector<std::string> found;
    for (const auto& entry :
         fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied))
        if (entry.is_regular_file() &&
            readWholeFile(entry.path()).find(secret) != std::string::npos)
            found.push_back(entry.path().string());
    return found;
}

void clickButton(QWidget* dialog, const QString& text) {
    for (auto* button : dialog->findChildren<QPushButton*>())
        if (button->text() == text)
            return button->click();
    FAIL("no button " << text.toStdString());
}

// Opens `path` on the fixture's host through File > Open Remote, as a person types it.
void openThroughDialog(MainWindow& window, const RemoteFixture& f, const fs::path& path) {
    RemoteOpenDialog* dialog = window.showOpenRemoteDialog();
    dialog->hostField()->setEditText(test::hostSpec(f));
    dialog->pathField()->setText(qs(path));
    dialog->accept();
}

} // namespace

TEST_CASE("remoteFolderOf: folder URLs of the Open Remote dialog") {
    CHECK(report::remoteFolderOf("ssh://host") == "");
    CHECK(report::remoteFolderOf("ssh://u@host:2222/~") == "");
    CHECK(report::remoteFolderOf("ssh://host/") == "/");
    CHECK(report::remoteFolderOf("ssh://host/~/runs/") == "runs");
    CHECK(report::remoteFolderOf("ssh://host/data/runs//") == "/data/runs");
    CHECK(report::remoteFolderOf("ssh://host/a%20b") == "/a b");
    CHECK_THROWS_WITH(report::remoteFolderOf("ssh://host:99999/x"),
                      Catch::Contains("port '99999'"));
    CHECK_THROWS_WITH(report::remoteFolderOf("/local/folder"), Catch::Contains("not an ssh://"));
    CHECK(report::isReportFileName("profile.pop"));
    CHECK(report::isReportFileName("host.pvti"));
    CHECK_FALSE(report::isReportFileName("profile.pop.bak"));
}

TEST_CASE("Host aliases of the SSH configuration, without patterns, through Include") {
    const fs::path dir = test::scratchDir("ssh-config");
    fs::create_directories(dir / "conf.d");
    writeText(dir / "config", "# a comment\n"
                              "Host ipu-pod gpu-box\n  HostName 10.0.0.1\n"
                              "Host *.lab !secret lab-? *\n  User me\n"
                              "host=lowercase-alias\n"
                              "Include " +
                                  (dir / "conf.d").string() +
                                  "/*.conf\n"
                                  "Match host foo\n  User x\n"
                                  "Host ipu-pod\n");
    writeText(dir / "conf.d" / "a.conf", "Host included-host\n");
    const auto aliases = sshConfigHostAliases((dir / "config").string());
    CHECK(aliases ==
          std::vector<std::string>{"ipu-pod", "gpu-box", "lowercase-alias", "included-host"});
    CHECK(sshConfigHostAliases((dir / "missing").string()).empty());
}

TEST_CASE("The remote folder model lists a folder over SFTP with reports highlighted") {
    RemoteFixture f;
    test::useFixtureSsh(f);
    const fs::path folder = fs::canonical(f.small.profile.parent_path());
    fs::create_directories(folder / "older run");
    writeText(folder / "notes.txt", "not a report");
    writeText(folder / "older run" / "profile.pop", "");
    fs::create_symlink(folder / "older run", folder / "latest");

    RemoteDirectoryModel model;
    model.setHost(test::hostSpec(f));
    QSignalSpy listed(&model, &RemoteDirectoryModel::listed);
    QSignalSpy failed(&model, &RemoteDirectoryModel::failed);
    model.list(qs(folder));
    CHECK(model.isBusy());
    REQUIRE(test::waitFor(listed, 60000));
    INFO((failed.isEmpty() ? QString() : failed.front().front().toString()).toStdString());
    CHECK(failed.isEmpty());
    CHECK(model.folder() == qs(folder));

    // Folders first (a link to a folder is one), then files by name.
    std::vector<std::string> names;
    for (int row = 0; row < model.rowCount(); ++row)
        names.push_back(model.entry(row).name);
    CHECK(names ==
          std::vector<std::string>{"latest", "older run", "host.pvti", "notes.txt", "profile.pop"});
    const int profile = rowNamed(model, "profile.pop");
    const int trace = rowNamed(model, "host.pvti");
    const int notes = rowNamed(model, "notes.txt");
    const int older = rowNamed(model, "older run");
    const QModelIndex profileName = model.index(profile, RemoteDirectoryModel::Name);
    CHECK(model.data(profileName, RemoteDirectoryModel::IsReportRole).toBool());
    CHECK(model.data(model.index(trace, 0), RemoteDirectoryModel::IsReportRole).toBool());
    CHECK_FALSE(model.data(model.index(notes, 0), RemoteDirectoryModel::IsReportRole).toBool());
    CHECK(model.data(profileName, Qt::FontRole).value<QFont>().bold());
    CHECK(model.data(profileName, Qt::BackgroundRole).isValid());
    CHECK_FALSE(model.data(model.index(notes, 0), Qt::FontRole).isValid());
    CHECK_FALSE(model.data(model.index(notes, 0), Qt::BackgroundRole).isValid());
    CHECK(model.data(model.index(older, 0), RemoteDirectoryModel::IsDirectoryRole).toBool());
    CHECK(model.entry(profile).size == fs::file_size(f.small.profile));
    CHECK(model.data(model.index(older, 0), Qt::DisplayRole).toString() == "older run/");
    CHECK(model.completions().contains(qs(folder / "profile.pop")));
    CHECK(model.completions().contains(qs(folder / "older run") + "/"));
    CHECK(model.urlFor(qs(f.small.profile)).toStdString() == f.url(f.small.profile));

    // A missing folder fails with the URL and the reason; the connection stays usable.
    model.list(QStringLiteral("/no/such/folder"));
    REQUIRE(test::waitFor(failed, 30000));
    const QString message = failed.front().front().toString();
    CHECK(message.contains("ssh://"));
    CHECK(message.contains("/no/such/folder"));
    CHECK(message.contains("no such folder"));
    listed.clear();
    model.list(qs(folder / "older run"));
    REQUIRE(test::waitFor(listed, 30000));
    REQUIRE(model.rowCount() == 1);
    CHECK(model.entry(0).isReport);

    // The home folder (sshd's: the account's, not the client's HOME) by an empty path.
    listed.clear();
    model.list(QString());
    REQUIRE(test::waitFor(listed, 30000));
    const passwd* account = getpwuid(getuid());
    REQUIRE(account);
    CHECK(model.folder().toStdString() == fs::canonical(account->pw_dir).string());

    // The free function, with its own connection, sees the same folder.
    const report::RemoteListing direct =
        report::listRemoteDirectory(f.url(folder) + "/", report::defaultSshOptions());
    CHECK(direct.folder == folder.string());
    CHECK(direct.entries.size() == names.size());
}

TEST_CASE("The Open Remote dialog completes paths from the listing and gives the URL") {
    RemoteFixture f;
    test::useFixtureSsh(f);
    const fs::path folder = fs::canonical(f.small.profile.parent_path());
    fs::create_directories(folder / "older");
    writeText(folder / "older" / "run2.pop", "");
    { QSettings().setValue("recentRemoteReports", QStringList{}); }
    RemoteOpenDialog dialog;
    dialog.show();
    dialog.hostField()->setEditText(test::hostSpec(f));
    dialog.pathField()->setText(qs(folder) + "/");
    QSignalSpy listed(&dialog.model(), &RemoteDirectoryModel::listed);
    dialog.browse();
    REQUIRE(test::waitFor(listed, 60000));
    INFO(dialog.statusText().toStdString());
    CHECK(dialog.statusText().contains("2 reports"));

    QCompleter* completer = dialog.pathField()->completer();
    completer->setCompletionPrefix(qs(folder) + "/pro");
    CHECK(completer->completionCount() == 1);
    CHECK(completer->currentCompletion() == qs(folder / "profile.pop"));

    // Typing on into a subfolder lists it, so that completion follows.
    listed.clear();
    dialog.pathField()->setFocus();
    dialog.pathField()->setCursorPosition(dialog.pathField()->text().size());
    QTest::keyClicks(dialog.pathField(), "older/");
    REQUIRE(test::waitFor(listed, 30000));
    CHECK(dialog.model().folder() == qs(folder / "older"));
    completer->setCompletionPrefix(qs(folder / "older") + "/r");
    CHECK(completer->currentCompletion() == qs(folder / "older" / "run2.pop"));

    // A folder is not something to open; a file is, as an ssh:// URL.
    dialog.accept();
    CHECK(dialog.result() != QDialog::Accepted);
    CHECK(dialog.statusText().contains("not a folder"));
    dialog.pathField()->setText(qs(f.small.profile));
    dialog.accept();
    CHECK(dialog.result() == QDialog::Accepted);
    CHECK(dialog.url().toStdString() == f.url(f.small.profile));

    // Recent remote reports keep URLs without passwords.
    RemoteOpenDialog::rememberReport("ssh://me:hunter2@box:2200/data/profile.pop");
    CHECK(RemoteOpenDialog::recentReports().front() == "ssh://me@box:2200/data/profile.pop");
    RemoteOpenDialog again;
    REQUIRE(again.recentList()->count() >= 1);
    again.recentList()->setCurrentRow(0);
    CHECK(again.hostField()->currentText() == "me@box:2200");
    CHECK(again.pathField()->text() == "/data/profile.pop");
}

TEST_CASE("A passphrase asked in a dialog opens the report and is written to no file") {
    RemoteFixture f;
    const fs::path lockedKey = f.world.makeKey("locked_key", kPassphrase);
    writeText(f.authorizedKeys, readWholeFile(lockedKey.string() + ".pub"));
    writeText(f.sshConfig, "Host *\n  IdentityFile " + lockedKey.string() + "\n");
    writeText(f.knownHosts, ""); // a new host: the app records its key

    // The app's settings (recent files) go under the test world's HOME.
    const fs::path config = f.world / "home" / ".config";
    fs::create_directories(config);
    qputenv("XDG_CONFIG_HOME", config.c_str());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, qs(config));
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, qs(config));
    const fs::path shots = f.world / "shots";
    fs::create_directories(shots);

    MainWindow window; // interactive: it remembers what it opened
    window.resize(1000, 700);
    window.show();
    test::useFixtureSsh(f, std::make_shared<QtSshInteraction>(&window));
    test::DialogAnswerer dialogs;
    QString hostKeyText;
    dialogs.answer(QtSshInteraction::kHostKeyDialog, [&](QWidget* w) {
        hostKeyText = static_cast<QMessageBox*>(w)->informativeText();
        clickButton(w, "Accept");
    });
    QString passphraseLabel;
    dialogs.answer(QtSshInteraction::kPassphraseDialog, [&](QWidget* w) {
        auto* input = static_cast<QInputDialog*>(w);
        passphraseLabel = input->labelText();
        CHECK(input->textEchoMode() == QLineEdit::Password);
        input->setTextValue(kPassphrase);
        input->accept();
    });

    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    openThroughDialog(window, f, f.small.profile);
    REQUIRE((test::waitFor(opened, 90000) || !failed.isEmpty()));
    INFO(dialogs.otherMessages().join("\n").toStdString());
    REQUIRE(failed.isEmpty());
    CHECK(dialogs.count(QtSshInteraction::kHostKeyDialog) == 1);
    CHECK(hostKeyText.contains("ssh-ed25519"));
    CHECK(hostKeyText.contains("SHA256:"));
    CHECK(dialogs.count(QtSshInteraction::kPassphraseDialog) == 1);
    CHECK(passphraseLabel.contains(qs(lockedKey)));
    CHECK(readWholeFile(f.knownHosts).find("127.0.0.1") != std::string::npos);
    CHECK(window.windowTitle().startsWith(QString::fromStdString(f.url(f.small.profile))));

    // A screenshot of what was opened, and the settings written to disk.
    QTest::qWait(100);
    REQUIRE(window.grab().save(qs(shots / "summary.png")));
    QSettings settings;
    settings.sync();
    const fs::path settingsFile = settings.fileName().toStdString();
    INFO(settingsFile);
    REQUIRE(settingsFile.string().starts_with(config.string()));
    const std::string written = readWholeFile(settingsFile);
    CHECK(written.find(f.url(f.small.profile)) != std::string::npos);

    // Neither the settings, the screenshot, known_hosts nor anything else under the world.
    dialogs.reset();
    report::setDefaultSshOptions({});
    CHECK(filesContaining(config, kPassphrase).empty());
    CHECK(filesContaining(shots, kPassphrase).empty());
    CHECK(filesContaining(f.world.dir(), kPassphrase).empty());
    CHECK(filesContaining(f.scratch.path(), kPassphrase).empty());
}

TEST_CASE("Host keys: a changed key is refused with no dialog, an unknown one can be refused") {
    RemoteFixture f;
    MainWindow window;
    window.setInteractive(false);
    window.show();
    test::useFixtureSsh(f, std::make_shared<QtSshInteraction>(&window));
    test::DialogAnswerer dialogs;
    dialogs.answer(QtSshInteraction::kHostKeyDialog, [](QWidget* w) { clickButton(w, "Refuse"); });
    QSignalSpy failed(&window, &MainWindow::openFailed);

    SECTION("changed") {
        const fs::path other = f.world.makeKey("impostor_key");
        std::istringstream pub(readWholeFile(other.string() + ".pub"));
        std::string type, key;
        pub >> type >> key;
        writeText(f.knownHosts, "[127.0.0.1]:" + std::to_string(f.server->port()) + " " + type +
                                    " " + key + "\n");
        const std::string before = readWholeFile(f.knownHosts);
        openThroughDialog(window, f, f.small.profile);
        REQUIRE(test::waitFor(failed, 60000));
        const QString message = failed.front().front().toString();
        INFO(message.toStdString());
        CHECK(message.contains("REFUSED"));
        CHECK(message.contains("CHANGED"));
        CHECK(message.contains("man-in-the-middle"));
        CHECK(dialogs.count(QtSshInteraction::kHostKeyDialog) == 0);
        CHECK(readWholeFile(f.knownHosts) == before);

        // Browsing shows the same refusal in the dialog.
        RemoteOpenDialog dialog;
        dialog.hostField()->setEditText(test::hostSpec(f));
        QSignalSpy listFailed(&dialog.model(), &RemoteDirectoryModel::failed);
        dialog.browse();
        REQUIRE(test::waitFor(listFailed, 60000));
        CHECK(dialog.statusText().contains("CHANGED"));
        CHECK(dialogs.count(QtSshInteraction::kHostKeyDialog) == 0);
    }
    SECTION("unknown, refused in the dialog") {
        writeText(f.knownHosts, "");
        openThroughDialog(window, f, f.small.profile);
        REQUIRE(test::waitFor(failed, 60000));
        const QString message = failed.front().front().toString();
        INFO(message.toStdString());
        CHECK(dialogs.count(QtSshInteraction::kHostKeyDialog) == 1);
        CHECK(message.contains("unknown host"));
        CHECK(message.contains("refused"));
        CHECK(readWholeFile(f.knownHosts).empty());
    }
    dialogs.reset();
    report::setDefaultSshOptions({});
}

TEST_CASE("A dropped connection: the view that needed data shows the error and Reload") {
    RemoteFixture f;
    // Larger than the read cache's first reads: the program tree's pages are not fetched at open.
    report::SyntheticSpec spec;
    spec.ipus = 4;
    spec.tilesPerIpu = 256;
    spec.steps = 4000;
    spec.seed = 5;
    const auto big = report::generateSyntheticReport(f.world / "big", spec);
    test::useFixtureSsh(f);
    MainWindow window;
    window.setInteractive(false);
    window.resize(1000, 700);
    window.show();
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openReport(QString::fromStdString(f.url(big.profile)));
    REQUIRE(test::waitFor(opened, 90000));
    CHECK_FALSE(window.readFailureBar()->isVisible());

    f.server->kill();
    QSignalSpy viewFailed(window.pane(), &ReportPane::viewFailed);
    window.pane()->showView("programs");
    REQUIRE(test::waitFor(viewFailed, 60000));
    const QString message = viewFailed.front().front().toString();
    INFO(message.toStdString());
    CHECK(message.contains(QString::fromStdString(f.url(big.profile))));
    CHECK(message.contains("connection"));
    REQUIRE(window.readFailureBar()->isVisible());
    CHECK(window.readFailureBar()->message().contains("connection"));

    // Reload tries again; the server is gone, so opening fails cleanly and the pane stays.
    window.readFailureBar()->reloadButton()->click();
    REQUIRE(test::waitFor(failed, 60000));
    CHECK(failed.front().front().toString().contains("cannot connect"));
    CHECK(window.pane() != nullptr);
    report::setDefaultSshOptions({});
}

namespace {

using Run = test::TilescopeRun;

/// The app with its own HOME, so its settings and SSH files are the test's.
Run runTilescope(const QStringList& args, const fs::path& home) {
    QProcessEnvironment env;
    env.insert("HOME", qs(home));
    env.insert("XDG_CONFIG_HOME", qs(home / ".config"));
    env.insert("XDG_RUNTIME_DIR", qs(test::scratchDir("remote-runtime")));
    return test::runTilescope(args, env);
}

} // namespace

TEST_CASE("tilescope --view summary --screenshot out.png ssh://... renders the remote report") {
    RemoteFixture f;
    const fs::path out = f.world / "remote-summary.png";
    const QStringList ssh{"--ssh-config", qs(f.sshConfig), "--known-hosts", qs(f.knownHosts)};
    const Run r =
        runTilescope(QStringList{"--view", "summary", "--screenshot", qs(out), "--size", "1000x700",
                                 QString::fromStdString(f.url(f.small.profile))} +
                         ssh,
                     f.world / "home");
    INFO(r.stderrText.toStdString());
    REQUIRE(r.exitCode == 0);
    const QImage image(qs(out));
    REQUIRE(image.size() == QSize(1000, 700));
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    CHECK(colours.size() > 20);

    // Screenshots never wait for a person: an unknown host is refused at once.
    writeText(f.knownHosts, "");
    const Run unknown = runTilescope(QStringList{"--screenshot", qs(f.world / "no.png"),
                                                 QString::fromStdString(f.url(f.small.profile))} +
                                         ssh,
                                     f.world / "home");
    CHECK(unknown.exitCode == 1);
    CHECK(unknown.stderrText.contains("unknown host"));
    CHECK_FALSE(fs::exists(f.world / "no.png"));

    // Bad options are usage errors.
    const Run badConfig = runTilescope(
        {"--ssh-config", qs(f.world / "missing"), QString::fromStdString(f.url(f.small.profile))},
        f.world / "home");
    CHECK(badConfig.exitCode == 2);
    CHECK(badConfig.stderrText.contains("--ssh-config"));
}
