#pragma once

#include <QDialog>
#include <QString>

class QLineEdit;

namespace tilescope::gui {

/// Asks for the two reports to compare: the source (baseline) and the target, each a profile.pop,
/// a report folder or an ssh:// URL typed in, with Browse buttons for local files.
class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    QString source() const;
    QString target() const;

private:
    QLineEdit* source_;
    QLineEdit* target_;
};

} // namespace tilescope::gui
