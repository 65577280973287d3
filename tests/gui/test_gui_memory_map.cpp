// The Memory view's Memory map tab (TileMemoryMapModel): the layout a real capture records
// (format v6) is consistent (every block inside its region, no two live blocks at one address,
// "including gaps" as the summary states it), the tab follows the tile selection, and a report
// of the v5 writer says the map is not recorded.
#include "CapturedExample.hpp"
#include "TestReports.hpp"
#include "memory/TileMemoryMapModel.hpp"
#include "memory/TileMemoryMapWidget.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QSignalSpy>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

const TileMemoryMap& load(TileMemoryMapModel& model, const TileSelection& tiles) {
    QSignalSpy loaded(&model, &TileMemoryMapModel::loaded);
    model.setSelection(tiles);
    REQUIRE(gui::test::waitFor(loaded));
    return model.map();
}

} // namespace

TEST_CASE("The memory map of a captured report is laid out as its memory figures state") {
    const auto& capture = test::capturedTraining();
    const report::ProfileReader reader(capture.profile.string());
    REQUIRE(reader.hasTileAllocations());
    const auto total = reader.tileMemoryTotal(true);
    std::uint64_t interleavedBlocks = 0, sharedAddresses = 0;
    for (std::uint32_t tile = 0; tile < total.size(); tile += 23) {
        INFO("tile " << tile);
        const TileMemoryMap map = TileMemoryMap::read(reader, tile);
        const QStringList problems = map.layoutProblems();
        INFO(problems.join('\n').toStdString());
        CHECK(problems.empty());
        // Including gaps: each region to its highest block, the regions below a used one whole.
        CHECK(map.includingGaps() == map.reportedIncludingGaps);
        CHECK(map.reportedIncludingGaps == total[tile]);
        for (std::size_t i = 0; i < map.blocks.size(); ++i) {
            const MemoryMapBlock& b = map.blocks[i];
            if (map.regions[std::size_t(b.region)].interleaved)
                ++interleavedBlocks;
            if (i > 0 && b.address < map.blocks[i - 1].end())
                ++sharedAddresses;
        }
    }
    // The matMuls' AMP partials lie in interleaved memory, and not-always-live variables reuse
    // the addresses of others that are dead by then.
    CHECK(interleavedBlocks > 0);
    CHECK(sharedAddresses > 0);
}

TEST_CASE("The memory map follows the tile selection, else shows the fullest tile") {
    auto session = gui::test::openSession(test::capturedTraining().profile);
    TileMemoryMapModel model(session);
    const TileMemoryMap& fullest = load(model, {});
    CHECK(model.message().isEmpty());
    const report::ProfileReader reader(test::capturedTraining().profile.string());
    const auto total = reader.tileMemoryTotal(true);
    CHECK(total[fullest.tile] == *std::max_element(total.begin(), total.end()));
    REQUIRE_FALSE(fullest.blocks.empty());
    // Named blocks: variables by name, everything else by its category.
    CHECK(std::any_of(fullest.blocks.begin(), fullest.blocks.end(),
                      [](const MemoryMapBlock& b) { return b.variableId && !b.what.isEmpty(); }));

    const TileMemoryMap& five = load(model, TileSelection::range(5, 9));
    CHECK(five.tile == 5);
    CHECK(five.includingGaps() == total[5]);

    // The widget lays not-always-live blocks that share addresses in separate lanes and finds
    // the block under a point.
    TileMemoryMapWidget widget(model);
    widget.resize(900, 300);
    load(model, {});
    REQUIRE(widget.lanes().size() == model.map().blocks.size());
    const auto& blocks = model.map().blocks;
    for (std::size_t i = 0; i < blocks.size(); ++i)
        for (std::size_t j = i + 1; j < blocks.size() && blocks[j].address < blocks[i].end(); ++j)
            if (blocks[i].bytes && blocks[j].bytes)
                CHECK(widget.lanes()[i] != widget.lanes()[j]);
}

TEST_CASE("A report of the v5 writer says its memory map is not recorded") {
    auto session = gui::test::openSession(std::filesystem::path(TILESCOPE_TEST_DATA) / "format-v5" /
                                          "mlp_forward.pop");
    TileMemoryMapModel model(session);
    load(model, {});
    CHECK(model.map().blocks.empty());
    CHECK(model.message().contains("not recorded in this report (format v5)"));
}
