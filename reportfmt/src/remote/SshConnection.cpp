#include "SshConnection.hpp"

#include "SshJumpTunnel.hpp"
#include "tilescope/report/ReportError.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fnmatch.h>
#include <fstream>
#include <pwd.h>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace tilescope::report::remote {
namespace {

// Jump hosts that name further jump hosts must end somewhere.
constexpr int kMaxJumpDepth = 8;
thread_local int jumpDepth = 0;

void wipe(std::string& secret) {
    explicit_bzero(secret.data(), secret.size());
    secret.clear();
}

std::string homeFolder() {
    if (const char* home = std::getenv("HOME"); home && *home)
        return home;
    if (const passwd* pw = getpwuid(getuid()))
        return pw->pw_dir;
    return {};
}

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The ProxyJump that OpenSSH would use for `alias`: the first value found in a block whose Host
// patterns match (negated patterns exclude). libssh parses the rest of the file itself; it only
// gets ProxyJump wrong for us (see SshJumpTunnel.hpp). Match blocks are not evaluated.
std::optional<std::string> proxyJumpFor(const std::string& alias, const std::string& configFile) {
    std::vector<std::string> files;
    if (!configFile.empty())
        files.push_back(configFile);
    else {
        files.push_back(homeFolder() + "/.ssh/config");
        files.push_back("/etc/ssh/ssh_config");
    }
    const std::string host = lower(alias);
    for (const auto& file : files) {
        std::ifstream in(file);
        bool active = true;
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
            if (keyword == "host") {
                bool matched = false, excluded = false;
                for (std::string pattern; words >> pattern;) {
                    const bool negated = pattern.front() == '!';
                    if (negated)
                        pattern.erase(0, 1);
                    if (fnmatch(lower(pattern).c_str(), host.c_str(), 0) == 0)
                        (negated ? excluded : matched) = true;
                }
                active = matched && !excluded;
            } else if (keyword == "match") {
                active = false;
            } else if (keyword == "proxyjump" && active) {
                std::string value;
                words >> value;
                return value;
            }
        }
    }
    return std::nullopt;
}

std::vector<std::string> splitHops(const std::string& spec) {
    std::vector<std::string> hops;
    std::size_t start = 0;
    while (start <= spec.size()) {
        const auto comma = spec.find(',', start);
        const auto end = comma == std::string::npos ? spec.size() : comma;
        if (end > start)
            hops.push_back(spec.substr(start, end - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return hops;
}

std::string knownHostsName(const SshOptions& options) {
    return options.knownHostsFile.empty() ? homeFolder() + "/.ssh/known_hosts"
                                          : options.knownHostsFile;
}

} // namespace

SshConnection::SshConnection(const std::string& location, const std::string& host,
                             const std::string& user, std::optional<int> port,
                             const SshOptions& options, std::unique_ptr<SshConnection> via)
    : location_(location), options_(options), destination_(host), jump_(std::move(via)) {
    session_.reset(ssh_new());
    if (!session_)
        throw ReportError(location_, "cannot create an SSH session");
    ssh_session s = session_.get();
    ssh_options_set(s, SSH_OPTIONS_HOST, host.c_str());
    if (!options_.configFile.empty() && !std::filesystem::is_regular_file(options_.configFile))
        throw ReportError(
            location_, fmt::format("SSH configuration file '{}' not found", options_.configFile));
    if (ssh_options_parse_config(s, options_.configFile.empty() ? nullptr
                                                                : options_.configFile.c_str()) != 0)
        fail("cannot read the SSH configuration");
    if (!user.empty())
        ssh_options_set(s, SSH_OPTIONS_USER, user.c_str());
    if (port) {
        const unsigned int value = static_cast<unsigned int>(*port);
        ssh_options_set(s, SSH_OPTIONS_PORT, &value);
    }
    if (!options_.knownHostsFile.empty())
        ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, options_.knownHostsFile.c_str());
    const long timeout = options_.timeoutSeconds;
    ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &timeout);

    char* resolvedHost = nullptr;
    char* resolvedUser = nullptr;
    unsigned int resolvedPort = 22;
    std::string hostName = host;
    if (ssh_options_get(s, SSH_OPTIONS_HOST, &resolvedHost) == SSH_OK) {
        hostName = resolvedHost;
        ssh_string_free_char(resolvedHost);
    }
    std::string userName = user;
    if (ssh_options_get(s, SSH_OPTIONS_USER, &resolvedUser) == SSH_OK) {
        userName = resolvedUser;
        ssh_string_free_char(resolvedUser);
    }
    if (userName.empty()) // libssh fills in the local user only when connecting
        if (const passwd* pw = getpwuid(getuid()))
            userName = pw->pw_name;
    ssh_options_get_port(s, &resolvedPort);
    destination_ = fmt::format("{}@{}:{}", userName, hostName, resolvedPort);

    const auto jumpSpec = jump_ ? std::nullopt : proxyJumpFor(host, options_.configFile);
    if (jump_ || (jumpSpec && lower(*jumpSpec) != "none"))
        ssh_options_set(s, SSH_OPTIONS_PROXYCOMMAND, "none");
    if (!jump_ && jumpSpec && lower(*jumpSpec) != "none") {
        if (jumpDepth >= kMaxJumpDepth)
            throw ReportError(location_, fmt::format("ProxyJump chain deeper than {} hosts at '{}' "
                                                     "(a loop in the SSH configuration?)",
                                                     kMaxJumpDepth, host));
        ++jumpDepth;
        try {
            std::unique_ptr<SshConnection> chain;
            for (std::string hop : splitHops(*jumpSpec)) {
                if (SshUrl::matches(hop))
                    hop.erase(0, 6);
                const SshUrl hopUrl = SshUrl::parse("ssh://" + hop + "/jump");
                chain = std::make_unique<SshConnection>(location_, hopUrl.host, hopUrl.user,
                                                        hopUrl.port, options_, std::move(chain));
            }
            jump_ = std::move(chain);
        } catch (...) {
            --jumpDepth;
            throw;
        }
        --jumpDepth;
    }
    if (jump_) {
        tunnel_ = std::make_unique<SshJumpTunnel>(jump_->session(), hostName,
                                                  static_cast<int>(resolvedPort), location_);
        int fd = tunnel_->takeSocket();
        ssh_options_set(s, SSH_OPTIONS_FD, &fd);
    }

    callbacks_.userdata = this;
    callbacks_.auth_function = &SshConnection::passphraseCallback;
    ssh_callbacks_init(&callbacks_);
    ssh_set_callbacks(s, &callbacks_);

    if (ssh_connect(s) != SSH_OK)
        fail(std::string("cannot connect: ") + ssh_get_error(s));
    verifyHostKey();
    authenticate();
}

SshConnection::~SshConnection() = default;

void SshConnection::SessionDeleter::operator()(ssh_session s) const {
    ssh_disconnect(s);
    ssh_free(s);
}

void SshConnection::fail(const std::string& what) const {
    throw ReportError(location_, fmt::format("{}: {}", destination_, what));
}

void SshConnection::verifyHostKey() {
    ssh_session s = session_.get();
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(s, &key) != SSH_OK)
        fail(std::string("cannot get the server's host key: ") + ssh_get_error(s));
    unsigned char* hash = nullptr;
    size_t hashLength = 0;
    std::string fingerprint = "?";
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLength) == 0) {
        if (char* text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hashLength)) {
            fingerprint = text;
            ssh_string_free_char(text);
        }
        ssh_clean_pubkey_hash(&hash);
    }
    const char* typeName = ssh_key_type_to_char(ssh_key_type(key));
    const std::string keyType = typeName ? typeName : "unknown";
    ssh_key_free(key);
    const std::string knownHosts = knownHostsName(options_);

    switch (ssh_session_is_known_server(s)) {
    case SSH_KNOWN_HOSTS_OK:
        return;
    case SSH_KNOWN_HOSTS_CHANGED:
        fail(fmt::format("REFUSED: the host key has CHANGED (the server now shows {} {}). "
                         "Someone may be intercepting the connection (man-in-the-middle), or the "
                         "host was reinstalled; if you know the change is legitimate, remove the "
                         "old key from {} and connect again",
                         keyType, fingerprint, knownHosts));
    case SSH_KNOWN_HOSTS_OTHER:
        fail(fmt::format("REFUSED: the server shows a {} host key ({}) but {} holds a key of "
                         "another type for it. Someone may be intercepting the connection "
                         "(man-in-the-middle); if the change is legitimate, remove the old key "
                         "and connect again",
                         keyType, fingerprint, knownHosts));
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN: {
        const bool accepted = options_.acceptNewHostKey ||
                              (options_.interaction && options_.interaction->acceptNewHostKey(
                                                           destination_, keyType, fingerprint));
        if (!accepted)
            fail(fmt::format("unknown host: its {} key {} is not in {}; refused. Check the "
                             "fingerprint with the host's administrator, then accept it "
                             "(tilescope-cli --accept-new-host-key) or connect once with ssh",
                             keyType, fingerprint, knownHosts));
        if (ssh_session_update_known_hosts(s) != SSH_OK)
            fail(fmt::format("cannot record the host key in {}: {}", knownHosts, ssh_get_error(s)));
        return;
    }
    case SSH_KNOWN_HOSTS_ERROR:
    default:
        fail(fmt::format("cannot check the host key against {}: {}", knownHosts, ssh_get_error(s)));
    }
}

int SshConnection::passphraseCallback(const char* prompt, char* buf, size_t len, int, int,
                                      void* userdata) {
    auto* self = static_cast<SshConnection*>(userdata);
    if (!self->options_.interaction)
        return -1;
    std::string keyFile = prompt ? prompt : "private key";
    char* identity = nullptr;
    if (ssh_userauth_publickey_auto_get_current_identity(self->session_.get(), &identity) ==
            SSH_OK &&
        identity) {
        keyFile = identity;
        ssh_string_free_char(identity);
    }
    auto answer = self->options_.interaction->passphrase(keyFile);
    if (!answer)
        return -1;
    const bool fits = answer->size() < len;
    if (fits) {
        std::memcpy(buf, answer->data(), answer->size());
        buf[answer->size()] = '\0';
    }
    wipe(*answer);
    return fits ? 0 : -1;
}

bool SshConnection::tryKeyboardInteractive() {
    ssh_session s = session_.get();
    int rc = ssh_userauth_kbdint(s, nullptr, nullptr);
    while (rc == SSH_AUTH_INFO) {
        const int prompts = ssh_userauth_kbdint_getnprompts(s);
        for (int i = 0; i < prompts; ++i) {
            char echo = 0;
            const char* prompt = ssh_userauth_kbdint_getprompt(s, static_cast<unsigned>(i), &echo);
            auto answer = options_.interaction->answer(destination_, prompt ? prompt : "", echo);
            if (!answer)
                return false;
            const int set =
                ssh_userauth_kbdint_setanswer(s, static_cast<unsigned>(i), answer->c_str());
            wipe(*answer);
            if (set < 0)
                return false;
        }
        rc = ssh_userauth_kbdint(s, nullptr, nullptr);
    }
    if (rc == SSH_AUTH_ERROR)
        fail(std::string("keyboard-interactive authentication failed: ") + ssh_get_error(s));
    return rc == SSH_AUTH_SUCCESS;
}

bool SshConnection::tryPassword() {
    ssh_session s = session_.get();
    auto answer = options_.interaction->answer(destination_, "Password: ", false);
    if (!answer)
        return false;
    const int rc = ssh_userauth_password(s, nullptr, answer->c_str());
    wipe(*answer);
    if (rc == SSH_AUTH_ERROR)
        fail(std::string("password authentication failed: ") + ssh_get_error(s));
    return rc == SSH_AUTH_SUCCESS;
}

void SshConnection::authenticate() {
    ssh_session s = session_.get();
    int rc = ssh_userauth_none(s, nullptr);
    if (rc == SSH_AUTH_SUCCESS)
        return;
    if (rc == SSH_AUTH_ERROR)
        fail(std::string("authentication failed: ") + ssh_get_error(s));
    const int methods = ssh_userauth_list(s, nullptr);
    std::vector<std::string> tried;
    if (methods & SSH_AUTH_METHOD_PUBLICKEY) {
        const char* agent = std::getenv("SSH_AUTH_SOCK");
        if (agent && *agent) {
            tried.push_back("ssh-agent");
            rc = ssh_userauth_agent(s, nullptr);
            if (rc == SSH_AUTH_SUCCESS)
                return;
        }
        tried.push_back("key files");
        rc = ssh_userauth_publickey_auto(s, nullptr, nullptr);
        if (rc == SSH_AUTH_SUCCESS)
            return;
        if (rc == SSH_AUTH_ERROR)
            fail(std::string("public key authentication failed: ") + ssh_get_error(s));
    }
    if ((methods & SSH_AUTH_METHOD_INTERACTIVE) && options_.interaction) {
        tried.push_back("keyboard-interactive");
        if (tryKeyboardInteractive())
            return;
    }
    if ((methods & SSH_AUTH_METHOD_PASSWORD) && options_.interaction) {
        tried.push_back("password");
        if (tryPassword())
            return;
    }
    std::string accepted;
    const std::pair<int, const char*> names[] = {
        {SSH_AUTH_METHOD_PUBLICKEY, "publickey"},
        {SSH_AUTH_METHOD_INTERACTIVE, "keyboard-interactive"},
        {SSH_AUTH_METHOD_PASSWORD, "password"}};
    for (const auto& [bit, name] : names)
        if (methods & bit)
            accepted += (accepted.empty() ? "" : ", ") + std::string(name);
    std::string triedText;
    for (const auto& t : tried)
        triedText += (triedText.empty() ? "" : ", ") + t;
    fail(fmt::format("permission denied (tried: {}; the server accepts: {})",
                     triedText.empty() ? "nothing usable without a terminal" : triedText,
                     accepted.empty() ? "none" : accepted));
}

} // namespace tilescope::report::remote
