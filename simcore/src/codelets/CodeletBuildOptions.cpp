#include "tilescope/sim/CodeletBuildOptions.hpp"

#include "poplar/exceptions.hpp"

#include <cctype>
#include <filesystem>
#include <sstream>

namespace tilescope::sim {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& message) {
    throw poplar::graph_program_compilation_error("codelet compile flags: " + message);
}

bool isOptimisation(const std::string& f) {
    return f == "-O" || f == "-O0" || f == "-O1" || f == "-O2" || f == "-O3" || f == "-Os" ||
           f == "-Og";
}

bool isDebug(const std::string& f) {
    return f == "-g" || f == "-g0" || f == "-g1" || f == "-g2" || f == "-g3";
}

bool isMacroName(const std::string& d) {
    const std::string name = d.substr(0, d.find('='));
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
        return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

} // namespace

std::vector<std::string> CodeletBuildOptions::compilerArguments(const std::string& target) const {
    // IPU attributes ([[poplar::constraint(...)]], target("worker")) mean nothing to the host
    // compiler: it ignores them quietly, as popc accepts them. A user's -W flags come after.
    std::vector<std::string> args = {"-std=c++20", optimisation, "-Wno-attributes"};
    if (debug)
        args.push_back("-g");
    // The IPU compiler's own macros, so codelets see what popc shows them.
    args.push_back("-D__POPC__=1");
    args.push_back("-D__IPU__=1");
    args.push_back("-D__IPU_ARCH_VERSION__=" + std::to_string(ipuArchVersion(target)));
    for (const auto& w : warnings)
        args.push_back(w);
    for (const auto& d : includeDirs)
        args.push_back("-I" + d);
    for (const auto& d : defines)
        args.push_back("-D" + d);
    for (const auto& u : undefines)
        args.push_back("-U" + u);
    return args;
}

void parseCodeletCompileFlags(const std::string& flags, CodeletBuildOptions& options) {
    std::istringstream in(flags);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& f = words[i];
        // -I DIR, -IDIR, -D NAME, -DNAME, -U NAME, -UNAME
        auto value = [&](const char* flag) {
            if (f.size() > 2)
                return f.substr(2);
            if (i + 1 >= words.size())
                refuse(std::string("'") + flag + "' needs a value");
            return words[++i];
        };
        if (isOptimisation(f)) {
            options.optimisation = f == "-O" ? "-O1" : f;
        } else if (isDebug(f)) {
            options.debug = f != "-g0";
        } else if (f.rfind("-I", 0) == 0) {
            options.includeDirs.push_back(fs::absolute(value("-I")).lexically_normal().string());
        } else if (f.rfind("-D", 0) == 0) {
            std::string d = value("-D");
            if (!isMacroName(d))
                refuse("'-D" + d + "' is not a macro definition");
            options.defines.push_back(d);
        } else if (f.rfind("-U", 0) == 0) {
            std::string u = value("-U");
            if (!isMacroName(u) || u.find('=') != std::string::npos)
                refuse("'-U" + u + "' is not a macro name");
            options.undefines.push_back(u);
        } else if (f == "-w" || (f.rfind("-W", 0) == 0 && f.size() > 2 && f[2] != 'l' &&
                                 f[2] != 'a' && f[2] != 'p')) {
            options.warnings.push_back(f); // not -Wl, -Wa, -Wp: those pass options on
        } else {
            refuse("unsupported flag '" + f +
                   "' (supported: -O0..-O3, -Os, -Og, -g, -I DIR, -D NAME[=VALUE], -U NAME, "
                   "-W..., -w)");
        }
    }
}

unsigned ipuArchVersion(const std::string& architecture) {
    if (architecture == "ipu1")
        return 1;
    if (architecture == "ipu2")
        return 2;
    if (architecture == "ipu21")
        return 21;
    throw poplar::graph_program_compilation_error("unknown IPU target '" + architecture +
                                                  "' (valid: ipu1, ipu2, ipu21)");
}

std::vector<std::string> parseTargetList(const std::string& list) {
    std::vector<std::string> out;
    std::istringstream in(list);
    for (std::string t; std::getline(in, t, ',');) {
        ipuArchVersion(t);
        bool seen = false;
        for (const auto& o : out)
            seen = seen || o == t;
        if (!seen)
            out.push_back(t);
    }
    if (out.empty())
        throw poplar::graph_program_compilation_error("empty IPU target list");
    return out;
}

} // namespace tilescope::sim
