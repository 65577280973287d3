#pragma once
// Generated reports shared by the GUI tests, written once per test process into a temporary
// folder that is removed at exit.

#include "core/ReportSession.hpp"

#include <QObject>
#include <QSignalSpy>
#include <filesystem>
#include <memory>
#include <string>

namespace tilescope::gui::test {

/// 2 IPUs x 64 tiles, 300 steps: small, with an IPU boundary and enough steps for the pyramid.
const std::filesystem::path& smallReport();
/// 4 IPUs x 16 tiles, one run of 6,000 steps with per-IPU but no per-tile cycles: enough steps
/// that the Execution Trace's per-IPU rows come from run_ipu_lod when zoomed out.
const std::filesystem::path& perIpuReport();
/// 1 IPU x 32 tiles that goes out of memory.
const std::filesystem::path& oomReport();
/// A fresh temporary folder for one test's files.
std::filesystem::path scratchDir(const std::string& name);

/// Opens a report the way the app does (synchronously, on the calling thread).
std::shared_ptr<ReportSession> openSession(const std::filesystem::path& report);

/// Waits for a signal already connected to `spy`, failing the test after `ms`.
bool waitFor(QSignalSpy& spy, int ms = 20000);

} // namespace tilescope::gui::test
