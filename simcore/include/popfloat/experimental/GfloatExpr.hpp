#pragma once
// popfloat's enumerations: rounding modes, gfloat format types, stochastic-rounding noise
// densities and the native types a cast may store its result in (names and order as PopLibs').

namespace popfloat {
namespace experimental {

/// How castNativeToGfloat rounds to the format's precision. TileScope implements the
/// deterministic modes (RZ, RN, RA, RU, RD); the stochastic ones (SR, SX) are refused with an
/// error naming them.
enum class RoundType {
    INV, ///< invalid (the default of an unset configuration)
    RZ,  ///< towards zero
    RN,  ///< to nearest, ties to even
    RA,  ///< to nearest, ties away from zero
    RU,  ///< towards positive infinity
    RD,  ///< towards negative infinity
    SR,  ///< stochastic rounding with as many random bits as are truncated
    SX   ///< stochastic rounding with fewer random bits and a chosen noise density
};

/// The kind of gfloat format, chosen by GfloatCast::FormatConfig from its sizes.
enum class FormatType {
    INVALID_FORMAT,
    IEEE_FP16,          ///< IEEE half, cast from FLOAT with a chosen rounding mode
    QUANTISED_FP32,     ///< any format held in FLOAT
    QUANTISED_FP16,     ///< any format held in HALF
    MIN_NORM_ALIGN_GF8, ///< an 8-bit format with fewer than 5 exponent bits
    ONE_FIVE_TWO_GF8,   ///< 1/5/2 with infinities and NaNs
    MAX_NORM_ALIGN_GF8, ///< 1/5/2 without infinities and NaNs
    BFLOAT16,           ///< 1/8/7
    NO_DENORM_GF16,     ///< a 16-bit format without denormals
    ENABLE_DENORM_GF16  ///< a 16-bit format with denormals
};

/// Noise densities of stochastic rounding (not implemented by TileScope).
enum class SRDensityType {
    INVALID,
    UNIFORM,
    NORMAL,
    TRUNCATED_NORMAL,
    BERNOULLI,
    LOGISTIC,
    TRUNCATED_LOGISTIC,
    LAPLACE,
    TRUNCATED_LAPLACE,
    LOGIT_NORMAL,
    TRUNCATED_LOGIT_NORMAL
};

/// A type a cast stores its result in; AUTO lets the format choose the smallest.
enum class SpecType { FP32, FP16, INT8, INT16, INT32, AUTO };

} // namespace experimental
} // namespace popfloat
