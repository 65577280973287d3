// tilescope-bench-capture: the cost of profiling. Runs an example program (by default the HALF
// transformer encoder block over all 1,472 tiles, the largest example) several times without and
// with POPLAR_ENGINE_OPTIONS autoReport.all, and prints one JSON object with the median wall
// times and their ratio. A first run warms the codelet cache so both sides skip the host compiler.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double runOnce(const std::string& command) {
    const auto start = Clock::now();
    const int raw = std::system(command.c_str());
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (raw == -1 || !WIFEXITED(raw) || WEXITSTATUS(raw) != 0)
        throw std::runtime_error("benchmark program failed: " + command);
    return seconds;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Wall-time cost of autoReport on an example program; prints one JSON object"};
    std::string program = TRANSFORMER_EXAMPLE;
    std::string arguments; // the example's full size
    int repeats = 3;
    fs::path dir = fs::temp_directory_path() / "tilescope-bench-capture";
    app.add_option("--program", program, "example program");
    app.add_option("--args", arguments,
                   "its arguments (for the transformer: TILES SEQ DMODEL "
                   "HEADS FF)");
    app.add_option("--repeats", repeats, "runs per side; the median is reported")
        ->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);

    try {
        fs::remove_all(dir);
        fs::create_directories(dir);
        const std::string base =
            "cd '" + dir.string() + "' && '" + program + "' " + arguments + " > /dev/null";
        const std::string profiled =
            "cd '" + dir.string() +
            "' && POPLAR_ENGINE_OPTIONS='{\"autoReport.all\":\"true\",\"autoReport.directory\":"
            "\"report\"}' '" +
            program + "' " + arguments + " > /dev/null";
        runOnce(base); // warms the codelet cache and the page cache
        std::vector<double> plain, withReport;
        for (int i = 0; i < repeats; ++i) { // interleaved, so load changes hit both sides alike
            plain.push_back(runOnce(base));
            withReport.push_back(runOnce(profiled));
        }
        const auto reportBytes = fs::file_size(dir / "report" / "profile.pop");
        nlohmann::json out = {
            {"program", fs::path(program).filename().string() + " " + arguments},
            {"plain_wall_s", median(plain)},
            {"autoreport_wall_s", median(withReport)},
            {"autoreport_wall_ratio", median(withReport) / median(plain)},
            {"report_bytes", reportBytes},
            {"repeats", repeats},
        };
        std::cout << out.dump(2) << std::endl;
        fs::remove_all(dir);
    } catch (const std::exception& e) {
        std::cerr << "tilescope-bench-capture: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
