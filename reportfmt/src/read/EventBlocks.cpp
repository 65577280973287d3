#include "EventBlocks.hpp"

#include "tilescope/report/ReportError.hpp"
#include "types/EventBlockCodec.hpp"

#include <fmt/format.h>
#include <limits>

namespace tilescope::report::detail {

void decodeBlockRow(const sql::Statement& st, std::vector<HostEvent>& out,
                    const std::string& path) {
    const std::int64_t id = st.int64(0);
    const std::int64_t depth = st.int64(2);
    if (depth < 0 || depth > std::numeric_limits<std::int32_t>::max() ||
        st.columnType(5) != SQLITE_BLOB)
        throw ReportError(path, fmt::format("file is damaged (event block {} has depth {} or no "
                                            "data)",
                                            id, depth));
    decodeEventBlock(blobBytes(st.blob(5)), st.int64(3), st.int64(4), st.int64(1),
                     static_cast<std::int32_t>(depth), out, path, id);
}

} // namespace tilescope::report::detail
