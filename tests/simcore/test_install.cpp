// The installed package works for a Poplar user: `cmake --install` into a fresh prefix, then each
// example program is built with `g++ prog.cpp $(pkg-config --cflags --libs tilescope-poplar)` and
// run; runtime codelets compile against the installed headers.

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

struct CommandResult {
    int status = -1;
    std::string output;
};

std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

CommandResult run(const std::string& command) {
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

} // namespace

TEST_CASE("examples build against the installed package with pkg-config and run", "[install]") {
    const fs::path work = INSTALL_TEST_WORK_DIR;
    fs::remove_all(work);
    fs::create_directories(work);
    const fs::path prefix = work / "prefix";
    const auto install = run(std::string(TILESCOPE_CMAKE_COMMAND) + " --install " +
                             quoted(TILESCOPE_BINARY_DIR) + " --prefix " + quoted(prefix.string()));
    INFO(install.output);
    REQUIRE(install.status == 0);
    const fs::path libdir = prefix / TILESCOPE_INSTALL_LIBDIR;
    REQUIRE(fs::exists(prefix / "include/poplar/Vertex.hpp"));
    REQUIRE(fs::exists(prefix / "include/tilescope/capture/ProfileRecords.hpp"));
    REQUIRE(fs::exists(libdir / "pkgconfig/tilescope-poplar.pc"));
    REQUIRE(fs::exists(libdir / "libpoplar.so"));

    // The .pc file finds the prefix relative to itself, so the user's command works as is.
    const std::string pkgConfig = "PKG_CONFIG_PATH=" + quoted((libdir / "pkgconfig").string()) +
                                  " " + TILESCOPE_PKG_CONFIG + " --cflags --libs tilescope-poplar";
    const auto flags = run(pkgConfig);
    INFO(flags.output);
    REQUIRE(flags.status == 0);
    CHECK(flags.output.find("-lpoplar") != std::string::npos);
    // The user's standard is their own: the package must not force one.
    CHECK(flags.output.find("-std=") == std::string::npos);

    const std::string examples = SIMCORE_EXAMPLES_SOURCE_DIR;
    const std::string cache = "TILESCOPE_CODELET_CACHE=" + quoted((work / "cache").string()) + " ";
    // SDK-style examples build as C++11, as users' programs do; `std` is for those that also use
    // TileScope's own (C++20) headers.
    auto build = [&](const std::string& name, const std::string& std = "c++11") {
        const fs::path exe = work / name;
        const auto r = run(std::string(TILESCOPE_CXX) + " -std=" + std + " -Wall -Werror " +
                           quoted(examples + "/" + name + ".cpp") + " $(" + pkgConfig + ") -o " +
                           quoted(exe.string()));
        INFO(r.output);
        REQUIRE(r.status == 0);
        // The binary loads the installed library, not the build tree's.
        const auto ldd = run("ldd " + quoted(exe.string()));
        const auto at = ldd.output.find("libpoplar.so");
        REQUIRE(at != std::string::npos);
        const auto arrow = ldd.output.find("=> ", at);
        const auto end = ldd.output.find(" (", arrow);
        REQUIRE(arrow != std::string::npos);
        const fs::path loaded = ldd.output.substr(arrow + 3, end - arrow - 3);
        CHECK(fs::canonical(loaded).parent_path() == fs::canonical(libdir));
        return quoted(exe.string());
    };

    const auto tensors = run(build("tensors_and_streams"));
    INFO(tensors.output);
    CHECK(tensors.status == 0);
    CHECK(tensors.output.find("v1-debug: [1.0000000 1.5000000 2.0000000 2.5000000]\n") !=
          std::string::npos);

    const auto custom = run(cache + build("custom_codelet") + " " +
                            quoted(examples + "/codelets/basic_codelets.cpp"));
    INFO(custom.output);
    CHECK(custom.status == 0);
    CHECK(custom.output.find("counts: [3 2 1 0]\n") != std::string::npos);

    const auto matvec = run(cache + build("matrix_vector") + " " +
                            quoted(examples + "/codelets/matvec_codelets.cpp") + " 40 30 5");
    INFO(matvec.output);
    CHECK(matvec.status == 0);
    CHECK(matvec.output.find("matrix-vector 40x30 on 5 tiles: max abs error") != std::string::npos);

    const auto control = run(cache + build("control_flow") + " " +
                             quoted(examples + "/codelets/control_codelets.cpp"));
    INFO(control.output);
    CHECK(control.status == 0);
    CHECK(control.output.find("after RepeatWhileTrue: 27\n") != std::string::npos);

    const auto oom = run(build("out_of_memory"));
    INFO(oom.output);
    CHECK(oom.status == 0);
    CHECK(oom.output.find("Out of memory: tile 3") != std::string::npos);

    const auto all = run(cache + build("all_tiles", "c++20") + " " +
                         quoted(examples + "/codelets/basic_codelets.cpp"));
    INFO(all.output);
    CHECK(all.status == 0);
    CHECK(all.output.find("\"correct\": true") != std::string::npos);

    // PopLibs programs build with the same pkg-config line (it links poplin, popnn, popops and
    // poputil too).
    const auto mlp = run(build("mlp_forward") + " 8 5 17 9 3");
    INFO(mlp.output);
    CHECK(mlp.status == 0);
    CHECK(mlp.output.find("\"ok\":true") != std::string::npos);

    // Runtime codelets of an installed program compile against the installed headers.
    const fs::path probe = work / "include_probe.cpp";
    {
        FILE* f = std::fopen(probe.c_str(), "w");
        REQUIRE(f);
        std::fputs("#include <tilescope/sim/CodeletCompiler.hpp>\n#include <iostream>\n"
                   "int main() { std::cout << tilescope::sim::CodeletCompiler::includeDirectory()"
                   " << '\\n'; }\n",
                   f);
        std::fclose(f);
    }
    const fs::path probeExe = work / "include_probe";
    const auto probeBuild = run(std::string(TILESCOPE_CXX) + " " + quoted(probe.string()) + " $(" +
                                pkgConfig + ") -o " + quoted(probeExe.string()));
    INFO(probeBuild.output);
    REQUIRE(probeBuild.status == 0);
    const auto includeDir = run(quoted(probeExe.string()));
    CHECK(includeDir.output == fs::canonical(prefix / "include").string() + "\n");
}
