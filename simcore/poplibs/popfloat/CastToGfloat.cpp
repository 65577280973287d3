// popfloat::experimental::GfloatCast: the format, rounding and cast configurations (with PopLibs'
// rules for choosing types) and the casts, as compute sets of popfloat's vertices.

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popfloat/GfloatFormat.hpp"
#include "popfloat/PopfloatVertices.hpp"

#include <popfloat/experimental/CastToGfloat.hpp>
#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <poputil/exceptions.hpp>

namespace popfloat::experimental {

namespace pl = tilescope::poplibs;
namespace tp = tilescope::popfloat;

namespace {

// IEEE half's and single's field sizes.
constexpr unsigned kHalfMantissaBits = 10, kHalfExponentBits = 5;
constexpr unsigned kFloatMantissaBits = 23, kFloatExponentBits = 8;

tp::GfloatSpec specOf(const GfloatCast::FormatConfig& f) {
    tp::GfloatSpec s;
    s.mantissaBits = f.getNumMantissaBits();
    s.exponentBits = f.getNumExponentBits();
    s.bias = f.getExponentBias();
    s.denorms = f.isDenormEnabled();
    s.infsAndNans = f.infAndNansEnabled();
    return s;
}

bool isNative(const poplar::Type& t) {
    return t == poplar::FLOAT || t == poplar::HALF;
}

/// Throws unless every value of `spec` is exactly representable in `type` (FLOAT or HALF), so
/// that holding quantised values in it loses nothing.
void checkHolds(const poplar::Type& type, const tp::GfloatSpec& spec, const char* what) {
    const bool half = type == poplar::HALF;
    const int maxExponent = half ? 15 : 127;
    const int minExponent = half ? -24 : -149;
    const unsigned mantissaBits = half ? kHalfMantissaBits : kFloatMantissaBits;
    if (spec.maxExponent() > maxExponent || spec.minExponent() < minExponent ||
        spec.mantissaBits > mantissaBits)
        throw poputil::poplibs_error("popfloat::GfloatCast: the " + std::string(what) + " type " +
                                     type.toString() + " cannot hold every value of the format " +
                                     spec.describe() + "; choose FP32 (SpecType::FP32)");
}

std::uint64_t castCycles(const poplar::Graph& graph, const poplar::Type& type, std::size_t n) {
    // Several vector instructions per element (exponent extraction, masking, rounding, range
    // checks): modelled as four passes of the data path.
    return pl::cycles::kVertexOverhead + 4 * pl::cycles::vectors(graph.getTarget(), type, n);
}

} // namespace

// ---- FormatConfig ----------------------------------------------------------------------------

GfloatCast::FormatConfig::FormatConfig()
    : calculationType(poplar::FLOAT), numMantissaBits(0), numExponentBits(0), exponentBias(0),
      enableDenorms(false), enableInfsAndNans(false), nativeType(poplar::FLOAT),
      storageType(poplar::FLOAT), formatType(FormatType::INVALID_FORMAT), packedFloatParameters(0),
      blockFloat(false), packedFloatBits(0) {}

GfloatCast::FormatConfig::FormatConfig(unsigned numMantissaBits, unsigned numExponentBits,
                                       int exponentBias, bool enableDenorms, bool enableInfsAndNans,
                                       SpecType specCalculationType)
    : FormatConfig() {
    this->numMantissaBits = numMantissaBits;
    this->numExponentBits = numExponentBits;
    this->exponentBias = exponentBias;
    this->enableDenorms = enableDenorms;
    this->enableInfsAndNans = enableInfsAndNans && numExponentBits > 0;
    if (specCalculationType != SpecType::AUTO && specCalculationType != SpecType::FP32 &&
        specCalculationType != SpecType::FP16)
        throw poputil::poplibs_error(
            "popfloat::GfloatCast::FormatConfig: the calculation type must "
            "be FP32, FP16 or AUTO");
    classify(true, specCalculationType != SpecType::FP32, specCalculationType != SpecType::FP16);
}

GfloatCast::FormatConfig::FormatConfig(unsigned numMantissaBits, unsigned numExponentBits,
                                       int exponentBias, bool enableDenorms, bool enableInfsAndNans,
                                       poplar::Type calculationType)
    : FormatConfig() {
    this->numMantissaBits = numMantissaBits;
    this->numExponentBits = numExponentBits;
    this->exponentBias = exponentBias;
    this->enableDenorms = enableDenorms;
    this->enableInfsAndNans = enableInfsAndNans && numExponentBits > 0;
    if (!isNative(calculationType))
        throw poputil::poplibs_error(
            "popfloat::GfloatCast::FormatConfig: the calculation type must "
            "be FLOAT or HALF, not " +
            calculationType.toString());
    classify(calculationType == poplar::HALF, calculationType == poplar::HALF,
             calculationType == poplar::FLOAT);
}

// The types and the format type, by PopLibs' rules: formats that fit in half's fields (other
// than half itself) are calculated and held in HALF and, at 8 bits or fewer, packed in CHAR;
// other formats are calculated in FLOAT, held in HALF if they are IEEE half, and packed in CHAR
// (8 bits), SHORT (16 bits) or not at all.
void GfloatCast::FormatConfig::classify(bool preferHalf, bool allowHalf, bool allowFloat) {
    const unsigned bits = 1 + numMantissaBits + numExponentBits;
    blockFloat = numExponentBits == 0 || (numExponentBits == 1 && enableInfsAndNans);
    const bool fitsHalfFields =
        numMantissaBits <= kHalfMantissaBits && numExponentBits <= kHalfExponentBits &&
        (numMantissaBits != kHalfMantissaBits || numExponentBits != kHalfExponentBits);
    formatType = FormatType::INVALID_FORMAT;
    if (preferHalf && allowHalf && fitsHalfFields) {
        calculationType = nativeType = storageType = poplar::HALF;
        formatType = FormatType::QUANTISED_FP16;
        packedFloatBits = 16;
        if (bits <= 8) {
            packedFloatBits = 8;
            storageType = poplar::CHAR;
            if (numExponentBits == kHalfExponentBits)
                formatType = enableInfsAndNans ? FormatType::ONE_FIVE_TWO_GF8
                                               : FormatType::MAX_NORM_ALIGN_GF8;
            else
                formatType = FormatType::MIN_NORM_ALIGN_GF8;
        }
    } else if (allowFloat && numMantissaBits <= kFloatMantissaBits &&
               numExponentBits <= kFloatExponentBits) {
        calculationType = nativeType = storageType = poplar::FLOAT;
        formatType = FormatType::QUANTISED_FP32;
        packedFloatBits = 32;
        if (numMantissaBits == kHalfMantissaBits && numExponentBits == kHalfExponentBits &&
            enableInfsAndNans) {
            formatType = FormatType::IEEE_FP16;
            nativeType = storageType = poplar::HALF;
            packedFloatBits = 16;
        } else if (bits <= 8) {
            packedFloatBits = 8;
            storageType = poplar::CHAR;
            formatType = FormatType::ENABLE_DENORM_GF16;
            if (numExponentBits <= kHalfExponentBits)
                nativeType = poplar::HALF;
        } else if (bits <= 16) {
            packedFloatBits = 16;
            storageType = poplar::SHORT;
            if (numExponentBits == kFloatExponentBits)
                formatType = FormatType::BFLOAT16;
            else
                formatType =
                    enableDenorms ? FormatType::ENABLE_DENORM_GF16 : FormatType::NO_DENORM_GF16;
        }
    }
    if (formatType == FormatType::INVALID_FORMAT)
        throw poputil::poplibs_error("popfloat::GfloatCast::FormatConfig: invalid gfloat format " +
                                     specOf(*this).describe() + " for the calculation type asked");
    packedFloatParameters = (numMantissaBits & 0xffu) | ((numExponentBits & 0xffu) << 8) |
                            ((static_cast<unsigned>(exponentBias) & 0xffu) << 16) |
                            ((enableDenorms ? 1u : 0u) << 24) |
                            ((enableInfsAndNans ? 1u : 0u) << 25);
}

bool GfloatCast::FormatConfig::operator==(const FormatConfig& other) const {
    return numMantissaBits == other.numMantissaBits && numExponentBits == other.numExponentBits &&
           exponentBias == other.exponentBias && enableDenorms == other.enableDenorms &&
           enableInfsAndNans == other.enableInfsAndNans && calculationType == other.calculationType;
}

// ---- RoundConfig and CastConfig --------------------------------------------------------------

GfloatCast::RoundConfig::RoundConfig()
    : roundModeType(RoundType::INV), numSRBits(0), srNoiseDensity(SRDensityType::INVALID),
      bernoulliProb(0), srNoiseOffset(0), srNoiseScale(0), srNoiseMax(0), srNoiseMin(0) {}

GfloatCast::RoundConfig::RoundConfig(RoundType roundMode, unsigned numSRBits,
                                     poplar::Type /*calculationType*/, SRDensityType srNoiseDensity,
                                     float srNoiseOffset, float srNoiseScale, float srNoiseMax,
                                     float srNoiseMin, float bernoulliProb)
    : roundModeType(roundMode), numSRBits(numSRBits), srNoiseDensity(srNoiseDensity),
      bernoulliProb(bernoulliProb), srNoiseOffset(srNoiseOffset), srNoiseScale(srNoiseScale),
      srNoiseMax(srNoiseMax), srNoiseMin(srNoiseMin) {}

GfloatCast::CastConfig::CastConfig()
    : calculationType(poplar::FLOAT), storageType(poplar::FLOAT), enableNanooMode(false),
      floatFormatType(FormatType::INVALID_FORMAT), storeAsNative(true) {}

GfloatCast::CastConfig::CastConfig(FormatType floatFormatType, poplar::Type calculationType,
                                   poplar::Type storageType, RoundConfig roundCfg,
                                   bool enableNanooMode)
    : calculationType(calculationType), storageType(storageType), roundConfig(roundCfg),
      enableNanooMode(enableNanooMode), floatFormatType(floatFormatType),
      storeAsNative(storageType != poplar::CHAR && storageType != poplar::SHORT) {
    if (floatFormatType == FormatType::INVALID_FORMAT)
        throw poputil::poplibs_error("popfloat::GfloatCast::CastConfig: expecting a valid gfloat "
                                     "format type");
}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastNativeToGF(FormatType formatType,
                                                                    poplar::Type calculationType,
                                                                    poplar::Type storageType,
                                                                    RoundConfig roundCfg,
                                                                    bool enableNanooMode) {
    return CastConfig(formatType, calculationType, storageType, roundCfg, enableNanooMode);
}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastGFToNative(FormatType formatType,
                                                                    poplar::Type calculationType,
                                                                    poplar::Type storageType) {
    return CastConfig(formatType, calculationType, storageType, RoundConfig(), false);
}

// ---- GfloatCast ------------------------------------------------------------------------------

GfloatCast::GfloatCast(const FormatConfig& formatCfg, const RoundConfig& roundCfg,
                       const bool enableNanooMode, const SpecType& GFType,
                       const SpecType& NativeType)
    : formatCfg(formatCfg), castOpParamSet(false) {
    const poplar::Type gfStorage =
        GFType == SpecType::AUTO ? formatCfg.getStorageType() : specTypeToPoplarType(GFType);
    nativeToGFCastCfg =
        CastConfig::createCastNativeToGF(formatCfg.getFormatType(), formatCfg.getCalculationType(),
                                         gfStorage, roundCfg, enableNanooMode);
    const poplar::Type nativeStorage =
        NativeType == SpecType::AUTO ? formatCfg.getNativeType() : specTypeToPoplarType(NativeType);
    gfToNativeCastCfg = CastConfig::createCastGFToNative(
        formatCfg.getFormatType(), formatCfg.getCalculationType(), nativeStorage);
}

GfloatCast::GfloatCast(const GfloatCast& other)
    : nativeToGFCastCfg(other.nativeToGFCastCfg), gfToNativeCastCfg(other.gfToNativeCastCfg),
      formatCfg(other.formatCfg),
      gfParams(other.gfParams ? new poplar::Tensor(*other.gfParams) : nullptr),
      castOpParamSet(other.castOpParamSet) {}

void GfloatCast::createCastOpParamsTensor(poplar::Graph& graph, poplar::program::Sequence& prog,
                                          const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "createCastOpParamsTensor");
    const bool half = formatCfg.getCalculationType() == poplar::HALF;
    const int packed = static_cast<int>(formatCfg.getPackedFloatParameters());
    poplar::Tensor params =
        graph.addVariable(poplar::INT, {1}, {di, half ? "gfloat16_params" : "gfloat32_params"});
    graph.setTileMapping(params, 0);
    poplar::Tensor value = graph.addConstant<int>(poplar::INT, {1}, packed, {di, "packed"});
    graph.setTileMapping(value, 0);
    prog.add(poplar::program::Copy(value, params, false, {di}));
    gfParams.reset(new poplar::Tensor(params));
    castOpParamSet = true;
}

poplar::Tensor GfloatCast::getCastOpParams() const {
    if (!gfParams)
        throw poputil::poplibs_error("popfloat::GfloatCast: no cast parameters yet; call "
                                     "createCastOpParamsTensor(graph, prog) first");
    return *gfParams;
}

namespace {

/// The checks every cast makes before adding vertices.
void checkCast(const char* api, const GfloatCast& cast, const poplar::Tensor& input,
               bool quantising) {
    if (!cast.isCastOpParamSet())
        throw poputil::poplibs_error(std::string("popfloat::GfloatCast::") + api +
                                     ": call createCastOpParamsTensor(graph, prog) first");
    const auto spec = specOf(cast.getFormatConfig());
    tp::checkSupported(spec);
    if (quantising) {
        const auto mode = cast.getRoundMode();
        if (mode == RoundType::SR || mode == RoundType::SX)
            throw poputil::poplibs_error(
                std::string("popfloat::GfloatCast::") + api +
                ": stochastic rounding (RoundType::" + roundTypeToString(mode) +
                ") is not supported by TileScope; RZ, RN, RA, RU and RD "
                "are");
        if (mode == RoundType::INV)
            throw poputil::poplibs_error(std::string("popfloat::GfloatCast::") + api +
                                         ": the rounding mode is RoundType::INV (not set)");
        if (!isNative(input.elementType()))
            throw poputil::poplibs_error(std::string("popfloat::GfloatCast::") + api +
                                         ": tensor '" + input.getName() + "' has type " +
                                         input.elementType().toString() +
                                         "; FLOAT and HALF can be cast to a gfloat format");
    }
}

} // namespace

poplar::Tensor GfloatCast::castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                              poplar::program::Sequence& prog,
                                              const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "castNativeToGfloat");
    checkCast("castNativeToGfloat", *this, input, true);
    const auto spec = specOf(formatCfg);
    const auto& cfg = nativeToGFCastCfg;
    const poplar::Type storage = cfg.getStorageType();
    const poplar::Type quantisedType = cfg.getStoreAsNative() ? storage : cfg.getCalculationType();
    if (!isNative(storage) && storage != poplar::CHAR && storage != poplar::SHORT)
        throw poputil::poplibs_error(
            "popfloat::GfloatCast::castNativeToGfloat: cannot store gfloat "
            "values as " +
            storage.toString() + "; FLOAT, HALF, CHAR and SHORT are supported");
    checkHolds(quantisedType, spec, "quantised values'");
    if (!cfg.getStoreAsNative()) {
        const unsigned width = storage == poplar::CHAR ? 8 : 16;
        if (spec.bits() > width)
            throw poputil::poplibs_error("popfloat::GfloatCast::castNativeToGfloat: the format " +
                                         spec.describe() + " needs " + std::to_string(spec.bits()) +
                                         " bits and cannot be "
                                         "packed into " +
                                         storage.toString());
    }

    poplar::Tensor quantised =
        pl::createOutput(graph, quantisedType, input.shape(), input, {di, "quantised"});
    poplar::ComputeSet cs =
        graph.addComputeSet({di, "castNativeToGfloat/" + formatTypeToString(cfg.getFormatType())});
    pl::addElementWiseVertices(
        graph, cs, tp::castToGfloatVertex(input.elementType(), quantisedType), quantised,
        {{"in", input}, {"out", quantised}},
        [&](std::size_t n) { return castCycles(graph, input.elementType(), n); },
        [&](poplar::VertexRef v) {
            tp::setFormatFields(graph, v, spec);
            graph.setInitialValue(v["roundMode"], static_cast<unsigned>(cfg.getRoundMode()));
            graph.setInitialValue(v["nanoo"], cfg.isNanooModeEnabled());
        });
    prog.add(poplar::program::Execute(cs, {di}));
    if (cfg.getStoreAsNative())
        return quantised;

    poplar::Tensor packed = pl::createOutput(graph, storage, input.shape(), input, {di, "packed"});
    poplar::ComputeSet packCs =
        graph.addComputeSet({di, "gfloatAsInt/" + formatTypeToString(cfg.getFormatType())});
    pl::addElementWiseVertices(
        graph, packCs, tp::packGfloatVertex(quantisedType, storage), packed,
        {{"in", quantised}, {"out", packed}},
        [&](std::size_t n) { return castCycles(graph, quantisedType, n); },
        [&](poplar::VertexRef v) { tp::setFormatFields(graph, v, spec); });
    prog.add(poplar::program::Execute(packCs, {di}));
    return packed;
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                           poplar::program::Sequence& prog,
                                           const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "castNativeToGfloatInPlace");
    checkCast("castNativeToGfloatInPlace", *this, input, true);
    const auto spec = specOf(formatCfg);
    checkHolds(input.elementType(), spec, "input tensor's");
    const auto& cfg = nativeToGFCastCfg;
    poplar::ComputeSet cs = graph.addComputeSet({di, "castNativeToGfloatInPlace"});
    pl::addElementWiseVertices(
        graph, cs, tp::castToGfloatInPlaceVertex(input.elementType()), input, {{"inOut", input}},
        [&](std::size_t n) { return castCycles(graph, input.elementType(), n); },
        [&](poplar::VertexRef v) {
            tp::setFormatFields(graph, v, spec);
            graph.setInitialValue(v["roundMode"], static_cast<unsigned>(cfg.getRoundMode()));
            graph.setInitialValue(v["nanoo"], cfg.isNanooModeEnabled());
        });
    prog.add(poplar::program::Execute(cs, {di}));
}

poplar::Tensor GfloatCast::castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                              poplar::program::Sequence& prog,
                                              const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "castGfloatToNative");
    checkCast("castGfloatToNative", *this, input, false);
    const auto spec = specOf(formatCfg);
    const poplar::Type nativeType = gfToNativeCastCfg.getStorageType();
    if (!isNative(nativeType))
        throw poputil::poplibs_error("popfloat::GfloatCast::castGfloatToNative: the native type "
                                     "must be FLOAT or HALF, not " +
                                     nativeType.toString());
    checkHolds(nativeType, spec, "native");
    const poplar::Type inType = input.elementType();
    if (isNative(inType))
        return popops::cast(graph, input, nativeType, prog, {di});
    if (inType != poplar::CHAR && inType != poplar::SHORT)
        throw poputil::poplibs_error("popfloat::GfloatCast::castGfloatToNative: tensor '" +
                                     input.getName() + "' has type " + inType.toString() +
                                     "; expecting FLOAT, HALF, or packed CHAR or SHORT");
    poplar::Tensor out = pl::createOutput(graph, nativeType, input.shape(), input, {di, "out"});
    poplar::ComputeSet cs = graph.addComputeSet(
        {di, "castGfloatToNative/" + formatTypeToString(gfToNativeCastCfg.getFormatType())});
    pl::addElementWiseVertices(
        graph, cs, tp::unpackGfloatVertex(inType, nativeType), out, {{"in", input}, {"out", out}},
        [&](std::size_t n) { return castCycles(graph, nativeType, n); },
        [&](poplar::VertexRef v) { tp::setFormatFields(graph, v, spec); });
    prog.add(poplar::program::Execute(cs, {di}));
    return out;
}

} // namespace popfloat::experimental
