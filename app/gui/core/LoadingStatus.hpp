#pragma once

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace tilescope::gui {

class SessionLoader;

/// The status-bar side of a SessionLoader, the same in the report and compare windows: the stage
/// text, a progress bar and a Cancel button, shown only while loading. The widgets belong to the
/// status bar.
class LoadingStatus {
public:
    /// Adds the widgets to `bar` (hidden) and follows `loader`'s progress; Cancel cancels it.
    void install(QStatusBar* bar, SessionLoader* loader);
    /// Shows (from 0 %) or hides the widgets.
    void setLoading(bool loading);

private:
    QLabel* stage_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
};

} // namespace tilescope::gui
