#include "CompareWindow.hpp"

#include "CompareDialog.hpp"
#include "CompareLoader.hpp"
#include "ComparePane.hpp"
#include "CompareSession.hpp"
#include "CompareView.hpp"

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace tilescope::gui {

CompareWindow::CompareWindow(QWidget* parent)
    : QMainWindow(parent), loader_(new CompareLoader(this)) {
    setWindowTitle(tr("TileScope — Compare"));
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Compare Two Reports…"), this, [this] {
        CompareDialog dialog(this);
        if (dialog.exec() == QDialog::Accepted)
            openComparison(dialog.source(), dialog.target());
    });
    file->addSeparator();
    file->addAction(tr("&Close Window"), QKeySequence::Close, this, &QWidget::close);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names = ComparePane::viewNames(), titles = ComparePane::viewTitles();
    for (int i = 0; i < names.size(); ++i)
        view->addAction(titles[i], QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)), this,
                        [this, name = names[i]] {
                            if (pane_)
                                pane_->showView(name);
                        });

    placeholder_ = new QLabel(tr("Opening the reports…"));
    placeholder_->setAlignment(Qt::AlignCenter);
    setCentralWidget(placeholder_);
    loading_.install(statusBar(), loader_);

    connect(loader_, &CompareLoader::loaded, this, &CompareWindow::onLoaded);
    connect(loader_, &CompareLoader::failed, this, [this](const QString& message) {
        loading_.setLoading(false);
        statusBar()->showMessage(tr("Could not open the comparison"), 8000);
        if (interactive_)
            QMessageBox::critical(this, tr("Cannot compare the reports"), message);
        emit openFailed(message);
    });
    connect(loader_, &CompareLoader::cancelled, this, [this] {
        loading_.setLoading(false);
        statusBar()->showMessage(tr("Opening cancelled"), 4000);
    });
    resize(1280, 800);
}

CompareWindow::~CompareWindow() = default;

bool CompareWindow::isLoading() const {
    return loader_->isLoading();
}

void CompareWindow::openComparison(const QString& source, const QString& target) {
    loading_.setLoading(true);
    loader_->start(source, target);
}

void CompareWindow::onLoaded(std::shared_ptr<CompareSession> session) {
    loading_.setLoading(false);
    auto* pane = new ComparePane(session);
    connect(pane, &ComparePane::viewFailed, this, [this](const QString& message) {
        statusBar()->showMessage(message);
        if (interactive_)
            QMessageBox::warning(this, tr("Cannot read the reports"), message);
    });
    setCentralWidget(pane); // deletes the previous pane or placeholder
    placeholder_ = nullptr;
    pane_ = pane;
    pane_->showView(ComparePane::viewNames().value(0));
    const QString a = QString::fromStdString(session->source().path());
    const QString b = QString::fromStdString(session->target().path());
    setWindowTitle(tr("%1 ↔ %2 — TileScope Compare").arg(a, b));
    statusBar()->showMessage(tr("Comparing %1 (source) with %2 (target)").arg(a, b), 6000);
    emit comparisonOpened();
}

} // namespace tilescope::gui
