// TILESCOPE_POPLIBS_OPTIONS: parsing and errors (capture), and the defaults going under an
// operation's own options (simcore's poplibs/common hook, as poplin::matMul asks for them).

#include "common/OptionDefaults.hpp"
#include "tilescope/capture/PoplibsOptionDefaults.hpp"
#include "tilescope/capture/TraceOptions.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <poplar/exceptions.hpp>

using tilescope::capture::OptionsError;
using tilescope::capture::PoplibsOptionDefaults;

TEST_CASE("TILESCOPE_POPLIBS_OPTIONS holds options per operation") {
    const auto d = PoplibsOptionDefaults::parse(
        R"({"matmul": {"availableMemoryProportion": 0.3, "partialsType": "half", "x": true}})");
    CHECK(d.of("matmul").at("availableMemoryProportion") == "0.3");
    CHECK(d.of("matmul").at("partialsType") == "half");
    CHECK(d.of("matmul").at("x") == "true");
    CHECK(d.of("convolution").empty());
    CHECK(d.toJson() ==
          R"({"matmul":{"availableMemoryProportion":"0.3","partialsType":"half","x":"true"}})");
    CHECK(PoplibsOptionDefaults::parse(nullptr).empty());
    CHECK(PoplibsOptionDefaults::parse("  ").empty());
    CHECK_THROWS_WITH(PoplibsOptionDefaults::parse("{"),
                      Catch::Contains("TILESCOPE_POPLIBS_OPTIONS: not valid JSON"));
    CHECK_THROWS_WITH(PoplibsOptionDefaults::parse("[]"),
                      Catch::Contains("expected a JSON object"));
    CHECK_THROWS_WITH(PoplibsOptionDefaults::parse(R"({"matmul": "0.3"})"),
                      Catch::Contains("operation 'matmul' must map to an object"));
    CHECK_THROWS_WITH(PoplibsOptionDefaults::parse(R"({"matmul": {"a": [1]}})"),
                      Catch::Contains("'matmul.a' must be a string, number or boolean"));
}

TEST_CASE("the environment's defaults go under the program's own options") {
    ::setenv("TILESCOPE_POPLIBS_OPTIONS",
             R"({"matmul": {"availableMemoryProportion": "0.3", "partialsType": "half"}})", 1);
    const poplar::OptionFlags given{{"partialsType", "float"}};
    const auto merged = tilescope::poplibs::withOptionDefaults("matmul", given);
    CHECK(merged.at("partialsType") == "float"); // the program's own
    CHECK(merged.at("availableMemoryProportion") == "0.3");
    CHECK(tilescope::poplibs::withOptionDefaults("convolution", given).size() == 1);

    ::setenv("TILESCOPE_POPLIBS_OPTIONS", "{bad", 1);
    CHECK_THROWS_AS(tilescope::poplibs::withOptionDefaults("matmul", given),
                    poplar::invalid_option);
    ::unsetenv("TILESCOPE_POPLIBS_OPTIONS");
    CHECK(tilescope::poplibs::withOptionDefaults("matmul", given).size() == 1);
}
