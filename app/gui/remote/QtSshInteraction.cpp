#include "QtSshInteraction.hpp"

#include <QApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QThread>

namespace tilescope::gui {
namespace {

// Runs `ask` on the UI thread and returns its answer; the calling worker waits. If the
// application goes away first, the queued call is dropped (Qt releases the waiting thread) and
// the default answer (decline) stands.
template <class Ask> auto onUiThread(Ask ask) -> decltype(ask()) {
    using Answer = decltype(ask());
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || QCoreApplication::closingDown())
        return Answer{};
    if (QThread::currentThread() == app->thread())
        return ask();
    Answer answer{};
    QMetaObject::invokeMethod(
        app, [&answer, &ask] { answer = ask(); }, Qt::BlockingQueuedConnection);
    return answer;
}

} // namespace

QtSshInteraction::QtSshInteraction(QWidget* parent) : parent_(parent) {}

QWidget* QtSshInteraction::dialogParent() const {
    if (parent_ && parent_->isVisible())
        return parent_->window();
    return QApplication::activeWindow();
}

std::optional<std::string> QtSshInteraction::askSecret(const char* objectName, const QString& title,
                                                       const QString& label, bool echo) {
    return onUiThread([&]() -> std::optional<std::string> {
        QInputDialog dialog(dialogParent());
        dialog.setObjectName(QString::fromLatin1(objectName));
        dialog.setWindowTitle(title);
        dialog.setLabelText(label);
        dialog.setInputMode(QInputDialog::TextInput);
        dialog.setTextEchoMode(echo ? QLineEdit::Normal : QLineEdit::Password);
        dialog.setOkButtonText(QObject::tr("Log In"));
        if (dialog.exec() != QDialog::Accepted)
            return std::nullopt;
        std::string answer = dialog.textValue().toStdString();
        dialog.setTextValue(QString());
        return answer;
    });
}

std::optional<std::string> QtSshInteraction::passphrase(const std::string& keyFile) {
    return askSecret(kPassphraseDialog, QObject::tr("SSH key passphrase"),
                     QObject::tr("Passphrase for the key %1:").arg(QString::fromStdString(keyFile)),
                     false);
}

std::optional<std::string> QtSshInteraction::answer(const std::string& destination,
                                                    const std::string& prompt, bool echo) {
    QString question = QString::fromStdString(prompt).trimmed();
    if (question.isEmpty())
        question = QObject::tr("Password:");
    return askSecret(kPasswordDialog, QObject::tr("SSH login"),
                     QObject::tr("%1\n%2").arg(QString::fromStdString(destination), question),
                     echo);
}

bool QtSshInteraction::acceptNewHostKey(const std::string& host, const std::string& keyType,
                                        const std::string& fingerprint) {
    return onUiThread([&] {
        QMessageBox box(dialogParent());
        box.setObjectName(QString::fromLatin1(kHostKeyDialog));
        box.setIcon(QMessageBox::Warning);
        box.setWindowTitle(QObject::tr("Unknown SSH host"));
        box.setText(QObject::tr("The host %1 is not known yet: its key is not in known_hosts.")
                        .arg(QString::fromStdString(host)));
        box.setInformativeText(
            QObject::tr("Key type: %1\nFingerprint: %2\n\nAccept only if this fingerprint is the "
                        "one the host's administrator gave you. Accepting records the key, and "
                        "later connections check it.")
                .arg(QString::fromStdString(keyType), QString::fromStdString(fingerprint)));
        QPushButton* accept = box.addButton(QObject::tr("Accept"), QMessageBox::AcceptRole);
        QPushButton* refuse = box.addButton(QObject::tr("Refuse"), QMessageBox::RejectRole);
        box.setDefaultButton(refuse);
        box.setEscapeButton(refuse);
        box.exec();
        return box.clickedButton() == accept;
    });
}

} // namespace tilescope::gui
