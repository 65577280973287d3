#include "tilescope/sim/CopyPlan.hpp"

#include <algorithm>
#include <cstring>

namespace tilescope::sim {

namespace {
/// Fixed sizes let the compiler emit plain moves for the single elements of strided and
/// transposed views instead of a library call.
inline void copyBytes(std::byte* destination, const std::byte* source, std::size_t bytes) {
    switch (bytes) {
    case 2:
        std::memcpy(destination, source, 2);
        break;
    case 4:
        std::memcpy(destination, source, 4);
        break;
    case 8:
        std::memcpy(destination, source, 8);
        break;
    default:
        std::memcpy(destination, source, bytes);
    }
}
} // namespace

void CopyPlan::add(const std::byte* source, std::byte* destination, std::size_t bytes) {
    if (bytes == 0)
        return;
    if (!runs_.empty()) {
        auto& last = runs_.back();
        if (last.source + last.bytes == source && last.destination + last.bytes == destination) {
            last.bytes += bytes;
            return;
        }
    }
    runs_.push_back({source, destination, bytes});
}

CopyPlan CopyPlan::gather(const TensorView& view, const Bases& bases, std::byte* out) {
    CopyPlan plan;
    const unsigned size = elementSize(view.type);
    plan.runs_.reserve(view.ranges.size());
    for (const auto& r : view.ranges) {
        plan.add(bases[r.variable] + r.begin * size, out, r.size() * size);
        out += r.size() * size;
    }
    return plan;
}

CopyPlan CopyPlan::scatter(const std::byte* in, const TensorView& view, const Bases& bases) {
    CopyPlan plan;
    const unsigned size = elementSize(view.type);
    plan.runs_.reserve(view.ranges.size());
    for (const auto& r : view.ranges) {
        plan.add(in, bases[r.variable] + r.begin * size, r.size() * size);
        in += r.size() * size;
    }
    return plan;
}

CopyPlan CopyPlan::direct(const TensorView& source, const TensorView& destination,
                          const Bases& bases) {
    CopyPlan plan;
    const unsigned size = elementSize(source.type);
    plan.runs_.reserve(std::max(source.ranges.size(), destination.ranges.size()));
    // Walk both range lists in step; each run is as long as both sides stay inside one range.
    std::size_t si = 0, di = 0;
    std::uint64_t sOff = 0, dOff = 0;
    while (si < source.ranges.size() && di < destination.ranges.size()) {
        const auto& s = source.ranges[si];
        const auto& d = destination.ranges[di];
        const std::uint64_t n = std::min(s.size() - sOff, d.size() - dOff);
        plan.add(bases[s.variable] + (s.begin + sOff) * size,
                 bases[d.variable] + (d.begin + dOff) * size, n * size);
        sOff += n;
        dOff += n;
        if (sOff == s.size()) {
            ++si;
            sOff = 0;
        }
        if (dOff == d.size()) {
            ++di;
            dOff = 0;
        }
    }
    return plan;
}

bool CopyPlan::overlaps(const TensorView& a, const TensorView& b) {
    auto sorted = [](const TensorView& v) {
        std::vector<ElementRange> r = v.ranges;
        std::sort(r.begin(), r.end(), [](const ElementRange& x, const ElementRange& y) {
            return x.variable != y.variable ? x.variable < y.variable : x.begin < y.begin;
        });
        return r;
    };
    const auto x = sorted(a), y = sorted(b);
    std::size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        const auto& p = x[i];
        const auto& q = y[j];
        if (p.variable == q.variable && p.begin < q.end && q.begin < p.end && p.size() && q.size())
            return true;
        // Advance the range that ends first in (variable, end) order.
        if (p.variable < q.variable || (p.variable == q.variable && p.end <= q.end))
            ++i;
        else
            ++j;
    }
    return false;
}

void CopyPlan::execute() const {
    for (const auto& r : runs_)
        copyBytes(r.destination, r.source, r.bytes);
}

void CopyPlan::gatherNow(const TensorView& view, const Bases& bases, std::byte* out) {
    const unsigned size = elementSize(view.type);
    for (const auto& r : view.ranges) {
        copyBytes(out, bases[r.variable] + r.begin * size, r.size() * size);
        out += r.size() * size;
    }
}

void CopyPlan::scatterNow(const std::byte* in, const TensorView& view, const Bases& bases) {
    const unsigned size = elementSize(view.type);
    for (const auto& r : view.ranges) {
        copyBytes(bases[r.variable] + r.begin * size, in, r.size() * size);
        in += r.size() * size;
    }
}

std::size_t CopyPlan::bytes() const {
    std::size_t n = 0;
    for (const auto& r : runs_)
        n += r.bytes;
    return n;
}

} // namespace tilescope::sim
