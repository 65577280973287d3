#pragma once

#include "tilescope/report/RemoteStorage.hpp"

#include <memory>

namespace tilescope::cli {

/// Asks the questions of an SSH login on the controlling terminal (/dev/tty, answers to secrets
/// not echoed), so they work while stdout is piped. Returns null when the process has no
/// terminal (CI, cron): then passphrases and passwords cannot be asked and unknown hosts are
/// refused unless --accept-new-host-key is given.
std::shared_ptr<report::SshInteraction> openTerminalSshInteraction();

} // namespace tilescope::cli
