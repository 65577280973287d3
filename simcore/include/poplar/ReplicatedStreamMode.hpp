#pragma once
// How a host-to-device stream feeds the replicas of a replicated graph (the SDK's header). The
// simulator runs one replica, for which both modes are the same.

namespace poplar {

/// REPLICATE: each replica reads its own data; BROADCAST: every replica reads the same data.
enum class ReplicatedStreamMode { REPLICATE, BROADCAST };

} // namespace poplar
