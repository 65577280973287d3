#include "poplar/Program.hpp"

#include "poplar/exceptions.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <optional>

namespace poplar::program {

namespace sim = tilescope::sim;
using tilescope::capture::ProgramKind;

namespace {

sim::TensorView scalarPredicate(const Tensor& t, const char* program) {
    if (t.numElements() != 1)
        throw control_program_error(std::string(program) + ": the predicate '" + t.getName() +
                                    "' must have exactly one element, it has shape " +
                                    t.shapeToString());
    return t.view();
}

} // namespace

Program::Program() : node_(makeNode(ProgramKind::Sequence, {})) {}

bool Program::isEmpty() const {
    return node_->kind == ProgramKind::Sequence && node_->children.empty();
}

sim::ProgramNodePtr Program::makeNode(ProgramKind kind, const DebugContext& debugContext) {
    auto n = std::make_shared<sim::ProgramNode>();
    n->kind = kind;
    n->name = debugContext.getPathName();
    n->operation = debugContext.getId();
    return n;
}

Sequence::Sequence(const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Sequence, debugContext)) {}

Sequence::Sequence(std::initializer_list<Program> programs, const DebugContext& debugContext)
    : Sequence(debugContext) {
    for (const auto& p : programs)
        add(p);
}

void Sequence::add(const Program& p) {
    if (p.node() == node_)
        throw control_program_error("Sequence '" + node_->name + "' cannot contain itself");
    node_->children.push_back(p.node());
}

Execute::Execute(ComputeSet cs, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Execute, debugContext)) {
    node_->computeSet = cs.getId();
    node_->graph = GraphAccess::graph(cs);
}

Copy::Copy(const Tensor& src, const Tensor& dst, bool, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Copy, debugContext)) {
    if (src.elementType() != dst.elementType())
        throw type_error("Copy from tensor '" + src.getName() + "' of type " +
                         src.elementType().toString() + " to tensor '" + dst.getName() +
                         "' of type " + dst.elementType().toString() + ": types differ");
    // As in Poplar, both tensors are copied flattened: only the element counts must agree.
    if (src.numElements() != dst.numElements())
        throw control_program_error("Copy from tensor '" + src.getName() + "' of shape " +
                                    src.shapeToString() + " (" +
                                    std::to_string(src.numElements()) + " elements) to tensor '" +
                                    dst.getName() + "' of shape " + dst.shapeToString() + " (" +
                                    std::to_string(dst.numElements()) +
                                    " elements): the numbers of elements differ");
    node_->source = src.view();
    node_->destination = dst.view();
    if (node_->name.empty())
        node_->name = "Copy " + src.getName() + " -> " + dst.getName();
}

Copy::Copy(const DataStream& stream, const Tensor& dst, bool, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::StreamCopy, debugContext)) {
    if (stream.elementType() != dst.elementType())
        throw type_error("Copy from stream '" + stream.handle() + "' of type " +
                         stream.elementType().toString() + " to tensor '" + dst.getName() +
                         "' of type " + dst.elementType().toString() + ": types differ");
    if (stream.numElements() != dst.numElements())
        throw control_program_error("Copy from stream '" + stream.handle() + "' of " +
                                    std::to_string(stream.numElements()) + " elements to tensor '" +
                                    dst.getName() + "' of " + std::to_string(dst.numElements()) +
                                    " elements");
    node_->stream = stream.getId();
    node_->graph = stream.graph();
    node_->destination = dst.view();
    if (node_->name.empty())
        node_->name = "StreamCopy " + stream.handle() + " -> " + dst.getName();
}

Copy::Copy(const Tensor& src, const DataStream& stream, bool, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::StreamCopy, debugContext)) {
    if (stream.elementType() != src.elementType())
        throw type_error("Copy from tensor '" + src.getName() + "' of type " +
                         src.elementType().toString() + " to stream '" + stream.handle() +
                         "' of type " + stream.elementType().toString() + ": types differ");
    if (stream.numElements() != src.numElements())
        throw control_program_error("Copy from tensor '" + src.getName() + "' of " +
                                    std::to_string(src.numElements()) + " elements to stream '" +
                                    stream.handle() + "' of " +
                                    std::to_string(stream.numElements()) + " elements");
    node_->stream = stream.getId();
    node_->graph = stream.graph();
    node_->source = src.view();
    if (node_->name.empty())
        node_->name = "StreamCopy " + src.getName() + " -> " + stream.handle();
}

namespace {

/// Checks a copy between a remote buffer and a tensor; returns the offset view, if any.
std::optional<sim::TensorView> checkRemoteCopy(const RemoteBuffer& buffer, const Tensor& t,
                                               const Tensor* offset, bool toDevice) {
    const std::string what = toDevice ? "Copy from remote buffer '" + buffer.handle() +
                                            "' to tensor '" + t.getName() + "'"
                                      : "Copy from tensor '" + t.getName() +
                                            "' to remote buffer '" + buffer.handle() + "'";
    if (!buffer.graph())
        throw control_program_error(what + ": the remote buffer was not created by a graph");
    if (t.elementType() != buffer.elementType())
        throw type_error(what + ": the tensor is " + t.elementType().toString() +
                         ", the buffer " + buffer.elementType().toString());
    std::size_t rows = 1;
    if (offset) {
        if (offset->elementType() != UNSIGNED_INT)
            throw type_error(what + ": the offset tensor '" + offset->getName() +
                             "' must be UNSIGNED_INT, it is " + offset->elementType().toString());
        if (offset->rank() > 1)
            throw control_program_error(what + ": the offset tensor '" + offset->getName() +
                                        "' must be a scalar or of rank 1, it has shape " +
                                        offset->shapeToString());
        rows = offset->numElements();
        if (rows == 0)
            throw control_program_error(what + ": the offset tensor '" + offset->getName() +
                                        "' is empty");
    }
    if (t.numElements() != rows * buffer.numElements())
        throw control_program_error(
            what + ": the tensor has shape " + t.shapeToString() + " (" +
            std::to_string(t.numElements()) + " elements) but " + std::to_string(rows) +
            " row(s) of the buffer hold " + std::to_string(rows * buffer.numElements()));
    if (!offset)
        return std::nullopt;
    return offset->flatten().view();
}

/// Fills a StreamCopy node for a copy between a remote buffer and a tensor.
void setRemoteCopy(sim::ProgramNode& n, const RemoteBuffer& buffer, const Tensor& t,
                   const Tensor* offset, bool toDevice) {
    n.offset = checkRemoteCopy(buffer, t, offset, toDevice);
    n.remote = true;
    n.stream = buffer.getId();
    n.graph = buffer.graph();
    (toDevice ? n.destination : n.source) = t.view();
    if (n.name.empty())
        n.name = toDevice ? "RemoteCopy " + buffer.handle() + " -> " + t.getName()
                          : "RemoteCopy " + t.getName() + " -> " + buffer.handle();
}

} // namespace

Copy::Copy(const RemoteBuffer& buffer, const Tensor& dst, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::StreamCopy, debugContext)) {
    setRemoteCopy(*node_, buffer, dst, nullptr, true);
}

Copy::Copy(const RemoteBuffer& buffer, const Tensor& dst, const Tensor& offset,
           const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::StreamCopy, debugContext)) {
    setRemoteCopy(*node_, buffer, dst, &offset, true);
}

Copy::Copy(const Tensor& src, const RemoteBuffer& buffer, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::StreamCopy, debugContext)) {
    setRemoteCopy(*node_, buffer, src, nullptr, false);
}

Copy::Copy(const Tensor& src, const RemoteBuffer& buffer, const Tensor& offset,
           const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::StreamCopy, debugContext)) {
    setRemoteCopy(*node_, buffer, src, &offset, false);
}

Repeat::Repeat(unsigned count, const Program& body, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Repeat, debugContext)) {
    node_->repeatCount = count;
    node_->children = {body.node()};
}

RepeatWhileTrue::RepeatWhileTrue(const Program& cond, const Tensor& predicate, const Program& body,
                                 const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::RepeatWhileTrue, debugContext)) {
    node_->predicate = scalarPredicate(predicate, "RepeatWhileTrue");
    node_->children = {cond.node(), body.node()};
}

RepeatWhileFalse::RepeatWhileFalse(const Program& cond, const Tensor& predicate,
                                   const Program& body, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::RepeatWhileFalse, debugContext)) {
    node_->predicate = scalarPredicate(predicate, "RepeatWhileFalse");
    node_->children = {cond.node(), body.node()};
}

If::If(const Tensor& predicate, const Program& trueBody, const Program& falseBody,
       const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::If, debugContext)) {
    node_->predicate = scalarPredicate(predicate, "If");
    node_->children = {trueBody.node(), falseBody.node()};
}

If::If(const Tensor& predicate, const Program& trueBody, const DebugContext& debugContext)
    : If(predicate, trueBody, Sequence(), debugContext) {}

Switch::Switch(const Tensor& control, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Switch, debugContext)) {
    node_->predicate = scalarPredicate(control, "Switch");
    if (isFloatingPoint(node_->predicate->type))
        throw type_error("Switch: the control tensor '" + control.getName() +
                         "' must be integral, it is " + control.elementType().toString());
    node_->children = {Sequence().node()}; // the default case is always the last child
}

Switch::Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
               const DebugContext& debugContext)
    : Switch(control, debugContext) {
    for (const auto& [value, body] : cases)
        add(value, body);
}

Switch::Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
               const Program& defaultCase, const DebugContext& debugContext)
    : Switch(control, cases, debugContext) {
    node_->children.back() = defaultCase.node();
}

Switch& Switch::add(std::int32_t value, const Program& body) {
    for (auto v : node_->caseValues)
        if (v == value)
            throw control_program_error("Switch '" + node_->name + "' already has a case " +
                                        std::to_string(value));
    node_->caseValues.push_back(value);
    node_->children.insert(node_->children.end() - 1, body.node());
    return *this;
}

Call::Call(Function f, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Call, debugContext)) {
    node_->function = f.getId();
    node_->graph = f.graph();
}

PrintTensor::PrintTensor(const Tensor& t, const DebugContext& debugContext)
    : PrintTensor(t.getName(), t, debugContext) {}

PrintTensor::PrintTensor(StringRef title, const Tensor& t, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::PrintTensor, debugContext)) {
    node_->title = std::string(title);
    node_->source = t.view();
    if (node_->name.empty())
        node_->name = "PrintTensor " + node_->title;
}

WriteUndef::WriteUndef(const Tensor& t, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::WriteUndef, debugContext)) {
    node_->destination = t.view();
}

Sync::Sync(SyncType type, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Sync, debugContext)) {
    node_->globalSync = type != SyncType::INTERNAL;
}

Block::Block(const Program& p, const DebugContext& debugContext)
    : Program(makeNode(ProgramKind::Block, debugContext)) {
    node_->children = {p.node()};
}

} // namespace poplar::program
