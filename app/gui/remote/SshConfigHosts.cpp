#include "SshConfigHosts.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <glob.h>
#include <sstream>

namespace tilescope::gui {
namespace {

constexpr int kMaxIncludeDepth = 8;

std::string sshFolder() {
    const char* home = std::getenv("HOME");
    return std::string(home ? home : "") + "/.ssh";
}

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<std::string> expand(std::string pattern) {
    if (pattern.starts_with("~/"))
        pattern = sshFolder() + "/.." + pattern.substr(1);
    else if (pattern.empty() || pattern.front() != '/')
        pattern = sshFolder() + "/" + pattern;
    std::vector<std::string> files;
    glob_t matches{};
    if (glob(pattern.c_str(), 0, nullptr, &matches) == 0)
        for (std::size_t i = 0; i < matches.gl_pathc; ++i)
            files.emplace_back(matches.gl_pathv[i]);
    globfree(&matches);
    return files;
}

void collect(const std::string& file, int depth, std::vector<std::string>& aliases) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        for (char& c : line)
            if (c == '=' || c == '\t' || c == '\r')
                c = ' ';
        std::istringstream words(line);
        std::string keyword;
        if (!(words >> keyword) || keyword.front() == '#')
            continue;
        keyword = lower(keyword);
        if (keyword == "include" && depth < kMaxIncludeDepth) {
            for (std::string pattern; words >> pattern;)
                for (const auto& included : expand(pattern))
                    collect(included, depth + 1, aliases);
        } else if (keyword == "host") {
            for (std::string name; words >> name;) {
                if (name.front() == '#')
                    break;
                if (name.find_first_of("*?!") != std::string::npos)
                    continue;
                if (std::find(aliases.begin(), aliases.end(), name) == aliases.end())
                    aliases.push_back(name);
            }
        }
    }
}

} // namespace

std::vector<std::string> sshConfigHostAliases(const std::string& configFile) {
    std::vector<std::string> aliases;
    collect(configFile.empty() ? sshFolder() + "/config" : configFile, 0, aliases);
    return aliases;
}

} // namespace tilescope::gui
