#include "tilescope/report/HostTraceScan.hpp"

#include "EventBlocks.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace tilescope::report {
namespace {

/// Puts a thread's columns in track order. Blocks come in track order and writers store each
/// track in start order, so this is a linear check; a depth found out of order (events from
/// some other writer) is sorted.
void orderByTrack(ThreadEventColumns& c) {
    const std::size_t n = c.size();
    std::int32_t maxDepth = 0;
    for (const std::int32_t d : c.depth)
        maxDepth = std::max(maxDepth, d);
    if (static_cast<std::size_t>(maxDepth) > n) // sparse depths of a damaged file
        maxDepth = -1;
    std::vector<std::uint32_t> order;
    if (maxDepth >= 0) {
        std::vector<std::size_t> first(static_cast<std::size_t>(maxDepth) + 2, 0);
        for (const std::int32_t d : c.depth)
            ++first[static_cast<std::size_t>(d) + 1];
        for (std::size_t d = 1; d < first.size(); ++d)
            first[d] += first[d - 1];
        order.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            order[first[static_cast<std::size_t>(c.depth[i])]++] = static_cast<std::uint32_t>(i);
    } else {
        order.resize(n);
        std::iota(order.begin(), order.end(), 0u);
    }
    auto less = [&](std::uint32_t a, std::uint32_t b) {
        if (c.depth[a] != c.depth[b])
            return c.depth[a] < c.depth[b];
        if (c.startNs[a] != c.startNs[b])
            return c.startNs[a] < c.startNs[b];
        return c.id[a] < c.id[b];
    };
    if (!std::is_sorted(order.begin(), order.end(), less))
        std::sort(order.begin(), order.end(), less);
    bool identity = true;
    for (std::size_t i = 0; i < n && identity; ++i)
        identity = order[i] == i;
    if (identity)
        return;
    auto permute = [&](auto& column) {
        std::remove_reference_t<decltype(column)> out(n);
        for (std::size_t i = 0; i < n; ++i)
            out[i] = column[order[i]];
        column.swap(out);
    };
    permute(c.id);
    permute(c.channelId);
    permute(c.nameId);
    permute(c.startNs);
    permute(c.endNs);
    permute(c.depth);
    permute(c.kind);
}

} // namespace

std::vector<ThreadEventColumns> scanThreadEvents(const HostTraceReader& reader,
                                                 const std::vector<std::int64_t>& threads) {
    std::vector<ThreadEventColumns> out(threads.size());
    // Each thread's blocks in track order (the block index): events come out by depth, then
    // start, decoded straight into the thread's columns.
    auto st = reader.file().database().prepare(std::string(detail::kBlockColumns) +
                                               "WHERE thread_id = ? ORDER BY depth, start_ns, id");
    std::vector<HostEvent> block;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        ThreadEventColumns& c = out[i];
        st.reset();
        st.bind(1, threads[i]);
        while (st.step()) {
            block.clear();
            detail::decodeBlockRow(st, block, reader.path());
            for (const HostEvent& e : block) {
                c.id.push_back(e.id);
                c.channelId.push_back(e.channelId);
                c.nameId.push_back(e.nameId);
                c.startNs.push_back(e.startNs);
                c.endNs.push_back(e.endNs.value_or(e.startNs));
                c.depth.push_back(e.depth);
                c.kind.push_back(e.kind);
            }
        }
        orderByTrack(c);
    }
    return out;
}

} // namespace tilescope::report
