#pragma once
// Byte-run copy plans: the element runs a tensor copy, an exchange or a vertex's gathered field
// moves, resolved once to (source address, destination address, length) and merged where both
// sides continue contiguously, so executing a plan is a loop of memcpy calls whose count grows
// with the contiguous pieces moved, not with how the tensors were sliced and concatenated.

#include "tilescope/sim/TensorView.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// A list of byte runs executed in order. Plans are built once (at engine load) against the
/// storage addresses of the variables, which must not move while a plan is in use.
class CopyPlan {
public:
    struct Run {
        const std::byte* source = nullptr;
        std::byte* destination = nullptr;
        std::size_t bytes = 0;
    };
    /// Storage address of each variable, indexed by variable.
    using Bases = std::vector<std::byte*>;

    /// The view's elements, row-major, into the contiguous buffer at `out`.
    static CopyPlan gather(const TensorView& view, const Bases& bases, std::byte* out);
    /// The contiguous buffer at `in` into the view's elements, row-major.
    static CopyPlan scatter(const std::byte* in, const TensorView& view, const Bases& bases);
    /// Element i of `source` to element i of `destination` directly (same type and element
    /// count). Only valid when the two share no element (see overlaps()): otherwise copy through
    /// a buffer with gather() and scatter().
    static CopyPlan direct(const TensorView& source, const TensorView& destination,
                           const Bases& bases);
    /// True when some element of `a` is also an element of `b`.
    static bool overlaps(const TensorView& a, const TensorView& b);
    /// gather() and scatter() executed at once without keeping a plan: a view's ranges are
    /// already its merged runs, so a one-sided copy needs no plan of its own (and no memory).
    static void gatherNow(const TensorView& view, const Bases& bases, std::byte* out);
    static void scatterNow(const std::byte* in, const TensorView& view, const Bases& bases);

    void execute() const;
    bool empty() const { return runs_.empty(); }
    const std::vector<Run>& runs() const { return runs_; }
    std::size_t bytes() const;

private:
    void add(const std::byte* source, std::byte* destination, std::size_t bytes);
    std::vector<Run> runs_;
};

} // namespace tilescope::sim
