#pragma once
// Helpers of the GUI's remote-open tests: the SSH world of tests/remote (a real sshd on
// 127.0.0.1) made the app's default SSH options, and a watcher that answers the app's dialogs
// as a person would (the real QInputDialog / QMessageBox, found by object name).

#include "RemoteFixture.hpp"
#include "tilescope/report/RemoteStorage.hpp"

#include <QApplication>
#include <QMessageBox>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <memory>

namespace tilescope::gui::test {

/// `[user@]host:port` of the fixture's server, as typed into the host field.
inline QString hostSpec(const testing::RemoteFixture& f) {
    return QStringLiteral("%1@127.0.0.1:%2")
        .arg(QString::fromStdString(testing::currentUserName()))
        .arg(f.server->port());
}

/// Makes the fixture's ssh_config and known_hosts the app's defaults, with `interaction`.
inline void useFixtureSsh(const testing::RemoteFixture& f,
                          std::shared_ptr<report::SshInteraction> interaction = nullptr) {
    report::SshOptions options;
    options.configFile = f.sshConfig.string();
    options.knownHostsFile = f.knownHosts.string();
    options.interaction = std::move(interaction);
    report::setDefaultSshOptions(options);
}

/// Watches for top-level dialogs: one whose object name has an answer is answered (once per
/// dialog) and counted; any other message box is recorded and closed, so that an unexpected
/// error dialog fails the test instead of blocking it.
class DialogAnswerer : public QObject {
public:
    using Answer = std::function<void(QWidget*)>;

    DialogAnswerer() {
        connect(&timer_, &QTimer::timeout, this, [this] { poll(); });
        timer_.start(25);
    }
    ~DialogAnswerer() override { reset(); }

    void answer(const QString& objectName, Answer answer) {
        answers_.push_back({objectName, std::move(answer), 0});
    }
    int count(const QString& objectName) const {
        for (const auto& a : answers_)
            if (a.name == objectName)
                return a.count;
        return 0;
    }
    const QStringList& otherMessages() const { return others_; }
    /// Stops answering (the defaults of the app's SSH options may outlive this object).
    void reset() { timer_.stop(); }

private:
    struct Entry {
        QString name;
        Answer answer;
        int count;
    };

    void poll() {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (!w->isVisible() || seen_.contains(w))
                continue;
            for (auto& a : answers_) {
                if (w->objectName() != a.name)
                    continue;
                seen_.push_back(w);
                ++a.count;
                // Answer from the event loop, not from inside this scan of the widget list.
                QTimer::singleShot(0, w, [w, answer = a.answer] { answer(w); });
            }
            if (auto* box = qobject_cast<QMessageBox*>(w); box && !seen_.contains(w)) {
                seen_.push_back(w);
                others_ << box->text() + " " + box->informativeText();
                QTimer::singleShot(0, box, [box] { box->reject(); });
            }
        }
    }

    QTimer timer_;
    std::vector<Entry> answers_;
    QList<QPointer<QWidget>> seen_;
    QStringList others_;
};

} // namespace tilescope::gui::test
