#pragma once
// Helpers shared by the simcore tests: running a command and capturing its output, paths.

#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace simtest {

struct CommandResult {
    int status = -1;
    std::string output;
};

inline std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// Runs a shell command; stdout and stderr together in `output`.
inline CommandResult run(const std::string& command) {
    CommandResult r;
    FILE* p = popen(("( " + command + " ) 2>&1").c_str(), "r");
    if (!p)
        return r;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        r.output.append(buf, n);
    const int raw = pclose(p);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return r;
}

inline std::string example(const std::string& name) {
    return std::string(SIMCORE_EXAMPLES_BINARY_DIR) + "/" + name;
}
inline std::string exampleCodelet(const std::string& name) {
    return std::string(SIMCORE_EXAMPLES_SOURCE_DIR) + "/codelets/" + name;
}
inline std::string testCodelet(const std::string& name) {
    return std::string(SIMCORE_TEST_CODELETS_DIR) + "/" + name;
}

} // namespace simtest
