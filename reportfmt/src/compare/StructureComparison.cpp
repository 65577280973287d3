// Structural comparison. Each report side is indexed once (program tree with name paths, step
// identities, the compared run's step cycles); step identities of both sides are interned in one
// table so that sequences of small integers can be aligned.

#include "tilescope/report/StructureComparison.hpp"

#include "ComparisonQueries.hpp"
#include "tilescope/report/SequenceAlignment.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace tilescope::report {
namespace {

// Separators inside matching keys: control characters that names do not contain, so a name
// holding '/' (as generated names do) cannot make two different paths equal.
constexpr char kDebugSeparator = '\x1f';
constexpr char kRepeatSeparator = '\x1e';

/// Gives keys repeated within one report a distinct suffix (its repeat count), so that the k-th
/// repeat matches the k-th repeat of the other report.
class RepeatCounter {
public:
    std::string distinct(std::string key) {
        const std::size_t n = seen_[key]++;
        if (n > 0)
            key += kRepeatSeparator + std::to_string(n);
        return key;
    }

private:
    std::unordered_map<std::string, std::size_t> seen_;
};

/// Row of an id: ids are usually consecutive in row order (the writer assigns them so), and then
/// the row is a subtraction; otherwise (a damaged or hand-made file) a hash map.
class RowIndex {
public:
    template <class Rows, class Id> void build(const Rows& rows, Id id) {
        dense_ = true;
        size_ = rows.size();
        base_ = rows.empty() ? 0 : id(rows.front());
        for (std::size_t i = 0; i < rows.size() && dense_; ++i)
            dense_ = id(rows[i]) == base_ + static_cast<std::int64_t>(i);
        if (dense_)
            return;
        map_.reserve(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i)
            map_.try_emplace(id(rows[i]), i);
    }
    std::optional<std::size_t> find(std::int64_t id) const {
        if (dense_) {
            if (id < base_ || id - base_ >= static_cast<std::int64_t>(size_))
                return std::nullopt;
            return static_cast<std::size_t>(id - base_);
        }
        const auto it = map_.find(id);
        return it == map_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }

private:
    bool dense_ = true;
    std::int64_t base_ = 0;
    std::size_t size_ = 0;
    std::unordered_map<std::int64_t, std::size_t> map_;
};

struct Side {
    const ProfileReader* reader = nullptr;
    std::size_t runPosition = 0;

    // Program tree (loaded by loadTree).
    bool treeLoaded = false;
    std::vector<compare::ProgramRow> programs;
    RowIndex programRow;
    std::vector<std::optional<std::size_t>> parent;
    std::vector<std::vector<std::size_t>> children;
    std::vector<std::size_t> preorder;
    std::vector<std::uint32_t> depth;
    std::vector<std::string> path;
    std::vector<std::string> key;

    // Steps and their identities (loadSteps).
    bool stepsLoaded = false;
    std::vector<compare::StepRow> steps;
    RowIndex stepRow;
    std::vector<std::int32_t> stepKey;
    std::vector<std::uint64_t> selfEstimated; // per program row

    // The compared run (loadRun).
    bool runLoaded = false;
    std::optional<RunRecord> run;
    std::vector<compare::RunStepRow> runSteps;
    std::vector<std::uint64_t> selfExecuted; // per program row
};

} // namespace

struct StructureComparison::State {
    Side source, target;
    // Step identities are triples of interned texts (program path, compute set, kind), so a
    // step's key costs a few integer hashes, not a string built per step.
    struct Identity {
        std::int32_t program, computeSet, kind;
        bool operator==(const Identity&) const = default;
    };
    struct IdentityHash {
        std::size_t operator()(const Identity& i) const {
            return (static_cast<std::size_t>(i.program) * 1000003u) ^
                   (static_cast<std::size_t>(i.computeSet) * 7919u) ^
                   static_cast<std::size_t>(i.kind);
        }
    };
    std::unordered_map<std::string, std::int32_t> textIds;
    std::vector<std::string> texts;
    std::unordered_map<Identity, std::int32_t, IdentityHash> keyIds;
    std::vector<Identity> keys;

    std::optional<ProgramComparison> programs;
    std::optional<OperationComparison> operations;
    std::optional<LivenessComparison> liveness;
    std::optional<ExecutionComparison> execution;

    std::int32_t text(const std::string& t) {
        auto [it, added] = textIds.try_emplace(t, static_cast<std::int32_t>(texts.size()));
        if (added)
            texts.push_back(t);
        return it->second;
    }

    std::int32_t intern(const Identity& identity) {
        auto [it, added] = keyIds.try_emplace(identity, static_cast<std::int32_t>(keys.size()));
        if (added)
            keys.push_back(identity);
        return it->second;
    }

    void loadTree(Side& s) {
        if (s.treeLoaded)
            return;
        s.treeLoaded = true;
        s.programs = compare::readPrograms(*s.reader);
        const std::size_t n = s.programs.size();
        s.programRow.build(s.programs, [](const compare::ProgramRow& p) { return p.id; });
        s.parent.assign(n, std::nullopt);
        s.children.assign(n, {});
        std::vector<std::size_t> roots;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& p = s.programs[i];
            const auto parent = p.parentId ? s.programRow.find(*p.parentId) : std::nullopt;
            if (parent && *parent != i) {
                s.parent[i] = *parent;
                s.children[*parent].push_back(i);
            } else {
                roots.push_back(i);
            }
        }
        const auto byPosition = [&](std::size_t a, std::size_t b) {
            return std::pair(s.programs[a].position, a) < std::pair(s.programs[b].position, b);
        };
        for (auto& c : s.children)
            std::sort(c.begin(), c.end(), byPosition);

        s.path.assign(n, {});
        s.depth.assign(n, 0);
        std::vector<bool> visited(n, false);
        // Pre-order walk from the roots; a damaged file whose parent links form a loop leaves
        // nodes unvisited, which are then walked as roots of their own.
        const auto walk = [&](const std::vector<std::size_t>& start, const std::string& prefix,
                              std::uint32_t startDepth) {
            struct Frame {
                std::vector<std::size_t> nodes;
                std::size_t next = 0;
                std::string prefix;
                std::uint32_t depth = 0;
                RepeatCounter repeats;
            };
            std::vector<Frame> stack;
            stack.push_back({start, 0, prefix, startDepth, {}});
            while (!stack.empty()) {
                Frame& f = stack.back();
                if (f.next == f.nodes.size()) {
                    stack.pop_back();
                    continue;
                }
                const std::size_t i = f.nodes[f.next++];
                if (visited[i])
                    continue;
                visited[i] = true;
                const std::string name = f.repeats.distinct(s.programs[i].name);
                // The repeat suffix is shown as "#k" in the path people see.
                std::string shown = name;
                if (const auto sep = shown.find(kRepeatSeparator); sep != std::string::npos)
                    shown[sep] = '#';
                s.path[i] = f.prefix.empty() ? shown : f.prefix + "/" + shown;
                s.depth[i] = f.depth;
                s.preorder.push_back(i);
                if (!s.children[i].empty()) {
                    Frame child{s.children[i], 0, s.path[i], f.depth + 1, {}};
                    stack.push_back(std::move(child));
                }
            }
        };
        walk(roots, "", 0);
        for (std::size_t i = 0; i < n; ++i)
            if (!visited[i]) {
                s.parent[i].reset();
                walk({i}, "", 0);
            }

        RepeatCounter keys;
        s.key.assign(n, {});
        for (const std::size_t i : s.preorder)
            s.key[i] = keys.distinct(s.path[i] + kDebugSeparator + s.programs[i].debugPath);
    }

    void loadSteps(Side& s) {
        if (s.stepsLoaded)
            return;
        loadTree(s);
        s.stepsLoaded = true;
        s.steps = compare::readSteps(*s.reader);
        s.selfEstimated.assign(s.programs.size(), 0);
        s.stepKey.reserve(s.steps.size());
        s.stepRow.build(s.steps, [](const compare::StepRow& st) { return st.id; });
        std::vector<std::int32_t> pathText(s.programs.size());
        for (std::size_t i = 0; i < s.programs.size(); ++i)
            pathText[i] = text(s.path[i]);
        for (std::size_t i = 0; i < s.steps.size(); ++i) {
            const auto& st = s.steps[i];
            const auto p = s.programRow.find(st.programId);
            if (p)
                s.selfEstimated[*p] += st.estimatedCycles;
            const std::int32_t program =
                p ? pathText[*p] : text(fmt::format("(program {})", st.programId));
            s.stepKey.push_back(intern({program, text(st.computeSet), text(st.kind)}));
        }
    }

    void loadRun(Side& s) {
        if (s.runLoaded)
            return;
        loadSteps(s);
        s.runLoaded = true;
        s.selfExecuted.assign(s.programs.size(), 0);
        const auto runs = s.reader->runs();
        if (s.runPosition >= runs.size())
            return;
        s.run = runs[s.runPosition];
        s.runSteps = compare::readRunStepCycles(*s.reader, *s.run);
        for (const auto& r : s.runSteps) {
            const auto st = s.stepRow.find(r.stepId);
            if (!st)
                continue;
            if (const auto p = s.programRow.find(s.steps[*st].programId))
                s.selfExecuted[*p] += r.cycles;
        }
    }

    std::int32_t runStepKey(const Side& s, std::int64_t stepId) {
        const auto row = s.stepRow.find(stepId);
        return row ? s.stepKey[*row]
                   : intern({text(fmt::format("(unknown step {})", stepId)), text(""), text("")});
    }
};

namespace {

/// Sums of `self` over each node's subtree.
std::vector<std::uint64_t> inclusive(const Side& s, const std::vector<std::uint64_t>& self) {
    std::vector<std::uint64_t> total = self;
    for (auto it = s.preorder.rbegin(); it != s.preorder.rend(); ++it)
        if (s.parent[*it])
            total[*s.parent[*it]] += total[*it];
    return total;
}

StepAlignment
align(const std::vector<std::int32_t>& sourceKeys, const std::vector<std::uint64_t>& sourceValues,
      const std::vector<std::int32_t>& targetKeys, const std::vector<std::uint64_t>& targetValues,
      const std::vector<std::int64_t>& sourceIds, const std::vector<std::int64_t>& targetIds) {
    StepAlignment a;
    const auto pairs = alignSequences(sourceKeys, targetKeys);
    a.steps.reserve(pairs.size());
    for (const auto& p : pairs) {
        AlignedStep s;
        if (p.source) {
            s.source = sourceIds[*p.source];
            s.sourceValue = sourceValues[*p.source];
            s.key = sourceKeys[*p.source];
            a.total.source += s.sourceValue;
        }
        if (p.target) {
            s.target = targetIds[*p.target];
            s.targetValue = targetValues[*p.target];
            s.key = targetKeys[*p.target];
            a.total.target += s.targetValue;
        }
        (p.source && p.target ? a.matched : (p.source ? a.removed : a.added))++;
        a.steps.push_back(s);
    }
    a.byRegression.resize(a.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i)
        a.byRegression[i] = static_cast<std::uint32_t>(i);
    std::stable_sort(a.byRegression.begin(), a.byRegression.end(),
                     [&](std::uint32_t x, std::uint32_t y) {
                         return a.steps[x].difference() > a.steps[y].difference();
                     });
    return a;
}

void countStatus(MatchStatus status, std::size_t& matched, std::size_t& added,
                 std::size_t& removed) {
    (status == MatchStatus::Matched ? matched : (status == MatchStatus::Added ? added : removed))++;
}

} // namespace

StructureComparison::StructureComparison(const ProfileReader& source, const ProfileReader& target,
                                         std::size_t sourceRun, std::size_t targetRun)
    : state_(std::make_unique<State>()) {
    state_->source.reader = &source;
    state_->source.runPosition = sourceRun;
    state_->target.reader = &target;
    state_->target.runPosition = targetRun;
}

StructureComparison::~StructureComparison() = default;

std::string StructureComparison::keyLabel(std::int32_t key) const {
    const auto& k = state_->keys.at(static_cast<std::size_t>(key));
    const auto& t = state_->texts;
    // Parts a step does not have (no compute set: an exchange, a sync) are left out rather than
    // shown as empty fields ("prog |  | Sync").
    std::string label;
    for (const std::int32_t part : {k.program, k.computeSet, k.kind}) {
        const std::string& text = t[static_cast<std::size_t>(part)];
        if (text.empty())
            continue;
        if (!label.empty())
            label += " | ";
        label += text;
    }
    return label.empty() ? std::string("(unnamed step)") : label;
}

namespace {

/// A figure only one side has: in the source for a removed row, in the target for an added one.
ComparedValue oneSided(MatchStatus status, std::uint64_t value) {
    const bool source = status == MatchStatus::Removed;
    return {source ? value : 0, source ? 0 : value, source, !source};
}

/// The row of program `i` of `s` as one side alone has it (Removed for the source, Added for the
/// target; a source row becomes Matched when the target has it too). `rowOf` gives the rows of
/// the side's programs already made, its parent's among them (pre-order).
ProgramDelta oneSidedProgramRow(const Side& s, std::size_t i, MatchStatus status,
                                std::uint64_t estimated, std::uint64_t executed,
                                const std::vector<std::size_t>& rowOf) {
    const auto& p = s.programs[i];
    ProgramDelta d;
    d.path = s.path[i];
    d.name = p.name;
    d.debugPath = p.debugPath;
    d.kind = p.kind;
    d.status = status;
    (status == MatchStatus::Removed ? d.sourceId : d.targetId) = p.id;
    if (s.parent[i])
        d.parentRow = rowOf[*s.parent[i]];
    d.depth = s.depth[i];
    d.codeBytes = oneSided(status, p.codeBytes);
    d.estimatedCycles = oneSided(status, estimated);
    d.executedCycles = oneSided(status, executed);
    return d;
}

} // namespace

const ProgramComparison& StructureComparison::programs() {
    if (state_->programs)
        return *state_->programs;
    State& st = *state_;
    Side& src = st.source;
    Side& tgt = st.target;
    st.loadRun(src);
    st.loadRun(tgt);
    const auto srcEstimated = inclusive(src, src.selfEstimated);
    const auto srcExecuted = inclusive(src, src.selfExecuted);
    const auto tgtEstimated = inclusive(tgt, tgt.selfEstimated);
    const auto tgtExecuted = inclusive(tgt, tgt.selfExecuted);

    ProgramComparison c;
    std::unordered_map<std::string, std::size_t> rowOfKey;
    rowOfKey.reserve(src.programs.size());
    c.rows.reserve(src.programs.size());
    std::vector<std::size_t> rowOfSource(src.programs.size(), 0);
    for (const std::size_t i : src.preorder) {
        ProgramDelta d = oneSidedProgramRow(src, i, MatchStatus::Removed, srcEstimated[i],
                                            srcExecuted[i], rowOfSource);
        rowOfSource[i] = c.rows.size();
        rowOfKey.emplace(src.key[i], c.rows.size());
        c.rows.push_back(std::move(d));
    }
    std::vector<std::size_t> rowOfTarget(tgt.programs.size(), 0);
    for (const std::size_t i : tgt.preorder) {
        const auto& p = tgt.programs[i];
        const auto it = rowOfKey.find(tgt.key[i]);
        if (it != rowOfKey.end()) {
            ProgramDelta& d = c.rows[it->second];
            d.status = MatchStatus::Matched;
            d.targetId = p.id;
            d.codeBytes.target = p.codeBytes;
            d.estimatedCycles.target = tgtEstimated[i];
            d.executedCycles.target = tgtExecuted[i];
            d.codeBytes.inTarget = d.estimatedCycles.inTarget = d.executedCycles.inTarget = true;
            rowOfTarget[i] = it->second;
            continue;
        }
        ProgramDelta d = oneSidedProgramRow(tgt, i, MatchStatus::Added, tgtEstimated[i],
                                            tgtExecuted[i], rowOfTarget);
        rowOfTarget[i] = c.rows.size();
        c.rows.push_back(std::move(d));
    }
    for (const auto& d : c.rows)
        countStatus(d.status, c.matched, c.added, c.removed);
    state_->programs = std::move(c);
    return *state_->programs;
}

namespace {

struct OperationTotals {
    std::uint64_t estimated = 0, executed = 0, code = 0;
};

/// Totals over the union of the subtrees of an operation's programs (each program once).
OperationTotals operationTotals(const Side& s, const std::vector<std::int64_t>& programIds,
                                std::vector<std::uint32_t>& stamp, std::uint32_t mark) {
    OperationTotals t;
    std::vector<std::size_t> todo;
    for (const auto id : programIds)
        if (const auto row = s.programRow.find(id))
            todo.push_back(*row);
    while (!todo.empty()) {
        const std::size_t i = todo.back();
        todo.pop_back();
        if (stamp[i] == mark)
            continue;
        stamp[i] = mark;
        t.estimated += s.selfEstimated[i];
        t.executed += s.selfExecuted[i];
        t.code += s.programs[i].codeBytes;
        todo.insert(todo.end(), s.children[i].begin(), s.children[i].end());
    }
    return t;
}

} // namespace

const OperationComparison& StructureComparison::operations() {
    if (state_->operations)
        return *state_->operations;
    State& st = *state_;
    Side& src = st.source;
    Side& tgt = st.target;
    st.loadRun(src);
    st.loadRun(tgt);

    OperationComparison c;
    std::unordered_map<std::string, std::size_t> rowOfKey;
    {
        RepeatCounter keys;
        std::vector<std::uint32_t> stamp(src.programs.size(), 0);
        std::uint32_t mark = 0;
        for (const auto& op : compare::readOperations(*src.reader)) {
            const auto t = operationTotals(src, op.programIds, stamp, ++mark);
            OperationDelta d;
            d.name = op.name;
            d.debugPath = op.debugPath;
            d.layer = op.layer;
            d.status = MatchStatus::Removed;
            d.sourceId = op.id;
            d.estimatedCycles = {t.estimated, 0, true, false};
            d.executedCycles = {t.executed, 0, true, false};
            d.codeBytes = {t.code, 0, true, false};
            d.variableBytes = {op.variableBytes, 0, true, false};
            d.flops = {op.flops.value_or(0), 0, op.flops.has_value(), false};
            rowOfKey.emplace(keys.distinct(op.name + kDebugSeparator + op.debugPath),
                             c.rows.size());
            c.rows.push_back(std::move(d));
        }
    }
    {
        RepeatCounter keys;
        std::vector<std::uint32_t> stamp(tgt.programs.size(), 0);
        std::uint32_t mark = 0;
        for (const auto& op : compare::readOperations(*tgt.reader)) {
            const auto t = operationTotals(tgt, op.programIds, stamp, ++mark);
            const auto it = rowOfKey.find(keys.distinct(op.name + kDebugSeparator + op.debugPath));
            OperationDelta* d = nullptr;
            if (it != rowOfKey.end()) {
                d = &c.rows[it->second];
                d->status = MatchStatus::Matched;
            } else {
                c.rows.emplace_back();
                d = &c.rows.back();
                d->name = op.name;
                d->debugPath = op.debugPath;
                d->layer = op.layer;
                d->status = MatchStatus::Added;
                d->estimatedCycles.inSource = d->executedCycles.inSource = false;
                d->codeBytes.inSource = d->variableBytes.inSource = d->flops.inSource = false;
            }
            d->targetId = op.id;
            d->estimatedCycles.target = t.estimated;
            d->executedCycles.target = t.executed;
            d->codeBytes.target = t.code;
            d->variableBytes.target = op.variableBytes;
            d->estimatedCycles.inTarget = d->executedCycles.inTarget = true;
            d->codeBytes.inTarget = d->variableBytes.inTarget = true;
            d->flops.target = op.flops.value_or(0);
            d->flops.inTarget = op.flops.has_value();
        }
    }
    for (const auto& d : c.rows)
        countStatus(d.status, c.matched, c.added, c.removed);
    state_->operations = std::move(c);
    return *state_->operations;
}

const LivenessComparison& StructureComparison::liveness() {
    if (state_->liveness)
        return *state_->liveness;
    State& st = *state_;
    st.loadSteps(st.source);
    st.loadSteps(st.target);
    const auto series = [](const Side& s, std::vector<std::uint64_t>& values,
                           std::vector<std::int64_t>& ids) {
        for (const auto& step : s.steps) {
            values.push_back(step.notAlwaysLiveBytes);
            ids.push_back(step.id);
        }
    };
    std::vector<std::uint64_t> sv, tv;
    std::vector<std::int64_t> sid, tid;
    series(st.source, sv, sid);
    series(st.target, tv, tid);
    LivenessComparison c;
    c.alignment = align(st.source.stepKey, sv, st.target.stepKey, tv, sid, tid);
    c.peakNotAlwaysLiveBytes.source = sv.empty() ? 0 : *std::max_element(sv.begin(), sv.end());
    c.peakNotAlwaysLiveBytes.target = tv.empty() ? 0 : *std::max_element(tv.begin(), tv.end());
    state_->liveness = std::move(c);
    return *state_->liveness;
}

const ExecutionComparison& StructureComparison::execution() {
    if (state_->execution)
        return *state_->execution;
    State& st = *state_;
    st.loadRun(st.source);
    st.loadRun(st.target);
    const auto series = [&](const Side& s, std::vector<std::int32_t>& keys,
                            std::vector<std::uint64_t>& values, std::vector<std::int64_t>& seqs) {
        keys.reserve(s.runSteps.size());
        for (std::size_t i = 0; i < s.runSteps.size(); ++i) {
            keys.push_back(st.runStepKey(s, s.runSteps[i].stepId));
            values.push_back(s.runSteps[i].cycles);
            seqs.push_back(static_cast<std::int64_t>(i));
        }
    };
    std::vector<std::int32_t> sk, tk;
    std::vector<std::uint64_t> sv, tv;
    std::vector<std::int64_t> sseq, tseq;
    series(st.source, sk, sv, sseq);
    series(st.target, tk, tv, tseq);
    ExecutionComparison c;
    c.sourceRun = st.source.run;
    c.targetRun = st.target.run;
    c.alignment = align(sk, sv, tk, tv, sseq, tseq);
    state_->execution = std::move(c);
    return *state_->execution;
}

} // namespace tilescope::report
