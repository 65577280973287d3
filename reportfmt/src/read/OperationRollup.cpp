#include "tilescope/report/OperationRollup.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string_view>
#include <unordered_map>

namespace tilescope::report {

const std::string& OperationRollup::pathOf(const OperationRecord& operation) {
    return operation.debugPath.empty() ? operation.name : operation.debugPath;
}

OperationRollup OperationRollup::compute(const std::vector<OperationTotals>& operations) {
    OperationRollup r;
    const std::size_t n = operations.size();
    r.parent.assign(n, -1);
    r.depth.assign(n, 0);
    r.descendants.assign(n, 0);
    r.self.resize(n);
    // The first operation with a path stands for it (the others with that path are siblings).
    std::unordered_map<std::string_view, int> byPath;
    for (std::size_t i = 0; i < n; ++i)
        byPath.emplace(pathOf(operations[i].operation), int(i));
    for (std::size_t i = 0; i < n; ++i) {
        std::string_view path = pathOf(operations[i].operation);
        for (auto slash = path.rfind('/'); slash != std::string_view::npos;
             slash = path.rfind('/')) {
            path = path.substr(0, slash);
            if (auto it = byPath.find(path); it != byPath.end() && it->second != int(i)) {
                r.parent[i] = it->second;
                break;
            }
        }
    }
    // Depths walk up the parents; paths only get shorter upwards, so there are no cycles.
    for (std::size_t i = 0; i < n; ++i)
        for (int p = r.parent[i]; p >= 0; p = r.parent[std::size_t(p)])
            ++r.depth[i];
    for (std::size_t i = 0; i < n; ++i) {
        const OperationTotals& t = operations[i];
        r.self[i] = {t.steps, t.estimatedCycles, t.codeBytes, t.variableBytes, t.operation.flops};
    }
    r.inclusive = r.self;
    // Deepest first: each operation's inclusive totals are complete before joining its parent's.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return r.depth[a] > r.depth[b]; });
    for (std::size_t i : order) {
        const int p = r.parent[i];
        if (p < 0)
            continue;
        Totals& up = r.inclusive[std::size_t(p)];
        const Totals& own = r.inclusive[i];
        up.steps += own.steps;
        up.cycles += own.cycles;
        up.codeBytes += own.codeBytes;
        up.variableBytes += own.variableBytes;
        if (own.flops)
            up.flops = up.flops.value_or(0) + *own.flops;
        r.descendants[std::size_t(p)] += 1 + r.descendants[i];
    }
    return r;
}

RolledUpOperations rollUpOperations(const ProfileReader& reader) {
    RolledUpOperations out;
    out.operations = reader.operationTotals(0, std::numeric_limits<std::int64_t>::max());
    out.rollup = OperationRollup::compute(out.operations);
    return out;
}

} // namespace tilescope::report
