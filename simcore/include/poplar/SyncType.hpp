#pragma once
// The kinds of synchronisation a Sync program or a cycle counter waits for.

namespace poplar {

/// What a synchronisation waits for: the tiles of one IPU (INTERNAL), every tile and the host
/// (EXTERNAL), or every tile of every IPU (GLOBAL). The simulator charges one fixed sync cost.
enum class SyncType { INTERNAL, EXTERNAL, GLOBAL };

} // namespace poplar
