// The pva face's memory: the format's categories as MemoryCategories' members, and each tile's
// memory by category.

#include "PvaState.hpp"

namespace pva {
namespace {

struct CategoryMember {
    std::string_view name;
    MemoryCategory MemoryCategories::*member;
    bool alwaysLive;
};

// The format's categories (see MemoryCategories.cpp) and the members that hold them.
constexpr CategoryMember kCategoryMembers[] = {
    {"vertex_code", &MemoryCategories::vertexCode, true},
    {"vertex_state", &MemoryCategories::vertexInstanceState, true},
    {"vertex_descriptors", &MemoryCategories::vertexDescriptors, true},
    {"vertex_field_data", &MemoryCategories::vertexFieldData, true},
    {"control_code", &MemoryCategories::controlCode, true},
    {"internal_exchange_code", &MemoryCategories::internalExchangeCode, true},
    {"host_exchange_code", &MemoryCategories::hostExchangeCode, true},
    {"global_exchange_code", &MemoryCategories::globalExchangeCode, true},
    {"exchange_buffers", &MemoryCategories::exchangeBuffers, true},
    {"always_live_variables", &MemoryCategories::variable, true},
    {"not_always_live_variables", &MemoryCategories::notAlwaysLiveVariable, false},
    {"constants", &MemoryCategories::constant, true},
    {"stack", &MemoryCategories::stack, true},
    {"instrumentation", &MemoryCategories::instrumentationResults, true},
    {"gap", &MemoryCategories::gap, false},
    {"copy_descriptors", &MemoryCategories::copyDescriptor, true},
    {"host_exchange_packet_headers", &MemoryCategories::hostExchangePacketHeader, true},
    {"global_exchange_packet_headers", &MemoryCategories::globalExchangePacketHeader, true},
    {"control_table", &MemoryCategories::controlTable, true},
};

const CategoryMember* findCategory(std::string_view name) {
    for (const auto& c : kCategoryMembers)
        if (c.name == name)
            return &c;
    return nullptr;
}

} // namespace

namespace detail {

std::vector<Tile> ReportState::tiles() const {
    const auto& t = r().target();
    std::vector<Tile> out(t.numTiles());
    for (unsigned i = 0; i < out.size(); ++i) {
        out[i].number_ = i;
        out[i].ipu_ = i / t.tilesPerIpu;
        out[i].tileOnIpu_ = i % t.tilesPerIpu;
    }
    std::unordered_map<std::int64_t, bool> interleaved;
    for (const auto& region : t.regions)
        interleaved[region.id] = region.interleaved;
    for (const auto& row : r().tileMemoryTotals()) {
        const auto name = categoryNames.find(row.categoryId);
        const CategoryMember* c =
            name == categoryNames.end() ? nullptr : findCategory(name->second);
        if (!c)
            continue; // a category this face does not know: not counted in any member
        const bool inInterleaved = interleaved[row.regionId];
        const auto perTile = r().tileMemory(row.categoryId, row.regionId);
        for (std::size_t i = 0; i < out.size() && i < perTile.size(); ++i) {
            MemoryCategory& m = out[i].memory_.categories_.*(c->member);
            (inInterleaved ? m.interleaved_ : m.nonInterleaved_) += perTile[i];
        }
    }
    return out;
}

} // namespace detail

const MemoryCategory& MemoryCategories::byName(const std::string& name) const {
    const CategoryMember* c = findCategory(name);
    if (!c)
        throw error("unknown memory category '" + name + "'");
    return this->*(c->member);
}

TotalMemory TileMemory::total() const {
    TotalMemory t;
    for (const auto& c : kCategoryMembers)
        t.includingGaps_ += (categories_.*(c.member)).total();
    t.excludingGaps_ = t.includingGaps_ - categories_.gap.total();
    return t;
}

std::uint64_t TileMemory::alwaysLiveBytes() const {
    std::uint64_t sum = 0;
    for (const auto& c : kCategoryMembers)
        if (c.alwaysLive)
            sum += (categories_.*(c.member)).total();
    return sum;
}

} // namespace pva
