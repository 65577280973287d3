#include "tilescope/sim/Collectives.hpp"

#include "tilescope/sim/ElementConversion.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tilescope::sim {

std::string collectiveKindName(CollectiveKind k) {
    switch (k) {
    case CollectiveKind::AllReduce:
        return "allReduce";
    case CollectiveKind::ReduceScatter:
        return "reduceScatter";
    case CollectiveKind::AllGather:
        return "allGather";
    case CollectiveKind::AllToAll:
        return "allToAll";
    }
    return "collective";
}

std::string reduceOpName(ReduceOp op) {
    static const char* const names[] = {"ADD",         "MEAN",       "MUL",        "MIN",  "MAX",
                                        "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD", "LOCAL"};
    return names[static_cast<std::size_t>(op)];
}

void ReplicaGrouping::check(unsigned replicas) const {
    if (size == 0)
        return;
    if (stride == 0)
        throw std::invalid_argument("a replica group's stride must be at least 1");
    const std::uint64_t span = std::uint64_t{size} * stride;
    if (span > replicas || replicas % span != 0)
        throw std::invalid_argument(
            "groups of " + std::to_string(size) + " replicas" +
            (stride > 1 ? " " + std::to_string(stride) + " apart" : std::string()) +
            " do not divide the " + std::to_string(replicas) + " replicas");
}

std::vector<std::vector<unsigned>> ReplicaGrouping::groups(unsigned replicas) const {
    check(replicas);
    const unsigned k = groupSize(replicas);
    const unsigned s = size == 0 ? 1 : stride;
    std::vector<std::vector<unsigned>> out(replicas / k);
    for (unsigned r = 0; r < replicas; ++r) {
        const unsigned block = r / (k * s);
        const unsigned group = block * s + r % s;
        out[group].push_back(r); // ascending r gives ascending rank within a group
    }
    return out;
}

std::uint64_t collectiveOutputElements(CollectiveKind k, std::uint64_t inputElements,
                                       unsigned replicas) {
    switch (k) {
    case CollectiveKind::AllReduce:
    case CollectiveKind::AllToAll:
        return inputElements;
    case CollectiveKind::ReduceScatter:
        return (inputElements + replicas - 1) / replicas;
    case CollectiveKind::AllGather:
        return inputElements * replicas;
    }
    return inputElements;
}

namespace {

/// `v` as the device would hold it in `type` (HALF and FLOAT partials are rounded).
double roundTo(ElementType type, double v) {
    unsigned char bytes[8];
    storeElement(type, bytes, v);
    return loadElementAsDouble(type, bytes);
}

bool isLogical(ReduceOp op) {
    return op == ReduceOp::LogicalAnd || op == ReduceOp::LogicalOr;
}

/// Replica `r`'s contribution before combining (SquareAdd squares it).
double contribution(ReduceOp op, ElementType type, double x) {
    return op == ReduceOp::SquareAdd ? roundTo(type, x * x) : x;
}

double combine(ReduceOp op, double acc, double x) {
    switch (op) {
    case ReduceOp::Add:
    case ReduceOp::Mean:
    case ReduceOp::SquareAdd:
        return acc + x;
    case ReduceOp::Mul:
        return acc * x;
    case ReduceOp::Min:
        return std::min(acc, x);
    case ReduceOp::Max:
        return std::max(acc, x);
    case ReduceOp::LogicalAnd:
        return (acc != 0) && (x != 0) ? 1 : 0;
    case ReduceOp::LogicalOr:
        return (acc != 0) || (x != 0) ? 1 : 0;
    case ReduceOp::Local:
        return acc;
    }
    return acc;
}

} // namespace

void computeCollective(CollectiveKind kind, ReduceOp op, ElementType type,
                       std::uint64_t inputElements, const std::vector<const std::byte*>& inputs,
                       const std::vector<std::byte*>& outputs) {
    const auto replicas = static_cast<unsigned>(inputs.size());
    if (replicas == 0 || outputs.size() != replicas)
        throw std::invalid_argument("computeCollective: one input and one output per replica");
    if (kind != CollectiveKind::AllGather && kind != CollectiveKind::AllToAll) {
        if (isLogical(op) && type != ElementType::Bool)
            throw std::invalid_argument("collective operator " + reduceOpName(op) +
                                        " needs BOOL data, got " + elementTypeName(type));
        if (!isLogical(op) && op != ReduceOp::Local && type == ElementType::Bool)
            throw std::invalid_argument("collective operator " + reduceOpName(op) +
                                        " does not apply to BOOL data");
    }
    const unsigned size = elementSize(type);
    if (kind == CollectiveKind::AllToAll) {
        if (inputElements % replicas != 0)
            throw std::invalid_argument("an all-to-all over " + std::to_string(replicas) +
                                        " replicas needs a multiple of " +
                                        std::to_string(replicas) + " elements, got " +
                                        std::to_string(inputElements));
        const std::uint64_t block = inputElements / replicas * size;
        for (unsigned to = 0; to < replicas; ++to)
            for (unsigned from = 0; from < replicas; ++from)
                std::memcpy(outputs[to] + from * block, inputs[from] + to * block, block);
        return;
    }
    if (kind == CollectiveKind::AllGather) {
        for (unsigned r = 0; r < replicas; ++r)
            for (unsigned from = 0; from < replicas; ++from)
                std::memcpy(outputs[r] + std::uint64_t{from} * inputElements * size, inputs[from],
                            inputElements * size);
        return;
    }
    // The reduction of every element, then each replica's share of it.
    std::vector<std::byte> reduced(inputElements * size);
    if (op == ReduceOp::Local) {
        for (unsigned r = 0; r < replicas; ++r) {
            const std::uint64_t out = collectiveOutputElements(kind, inputElements, replicas);
            const std::uint64_t first = kind == CollectiveKind::ReduceScatter ? r * out : 0;
            std::fill(outputs[r], outputs[r] + out * size, std::byte{0});
            const std::uint64_t n =
                first >= inputElements ? 0 : std::min(out, inputElements - first);
            std::memcpy(outputs[r], inputs[r] + first * size, n * size);
        }
        return;
    }
    for (std::uint64_t i = 0; i < inputElements; ++i) {
        double acc = contribution(op, type, loadElementAsDouble(type, inputs[0] + i * size));
        for (unsigned r = 1; r < replicas; ++r)
            acc = roundTo(
                type,
                combine(op, acc,
                        contribution(op, type, loadElementAsDouble(type, inputs[r] + i * size))));
        if (op == ReduceOp::Mean)
            acc = acc / replicas;
        storeElement(type, reduced.data() + i * size, acc);
    }
    const std::uint64_t out = collectiveOutputElements(kind, inputElements, replicas);
    for (unsigned r = 0; r < replicas; ++r) {
        const std::uint64_t first = kind == CollectiveKind::ReduceScatter ? r * out : 0;
        std::fill(outputs[r], outputs[r] + out * size, std::byte{0});
        const std::uint64_t n = first >= inputElements ? 0 : std::min(out, inputElements - first);
        std::memcpy(outputs[r], reduced.data() + first * size, n * size);
    }
}

} // namespace tilescope::sim
