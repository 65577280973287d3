// The pva face's programs: a program's type from its kind, its children, the type's name.

#include "PvaState.hpp"

namespace pva {
namespace {

using detail::guarded;

Program::Type typeOf(std::string_view kind) {
    using T = Program::Type;
    static const std::pair<std::string_view, T> kinds[] = {
        {"Sequence", T::Sequence},
        {"Repeat", T::Repeat},
        {"RepeatWhile", T::RepeatWhileTrue},
        {"RepeatWhileTrue", T::RepeatWhileTrue},
        {"RepeatWhileFalse", T::RepeatWhileFalse},
        {"If", T::If},
        {"Switch", T::Switch},
        {"Call", T::Call},
        {"Copy", T::Copy},
        {"StreamCopy", T::StreamCopy},
        {"Execute", T::OnTileExecute},
        {"OnTileExecute", T::OnTileExecute},
        {"DoExchange", T::DoExchange},
        {"GlobalExchange", T::GlobalExchange},
        {"StreamCopyBegin", T::StreamCopyBegin},
        {"StreamCopyMid", T::StreamCopyMid},
        {"StreamCopyEnd", T::StreamCopyEnd},
        {"Sync", T::Sync},
        {"Block", T::Block},
    };
    for (const auto& [name, type] : kinds)
        if (name == kind)
            return type;
    return T::Unknown;
}

} // namespace

Program::Program(detail::StatePtr state, std::int64_t id, std::string name, std::string kind,
                 std::string debugPath, bool lowered)
    : state_(std::move(state)), id_(id), name_(std::move(name)), kind_(std::move(kind)),
      debugPath_(std::move(debugPath)), type_(typeOf(kind_)), lowered_(lowered) {}

std::vector<std::shared_ptr<Program>> Program::children() const {
    if (lowered_)
        return {};
    return guarded([&] {
        std::vector<std::shared_ptr<Program>> out;
        for (const auto& c : state_->r().children(id_))
            out.push_back(state_->makeProgram(c));
        return out;
    });
}

std::string toString(Program::Type type) {
    using T = Program::Type;
    switch (type) {
    case T::Sequence:
        return "Sequence";
    case T::Repeat:
        return "Repeat";
    case T::RepeatWhileTrue:
        return "RepeatWhileTrue";
    case T::RepeatWhileFalse:
        return "RepeatWhileFalse";
    case T::If:
        return "If";
    case T::Switch:
        return "Switch";
    case T::Call:
        return "Call";
    case T::Copy:
        return "Copy";
    case T::StreamCopy:
        return "StreamCopy";
    case T::OnTileExecute:
        return "OnTileExecute";
    case T::DoExchange:
        return "DoExchange";
    case T::GlobalExchange:
        return "GlobalExchange";
    case T::StreamCopyBegin:
        return "StreamCopyBegin";
    case T::StreamCopyMid:
        return "StreamCopyMid";
    case T::StreamCopyEnd:
        return "StreamCopyEnd";
    case T::Sync:
        return "Sync";
    case T::Block:
        return "Block";
    case T::Unknown:
        break;
    }
    return "Unknown";
}

} // namespace pva
