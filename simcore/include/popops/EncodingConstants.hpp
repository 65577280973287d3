#pragma once
// Constants of PopLibs' label encodings, with the SDK's names.

/// The label of a masked row: popnn::calcLoss and calcAccuracy leave such rows out (zero loss,
/// zero deltas, never counted as correct). INT labels use -1, the same bits.
#define MASKED_LABEL_CODE 0xFFFFFFFFU

/// The smallest FLOAT and HALF values PopLibs adds before taking a natural logarithm.
#define EPS_LOG_N_FLOAT (1.17549435e-38F)
#define EPS_LOG_N_HALF (0.000000059605F)
