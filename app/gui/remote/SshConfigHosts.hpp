#pragma once

#include <string>
#include <vector>

namespace tilescope::gui {

/// The host aliases an OpenSSH client configuration names on its `Host` lines, in file order
/// without repeats, for the host field of the Open Remote dialog. Patterns with wildcards (`*`,
/// `?`), negations (`!name`) and `Match` blocks are left out: they name no host one could pick.
/// `Include` lines are followed (relative paths from `~/.ssh`, glob patterns expanded, at most
/// 8 deep). An empty `configFile` means `~/.ssh/config`; an unreadable file gives no aliases.
std::vector<std::string> sshConfigHostAliases(const std::string& configFile);

} // namespace tilescope::gui
