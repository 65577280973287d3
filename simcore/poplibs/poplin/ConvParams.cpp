// poplin::ConvParams: sizes of transformed fields, validation, comparison and printing; and the
// index arithmetic of poplin/ConvUtil.hpp.

#include <ostream>
#include <poplin/ConvParams.hpp>
#include <poplin/ConvUtil.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <string>
#include <tuple>

namespace poplin {

ConvParams::InputTransform::InputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), dilation(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0), flip(size, false) {}

ConvParams::InputTransform::InputTransform(std::vector<unsigned> tl, std::vector<unsigned> tu,
                                           std::vector<unsigned> d, std::vector<unsigned> pl,
                                           std::vector<unsigned> pu, std::vector<bool> f)
    : truncationLower(std::move(tl)), truncationUpper(std::move(tu)), dilation(std::move(d)),
      paddingLower(std::move(pl)), paddingUpper(std::move(pu)), flip(std::move(f)) {}

ConvParams::OutputTransform::OutputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), stride(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0) {}

ConvParams::OutputTransform::OutputTransform(std::vector<unsigned> tl, std::vector<unsigned> tu,
                                             std::vector<unsigned> s, std::vector<unsigned> pl,
                                             std::vector<unsigned> pu)
    : truncationLower(std::move(tl)), truncationUpper(std::move(tu)), stride(std::move(s)),
      paddingLower(std::move(pl)), paddingUpper(std::move(pu)) {}

ConvParams::ConvParams(poplar::Type dataType, std::size_t b, std::vector<std::size_t> field,
                       std::vector<std::size_t> kernel, std::size_t ci, std::size_t co,
                       std::size_t groups)
    : ConvParams(dataType, dataType, b, std::move(field), std::move(kernel), ci, co, groups) {}

ConvParams::ConvParams(poplar::Type in, poplar::Type out, std::size_t b,
                       std::vector<std::size_t> field, std::vector<std::size_t> kernel,
                       std::size_t ci, std::size_t co, std::size_t groups)
    : inputType(in), outputType(out), batchSize(b), inputFieldShape(std::move(field)),
      kernelShape(std::move(kernel)), inputChannels(ci), outputChannels(co), numConvGroups(groups),
      inputTransform(inputFieldShape.size()), kernelTransform(inputFieldShape.size()),
      outputTransform(inputFieldShape.size()) {}

ConvParams::ConvParams(poplar::Type in, poplar::Type out, std::size_t b,
                       std::vector<std::size_t> field, std::vector<std::size_t> kernel,
                       std::size_t ci, std::size_t co, std::size_t groups, InputTransform it,
                       InputTransform kt, OutputTransform ot)
    : inputType(in), outputType(out), batchSize(b), inputFieldShape(std::move(field)),
      kernelShape(std::move(kernel)), inputChannels(ci), outputChannels(co), numConvGroups(groups),
      inputTransform(std::move(it)), kernelTransform(std::move(kt)),
      outputTransform(std::move(ot)) {}

namespace {

unsigned truncated(std::size_t size, unsigned lower, unsigned upper) {
    return lower + upper >= size ? 0u : static_cast<unsigned>(size - lower - upper);
}

unsigned transformed(unsigned truncatedSize, const ConvParams::InputTransform& t, unsigned dim) {
    return getDilatedSize(truncatedSize, t.dilation[dim]) + t.paddingLower[dim] +
           t.paddingUpper[dim];
}

} // namespace

unsigned getDilatedSize(unsigned size, unsigned dilation) {
    return size == 0 ? 0 : 1 + (size - 1) * dilation;
}

unsigned ConvParams::getTruncatedInputSize(unsigned dim) const {
    return truncated(inputFieldShape[dim], inputTransform.truncationLower[dim],
                     inputTransform.truncationUpper[dim]);
}
unsigned ConvParams::getTruncatedKernelSize(unsigned dim) const {
    return truncated(kernelShape[dim], kernelTransform.truncationLower[dim],
                     kernelTransform.truncationUpper[dim]);
}
unsigned ConvParams::getTransformedInputSize(unsigned dim) const {
    return transformed(getTruncatedInputSize(dim), inputTransform, dim);
}
unsigned ConvParams::getTransformedKernelSize(unsigned dim) const {
    return transformed(getTruncatedKernelSize(dim), kernelTransform, dim);
}

std::size_t ConvParams::getUntransformedOutputSize(unsigned dim) const {
    const unsigned in = getTransformedInputSize(dim), k = getTransformedKernelSize(dim);
    return in >= k ? in + 1 - k : 0;
}

std::size_t ConvParams::getOutputSize(unsigned dim) const {
    const std::size_t full = getUntransformedOutputSize(dim);
    const std::size_t cut =
        outputTransform.truncationLower[dim] + outputTransform.truncationUpper[dim];
    const std::size_t kept = full > cut ? full - cut : 0;
    const std::size_t stride = outputTransform.stride[dim];
    return (kept + stride - 1) / stride + outputTransform.paddingLower[dim] +
           outputTransform.paddingUpper[dim];
}

std::vector<std::size_t> ConvParams::getOutputFieldShape() const {
    std::vector<std::size_t> shape;
    for (unsigned d = 0; d < getNumFieldDims(); ++d)
        shape.push_back(getOutputSize(d));
    return shape;
}

void ConvParams::validate() const {
    std::ostringstream who;
    who << "poplin::ConvParams " << *this << ": ";
    const auto fail = [&](const std::string& what) {
        throw poputil::poplibs_error(who.str() + what);
    };
    const std::size_t n = inputFieldShape.size();
    if (n < 1 || n > 3)
        fail("1 to 3 spatial dimensions are supported, got " + std::to_string(n));
    if (kernelShape.size() != n)
        fail("the kernel has " + std::to_string(kernelShape.size()) + " dimensions and the field " +
             std::to_string(n));
    const auto checkInput = [&](const InputTransform& t, const std::string& name) {
        if (t.truncationLower.size() != n || t.truncationUpper.size() != n ||
            t.dilation.size() != n || t.paddingLower.size() != n || t.paddingUpper.size() != n ||
            t.flip.size() != n)
            fail(name + " transform vectors must each have " + std::to_string(n) + " entries");
        for (unsigned d : t.dilation)
            if (d == 0)
                fail(name + " dilation must be at least 1");
    };
    checkInput(inputTransform, "input");
    checkInput(kernelTransform, "kernel");
    const auto& o = outputTransform;
    if (o.truncationLower.size() != n || o.truncationUpper.size() != n || o.stride.size() != n ||
        o.paddingLower.size() != n || o.paddingUpper.size() != n)
        fail("output transform vectors must each have " + std::to_string(n) + " entries");
    if (batchSize == 0 || inputChannels == 0 || outputChannels == 0 || numConvGroups == 0)
        fail("batch size, channels and conv groups must be non-zero");
    if (inputType != poplar::FLOAT && inputType != poplar::HALF)
        fail("input type " + inputType.toString() + " is not supported (FLOAT, HALF)");
    if (outputType != poplar::FLOAT && outputType != poplar::HALF)
        fail("output type " + outputType.toString() + " is not supported (FLOAT, HALF)");
    for (unsigned d = 0; d < n; ++d) {
        if (inputFieldShape[d] == 0 || kernelShape[d] == 0)
            fail("field and kernel sizes must be non-zero");
        if (o.stride[d] == 0)
            fail("strides must be at least 1");
        if (getTruncatedKernelSize(d) == 0)
            fail("the kernel is truncated away in dimension " + std::to_string(d));
        if (getTransformedInputSize(d) < getTransformedKernelSize(d))
            fail("in dimension " + std::to_string(d) + " the transformed kernel (" +
                 std::to_string(getTransformedKernelSize(d)) + ") is larger than the " +
                 "transformed input (" + std::to_string(getTransformedInputSize(d)) + ")");
        if (o.truncationLower[d] + o.truncationUpper[d] >= getUntransformedOutputSize(d))
            fail("the output is truncated away in dimension " + std::to_string(d));
    }
}

namespace {
auto tied(const ConvParams::InputTransform& t) {
    return std::tie(t.truncationLower, t.truncationUpper, t.dilation, t.paddingLower,
                    t.paddingUpper, t.flip);
}
auto tied(const ConvParams::OutputTransform& t) {
    return std::tie(t.truncationLower, t.truncationUpper, t.stride, t.paddingLower, t.paddingUpper);
}
auto tied(const ConvParams& p) {
    return std::tie(p.inputType, p.outputType, p.batchSize, p.inputFieldShape, p.kernelShape,
                    p.inputChannels, p.outputChannels, p.numConvGroups, p.inputTransform,
                    p.kernelTransform, p.outputTransform);
}
} // namespace

bool operator<(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
    return tied(a) < tied(b);
}
bool operator==(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
    return tied(a) == tied(b);
}
bool operator!=(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
    return !(a == b);
}
bool operator<(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
    return tied(a) < tied(b);
}
bool operator==(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
    return tied(a) == tied(b);
}
bool operator!=(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
    return !(a == b);
}
bool operator<(const ConvParams& a, const ConvParams& b) {
    return tied(a) < tied(b);
}
bool operator==(const ConvParams& a, const ConvParams& b) {
    return tied(a) == tied(b);
}
bool operator!=(const ConvParams& a, const ConvParams& b) {
    return !(a == b);
}

namespace {
template <typename T> void list(std::ostream& os, const std::vector<T>& v) {
    os << '{';
    for (std::size_t i = 0; i < v.size(); ++i)
        os << (i ? "," : "") << v[i];
    os << '}';
}
void transform(std::ostream& os, const char* name, const ConvParams::InputTransform& t) {
    os << ' ' << name << "(trunc ";
    list(os, t.truncationLower);
    list(os, t.truncationUpper);
    os << " dil ";
    list(os, t.dilation);
    os << " pad ";
    list(os, t.paddingLower);
    list(os, t.paddingUpper);
    os << " flip ";
    list(os, t.flip);
    os << ')';
}
} // namespace

std::ostream& operator<<(std::ostream& os, const ConvParams& p) {
    os << "{" << p.inputType << "->" << p.outputType << " B " << p.batchSize << " G "
       << p.numConvGroups << " Ci " << p.inputChannels << " Co " << p.outputChannels << " field ";
    list(os, p.inputFieldShape);
    os << " kernel ";
    list(os, p.kernelShape);
    transform(os, "in", p.inputTransform);
    transform(os, "k", p.kernelTransform);
    os << " out(trunc ";
    list(os, p.outputTransform.truncationLower);
    list(os, p.outputTransform.truncationUpper);
    os << " stride ";
    list(os, p.outputTransform.stride);
    os << " pad ";
    list(os, p.outputTransform.paddingLower);
    list(os, p.outputTransform.paddingUpper);
    return os << ")}";
}

unsigned getInputIndex(unsigned dim, unsigned outputIndex, unsigned kernelIndex,
                       const ConvParams& p) {
    const unsigned none = ~0u;
    const auto& ot = p.outputTransform;
    // Undo the output transform: padding, then stride, then truncation.
    if (outputIndex < ot.paddingLower[dim])
        return none;
    const std::size_t q = outputIndex - ot.paddingLower[dim];
    const std::size_t full = p.getUntransformedOutputSize(dim);
    const std::size_t kept = full - ot.truncationLower[dim] - ot.truncationUpper[dim];
    if (q >= (kept + ot.stride[dim] - 1) / ot.stride[dim])
        return none;
    const long o = static_cast<long>(ot.truncationLower[dim] + q * ot.stride[dim]);
    // The kernel element's position in the transformed kernel.
    const auto& kt = p.kernelTransform;
    if (kernelIndex < kt.truncationLower[dim] ||
        kernelIndex >= p.kernelShape[dim] - kt.truncationUpper[dim])
        return none;
    long kpos = static_cast<long>((kernelIndex - kt.truncationLower[dim]) * kt.dilation[dim] +
                                  kt.paddingLower[dim]);
    if (kt.flip[dim])
        kpos = static_cast<long>(p.getTransformedKernelSize(dim)) - 1 - kpos;
    // The transformed input position it meets, back through flip, padding and dilation.
    const auto& it = p.inputTransform;
    long ipos = o + kpos;
    if (it.flip[dim])
        ipos = static_cast<long>(p.getTransformedInputSize(dim)) - 1 - ipos;
    ipos -= it.paddingLower[dim];
    const long dilated = getDilatedSize(p.getTruncatedInputSize(dim), it.dilation[dim]);
    if (ipos < 0 || ipos >= dilated || ipos % it.dilation[dim] != 0)
        return none;
    return static_cast<unsigned>(ipos / it.dilation[dim] + it.truncationLower[dim]);
}

ConvParams getGradientParams(const ConvParams& p) {
    // The forward pass is y = T_out(conv(T_in(x), T_k(w))); its adjoint with respect to x runs
    // the output gradient through the adjoint of each stage in reverse: output padding removed
    // (truncation), stride undone (dilation), output truncation undone (padding), the full
    // correlation's adjoint (padding by kernel size - 1 with the kernel reversed, which
    // transposeAndFlipWeights and the swapped kernel truncation/padding give), and the input
    // padding, dilation and truncation undone as output truncation, stride and padding. A
    // flipped input flips both the gradient and the kernel.
    const std::size_t n = p.getNumFieldDims();
    ConvParams g = p;
    g.inputFieldShape = p.getOutputFieldShape();
    g.inputChannels = p.outputChannels;
    g.outputChannels = p.inputChannels;
    g.inputType = p.outputType;
    g.outputType = p.inputType;
    for (unsigned d = 0; d < n; ++d) {
        const auto& ot = p.outputTransform;
        const auto& it = p.inputTransform;
        const auto& kt = p.kernelTransform;
        const unsigned tk = p.getTransformedKernelSize(d);
        const std::size_t full = p.getUntransformedOutputSize(d);
        const std::size_t kept = full - ot.truncationLower[d] - ot.truncationUpper[d];
        const std::size_t q = (kept + ot.stride[d] - 1) / ot.stride[d];
        const std::size_t used = (q - 1) * ot.stride[d] + 1;
        const unsigned rest = static_cast<unsigned>(kept - used);
        g.inputTransform.truncationLower[d] = ot.paddingLower[d];
        g.inputTransform.truncationUpper[d] = ot.paddingUpper[d];
        g.inputTransform.dilation[d] = ot.stride[d];
        g.inputTransform.paddingLower[d] = ot.truncationLower[d] + tk - 1;
        g.inputTransform.paddingUpper[d] = ot.truncationUpper[d] + rest + tk - 1;
        g.inputTransform.flip[d] = it.flip[d];
        g.kernelTransform.truncationLower[d] = kt.truncationUpper[d];
        g.kernelTransform.truncationUpper[d] = kt.truncationLower[d];
        g.kernelTransform.dilation[d] = kt.dilation[d];
        g.kernelTransform.paddingLower[d] = kt.paddingUpper[d];
        g.kernelTransform.paddingUpper[d] = kt.paddingLower[d];
        g.kernelTransform.flip[d] = kt.flip[d] != it.flip[d];
        g.outputTransform.truncationLower[d] = it.paddingLower[d];
        g.outputTransform.truncationUpper[d] = it.paddingUpper[d];
        g.outputTransform.stride[d] = it.dilation[d];
        g.outputTransform.paddingLower[d] = it.truncationLower[d];
        g.outputTransform.paddingUpper[d] = it.truncationUpper[d];
    }
    return g;
}

} // namespace poplin
