#include "LivenessPyramid.hpp"

#include "tilescope/report/Schema.hpp"

#include <fmt/format.h>

namespace tilescope::report::detail {

void buildLivenessPyramid(sql::Database& db, std::string_view schema) {
    db.exec(fmt::format("DELETE FROM {}.liveness_lod", schema));
    db.exec(fmt::format("INSERT INTO {0}.liveness_lod SELECT 0, id / {1}, min(id), max(id), "
                        "min(not_always_live_bytes), max(not_always_live_bytes), "
                        "max(max_tile_not_always_live_bytes) FROM main.step GROUP BY id / {1}",
                        schema, Schema::kLivenessLodBaseSteps));
    auto count =
        db.prepare(fmt::format("SELECT count(*) FROM {}.liveness_lod WHERE level = ?", schema));
    for (int level = 0; level < 30; ++level) {
        count.bind(1, level);
        count.step();
        const auto buckets = count.int64(0);
        count.reset();
        if (buckets <= 1024)
            break;
        db.exec(fmt::format("INSERT INTO {0}.liveness_lod SELECT {1} + 1, bucket / 4, "
                            "min(first_step), max(last_step), min(min_not_always_live_bytes), "
                            "max(max_not_always_live_bytes), max(max_tile_not_always_live_bytes) "
                            "FROM {0}.liveness_lod WHERE level = {1} GROUP BY bucket / 4",
                            schema, level));
    }
}

} // namespace tilescope::report::detail
