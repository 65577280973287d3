#include "LoadingStatus.hpp"

#include "SessionLoader.hpp"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace tilescope::gui {

void LoadingStatus::install(QStatusBar* bar, SessionLoader* loader) {
    stage_ = new QLabel;
    progress_ = new QProgressBar;
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(220);
    cancel_ = new QPushButton(QObject::tr("Cancel"));
    bar->addPermanentWidget(stage_);
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(cancel_);
    setLoading(false);
    QObject::connect(cancel_, &QPushButton::clicked, loader, &SessionLoader::cancel);
    QObject::connect(loader, &SessionLoader::progress, progress_,
                     [this](int percent, const QString& stage) {
                         progress_->setValue(percent);
                         stage_->setText(stage);
                     });
}

void LoadingStatus::setLoading(bool loading) {
    progress_->setVisible(loading);
    stage_->setVisible(loading);
    cancel_->setVisible(loading);
    if (loading)
        progress_->setValue(0);
}

} // namespace tilescope::gui
