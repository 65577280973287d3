#pragma once

#include <QWidget>

class QToolButton;

namespace tilescope::gui {

/// A titled section of the Summary page that folds to its title: an arrow button and the content
/// below it. Whether it is open is remembered (QSettings, per section key) so the page opens the
/// way the user left it, for every report.
class CollapsibleSection : public QWidget {
    Q_OBJECT
public:
    /// `key` names the section in the settings; `content` is reparented into the section.
    CollapsibleSection(const QString& key, const QString& title, QWidget* content,
                       QWidget* parent = nullptr);

    bool isExpanded() const;
    void setExpanded(bool expanded);
    /// The settings key under which the open/closed state is kept.
    static QString settingsKey(const QString& key);

signals:
    void expandedChanged(bool expanded);

private:
    QString key_;
    QToolButton* header_;
    QWidget* content_;
};

} // namespace tilescope::gui
