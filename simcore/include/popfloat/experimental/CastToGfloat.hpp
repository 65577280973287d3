#pragma once
// popfloat's gfloat casts: emulating custom floating-point formats ("gfloat": a chosen number of
// mantissa and exponent bits, exponent bias, denormals, infinities and NaNs) by quantising FLOAT
// or HALF tensors to them, packing 8- and 16-bit formats into CHAR or SHORT, and unpacking them.
//
// TileScope implements the GfloatCast class's instance API with the deterministic rounding modes
// (RZ, RN, RA, RU, RD). Stochastic rounding (SR, SX), formats without exponent bits (block float
// and integer formats) and the static cast functions that take a parameter tensor are not
// implemented; the first two throw poplar::poplar_error naming the feature.

#include <memory>
#include <popfloat/experimental/GfloatExpr.hpp>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace popfloat {
namespace experimental {

/// A cast engine for one gfloat format: castNativeToGfloat quantises (and, for packed formats,
/// packs) a FLOAT or HALF tensor to the format, castGfloatToNative turns the result back into a
/// native IPU type. Call createCastOpParamsTensor once before casting, as with PopLibs.
class GfloatCast {
public:
    /// The format: sizes, bias, denormals, infinities and NaNs, and from them the types used to
    /// calculate (`calculationType`), to hold the quantised values (`nativeType`) and to store
    /// them packed (`storageType`: CHAR for 8-bit formats, SHORT for 16-bit ones that HALF
    /// cannot hold, else HALF or FLOAT), with the same rules as PopLibs.
    struct FormatConfig {
        FormatConfig();
        /// `specCalculationType` FP32 or FP16 forces the calculation type; AUTO picks HALF when
        /// the format fits in IEEE half's mantissa and exponent (and is not half itself).
        FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias,
                     bool enableDenorms, bool enableInfsAndNans,
                     SpecType specCalculationType = SpecType::AUTO);
        FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias,
                     bool enableDenorms, bool enableInfsAndNans, poplar::Type calculationType);

        poplar::Type getCalculationType() const { return calculationType; }
        poplar::Type getNativeType() const { return nativeType; }
        poplar::Type getStorageType() const { return storageType; }
        FormatType getFormatType() const { return formatType; }
        unsigned getNumMantissaBits() const { return numMantissaBits; }
        unsigned getNumExponentBits() const { return numExponentBits; }
        int getExponentBias() const { return exponentBias; }
        bool isDenormEnabled() const { return enableDenorms; }
        bool infAndNansEnabled() const { return enableInfsAndNans; }
        bool isPackedFloatFormat() const {
            return formatType != FormatType::QUANTISED_FP16 &&
                   formatType != FormatType::QUANTISED_FP32 && formatType != FormatType::IEEE_FP16;
        }
        unsigned getPackedFloatBits() const { return packedFloatBits; }
        bool isBlockFloat() const { return blockFloat; }
        /// Mantissa size, exponent size and bias in the low three bytes, the denormal and
        /// infinity flags in the top one.
        unsigned getPackedFloatParameters() const { return packedFloatParameters; }
        bool operator==(const FormatConfig& other) const;

    private:
        void classify(bool preferHalf, bool allowHalf, bool allowFloat);

        poplar::Type calculationType;
        unsigned numMantissaBits;
        unsigned numExponentBits;
        int exponentBias;
        bool enableDenorms;
        bool enableInfsAndNans;
        poplar::Type nativeType;
        poplar::Type storageType;
        FormatType formatType;
        unsigned packedFloatParameters;
        bool blockFloat;
        unsigned packedFloatBits;
    };

    /// How castNativeToGfloat rounds. The stochastic-rounding parameters are kept for source
    /// compatibility; casting with SR or SX throws.
    struct RoundConfig {
        RoundConfig();
        RoundConfig(RoundType roundMode, unsigned numSRBits, poplar::Type calculationType,
                    SRDensityType srNoiseDensity = SRDensityType::INVALID,
                    float srNoiseOffset = 0.0, float srNoiseScale = 0.0, float srNoiseMax = 0.0,
                    float srNoiseMin = 0.0, float bernoulliProb = 0.0);

        RoundType getRoundMode() const { return roundModeType; }
        unsigned getNumSRBits() const { return numSRBits; }
        SRDensityType getSRNoiseDensity() const { return srNoiseDensity; }
        float getBernoulliProbability() const { return bernoulliProb; }
        float getSRNoiseOffset() const { return srNoiseOffset; }
        float getSRNoiseScale() const { return srNoiseScale; }
        float getSRNoiseMax() const { return srNoiseMax; }
        float getSRNoiseMin() const { return srNoiseMin; }

    private:
        RoundType roundModeType;
        unsigned numSRBits;
        SRDensityType srNoiseDensity;
        float bernoulliProb;
        float srNoiseOffset;
        float srNoiseScale;
        float srNoiseMax;
        float srNoiseMin;
    };

    /// One direction of casting: the format type, the calculation and storage types, the
    /// rounding and whether overflow gives NaN (`enableNanooMode`) or the format's largest value.
    struct CastConfig {
        CastConfig();
        static CastConfig createCastNativeToGF(FormatType formatType, poplar::Type calculationType,
                                               poplar::Type storageType, RoundConfig roundCfg,
                                               bool enableNanooMode);
        static CastConfig createCastGFToNative(FormatType formatType, poplar::Type calculationType,
                                               poplar::Type storageType);

        RoundType getRoundMode() const { return roundConfig.getRoundMode(); }
        unsigned getNumSRBits() const { return roundConfig.getNumSRBits(); }
        SRDensityType getSRNoiseDensity() const { return roundConfig.getSRNoiseDensity(); }
        bool isNanooModeEnabled() const { return enableNanooMode; }
        poplar::Type getCalculationType() const { return calculationType; }
        poplar::Type getStorageType() const { return storageType; }
        bool inPlaceOp(poplar::Type inType) const { return inType == storageType; }
        FormatType getFormatType() const { return floatFormatType; }
        /// True when the result is held in FLOAT or HALF, false when packed in CHAR or SHORT.
        bool getStoreAsNative() const { return storeAsNative; }

    private:
        CastConfig(FormatType floatFormatType, poplar::Type calculationType,
                   poplar::Type storageType, RoundConfig roundCfg, bool enableNanooMode);

        poplar::Type calculationType;
        poplar::Type storageType;
        RoundConfig roundConfig;
        bool enableNanooMode;
        FormatType floatFormatType;
        bool storeAsNative;
    };

    /// `GFType` chooses the type castNativeToGfloat stores into (AUTO: the format's storage
    /// type), `NativeType` the type castGfloatToNative returns (AUTO: the format's native type).
    GfloatCast(const FormatConfig& formatCfg, const RoundConfig& roundCfg,
               const bool enableNanooMode, const SpecType& GFType = SpecType::AUTO,
               const SpecType& NativeType = SpecType::AUTO);
    GfloatCast(const GfloatCast& gfloatCast);

    /// Adds the cast's parameter tensor (the packed format parameters, INT, on tile 0) and the
    /// program that sets it to `prog`.
    void createCastOpParamsTensor(poplar::Graph& graph, poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {});

    /// A new tensor, mapped like `input` (FLOAT or HALF), holding its values quantised to the
    /// format: of the storage type, packed for CHAR and SHORT.
    poplar::Tensor castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& debugContext = {});
    /// Quantises `input` (FLOAT or HALF) in place.
    void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                   poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {});
    /// A new tensor of the native type holding the values of `input`, a result of
    /// castNativeToGfloat (packed CHAR or SHORT values are unpacked).
    poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& debugContext = {});

    poplar::Type getGFStorageType() const { return nativeToGFCastCfg.getStorageType(); }
    poplar::Type getCalculationType() const { return nativeToGFCastCfg.getCalculationType(); }
    poplar::Type getNativeStorageType() const { return gfToNativeCastCfg.getStorageType(); }
    FormatConfig getFormatConfig() const { return formatCfg; }
    CastConfig getNativeToGFConfig() const { return nativeToGFCastCfg; }
    CastConfig getGFToNativeConfig() const { return gfToNativeCastCfg; }
    bool getStoreAsNative() const { return nativeToGFCastCfg.getStoreAsNative(); }
    /// The parameter tensor; throws poplar::poplar_error before createCastOpParamsTensor.
    poplar::Tensor getCastOpParams() const;
    bool isCastOpParamSet() const { return castOpParamSet; }
    bool isNanooModeEnabled() const { return nativeToGFCastCfg.isNanooModeEnabled(); }
    RoundType getRoundMode() const { return nativeToGFCastCfg.getRoundMode(); }
    bool inPlaceOp(poplar::Type outType) const { return nativeToGFCastCfg.inPlaceOp(outType); }

protected:
    CastConfig nativeToGFCastCfg;
    CastConfig gfToNativeCastCfg;
    FormatConfig formatCfg;
    std::unique_ptr<poplar::Tensor> gfParams;
    bool castOpParamSet;
};

} // namespace experimental
} // namespace popfloat
