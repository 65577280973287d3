// popops::SlicePlan and popops::embedding::plan's options: how a multiSlice or multiUpdate is
// split over the tiles (the planner itself is EmbeddingPlanner.cpp).

#include "popops/SlicePlanInternal.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <ostream>
#include <poplar/exceptions.hpp>
#include <tuple>

namespace popops {

SlicePlan::SlicePlan() : internal(std::make_unique<SlicePlanInternal>()) {}
SlicePlan::~SlicePlan() = default;
SlicePlan::SlicePlan(const SlicePlan& other)
    : internal(std::make_unique<SlicePlanInternal>(*other.internal)) {}
SlicePlan::SlicePlan(SlicePlan&& other)
    : internal(std::make_unique<SlicePlanInternal>(*other.internal)) {}
SlicePlan& SlicePlan::operator=(const SlicePlan& other) {
    *internal = *other.internal;
    return *this;
}
SlicePlan& SlicePlan::operator=(SlicePlan&& other) {
    *internal = *other.internal;
    return *this;
}
SlicePlan::SlicePlan(std::unique_ptr<SlicePlanInternal> impl) : internal(std::move(impl)) {}

namespace {
auto key(const SlicePlanInternal& p) {
    return std::tie(p.isNull, p.numEntries, p.elemsPerEntry, p.numLookups, p.slicedSplit,
                    p.unslicedSplit, p.lookupSplit, p.unslicedGrain, p.usedForSlice,
                    p.usedForUpdate, p.operationForUpdate);
}
} // namespace

bool operator<(const SlicePlan& a, const SlicePlan& b) noexcept {
    return key(*a.internal) < key(*b.internal);
}
bool operator==(const SlicePlan& a, const SlicePlan& b) noexcept {
    return key(*a.internal) == key(*b.internal);
}
bool operator!=(const SlicePlan& a, const SlicePlan& b) noexcept {
    return !(a == b);
}

std::ostream& operator<<(std::ostream& o, const SlicePlan& p) {
    const auto& i = *p.internal;
    if (i.isNull)
        return o << "SlicePlan: none (planned by each call)";
    return o << "SlicePlan: entries " << i.numEntries << " x " << i.elemsPerEntry << ", lookups "
             << i.numLookups << ", lookupSplit " << i.lookupSplit << ", slicedSplit "
             << i.slicedSplit << " (" << i.entriesPerPart() << " entries each), unslicedSplit "
             << i.unslicedSplit << " (" << i.elemsPerBlock() << " elements each, grain "
             << i.unslicedGrain << "), usedForSlice " << (i.usedForSlice ? "true" : "false")
             << ", usedForUpdate " << (i.usedForUpdate ? "true" : "false")
             << ", operationForUpdate " << i.operationForUpdate << ", estimated cycles "
             << i.estimates.totalCycles;
}

namespace embedding {

namespace {

bool parseBool(const std::string& name, const std::string& value) {
    if (value == "true")
        return true;
    if (value == "false")
        return false;
    throw poplar::invalid_option("popops::embedding::plan: option '" + name +
                                 "' must be 'true' or 'false', got '" + value + "'");
}

void parseChoice(const std::string& name, const std::string& value,
                 std::initializer_list<const char*> known) {
    std::string list;
    for (const char* k : known) {
        if (value == k)
            return;
        list += list.empty() ? k : std::string(", ") + k;
    }
    throw poplar::invalid_option("popops::embedding::plan: option '" + name + "' must be one of " +
                                 list + ", got '" + value + "'");
}

/// PopLibs' planConstraints: a JSON object fixing lookupSplit, slicedDimSplit,
/// unslicedDimSplit or unslicedGrainSize to positive integers.
void parseConstraints(const std::string& value, EmbeddingPlanOptions& opts) {
    const std::string what = "popops::embedding::plan: option 'planConstraints' ";
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(value);
    } catch (const nlohmann::json::exception& e) {
        throw poplar::invalid_option(what + "is not JSON: " + e.what());
    }
    if (!j.is_object())
        throw poplar::invalid_option(what + "must be a JSON object, got '" + value + "'");
    for (const auto& [key, v] : j.items()) {
        unsigned* field = key == "lookupSplit"         ? &opts.lookupSplit
                          : key == "slicedDimSplit"    ? &opts.slicedDimSplit
                          : key == "unslicedDimSplit"  ? &opts.unslicedDimSplit
                          : key == "unslicedGrainSize" ? &opts.unslicedGrainSize
                                                       : nullptr;
        if (!field)
            throw poplar::invalid_option(what + "has an unknown constraint '" + key +
                                         "' (known: lookupSplit, slicedDimSplit, "
                                         "unslicedDimSplit, unslicedGrainSize)");
        if (!v.is_number_unsigned() || v.get<std::uint64_t>() == 0 ||
            v.get<std::uint64_t>() > 0xFFFFFFFFu)
            throw poplar::invalid_option(what + "constraint '" + key +
                                         "' must be a positive integer, got " + v.dump());
        *field = v.get<unsigned>();
    }
}

} // namespace

SlicePlan plan(const poplar::Graph& graph, const poplar::Type& dataType, std::size_t numEntries,
               std::size_t outputSize, const std::vector<std::size_t>& numLookups,
               const poplar::OptionFlags& options) {
    // PopLibs' SliceOptions defaults: slice and update, ADD, 0.6 of a tile for temporaries,
    // uniformly distributed indices.
    EmbeddingPlanOptions opts;
    for (const auto& [name, value] : options) {
        if (name == "usedForSlice") {
            opts.usedForSlice = parseBool(name, value);
        } else if (name == "usedForUpdate") {
            opts.usedForUpdate = parseBool(name, value);
        } else if (name == "operationForUpdate") {
            parseChoice(name, value, {"none", "add", "max"});
            opts.operationForUpdate = value;
        } else if (name == "availableMemoryProportion") {
            std::size_t used = 0;
            double p = 0;
            try {
                p = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != value.size() || !(p > 0.0))
                throw poplar::invalid_option("popops::embedding::plan: option "
                                             "'availableMemoryProportion' must be a positive "
                                             "number, got '" +
                                             value + "'");
            opts.availableMemoryProportion = p;
        } else if (name == "indicesDistribution") {
            parseChoice(name, value, {"uniform", "onePoint"});
            opts.onePointIndices = value == "onePoint";
        } else if (name == "planMinimisationTarget") {
            parseChoice(name, value, {"memory", "cycles"});
            // PopLibs' later planner has only the cycles objective, which PopART asks for.
            if (value == "memory")
                throw poplar::invalid_option(
                    "popops::embedding::plan: planMinimisationTarget 'memory' is not "
                    "supported by the simulator; it plans for 'cycles' as PopLibs does");
        } else if (name == "planConstraints") {
            parseConstraints(value, opts);
        } else if (name == "indicesAreSorted") {
            parseBool(name, value);
        } else {
            throw poplar::invalid_option(
                "popops::embedding::plan: unknown option '" + name +
                "' (known: usedForSlice, usedForUpdate, operationForUpdate, planConstraints, "
                "availableMemoryProportion, indicesDistribution, planMinimisationTarget, "
                "indicesAreSorted)");
        }
    }
    if (!opts.usedForSlice && !opts.usedForUpdate)
        throw poplar::invalid_option("popops::embedding::plan: options 'usedForSlice' and "
                                     "'usedForUpdate' are both false");
    if (dataType != poplar::FLOAT && dataType != poplar::HALF && dataType != poplar::INT &&
        dataType != poplar::UNSIGNED_INT)
        throw poplar::poplar_error("popops::embedding::plan: data type " + dataType.toString() +
                                   " is not supported (FLOAT, HALF, INT, UNSIGNED_INT)");
    if (numEntries == 0 || outputSize == 0)
        throw poplar::poplar_error("popops::embedding::plan: numEntries (" +
                                   std::to_string(numEntries) + ") and outputSize (" +
                                   std::to_string(outputSize) + ") must be positive");
    // PopLibs plans for the largest number of lookups given.
    const std::size_t lookups =
        numLookups.empty() ? 1 : *std::max_element(numLookups.begin(), numLookups.end());
    auto impl = std::make_unique<SlicePlanInternal>(
        detail::planEmbedding(graph.getTarget(), dataType, numEntries, outputSize, lookups, opts));
    return SlicePlan(std::move(impl));
}

} // namespace embedding

} // namespace popops
