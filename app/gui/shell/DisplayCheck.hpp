#pragma once
// Qt aborts the process when no windowing system can be reached. The app and its benchmark check
// first, so that a missing display is one clear line and an exit status, not a crash.

#include <cstdio>
#include <cstdlib>

namespace tilescope::gui {

/// True when a platform was chosen explicitly (QT_QPA_PLATFORM) or an X11/Wayland display is set.
inline bool displayAvailable() {
    return std::getenv("QT_QPA_PLATFORM") || std::getenv("DISPLAY") ||
           std::getenv("WAYLAND_DISPLAY");
}

/// Prints why the program cannot start and returns the exit status to use.
inline int reportNoDisplay(const char* program) {
    std::fprintf(stderr,
                 "%s: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); run it on a "
                 "desktop, or under 'xvfb-run -a' on a machine without one\n",
                 program);
    return 1;
}

} // namespace tilescope::gui
