#pragma once
// Measurements shared by the GUI benchmark executables (tilescope-bench-gui, -timeline,
// -compare-gui): a synchronously rendered canvas frame, this process's memory, and waiting on the
// event loop for work done on worker threads.

#include <functional>
#include <utility>

namespace tilescope::gui {

class ImGuiCanvas;

/// Renders one frame of `canvas` now and returns its preparation time in ms. repaint() is not
/// enough: QOpenGLWidget only schedules its frame, while grabFramebuffer() renders synchronously.
/// Throws when no frame was rendered.
double renderFrame(ImGuiCanvas& canvas);

/// Resident and peak resident memory of this process (VmRSS, VmHWM), in MiB; 0 where unknown.
std::pair<double, double> residentMemoryMb();

/// Runs the event loop until `done()` holds; throws naming `what` after `timeoutMs` (long enough
/// for a 16-IPU report on a loaded 2-core machine).
void waitUntil(const std::function<bool()>& done, const char* what, int timeoutMs = 600000);

} // namespace tilescope::gui
