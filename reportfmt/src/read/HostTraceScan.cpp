#include "tilescope/report/HostTraceScan.hpp"

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace tilescope::report {
namespace {

/// Puts a thread's columns in track order. Writers store rows either in runs of one track or in
/// completion order (children before their parents), and either way each depth is in start order:
/// a stable counting sort by depth, then a check of each depth, is linear; a depth found out of
/// order (rows from some other writer) is sorted.
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
    std::unordered_map<std::int64_t, std::size_t> slot;
    for (std::size_t i = 0; i < threads.size(); ++i)
        slot.emplace(threads[i], i);
    auto st = reader.file().database().prepare(
        "SELECT id, thread_id, channel_id, name_id, kind, start_ns, end_ns, depth FROM event");
    const std::string& path = reader.path();
    // Rows come in runs of one thread: remember the last one instead of hashing every row.
    std::int64_t lastThread = std::numeric_limits<std::int64_t>::min();
    ThreadEventColumns* last = nullptr;
    while (st.step()) {
        const std::int64_t thread = st.int64(1);
        if (thread != lastThread || lastThread == std::numeric_limits<std::int64_t>::min()) {
            const auto it = slot.find(thread);
            last = it == slot.end() ? nullptr : &out[it->second];
            lastThread = thread;
        }
        if (!last)
            continue;
        const std::int64_t id = st.int64(0);
        const std::int64_t kind = st.int64(4);
        if (kind < 0 || kind > static_cast<std::int64_t>(EventKind::Unfinished))
            throw ReportError(
                path, fmt::format("file is damaged (event {} has unknown kind {})", id, kind));
        const std::int64_t start = st.int64(5);
        const bool hasEnd = !st.isNull(6);
        const std::int64_t end = hasEnd ? st.int64(6) : start;
        if (static_cast<EventKind>(kind) == EventKind::Complete && (!hasEnd || end < start))
            throw ReportError(path,
                              fmt::format("file is damaged (event {} ends before it starts)", id));
        const std::int64_t depth = st.int64(7);
        if (depth < 0 || depth > std::numeric_limits<std::int32_t>::max())
            throw ReportError(path,
                              fmt::format("file is damaged (event {} has depth {})", id, depth));
        ThreadEventColumns& c = *last;
        c.id.push_back(id);
        c.channelId.push_back(st.int64(2));
        c.nameId.push_back(st.int64(3));
        c.startNs.push_back(start);
        c.endNs.push_back(end);
        c.depth.push_back(static_cast<std::int32_t>(depth));
        c.kind.push_back(static_cast<EventKind>(kind));
    }
    for (auto& c : out)
        orderByTrack(c);
    return out;
}

} // namespace tilescope::report
