// The Memory view's Exchanges tab following the tile selection, checked against the report
// itself: on a real capture (the mlp_training example), the rows for a selection are exactly the
// steps that move data in which one of those tiles has estimated cycles, with the count of such
// tiles and the slowest one's cycles, found here by decoding every step's whole per-tile series.
#include "CapturedExample.hpp"
#include "TestReports.hpp"
#include "memory/TileExchangesModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <map>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

struct Expected {
    std::uint64_t tiles = 0, maxCycles = 0, bytes = 0;
};

/// Step id -> what the tab should show for `tiles`, from the full per-tile series.
std::map<std::int64_t, Expected> expectedFor(const report::ProfileReader& reader,
                                             const TileSelection& tiles) {
    std::map<std::int64_t, Expected> out;
    const std::int64_t count = reader.counts().steps;
    for (const report::StepRecord& s : reader.steps(0, count, true)) {
        if (s.exchangeBytes == 0)
            continue;
        Expected e;
        e.bytes = s.exchangeBytes;
        for (std::uint32_t t = 0; t < s.estimatedPerTile.size(); ++t)
            if ((tiles.empty() || tiles.contains(t)) && s.estimatedPerTile[t] > 0) {
                ++e.tiles;
                e.maxCycles = std::max(e.maxCycles, s.estimatedPerTile[t]);
            }
        if (e.tiles > 0)
            out[s.id] = e;
    }
    return out;
}

void select(TileExchangesModel& model, const TileSelection& tiles) {
    QSignalSpy loaded(&model, &TileExchangesModel::loaded);
    model.setSelection(tiles);
    REQUIRE(gui::test::waitFor(loaded));
}

} // namespace

TEST_CASE("The Exchanges tab lists the report's exchanges of the selected tiles") {
    const auto& capture = gui::test::capturedTraining();
    auto session = gui::test::openSession(capture.profile);
    report::ProfileReader reader(capture.profile.string());
    const std::uint32_t tileCount = reader.target().numTiles();
    REQUIRE(tileCount >= 4);
    using X = TileExchangesModel;
    TileExchangesModel model(session, 100000);

    const TileSelection selections[] = {
        {},
        TileSelection::single(0),
        TileSelection::single(tileCount - 1),
        TileSelection::range(1, std::min(tileCount - 1, 3u)),
        *TileSelection::parse("0, 2", tileCount),
    };
    std::size_t nonEmpty = 0;
    for (const TileSelection& tiles : selections) {
        CAPTURE(tiles.toString().toStdString());
        select(model, tiles);
        const auto expected = expectedFor(reader, tiles);
        REQUIRE(model.rowCount() == int(expected.size()));
        nonEmpty += expected.empty() ? 0 : 1;
        std::uint64_t previous = UINT64_MAX;
        for (int row = 0; row < model.rowCount(); ++row) {
            const std::int64_t step = model.value(row, X::Step).toLongLong();
            const auto it = expected.find(step);
            REQUIRE(it != expected.end());
            if (tiles.empty()) { // every tile: the per-tile columns are left empty
                CHECK_FALSE(model.value(row, X::Tiles).isValid());
            } else {
                CHECK(model.value(row, X::Tiles).toULongLong() == it->second.tiles);
                CHECK(model.value(row, X::TileCycles).toULongLong() == it->second.maxCycles);
            }
            CHECK(model.value(row, X::Bytes).toULongLong() == it->second.bytes);
            // Busiest for the selection first; without one, the largest first.
            const std::uint64_t key = tiles.empty() ? it->second.bytes : it->second.maxCycles;
            CHECK(key <= previous);
            previous = key;
        }
        CHECK_FALSE(model.limitReached());
    }
    CHECK(nonEmpty >= 3); // the training step exchanges on its tiles: the check is not vacuous

    // A selection narrower than all tiles lists no more steps than all tiles do.
    select(model, {});
    const int all = model.rowCount();
    select(model, TileSelection::single(0));
    CHECK(model.rowCount() <= all);

    TileExchangesModel few(session, 2);
    select(few, {});
    CHECK(few.rowCount() == std::min(2, all));
    CHECK(few.limitReached() == (all > 2));
}
