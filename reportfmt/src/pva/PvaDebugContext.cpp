// The pva face's debug information: DebugContext objects built from the report's operations.

#include "PvaState.hpp"

namespace pva {
namespace detail {

struct DebugContextAccess {
    static DebugContext make(const tilescope::report::OperationRecord& op) {
        DebugContext dc;
        dc.id_ = op.id;
        dc.name_ = op.name;
        dc.layer_ = op.layer;
        dc.debugPath_ = op.debugPath;
        dc.json_ = op.debugJson.empty() ? "{}" : op.debugJson;
        return dc;
    }

    static std::vector<DebugContext> make(std::vector<tilescope::report::OperationRecord> ops) {
        std::vector<DebugContext> out;
        out.reserve(ops.size());
        for (const auto& op : ops)
            out.push_back(make(op));
        return out;
    }
};

} // namespace detail

using detail::guarded;

std::vector<DebugContext> Program::debugContexts() const {
    // A step's lowered program has the id of the program it was lowered from: same operations.
    return guarded([&] {
        return detail::DebugContextAccess::make(detail::readerOf(state_).operationsOfProgram(id_));
    });
}

std::vector<DebugContext> Variable::debugContexts() const {
    if (!state_)
        return {};
    return guarded([&] {
        return detail::DebugContextAccess::make(detail::readerOf(state_).operationsOfVariable(id_));
    });
}

std::vector<DebugContext> Compilation::debugContexts() const {
    return guarded([&] {
        std::vector<DebugContext> out;
        for (std::int64_t after = 0;;) {
            auto page = detail::readerOf(state_).operations(after, 4096);
            if (page.empty())
                return out;
            after = page.back().id;
            for (auto& dc : detail::DebugContextAccess::make(std::move(page)))
                out.push_back(std::move(dc));
        }
    });
}

} // namespace pva
