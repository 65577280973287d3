#pragma once

#include "tilescope/report/RemoteStorage.hpp"

#include <QPointer>
#include <QWidget>

namespace tilescope::gui {

/// The questions of an SSH login asked in dialogs: passphrases and passwords in a QInputDialog
/// that does not show what is typed, an unknown host key (type and SHA256 fingerprint) in a
/// message box with Accept and Refuse (Refuse is the default). The library calls it from the
/// loading thread; each question is carried to the UI thread and the caller waits for the answer
/// (Qt::BlockingQueuedConnection). Answers live only in the dialog and the returned string,
/// which the connection wipes once used: nothing is stored. While the application is shutting
/// down every question is declined. A changed host key never gets here: the library refuses it
/// and the error is shown where opening failed.
class QtSshInteraction : public report::SshInteraction {
public:
    /// Object names of the dialogs, for tests that answer them.
    static constexpr const char* kPassphraseDialog = "sshPassphraseDialog";
    static constexpr const char* kPasswordDialog = "sshPasswordDialog";
    static constexpr const char* kHostKeyDialog = "sshHostKeyDialog";

    /// `parent`: the window the dialogs belong to; the active window when null or closed.
    explicit QtSshInteraction(QWidget* parent = nullptr);

    std::optional<std::string> passphrase(const std::string& keyFile) override;
    std::optional<std::string> answer(const std::string& destination, const std::string& prompt,
                                      bool echo) override;
    bool acceptNewHostKey(const std::string& host, const std::string& keyType,
                          const std::string& fingerprint) override;

private:
    QWidget* dialogParent() const;
    std::optional<std::string> askSecret(const char* objectName, const QString& title,
                                         const QString& label, bool echo);

    QPointer<QWidget> parent_; // read on the UI thread only
};

} // namespace tilescope::gui
