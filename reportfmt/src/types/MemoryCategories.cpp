#include "tilescope/report/ProfileTypes.hpp"

#include <stdexcept>
#include <string>

namespace tilescope::report {

const std::vector<MemoryCategory>& standardMemoryCategories() {
    // Ids are part of the format: append only.
    static const std::vector<MemoryCategory> categories = {
        {1, "vertex_code", "Vertex Code", "code", "always"},
        {2, "vertex_state", "Vertex Instance State", "data", "always"},
        {3, "vertex_descriptors", "Vector List Descriptors", "data", "always"},
        {4, "vertex_field_data", "Vertex Field Data", "data", "always"},
        {5, "control_code", "Control Code", "code", "always"},
        {6, "internal_exchange_code", "Internal Exchange Code", "exchange", "always"},
        {7, "host_exchange_code", "Host Exchange Code", "exchange", "always"},
        {8, "global_exchange_code", "Global Exchange Code", "exchange", "always"},
        // Written by older simulators only (receive buffers Poplar does not have); kept so that
        // their reports still open and name it.
        {9, "exchange_buffers", "Exchange Buffers", "exchange", "always"},
        {10, "always_live_variables", "Always-Live Variables", "variables", "always"},
        {11, "not_always_live_variables", "Not-Always-Live Variables (peak)", "variables",
         "not_always"},
        {12, "constants", "Constants", "variables", "always"},
        {13, "stack", "Stack", "stack", "always"},
        {14, "instrumentation", "Instrumentation Results", "data", "always"},
        {15, "gap", "Gaps", "gap", "none"},
        {16, "copy_descriptors", "Copy Descriptors", "data", "always"},
        {17, "host_exchange_packet_headers", "Host Exchange Packet Headers", "exchange", "always"},
        {18, "global_exchange_packet_headers", "Global Exchange Packet Headers", "exchange",
         "always"},
        {19, "control_table", "Control Table", "code", "always"},
    };
    return categories;
}

std::int64_t memoryCategoryId(std::string_view name) {
    for (const auto& c : standardMemoryCategories())
        if (c.name == name)
            return c.id;
    throw std::out_of_range("unknown memory category '" + std::string(name) + "'");
}

} // namespace tilescope::report
