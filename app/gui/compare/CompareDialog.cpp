#include "CompareDialog.hpp"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace tilescope::gui {

CompareDialog::CompareDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Compare Two Reports"));
    source_ = new QLineEdit;
    target_ = new QLineEdit;
    auto* form = new QFormLayout(this);
    auto row = [this](QLineEdit* edit, const QString& caption) {
        edit->setPlaceholderText(tr("profile.pop, a report folder or ssh://user@host/path"));
        edit->setMinimumWidth(420);
        auto* browse = new QPushButton(tr("Browse…"));
        connect(browse, &QPushButton::clicked, this, [this, edit, caption] {
            const QString path = QFileDialog::getOpenFileName(
                this, caption, QString(), tr("TileScope reports (*.pop);;All files (*)"));
            if (!path.isEmpty())
                edit->setText(path);
        });
        auto* line = new QHBoxLayout;
        line->addWidget(edit, 1);
        line->addWidget(browse);
        return line;
    };
    form->addRow(tr("Source (baseline):"), row(source_, tr("Source report")));
    form->addRow(tr("Target (changed):"), row(target_, tr("Target report")));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QPushButton* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("Compare"));
    ok->setEnabled(false);
    auto update = [this, ok] { ok->setEnabled(!source().isEmpty() && !target().isEmpty()); };
    connect(source_, &QLineEdit::textChanged, this, update);
    connect(target_, &QLineEdit::textChanged, this, update);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

QString CompareDialog::source() const {
    return source_->text().trimmed();
}

QString CompareDialog::target() const {
    return target_->text().trimmed();
}

} // namespace tilescope::gui
