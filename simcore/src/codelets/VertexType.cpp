#include "tilescope/sim/VertexType.hpp"

#include <new>

namespace tilescope::sim {

namespace {

class FieldCollector final : public abi::FieldVisitor {
public:
    void field(const abi::FieldInfo& i) override {
        fields.push_back({i.name, i.direction, i.elementType, i.shape, i.itemIsVector, i.minAlign,
                          i.interleaved});
    }
    std::vector<FieldDescriptor> fields;
};

} // namespace

std::vector<FieldDescriptor> describeFields(const abi::VertexTypeInfo& info) {
    void* mem = ::operator new(info.size, std::align_val_t(info.alignment));
    info.construct(mem);
    FieldCollector collector;
    info.visitFields(mem, collector);
    info.destroy(mem);
    ::operator delete(mem, std::align_val_t(info.alignment));
    return collector.fields;
}

int VertexType::fieldIndex(std::string_view field) const {
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (fields[i].name == field)
            return static_cast<int>(i);
    return -1;
}

std::uint32_t VertexTypeRegistry::add(VertexType type) {
    auto shared = std::make_shared<const VertexType>(std::move(type));
    if (auto it = byName_.find(shared->name); it != byName_.end()) {
        types_[it->second] = std::move(shared);
        return it->second;
    }
    const auto index = static_cast<std::uint32_t>(types_.size());
    byName_.emplace(shared->name, index);
    types_.push_back(std::move(shared));
    return index;
}

int VertexTypeRegistry::find(std::string_view name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? -1 : static_cast<int>(it->second);
}

std::vector<std::string> VertexTypeRegistry::names() const {
    std::vector<std::string> out;
    for (const auto& [name, index] : byName_) {
        (void)index;
        out.push_back(name);
    }
    return out;
}

} // namespace tilescope::sim
