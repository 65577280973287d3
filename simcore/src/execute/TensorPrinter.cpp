#include "tilescope/sim/TensorPrinter.hpp"

#include "tilescope/sim/ElementConversion.hpp"

#include <cstdio>

namespace tilescope::sim {

namespace {

std::string formatValue(ElementType type, const std::byte* p) {
    char buf[64];
    if (isFloatingPoint(type)) {
        std::snprintf(buf, sizeof buf, "%.7f", loadElementAsDouble(type, p));
    } else if (type == ElementType::UnsignedLongLong) {
        unsigned long long v;
        std::memcpy(&v, p, sizeof v);
        std::snprintf(buf, sizeof buf, "%llu", v);
    } else {
        std::snprintf(buf, sizeof buf, "%lld",
                      static_cast<long long>(loadElementAsInteger(type, p)));
    }
    return buf;
}

void printLevel(std::ostream& out, ElementType type, const std::vector<std::size_t>& shape,
                std::size_t dim, const std::byte*& p, unsigned size, const std::string& indent) {
    out << indent << '[';
    if (dim + 1 == shape.size()) {
        for (std::size_t i = 0; i < shape[dim]; ++i, p += size)
            out << (i ? " " : "") << formatValue(type, p);
        out << ']';
        return;
    }
    out << '\n';
    for (std::size_t i = 0; i < shape[dim]; ++i) {
        printLevel(out, type, shape, dim + 1, p, size, indent + " ");
        out << '\n';
    }
    out << indent << ']';
}

} // namespace

void printTensor(std::ostream& out, const std::string& title, ElementType type,
                 const std::vector<std::size_t>& shape, const std::vector<std::byte>& data) {
    out << title << ": ";
    const std::byte* p = data.data();
    if (shape.empty())
        out << formatValue(type, p);
    else
        printLevel(out, type, shape, 0, p, elementSize(type), "");
    out << '\n';
}

} // namespace tilescope::sim
