// Debug information of operations (format v5, table operation_debug): written by ProfileWriter,
// read back by every ProfileReader query that returns operations, and absent (not an error)
// in files of the v4 writer, which open unchanged.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Schema.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

using namespace tilescope::report;
using namespace tilescope::testing;
namespace fs = std::filesystem;

TEST_CASE("operation debug information round-trips through the writer and reader") {
    TempDir dir("tilescope-operation-debug");
    const fs::path path = dir / "profile.pop";
    CompileProfile written;
    {
        ProfileWriter w(path);
        written = writeCompileProfile(w, 2, 8);
        w.finishCompilation();
        w.close();
    }
    ProfileReader r(path.string());
    CHECK(r.file().formatVersion() == Schema::kProfileVersion);
    const auto& matmul = written.operations.at(0);
    const auto& add = written.operations.at(1);

    const auto ops = r.operations(0, 10);
    REQUIRE(ops.size() == 2);
    CHECK(ops[0].debugJson == matmul.debugJson);
    CHECK(ops[1].debugJson.empty()); // none recorded: no row

    CHECK(r.operation(matmul.id).debugJson == matmul.debugJson);
    CHECK(r.operation(add.id).name == "add");
    CHECK_THROWS_AS(r.operation(99), ReportError);

    const auto ofProgram = r.operationsOfProgram(matmul.programIds.at(1));
    REQUIRE(ofProgram.size() == 1);
    CHECK(ofProgram[0].debugJson == matmul.debugJson);
    const auto ofVariable = r.operationsOfVariable(add.variableIds.at(2));
    REQUIRE(ofVariable.size() == 1);
    CHECK(ofVariable[0].id == add.id);
    CHECK(r.operationsOfVariable(12345).empty());

    const auto totals = r.operationTotals(0, 10);
    REQUIRE(totals.size() == 2);
    CHECK(totals[0].operation.debugJson == matmul.debugJson);
}

TEST_CASE("files of the v4 writer open without debug information and are not changed") {
    TempDir dir("tilescope-operation-debug");
    const fs::path copy = dir / "v4.pop";
    fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / "format-v4" / "mlp_forward.pop", copy);
    const std::string before = fileBytes(copy);
    {
        ProfileReader r(copy.string());
        CHECK(r.file().formatVersion() == 4);
        const auto ops = r.operations(0, 100);
        CHECK(ops.size() == 19);
        for (const auto& op : ops) {
            INFO(op.debugPath);
            CHECK(op.debugJson.empty());
            CHECK_FALSE(op.name.empty());
        }
        CHECK(r.operation(ops.front().id).debugJson.empty());
        CHECK(r.operationTotals(0, 100).size() == 19);
    }
    CHECK(fileBytes(copy) == before);
}
