#pragma once
#include "poplar/Device.hpp"

#include <string>

namespace poplar {

/// Builder of simulated IPU devices. Defaults to one Mk2 IPU ("ipu2"); "ipu1" selects Mk1. The
/// public fields may be changed before createDevice().
class IPUModel {
public:
    /// How the SDK's model delays syncs between tiles: not at all, or by their distance.
    enum class RelativeSyncDelayType { NO_DELAY, AUTO };

    explicit IPUModel(const char* ipuVersion = "ipu2");

    std::string ipuVersion;
    unsigned numIPUs = 1;
    unsigned tilesPerIPU = 0;
    std::uint64_t memoryBytesPerTile = 0;
    unsigned numWorkerContexts = 0;
    double tileClockFrequency = 0;
    /// As in the SDK: when false (the default) no IPU code is generated, so the compile report
    /// charges no control, vertex or exchange code and says code was not compiled; when true,
    /// code is accounted as on hardware. Codelets always run on the host either way.
    bool compileIPUCode = false;
    /// The IPU sync delay for the tile closest to the sync controller, in cycles, and whether
    /// tiles further away are released later (AUTO) or together (NO_DELAY). Every sync of the
    /// device costs them (tilescope/sim/CostModel.hpp: syncCycles); the defaults are modelled,
    /// as the SDK does not publish its own.
    unsigned minIPUSyncDelay = 30;
    RelativeSyncDelayType relativeSyncDelay = RelativeSyncDelayType::AUTO;

    /// A device with the figures above; throws invalid_option for an unknown ipuVersion or
    /// zero-sized fields.
    Device createDevice(const OptionFlags& opts = {}, bool accurateHalf = false,
                        unsigned deviceManagerId = 0) const;
};

} // namespace poplar
