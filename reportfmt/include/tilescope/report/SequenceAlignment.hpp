#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace tilescope::report {

/// One row of an alignment of two sequences: both positions for a matched pair, only the source
/// position for an item removed from the source, only the target position for an added one.
struct AlignedPair {
    std::optional<std::size_t> source;
    std::optional<std::size_t> target;
};

/// Diff-style alignment of two sequences of keys (equal keys may be matched, nothing else is),
/// used to line up program steps and executed steps of two reports. Every position of both
/// sequences appears exactly once, in order. The method keeps to about O(n log n) on long,
/// repetitive sequences (hundreds of thousands of executed steps of a loop):
///   1. the common prefix and suffix are matched;
///   2. a gap small enough for it (n x m up to about a million cells) gets an exact longest
///      common subsequence;
///   3. otherwise keys occurring exactly once in both sides anchor the alignment (patience
///      diff); without such keys, the k-th occurrence of a key in the source is paired with
///      its k-th occurrence in the target; the longest chain of pairs increasing on both sides
///      is kept as anchors, and the gaps between anchors are aligned the same way.
/// Within a gap, removed items come before added ones.
std::vector<AlignedPair> alignSequences(std::span<const std::int32_t> source,
                                        std::span<const std::int32_t> target);

} // namespace tilescope::report
