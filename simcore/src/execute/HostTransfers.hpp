#pragma once
// The host side of a loaded engine's transfers: what each data stream is connected to, and the
// rows of the remote buffers.

#include "poplar/StreamCallback.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilescope::sim {

/// The index of the stream named `handle`; throws poplar::stream_connection_error naming the
/// graph's streams for an unknown one.
std::uint32_t findStream(const GraphModel& model, const std::string& handle);
/// findStream, and checks that [begin, end) holds a whole number (at least one) of the stream's
/// transfers.
std::uint32_t checkStreamBuffer(const GraphModel& model, const std::string& handle,
                                const void* begin, const void* end);

/// What one data stream is connected to: a host buffer whose slots successive copies use in
/// turn (wrapping around at the end), or a poplar::StreamCallback driven by Poplar's protocol.
/// Host-to-device: the data a successful prefetch() produced after the previous transfer, else
/// fetch(); then complete(), then prefetch() for the next transfer. Device-to-host: fetch()
/// with the data, then complete().
class StreamConnection {
public:
    void connectBuffer(std::byte* begin, std::byte* end);
    void connectCallback(std::shared_ptr<poplar::StreamCallback> callback);
    bool connected() const { return begin_ || callback_; }
    /// false: callbacks are never asked to prefetch() (exchange.enablePrefetch=false).
    void setPrefetch(bool prefetch) { prefetch_ = prefetch; }
    /// Fills `out` with the next host-to-device transfer of `bytes` bytes.
    void toDevice(std::byte* out, std::size_t bytes);
    /// Hands a device-to-host transfer of `bytes` bytes to the host (a callback may change the
    /// buffer: it is the engine's copy of the data).
    void toHost(std::byte* data, std::size_t bytes);

private:
    /// Drops prefetched data that will not be transferred, telling the callback.
    void invalidatePrefetched();
    void advance(std::size_t bytes);

    std::byte* begin_ = nullptr;
    std::byte* end_ = nullptr;
    std::byte* next_ = nullptr;
    std::shared_ptr<poplar::StreamCallback> callback_;
    std::vector<std::byte> prefetched_;
    bool hasPrefetched_ = false;
    bool prefetch_ = true;
};

/// The rows of every remote buffer of a loaded engine (`repeats` rows of `numElements`
/// elements each, zeroed at load). Rows out of range throw poplar::index_error.
class RemoteBufferStore {
public:
    explicit RemoteBufferStore(const GraphModel& model);
    /// The index of the buffer named `handle`; throws index_error (naming `what`) for an unknown
    /// handle.
    std::uint32_t find(const std::string& handle, const char* what) const;
    /// Copies `rows` (in order, one after the other) out of or into buffer `buffer`.
    void read(std::uint32_t buffer, const std::vector<std::uint64_t>& rows, std::byte* out,
              const std::string& what) const;
    void write(std::uint32_t buffer, const std::vector<std::uint64_t>& rows, const std::byte* in,
               const std::string& what);

private:
    std::size_t rowBytes(std::uint32_t buffer) const;
    void checkRows(std::uint32_t buffer, const std::vector<std::uint64_t>& rows,
                   const std::string& what) const;

    const GraphModel& model_;
    std::vector<std::vector<std::byte>> data_;
};

} // namespace tilescope::sim
