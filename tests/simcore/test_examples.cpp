// The example programs, run as users run them; their printed output is checked exactly.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <regex>

using namespace simtest;

TEST_CASE("tensors_and_streams prints tensors in Poplar's format", "[examples]") {
    const auto r = run(quoted(example("tensors_and_streams")));
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::string expected = R"(v1-debug: [1.0000000 1.5000000 2.0000000 2.5000000]
v2-debug: [1.0000000 1.5000000 2.0000000 2.5000000]
v3-debug: [
 [0.0000000 1.0000000 2.0000000 3.0000000]
 [4.0000000 5.0000000 6.0000000 7.0000000]
 [8.0000000 9.0000000 10.0000000 11.0000000]
 [12.0000000 13.0000000 14.0000000 15.0000000]
]
v3-debug: [
 [0.0000000 1.0000000 2.0000000 3.0000000]
 [1.0000000 1.5000000 2.0000000 2.5000000]
 [8.0000000 9.0000000 0.0000000 1.0000000]
 [12.0000000 13.0000000 1.0000000 1.5000000]
]
v4-0: [0 1 2 3 4 5 6 7 8 9]
v4-1: [10 11 12 13 14 15 16 17 18 19]
v3 on host: 0 1 2 3 1 1.5 2 2.5 8 9 0 1 12 13 1 1.5
v4 streamed out: 10 11 12 13 14 10 11 12 13 14
)";
    // The one stderr line says no hardware was found; everything else is the program's output.
    CHECK(r.output.find("no IPU hardware is present") != std::string::npos);
    const std::string stdoutOnly =
        std::regex_replace(r.output, std::regex("TileScope: no IPU hardware[^\n]*\n"), "");
    CHECK(stdoutOnly == expected);
}

TEST_CASE("custom_codelet compiles its codelet file at run time and computes", "[examples]") {
    const auto r =
        run(quoted(example("custom_codelet")) + " " + quoted(exampleCodelet("basic_codelets.cpp")));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output == R"(sums: [6.0000000 22.0000000 38.0000000 54.0000000]
scaled: [
 [0.0000000 10.0000000 20.0000000 30.0000000]
 [40.0000000 50.0000000 60.0000000 70.0000000]
 [80.0000000 90.0000000 100.0000000 110.0000000]
 [120.0000000 130.0000000 140.0000000 150.0000000]
]
counts: [3 2 1 0]
widened: [0.1999512 3.0000000 -4.0000000]
)");
}

TEST_CASE("matrix_vector matches the host computation for several sizes", "[examples]") {
    struct Size {
        unsigned rows, cols, tiles;
    };
    for (const Size s : {Size{1, 1, 1}, Size{16, 8, 4}, Size{100, 37, 10}, Size{512, 64, 1472},
                         Size{64, 300, 7}}) {
        const auto r =
            run(quoted(example("matrix_vector")) + " " +
                quoted(exampleCodelet("matvec_codelets.cpp")) + " " + std::to_string(s.rows) + " " +
                std::to_string(s.cols) + " " + std::to_string(s.tiles));
        INFO(r.output);
        CHECK(r.status == 0);
        const std::string header = "matrix-vector " + std::to_string(s.rows) + "x" +
                                   std::to_string(s.cols) + " on " + std::to_string(s.tiles) +
                                   " tiles: max abs error ";
        CHECK(r.output.rfind(header, 0) == 0);
        CHECK(r.output.find(" OK\n") != std::string::npos);
    }
}

TEST_CASE("control_flow follows tensor values through Repeat, RepeatWhileTrue, If, Switch",
          "[examples]") {
    const auto r =
        run(quoted(example("control_flow")) + " " + quoted(exampleCodelet("control_codelets.cpp")));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output == R"(after Repeat: 12
after RepeatWhileTrue: 27
history: [27 24 21 18 15]
branch: 27
case: [27 24 21 18 15]
)");
}

TEST_CASE("out_of_memory reports the tile and the excess", "[examples]") {
    const auto r = run(quoted(example("out_of_memory")));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("caught graph_memory_allocation_error: Out of memory: tile 3 needs ") !=
          std::string::npos);
    CHECK(r.output.find("'big' (700,000 bytes)") != std::string::npos);
    std::smatch m;
    REQUIRE(std::regex_search(r.output, m, std::regex(R"(tile 3, (\d+) bytes over)")));
    // 700,000 bytes of 'big' alone exceed the 638,976-byte tile (an IPU Model compiles no code
    // by default and the tile runs no vertices, so nothing else is on it).
    CHECK(std::stoull(m[1]) >= 700000 - 638976);
    // With debug.allowOutOfMemory the compile results are kept and summarised.
    CHECK(r.output.find("Tiles out of memory:") != std::string::npos);
    CHECK(std::regex_search(r.output, std::regex(R"(Tiles out of memory:\s+1\n)")));
    CHECK(r.output.find("big") != std::string::npos);
}

TEST_CASE("all_tiles keeps 1472 tiles busy over 10 compute sets, quickly", "[examples]") {
    for (const char* threads : {"1", "2"}) {
        const auto r = run(quoted(example("all_tiles")) + " " +
                           quoted(exampleCodelet("basic_codelets.cpp")) + " " + threads);
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK(r.output.find("\"tiles\": 1472") != std::string::npos);
        CHECK(r.output.find("\"vertices\": 14720") != std::string::npos);
        CHECK(r.output.find("\"correct\": true") != std::string::npos);
        std::smatch m;
        REQUIRE(std::regex_search(r.output, m, std::regex(R"("compileSeconds": ([0-9.e-]+))")));
        CHECK(std::stod(m[1]) < 3.0);
        REQUIRE(std::regex_search(r.output, m, std::regex(R"("loadAndRunSeconds": ([0-9.e-]+))")));
        CHECK(std::stod(m[1]) < 3.0);
    }
}
