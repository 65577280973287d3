#include "CollapsibleSection.hpp"

#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace tilescope::gui {

CollapsibleSection::CollapsibleSection(const QString& key, const QString& title, QWidget* content,
                                       QWidget* parent)
    : QWidget(parent), key_(key), header_(new QToolButton), content_(content) {
    header_->setText(title);
    header_->setCheckable(true);
    header_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    header_->setAutoRaise(true);
    QFont bold = header_->font();
    bold.setBold(true);
    header_->setFont(bold);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(header_);
    layout->addWidget(content_);
    const bool open = QSettings().value(settingsKey(key_), true).toBool();
    header_->setChecked(open);
    header_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    content_->setVisible(open);
    connect(header_, &QToolButton::toggled, this, [this](bool on) {
        header_->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        content_->setVisible(on);
        QSettings().setValue(settingsKey(key_), on);
        emit expandedChanged(on);
    });
}

bool CollapsibleSection::isExpanded() const {
    return header_->isChecked();
}

void CollapsibleSection::setExpanded(bool expanded) {
    header_->setChecked(expanded);
}

QString CollapsibleSection::settingsKey(const QString& key) {
    return QStringLiteral("summary/sectionOpen/") + key;
}

} // namespace tilescope::gui
