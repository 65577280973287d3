// Sequence alignment for comparing reports: the algorithm only collects matched pairs (ranges are
// processed from a work list, so no recursion depth grows with the input); the final pass walks
// the matches in order and fills in removed and added items between them.

#include "tilescope/report/SequenceAlignment.hpp"

#include <algorithm>
#include <unordered_map>

namespace tilescope::report {
namespace {

// Gaps up to this many DP cells get an exact LCS (4 bytes a cell: 4 MiB at most).
constexpr std::size_t kExactCells = std::size_t{1} << 20;

struct Range {
    std::size_t aLo, aHi, bLo, bHi;
};

using Match = std::pair<std::size_t, std::size_t>;

/// Longest chain of `pairs` (sorted by source position, source positions distinct) whose target
/// positions strictly increase: patience sorting with back links, O(k log k).
std::vector<Match> longestIncreasingChain(const std::vector<Match>& pairs) {
    std::vector<std::size_t> tails; // index into pairs of the smallest tail per length
    std::vector<std::ptrdiff_t> back(pairs.size(), -1);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const std::size_t b = pairs[i].second;
        const auto it =
            std::lower_bound(tails.begin(), tails.end(), b,
                             [&](std::size_t t, std::size_t v) { return pairs[t].second < v; });
        if (it != tails.begin())
            back[i] = static_cast<std::ptrdiff_t>(*(it - 1));
        if (it == tails.end())
            tails.push_back(i);
        else
            *it = i;
    }
    std::vector<Match> chain;
    if (tails.empty())
        return chain;
    for (auto i = static_cast<std::ptrdiff_t>(tails.back()); i >= 0; i = back[i])
        chain.push_back(pairs[static_cast<std::size_t>(i)]);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

class Aligner {
public:
    Aligner(std::span<const std::int32_t> a, std::span<const std::int32_t> b) : a_(a), b_(b) {}

    std::vector<Match> run() {
        std::vector<Range> work{{0, a_.size(), 0, b_.size()}};
        while (!work.empty()) {
            Range r = work.back();
            work.pop_back();
            align(r, work);
        }
        std::sort(matches_.begin(), matches_.end());
        return std::move(matches_);
    }

private:
    void align(Range r, std::vector<Range>& work) {
        while (r.aLo < r.aHi && r.bLo < r.bHi && a_[r.aLo] == b_[r.bLo])
            matches_.emplace_back(r.aLo++, r.bLo++);
        while (r.aLo < r.aHi && r.bLo < r.bHi && a_[r.aHi - 1] == b_[r.bHi - 1])
            matches_.emplace_back(--r.aHi, --r.bHi);
        const std::size_t n = r.aHi - r.aLo, m = r.bHi - r.bLo;
        if (n == 0 || m == 0)
            return;
        if (n * m <= kExactCells) {
            exact(r);
            return;
        }
        std::vector<Match> anchors = longestIncreasingChain(uniquePairs(r));
        if (anchors.empty())
            anchors = longestIncreasingChain(occurrencePairs(r));
        std::size_t aPrev = r.aLo, bPrev = r.bLo;
        for (const auto& [i, j] : anchors) {
            matches_.emplace_back(i, j);
            work.push_back({aPrev, i, bPrev, j});
            aPrev = i + 1;
            bPrev = j + 1;
        }
        if (!anchors.empty())
            work.push_back({aPrev, r.aHi, bPrev, r.bHi});
        // No anchors: no key occurs on both sides, so nothing in the range matches.
    }

    // Classic LCS table; ties prefer keeping source items first (removals before additions).
    void exact(const Range& r) {
        const std::size_t n = r.aHi - r.aLo, m = r.bHi - r.bLo;
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& {
            return lcs[i * (m + 1) + j];
        };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = a_[r.aLo + i] == b_[r.bLo + j] ? at(i + 1, j + 1) + 1
                                                          : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n && j < m) {
            if (a_[r.aLo + i] == b_[r.bLo + j]) {
                matches_.emplace_back(r.aLo + i, r.bLo + j);
                ++i;
                ++j;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
    }

    // Keys occurring exactly once on each side, as (source, target) pairs in source order.
    std::vector<Match> uniquePairs(const Range& r) const {
        struct Seen {
            std::uint32_t inA = 0, inB = 0;
            std::size_t posA = 0, posB = 0;
        };
        std::unordered_map<std::int32_t, Seen> seen;
        seen.reserve(std::min<std::size_t>(r.aHi - r.aLo, 1u << 16));
        for (std::size_t i = r.aLo; i < r.aHi; ++i) {
            auto& s = seen[a_[i]];
            ++s.inA;
            s.posA = i;
        }
        for (std::size_t j = r.bLo; j < r.bHi; ++j) {
            const auto it = seen.find(b_[j]);
            if (it == seen.end())
                continue;
            ++it->second.inB;
            it->second.posB = j;
        }
        std::vector<Match> pairs;
        for (const auto& [key, s] : seen)
            if (s.inA == 1 && s.inB == 1)
                pairs.emplace_back(s.posA, s.posB);
        std::sort(pairs.begin(), pairs.end());
        return pairs;
    }

    // The k-th occurrence of each key in the source paired with its k-th in the target.
    std::vector<Match> occurrencePairs(const Range& r) const {
        struct Occurrences {
            std::vector<std::size_t> positions;
            std::size_t used = 0;
        };
        std::unordered_map<std::int32_t, Occurrences> inA;
        for (std::size_t i = r.aLo; i < r.aHi; ++i)
            inA[a_[i]].positions.push_back(i);
        std::vector<Match> pairs;
        for (std::size_t j = r.bLo; j < r.bHi; ++j) {
            const auto it = inA.find(b_[j]);
            if (it == inA.end() || it->second.used == it->second.positions.size())
                continue;
            pairs.emplace_back(it->second.positions[it->second.used++], j);
        }
        std::sort(pairs.begin(), pairs.end());
        return pairs;
    }

    std::span<const std::int32_t> a_, b_;
    std::vector<Match> matches_;
};

} // namespace

std::vector<AlignedPair> alignSequences(std::span<const std::int32_t> source,
                                        std::span<const std::int32_t> target) {
    const std::vector<Match> matches = Aligner(source, target).run();
    std::vector<AlignedPair> out;
    out.reserve(std::max(source.size(), target.size()) +
                (matches.size() < source.size() ? source.size() - matches.size() : 0));
    std::size_t i = 0, j = 0;
    const auto fillTo = [&](std::size_t iEnd, std::size_t jEnd) {
        for (; i < iEnd; ++i)
            out.push_back({i, std::nullopt});
        for (; j < jEnd; ++j)
            out.push_back({std::nullopt, j});
    };
    for (const auto& [mi, mj] : matches) {
        fillTo(mi, mj);
        out.push_back({mi, mj});
        i = mi + 1;
        j = mj + 1;
    }
    fillTo(source.size(), target.size());
    return out;
}

} // namespace tilescope::report
