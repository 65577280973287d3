#include "tilescope/report/RemoteStorage.hpp"

#include "tilescope/report/ReportError.hpp"

#include <cctype>
#include <charconv>
#include <mutex>

namespace tilescope::report {
namespace {

std::mutex defaultsMutex;
SshOptions& defaults() {
    static SshOptions options;
    return options;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::string percentDecode(const std::string& location, std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        const int hi = i + 2 < s.size() ? hexDigit(s[i + 1]) : -1;
        const int lo = hi >= 0 ? hexDigit(s[i + 2]) : -1;
        if (lo < 0)
            throw ReportError(location, "invalid ssh:// URL (a '%' not followed by two hex "
                                        "digits)");
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

} // namespace

bool SshUrl::matches(std::string_view location) {
    constexpr std::string_view scheme = "ssh://";
    if (location.size() < scheme.size())
        return false;
    for (std::size_t i = 0; i < scheme.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(location[i])) != scheme[i])
            return false;
    return true;
}

SshUrl SshUrl::parse(const std::string& location) {
    if (!matches(location))
        throw ReportError(location, "not an ssh:// URL");
    const std::string_view rest = std::string_view(location).substr(6);
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos || slash + 1 == rest.size())
        throw ReportError(location, "invalid ssh:// URL (no file path after the host; expected "
                                    "ssh://[user@]host[:port]/path/to/profile.pop)");
    std::string_view authority = rest.substr(0, slash);
    SshUrl url;
    if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
        url.user = percentDecode(location, authority.substr(0, at));
        authority.remove_prefix(at + 1);
        if (url.user.empty())
            throw ReportError(location, "invalid ssh:// URL (empty user name before '@')");
    }
    std::string_view host = authority;
    std::string_view port;
    if (!authority.empty() && authority.front() == '[') { // [IPv6]:port
        const auto close = authority.find(']');
        if (close == std::string_view::npos)
            throw ReportError(location, "invalid ssh:// URL (unclosed '[' in the host)");
        host = authority.substr(1, close - 1);
        const auto after = authority.substr(close + 1);
        if (!after.empty() && after.front() != ':')
            throw ReportError(location, "invalid ssh:// URL (unexpected text after ']')");
        if (!after.empty())
            port = after.substr(1);
    } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
        if (port.empty())
            throw ReportError(location, "invalid ssh:// URL (empty port after ':')");
    }
    if (host.empty())
        throw ReportError(location, "invalid ssh:// URL (no host)");
    url.host = std::string(host);
    if (!port.empty()) {
        int value = 0;
        const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
        if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
            throw ReportError(location, "invalid ssh:// URL (port '" + std::string(port) +
                                            "' is not a number from 1 to 65535)");
        url.port = value;
    }
    url.path = percentDecode(location, rest.substr(slash));
    if (url.path.starts_with("/~/"))
        url.path = url.path.substr(3);
    if (url.path.empty() || url.path.back() == '/')
        throw ReportError(location, "invalid ssh:// URL (the path names a folder, not a file)");
    return url;
}

void setDefaultSshOptions(const SshOptions& options) {
    std::lock_guard lock(defaultsMutex);
    defaults() = options;
}

SshOptions defaultSshOptions() {
    std::lock_guard lock(defaultsMutex);
    return defaults();
}

} // namespace tilescope::report
