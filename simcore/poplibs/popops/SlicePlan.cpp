// popops::SlicePlan and popops::embedding::plan: how a multiSlice or multiUpdate is split over
// the tiles.

#include "popops/SlicePlanInternal.hpp"

#include <algorithm>
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
    return std::tie(p.isNull, p.numEntries, p.elemsPerEntry, p.slicedSplit, p.unslicedSplit,
                    p.unslicedGrain, p.usedForSlice, p.usedForUpdate, p.operationForUpdate);
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
    return o << "SlicePlan: entries " << i.numEntries << " x " << i.elemsPerEntry
             << ", slicedSplit " << i.slicedSplit << " (" << i.entriesPerPart()
             << " entries each), unslicedSplit " << i.unslicedSplit << " (" << i.elemsPerBlock()
             << " elements each, grain " << i.unslicedGrain << "), usedForSlice "
             << (i.usedForSlice ? "true" : "false") << ", usedForUpdate "
             << (i.usedForUpdate ? "true" : "false") << ", operationForUpdate "
             << i.operationForUpdate;
}

namespace detail {

SlicePlanInternal planEmbedding(const poplar::Target& target, const poplar::Type& type,
                                std::size_t numEntries, std::size_t elemsPerEntry,
                                double memoryProportion) {
    SlicePlanInternal p;
    p.isNull = false;
    p.numEntries = numEntries;
    p.elemsPerEntry = elemsPerEntry;
    const unsigned tiles = target.getNumTiles();
    // PopLibs' embedding planner (lib/popops/DynamicSlice.cpp, SDK 2.x): the unsliced grain is
    // the fewest elements filling a whole atomic store, lcm(atomic store granularity, element
    // size) / element size: 1 FLOAT, 2 HALFs. Not the vector width.
    const unsigned elemBytes = target.getTypeSize(type);
    const unsigned atom = target.getAtomicStoreGranularity();
    p.unslicedGrain = std::max(1u, std::lcm(atom, elemBytes) / elemBytes);
    const std::size_t grains = (elemsPerEntry + p.unslicedGrain - 1) / p.unslicedGrain;
    p.unslicedSplit = static_cast<unsigned>(std::clamp<std::size_t>(grains, 1, tiles));
    // Recompute the split from the block size so that no block is empty.
    const std::size_t block = p.elemsPerBlock();
    p.unslicedSplit =
        static_cast<unsigned>(std::max<std::size_t>(1, (elemsPerEntry + block - 1) / block));
    const unsigned maxParts = std::max(1u, tiles / p.unslicedSplit);
    const double budget = memoryProportion * static_cast<double>(target.getBytesPerTile());
    const std::size_t bytesPerEntry = block * target.getTypeSize(type);
    unsigned parts = 1;
    while (parts < maxParts &&
           parts<numEntries&& static_cast<double>((numEntries + parts - 1) / parts * bytesPerEntry)>
               budget)
        parts = std::min(maxParts, parts * 2);
    p.slicedSplit =
        static_cast<unsigned>(std::min<std::size_t>(parts, std::max<std::size_t>(1, numEntries)));
    return p;
}

} // namespace detail

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

} // namespace

SlicePlan plan(const poplar::Graph& graph, const poplar::Type& dataType, std::size_t numEntries,
               std::size_t outputSize, const std::vector<std::size_t>& numLookups,
               const poplar::OptionFlags& options) {
    // PopLibs leaves the embedding's share of tile memory open when the option is not given; a
    // plan still has to keep the table within a tile, so take poplin's default share (0.6).
    double memoryProportion = 0.6;
    bool usedForSlice = true, usedForUpdate = true;
    std::string operation = "add";
    for (const auto& [name, value] : options) {
        if (name == "usedForSlice") {
            usedForSlice = parseBool(name, value);
        } else if (name == "usedForUpdate") {
            usedForUpdate = parseBool(name, value);
        } else if (name == "operationForUpdate") {
            parseChoice(name, value, {"none", "add", "max"});
            operation = value;
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
            memoryProportion = p;
        } else if (name == "indicesDistribution") {
            parseChoice(name, value, {"uniform", "onePoint"});
        } else if (name == "planMinimisationTarget") {
            parseChoice(name, value, {"memory", "cycles"});
        } else if (name == "indicesAreSorted") {
            parseBool(name, value);
        } else {
            throw poplar::invalid_option(
                "popops::embedding::plan: unknown option '" + name +
                "' (known: usedForSlice, usedForUpdate, operationForUpdate, "
                "availableMemoryProportion, indicesDistribution, planMinimisationTarget, "
                "indicesAreSorted)");
        }
    }
    if (!usedForSlice && !usedForUpdate)
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
    (void)numLookups; // the split does not depend on the number of lookups yet
    auto impl = std::make_unique<SlicePlanInternal>(detail::planEmbedding(
        graph.getTarget(), dataType, numEntries, outputSize, memoryProportion));
    impl->usedForSlice = usedForSlice;
    impl->usedForUpdate = usedForUpdate;
    impl->operationForUpdate = operation;
    return SlicePlan(std::move(impl));
}

} // namespace embedding

} // namespace popops
