#include "OperationRecords.hpp"

#include "tilescope/sim/OperationRegistry.hpp"

#include <algorithm>
#include <map>

namespace tilescope::sim {

void recordOperations(const GraphModel& model, const ProgramLowering& lowering,
                      capture::CompileRecords& records) {
    struct Members {
        std::vector<std::uint32_t> programs;
        std::vector<std::uint32_t> variables;
    };
    std::map<std::uint64_t, Members> byOperation;
    for (std::uint32_t v = 0; v < model.variables.size(); ++v)
        if (model.variables[v].operation)
            byOperation[model.variables[v].operation].variables.push_back(v);
    for (const auto& [node, record] : lowering.programRecords()) {
        std::uint64_t op = node->operation;
        if (!op && node->kind == capture::ProgramKind::Execute &&
            node->computeSet < model.computeSets.size())
            op = model.computeSets[node->computeSet].operation;
        if (op)
            byOperation[op].programs.push_back(record);
    }
    if (byOperation.empty())
        return;

    // Enclosing operations (a user layer around PopLibs calls) appear even if they created
    // nothing themselves, so that the report shows the nesting.
    const auto& registry = OperationRegistry::instance();
    std::map<std::uint64_t, OperationInfo> infos;
    std::vector<std::uint64_t> pending;
    for (const auto& [id, members] : byOperation)
        pending.push_back(id);
    while (!pending.empty()) {
        const std::uint64_t id = pending.back();
        pending.pop_back();
        if (infos.count(id))
            continue;
        auto info = registry.find(id);
        if (!info)
            continue;
        if (info->parent)
            pending.push_back(info->parent);
        infos.emplace(id, std::move(*info));
    }

    std::map<std::uint64_t, std::int64_t> indexOf;
    auto next = static_cast<std::int64_t>(records.operations.size());
    for (const auto& [id, info] : infos) // ids grow with creation: parents come first
        indexOf[id] = next++;
    for (const auto& [id, info] : infos) {
        capture::OperationRecord rec;
        rec.name = info.name();
        rec.debugPath = info.path;
        rec.layer = info.layer;
        rec.debugJson = info.debugJson();
        if (auto p = indexOf.find(info.parent); p != indexOf.end())
            rec.parent = p->second;
        if (auto m = byOperation.find(id); m != byOperation.end()) {
            rec.programs = std::move(m->second.programs);
            rec.variables = std::move(m->second.variables);
            std::sort(rec.programs.begin(), rec.programs.end());
        }
        rec.flops = info.flops;
        records.operations.push_back(std::move(rec));
    }
}

} // namespace tilescope::sim
