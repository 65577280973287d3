#pragma once
// Measurements shared by the GUI benchmark executables (tilescope-bench-gui, -timeline,
// -compare-gui, -heatmap): a synchronously rendered canvas frame, this process's memory, waiting
// on the event loop for work done on worker threads, opening a report or a trace the way a user
// does, and the timeline's zoom sweep.

#include <filesystem>
#include <functional>
#include <utility>

class QSignalSpy;

namespace tilescope::gui {

class ImGuiCanvas;
class MainWindow;
class SystemAnalyserView;
class SystemAnalyserWindow;

/// Renders one frame of `canvas` now and returns its preparation time in ms. repaint() is not
/// enough: QOpenGLWidget only schedules its frame, while grabFramebuffer() renders synchronously.
/// Throws when no frame was rendered.
double renderFrame(ImGuiCanvas& canvas);

/// Resident and peak resident memory of this process (VmRSS, VmHWM), in MiB; 0 where unknown.
std::pair<double, double> residentMemoryMb();

/// Runs the event loop until `done()` holds; throws naming `what` after `timeoutMs` (long enough
/// for a 16-IPU report on a loaded 2-core machine).
void waitUntil(const std::function<bool()>& done, const char* what, int timeoutMs = 600000);

/// Waits until a window signalled `opened` or `failed` (spies on its signals); throws the failure
/// message. `what` names what is opening, for the timeout.
void waitForOpen(const QSignalSpy& opened, const QSignalSpy& failed, const char* what);

/// Milliseconds from asking `window` to open `report` (after closing the one open) until its
/// Summary has been painted.
double openReportToFirstPaint(MainWindow& window, const std::filesystem::path& report);

/// Opens `trace` in `window` and shows its timeline once the first window of events is drawn.
SystemAnalyserView& openTraceTimeline(SystemAnalyserWindow& window,
                                      const std::filesystem::path& trace);

/// The worst figures of a timeline zoom sweep, in ms: the worker's query for a window, the
/// canvas's frame preparation, and the two together.
struct TimelineSweep {
    double worstFramePrepMs = 0;
    double worstDrawMs = 0;
    double worstQueryMs = 0;
};

/// Zooms the timeline of `view` from its whole span in by 8 per level down to 2 µs, showing the
/// start, middle and end of each level; once each window is fetched (cold: new to the caches but
/// for what an overlapping one left, as when panning) calls `fetched(width)` before the frame
/// that draws it.
TimelineSweep sweepTimelineZoom(SystemAnalyserView& view,
                                const std::function<void(double widthNs)>& fetched = {});

} // namespace tilescope::gui
