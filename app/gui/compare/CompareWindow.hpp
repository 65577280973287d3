#pragma once

#include "core/LoadingStatus.hpp"

#include <QMainWindow>
#include <QSize>
#include <QString>
#include <QTimer>
#include <memory>

class QLabel;

namespace tilescope::gui {

class CompareLoader;
class ComparePane;
class CompareSession;
class CompareView;

/// A window comparing two reports side by side: File › Compare Two Reports… (CompareDialog),
/// Close; View menu for the compare views; the ComparePane of the open comparison. Opening runs in
/// a CompareLoader with progress and Cancel in the status bar; failures show one dialog with the
/// reader's message (only `openFailed` when not interactive, as in screenshot mode).
class CompareWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    void openComparison(const QString& source, const QString& target);
    void setInteractive(bool interactive) { interactive_ = interactive; }
    ComparePane* pane() const { return pane_; }
    bool isLoading() const;

signals:
    void comparisonOpened();
    void openFailed(const QString& message);

private:
    void onLoaded(std::shared_ptr<CompareSession> session);

    CompareLoader* loader_;
    ComparePane* pane_ = nullptr;
    QLabel* placeholder_;
    LoadingStatus loading_;
    bool interactive_ = true;
};

} // namespace tilescope::gui
