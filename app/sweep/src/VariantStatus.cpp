// status.json of a variant, the output tail, and the complete-report check (VariantStatus.hpp).

#include "tilescope/sweep/VariantStatus.hpp"

#include "tilescope/report/ReportFile.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

namespace tilescope::sweep {

using nlohmann::json;

void writeStatus(const std::filesystem::path& variantDirectory, const VariantStatus& s) {
    const json j = {{"state", s.state},
                    {"reason", s.reason},
                    {"exit_code", s.exitCode ? json(*s.exitCode) : json(nullptr)},
                    {"signal", s.signal ? json(*s.signal) : json(nullptr)},
                    {"host_seconds", s.hostSeconds},
                    {"started_utc", s.startedUtc},
                    {"executor", s.executor},
                    {"output_tail", s.outputTail}};
    const auto temporary = variantDirectory / (std::string(kStatusFile) + ".tmp");
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << j.dump(2) << "\n";
        if (!out.flush())
            throw SweepError(temporary.string() + ": cannot write the variant's status");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, variantDirectory / kStatusFile, ec);
    if (ec)
        throw SweepError((variantDirectory / kStatusFile).string() + ": cannot write (" +
                         ec.message() + ")");
}

std::optional<VariantStatus> readStatus(const std::filesystem::path& variantDirectory) {
    std::ifstream in(variantDirectory / kStatusFile);
    if (!in)
        return std::nullopt;
    try {
        const json j = json::parse(in);
        VariantStatus s;
        s.state = j.at("state").get<std::string>();
        s.reason = j.value("reason", "");
        if (j.contains("exit_code") && j["exit_code"].is_number_integer())
            s.exitCode = j["exit_code"].get<int>();
        if (j.contains("signal") && j["signal"].is_number_integer())
            s.signal = j["signal"].get<int>();
        s.hostSeconds = j.value("host_seconds", 0.0);
        s.startedUtc = j.value("started_utc", "");
        s.executor = j.value("executor", "");
        s.outputTail = j.value("output_tail", "");
        return s;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

std::string fileTail(const std::filesystem::path& file, std::size_t maxLines) {
    constexpr std::streamoff kMaxBytes = 8192;
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return {};
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    const std::streamoff from = size > kMaxBytes ? size - kMaxBytes : 0;
    in.seekg(from);
    std::string text(static_cast<std::size_t>(size - from), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (from > 0) { // drop the partial first line
        const auto nl = text.find('\n');
        text = nl == std::string::npos ? text : text.substr(nl + 1);
    }
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    std::size_t lines = 0, at = text.size();
    while (at > 0) {
        const auto nl = text.rfind('\n', at - 1);
        if (nl == std::string::npos)
            break;
        if (++lines == maxLines) {
            text = text.substr(nl + 1);
            break;
        }
        at = nl;
    }
    return text;
}

std::filesystem::path reportFileOf(const std::filesystem::path& variantDirectory) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_regular_file(variantDirectory / kReportFile, ec))
        return variantDirectory / kReportFile;
    if (fs::is_regular_file(variantDirectory / "training" / kReportFile, ec))
        return variantDirectory / "training" / kReportFile;
    std::vector<fs::path> found;
    for (fs::directory_iterator it(variantDirectory, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec) && fs::is_regular_file(it->path() / kReportFile, ec))
            found.push_back(it->path() / kReportFile);
    std::sort(found.begin(), found.end());
    return found.empty() ? fs::path() : found.front();
}

bool hasCompleteReport(const std::filesystem::path& variantDirectory) {
    const auto file = reportFileOf(variantDirectory);
    if (file.empty())
        return false;
    try {
        const report::ReportFile report(file.string());
        return report.complete();
    } catch (const std::exception&) {
        return false;
    }
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

} // namespace tilescope::sweep
