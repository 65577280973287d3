#pragma once

#include <QFrame>
#include <QString>

class QLabel;
class QPushButton;

namespace tilescope::gui {

/// A bar over the open report, shown when a view could not read what it needed (a dropped SSH
/// connection, a damaged page found late): the reader's message and a Reload button that opens
/// the report again. The views keep what they had already shown. Hidden until `showFailure`.
class ReadFailureBar : public QFrame {
    Q_OBJECT
public:
    explicit ReadFailureBar(QWidget* parent = nullptr);

    void showFailure(const QString& message);
    QString message() const;
    QPushButton* reloadButton() const { return reload_; }

signals:
    void reloadRequested();

private:
    QLabel* message_;
    QPushButton* reload_;
};

} // namespace tilescope::gui
