#include "tilescope/sim/LivenessAnalysis.hpp"

#include <algorithm>

namespace tilescope::sim {

namespace {

/// A fixed-size bit set over variables.
class VariableSet {
public:
    explicit VariableSet(std::size_t n = 0) : words_((n + 63) / 64, 0) {}
    void set(std::uint32_t v) { words_[v / 64] |= 1ull << (v % 64); }
    void reset(std::uint32_t v) { words_[v / 64] &= ~(1ull << (v % 64)); }
    bool test(std::uint32_t v) const { return (words_[v / 64] >> (v % 64)) & 1u; }
    /// this |= other; returns whether anything changed.
    bool merge(const VariableSet& other) {
        bool changed = false;
        for (std::size_t i = 0; i < words_.size(); ++i) {
            const auto w = words_[i] | other.words_[i];
            changed = changed || w != words_[i];
            words_[i] = w;
        }
        return changed;
    }
    friend bool operator==(const VariableSet&, const VariableSet&) = default;

private:
    std::vector<std::uint64_t> words_;
};

} // namespace

Liveness LivenessAnalysis::run(const GraphModel& model, const ProgramLowering& lowering) {
    const auto& cfg = lowering.cfg();
    const std::size_t numVars = model.variables.size();
    std::vector<VariableSet> liveIn(cfg.size(), VariableSet(numVars));

    // Iterate to a fixed point, visiting nodes in reverse creation order (mostly reverse program
    // order, so straight-line code converges in one pass and loops in a few).
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::size_t i = cfg.size(); i-- > 0;) {
            const auto& n = cfg[i];
            VariableSet out(numVars);
            for (auto s : n.successors)
                out.merge(liveIn[s]);
            for (auto v : n.kills)
                out.reset(v);
            for (auto v : n.reads)
                out.set(v);
            if (!(out == liveIn[i])) {
                liveIn[i] = std::move(out);
                changed = true;
            }
        }
    }

    Liveness result;
    result.alwaysLive.assign(numVars, false);
    result.liveSteps.assign(numVars, {});
    std::vector<bool> touched(numVars, false);
    for (const auto& n : cfg)
        for (const auto* list : {&n.reads, &n.kills, &n.partialWrites})
            for (auto v : *list)
                touched[v] = true;
    for (std::uint32_t v = 0; v < numVars; ++v) {
        const auto& var = model.variables[v];
        bool always = var.isConstant || !var.initialValue.empty() || !touched[v];
        for (auto e : lowering.entryNodes())
            always = always || liveIn[e].test(v);
        result.alwaysLive[v] = always;
    }
    for (const auto& h : model.hostHandles)
        for (const auto& r : h.tensor.ranges)
            result.alwaysLive[r.variable] = true;
    for (auto v : lowering.streamedVariables())
        result.alwaysLive[v] = true;

    // A variable occupies memory at a step if it is live into it or written by it.
    for (std::size_t i = 0; i < cfg.size(); ++i) {
        const auto& n = cfg[i];
        if (n.step < 0)
            continue;
        const auto step = static_cast<std::uint32_t>(n.step);
        for (std::uint32_t v = 0; v < numVars; ++v)
            if (!result.alwaysLive[v] && liveIn[i].test(v))
                result.liveSteps[v].push_back(step);
        for (const auto* list : {&n.kills, &n.partialWrites})
            for (auto v : *list)
                if (!result.alwaysLive[v])
                    result.liveSteps[v].push_back(step);
    }
    for (auto& steps : result.liveSteps) {
        std::sort(steps.begin(), steps.end());
        steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    }
    return result;
}

} // namespace tilescope::sim
