#pragma once

#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"
#include "core/WindowCapture.hpp"

#include <QStringList>
#include <cstdint>
#include <optional>
#include <utility>

namespace tilescope::gui {

class SystemAnalyserWindow;

/// Drives `tilescope --view timeline|calltree|details --screenshot OUT.png FILE.pvti...` (and
/// `--compare-trace A B` for the Compare view): opens the
/// traces in a non-interactive window of the given size, shows the tab, polls until it is ready
/// and captures it as a WindowCapture (exit 0, or 1 with a one-line reason).
class SystemScreenshotRunner : public WindowCapture {
    Q_OBJECT
public:
    SystemScreenshotRunner(SystemAnalyserWindow& window, QString view, QString output, QSize size,
                           QObject* parent = nullptr);
    void start(const QStringList& paths);
    /// `tilescope --compare-trace A B --screenshot OUT.png`: the Compare view of two traces.
    void startComparison(const QString& a, const QString& b);
    /// The timeline window to capture, nanoseconds after the start of the traces.
    void setRange(std::pair<std::int64_t, std::int64_t> range) { range_ = range; }
    /// The timeline's flame and graph types, when the command line names them.
    void setFlameMode(TimelineModel::FlameMode mode) { flameMode_ = mode; }
    void setChartMode(TimelineCanvas::ChartMode mode) { chartMode_ = mode; }

private:
    void poll();

    SystemAnalyserWindow& window_;
    QString view_;
    std::optional<std::pair<std::int64_t, std::int64_t>> range_;
    std::optional<TimelineModel::FlameMode> flameMode_;
    std::optional<TimelineCanvas::ChartMode> chartMode_;
    QTimer poll_;
};

} // namespace tilescope::gui
