#include "ReadFailureBar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace tilescope::gui {

ReadFailureBar::ReadFailureBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("readFailureBar"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("#readFailureBar { background: #fdecea; border: 1px solid "
                                 "#e0a0a0; } #readFailureBar QLabel { color: #7a1010; }"));
    auto* icon = new QLabel;
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(24, 24));
    message_ = new QLabel;
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    reload_ = new QPushButton(tr("&Reload"));
    reload_->setToolTip(tr("Open the report again (reconnects to a remote host)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(icon);
    layout->addWidget(message_, 1);
    layout->addWidget(reload_);
    connect(reload_, &QPushButton::clicked, this, &ReadFailureBar::reloadRequested);
    hide();
}

void ReadFailureBar::showFailure(const QString& message) {
    message_->setText(tr("Could not read the report: %1").arg(message));
    show();
}

QString ReadFailureBar::message() const {
    return message_->text();
}

} // namespace tilescope::gui
