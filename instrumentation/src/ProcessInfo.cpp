#include "tilescope/capture/ProcessInfo.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

namespace tilescope::capture {

std::string processCommandLine() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(all.begin(), all.end(), '\0', ' '); // arguments are NUL-separated
    while (!all.empty() && all.back() == ' ')
        all.pop_back();
    return all;
}

} // namespace tilescope::capture
