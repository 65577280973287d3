#include "poplar/Tensor.hpp"

#include "poplar/exceptions.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

namespace poplar {

namespace sim = tilescope::sim;

namespace {

std::string shapeString(const std::vector<std::size_t>& shape) {
    std::string s = "{";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "}";
}

std::string describe(const sim::TensorView& v) {
    return "tensor '" + v.name + "' of shape " + shapeString(v.shape);
}

} // namespace

const sim::TensorView& Tensor::checkedView(const char* what) const {
    if (!view_)
        throw poplar_error(std::string(what) +
                           ": the tensor is not initialised (default-constructed "
                           "Tensor)");
    return *view_;
}

const sim::TensorView& Tensor::view() const {
    return checkedView("Tensor::view");
}
Type Tensor::elementType() const {
    return Type(checkedView("elementType").type);
}
std::vector<std::size_t> Tensor::shape() const {
    return checkedView("shape").shape;
}
unsigned Tensor::rank() const {
    return static_cast<unsigned>(checkedView("rank").shape.size());
}
std::size_t Tensor::numElements() const {
    return sim::views::product(checkedView("numElements").shape);
}
const std::string& Tensor::getName() const {
    return checkedView("getName").name;
}

std::size_t Tensor::dim(unsigned i) const {
    const auto& v = checkedView("dim");
    if (i >= v.shape.size())
        throw index_error("Dimension " + std::to_string(i) + " is out of range for " + describe(v) +
                          " (rank " + std::to_string(v.shape.size()) + ")");
    return v.shape[i];
}

Tensor Tensor::operator[](std::size_t i) const {
    const auto& v = checkedView("operator[]");
    if (v.shape.empty())
        throw index_error("Cannot index scalar " + describe(v));
    if (i >= v.shape[0])
        throw index_error("Index " + std::to_string(i) + " is out of range for dimension 0 of " +
                          describe(v));
    auto s = sim::views::slice(v, i, i + 1, 0);
    s.shape.erase(s.shape.begin());
    return Tensor(std::move(s));
}

Tensor Tensor::slice(std::size_t begin, std::size_t end, unsigned dimension) const {
    const auto& v = checkedView("slice");
    if (dimension >= v.shape.size())
        throw index_error("Slice dimension " + std::to_string(dimension) + " is out of range for " +
                          describe(v));
    if (begin > end || end > v.shape[dimension])
        throw index_error("Slice [" + std::to_string(begin) + ", " + std::to_string(end) +
                          ") is out of range for dimension " + std::to_string(dimension) + " of " +
                          describe(v));
    return Tensor(sim::views::slice(v, begin, end, dimension));
}

Tensor Tensor::slice(const Interval& region, unsigned dimension) const {
    return slice(region.begin(), region.end(), dimension);
}

Tensor Tensor::slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const {
    const auto& v = checkedView("slice");
    if (begin.size() != v.shape.size() || end.size() != v.shape.size())
        throw index_error("Multi-dimensional slice of " + describe(v) + " needs " +
                          std::to_string(v.shape.size()) + " begin and end indices");
    Tensor t = *this;
    for (unsigned d = 0; d < v.shape.size(); ++d)
        t = t.slice(begin[d], end[d], d);
    return t;
}

std::vector<Tensor> Tensor::slices(ArrayRef<Interval> intervals, unsigned dimension) const {
    std::vector<Tensor> out;
    for (const auto& i : intervals)
        out.push_back(slice(i, dimension));
    return out;
}

Tensor Tensor::index(ArrayRef<std::size_t> indices) const {
    Tensor t = *this;
    for (auto i : indices)
        t = t[i];
    return t;
}

Tensor Tensor::reshape(ArrayRef<std::size_t> shape) const {
    const auto& v = checkedView("reshape");
    const std::vector<std::size_t> s = shape.vec();
    if (sim::views::product(s) != sim::views::product(v.shape))
        throw tensor_creation_error("Cannot reshape " + describe(v) + " to " + shapeString(s) +
                                    ": element counts differ");
    sim::TensorView out = v;
    out.shape = s;
    return Tensor(std::move(out));
}

Tensor Tensor::flatten() const {
    return reshape(std::vector<std::size_t>{numElements()});
}

Tensor Tensor::flatten(unsigned dimBegin, unsigned dimEnd) const {
    const auto& v = checkedView("flatten");
    if (dimBegin >= dimEnd || dimEnd > v.shape.size())
        throw index_error("flatten(" + std::to_string(dimBegin) + ", " + std::to_string(dimEnd) +
                          ") is out of range for " + describe(v));
    std::vector<std::size_t> s(v.shape.begin(), v.shape.begin() + dimBegin);
    std::size_t merged = 1;
    for (unsigned d = dimBegin; d < dimEnd; ++d)
        merged *= v.shape[d];
    s.push_back(merged);
    s.insert(s.end(), v.shape.begin() + dimEnd, v.shape.end());
    return reshape(s);
}

Tensor Tensor::transpose() const {
    const auto& v = checkedView("transpose");
    if (v.shape.size() != 2)
        throw tensor_creation_error("transpose needs a rank-2 tensor, got " + describe(v));
    return dimShuffle({1u, 0u});
}

Tensor Tensor::dimShuffle(ArrayRef<unsigned> permutation) const {
    const auto& v = checkedView("dimShuffle");
    std::vector<unsigned> p = permutation.vec();
    std::vector<unsigned> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    std::vector<unsigned> identity(v.shape.size());
    std::iota(identity.begin(), identity.end(), 0u);
    if (sorted != identity)
        throw tensor_creation_error("dimShuffle: the permutation is not a permutation of the " +
                                    std::to_string(v.shape.size()) + " dimensions of " +
                                    describe(v));
    return Tensor(sim::views::dimShuffle(v, p));
}

Tensor Tensor::dimRoll(unsigned dimIdx, unsigned newIdx) const {
    const auto r = rank();
    if (dimIdx >= r || newIdx >= r)
        throw index_error("dimRoll(" + std::to_string(dimIdx) + ", " + std::to_string(newIdx) +
                          ") is out of range for " + describe(*view_));
    std::vector<unsigned> p;
    for (unsigned d = 0; d < r; ++d)
        if (d != dimIdx)
            p.push_back(d);
    p.insert(p.begin() + newIdx, dimIdx);
    return dimShuffle(p);
}

Tensor Tensor::broadcast(unsigned N, unsigned dimension) const {
    const auto& v = checkedView("broadcast");
    if (dimension >= v.shape.size())
        throw index_error("broadcast dimension " + std::to_string(dimension) +
                          " is out of range for " + describe(v));
    return Tensor(sim::views::broadcast(v, N, dimension));
}

Tensor Tensor::expand(ArrayRef<std::size_t> indices) const {
    const auto& v = checkedView("expand");
    sim::TensorView out = v;
    for (auto i : indices) {
        if (i > out.shape.size())
            throw index_error("expand index " + std::to_string(i) + " is out of range for " +
                              describe(v));
        out.shape.insert(out.shape.begin() + static_cast<std::ptrdiff_t>(i), 1);
    }
    return Tensor(std::move(out));
}

Tensor Tensor::squeeze(ArrayRef<std::size_t> indices) const {
    const auto& v = checkedView("squeeze");
    std::vector<std::size_t> dims = indices.vec();
    std::sort(dims.rbegin(), dims.rend());
    sim::TensorView out = v;
    for (auto d : dims) {
        if (d >= out.shape.size() || out.shape[d] != 1)
            throw index_error("squeeze: dimension " + std::to_string(d) + " of " + describe(v) +
                              " is not a singleton dimension");
        out.shape.erase(out.shape.begin() + static_cast<std::ptrdiff_t>(d));
    }
    return Tensor(std::move(out));
}

Tensor Tensor::reverse(unsigned dimension) const {
    const auto& v = checkedView("reverse");
    if (dimension >= v.shape.size())
        throw index_error("reverse dimension " + std::to_string(dimension) +
                          " is out of range for " + describe(v));
    return Tensor(sim::views::reverse(v, dimension));
}

Tensor Tensor::subSample(unsigned stride, unsigned dimension) const {
    const auto& v = checkedView("subSample");
    if (dimension >= v.shape.size() || stride == 0)
        throw index_error("subSample(" + std::to_string(stride) + ", " + std::to_string(dimension) +
                          ") is invalid for " + describe(v));
    return Tensor(sim::views::subSample(v, stride, dimension));
}

Tensor Tensor::upsample(unsigned scale, unsigned dimension, UpsampleMethod) const {
    const auto& v = checkedView("upsample");
    if (dimension >= v.shape.size())
        throw index_error("upsample dimension " + std::to_string(dimension) +
                          " is out of range for " + describe(v));
    return Tensor(sim::views::upsample(v, scale, dimension));
}

bool Tensor::isContiguous() const {
    return checkedView("isContiguous").ranges.size() <= 1;
}

bool Tensor::containsAliases() const {
    const auto& ranges = checkedView("containsAliases").ranges;
    const auto before = [](const sim::ElementRange& a, const sim::ElementRange& b) {
        return a.variable != b.variable ? a.variable < b.variable : a.begin < b.begin;
    };
    const auto overlaps = [](const std::vector<sim::ElementRange>& r) {
        for (std::size_t i = 1; i < r.size(); ++i)
            if (r[i].variable == r[i - 1].variable && r[i].begin < r[i - 1].end)
                return true;
        return false;
    };
    // Most views are in variable order already: check them in place, sort a copy otherwise.
    if (std::is_sorted(ranges.begin(), ranges.end(), before))
        return overlaps(ranges);
    std::vector<sim::ElementRange> r = ranges;
    std::sort(r.begin(), r.end(), before);
    return overlaps(r);
}

std::string Tensor::shapeToString() const {
    return shapeString(checkedView("shapeToString").shape);
}

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension) {
    if (ts.empty())
        throw tensor_creation_error("concat needs at least one tensor");
    std::vector<sim::TensorView> parts;
    const auto& first = ts[0].view();
    for (const auto& t : ts) {
        const auto& v = t.view();
        if (v.type != first.type)
            throw type_error("concat: " + describe(v) + " has element type " +
                             std::string(sim::elementTypeName(v.type)) + " but " + describe(first) +
                             " has " + std::string(sim::elementTypeName(first.type)));
        if (v.shape.size() != first.shape.size() || dimension >= v.shape.size())
            throw index_error("concat: " + describe(v) + " cannot be joined with " +
                              describe(first) + " along dimension " + std::to_string(dimension));
        for (std::size_t d = 0; d < v.shape.size(); ++d)
            if (d != dimension && v.shape[d] != first.shape[d])
                throw index_error("concat: " + describe(v) + " and " + describe(first) +
                                  " differ in dimension " + std::to_string(d));
        parts.push_back(v);
    }
    return Tensor(sim::views::concat(parts, dimension));
}

Tensor append(const Tensor& first, const Tensor& second, unsigned dimension) {
    return concat(first, second.expand({dimension}), dimension);
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
    if (!t.valid())
        return os << "Tensor(invalid)";
    return os << "Tensor '" << t.getName() << "' " << t.elementType() << ' ' << t.shapeToString();
}

} // namespace poplar
