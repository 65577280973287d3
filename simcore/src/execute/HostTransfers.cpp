#include "HostTransfers.hpp"

#include "poplar/exceptions.hpp"

#include <cstring>
#include <optional>

namespace tilescope::sim {

namespace {

/// The index of the stream or remote buffer named `handle` in `items`.
template <typename Items>
std::optional<std::uint32_t> indexOfHandle(const Items& items, const std::string& handle) {
    for (std::uint32_t i = 0; i < items.size(); ++i)
        if (items[i].handle == handle)
            return i;
    return std::nullopt;
}

/// The handles of `items`, comma-separated, for an error naming what there is ("none").
template <typename Items> std::string handleList(const Items& items) {
    std::string known;
    for (const auto& item : items)
        known += (known.empty() ? "" : ", ") + item.handle;
    return known.empty() ? "none" : known;
}

} // namespace

std::uint32_t findStream(const GraphModel& model, const std::string& handle) {
    if (const auto i = indexOfHandle(model.streams, handle))
        return *i;
    throw poplar::stream_connection_error("connectStream: the graph has no stream '" + handle +
                                          "' (streams: " + handleList(model.streams) + ")");
}

std::uint32_t checkStreamBuffer(const GraphModel& model, const std::string& handle,
                                const void* begin, const void* end) {
    const auto id = findStream(model, handle);
    const auto& s = model.streams[id];
    const std::size_t slot = s.numElements * elementSize(s.type);
    const auto bytes = static_cast<std::size_t>(static_cast<const std::byte*>(end) -
                                                static_cast<const std::byte*>(begin));
    if (bytes == 0 || (slot && bytes % slot != 0))
        throw poplar::stream_connection_error(
            "connectStream: the buffer for stream '" + handle + "' has " + std::to_string(bytes) +
            " bytes; it must hold a whole number (at least one) of " + std::to_string(slot) +
            "-byte transfers");
    return id;
}

void StreamConnection::connectBuffer(std::byte* begin, std::byte* end) {
    invalidatePrefetched();
    callback_.reset();
    begin_ = next_ = begin;
    end_ = end;
}

void StreamConnection::connectCallback(std::shared_ptr<poplar::StreamCallback> callback) {
    invalidatePrefetched();
    begin_ = end_ = next_ = nullptr;
    callback_ = std::move(callback);
}

void StreamConnection::invalidatePrefetched() {
    if (hasPrefetched_ && callback_)
        callback_->invalidatePrefetched();
    hasPrefetched_ = false;
}

void StreamConnection::advance(std::size_t bytes) {
    next_ += bytes;
    if (next_ >= end_)
        next_ = begin_;
}

void StreamConnection::toDevice(std::byte* out, std::size_t bytes) {
    if (!callback_) {
        std::memcpy(out, next_, bytes);
        advance(bytes);
        return;
    }
    if (hasPrefetched_) {
        std::memcpy(out, prefetched_.data(), bytes);
        hasPrefetched_ = false;
    } else {
        callback_->fetch(out);
    }
    callback_->complete();
    if (!prefetch_)
        return;
    // The next transfer's data may be produced early, once this one has completed.
    prefetched_.resize(bytes);
    hasPrefetched_ =
        callback_->prefetch(prefetched_.data()) == poplar::StreamCallback::Result::Success;
}

void StreamConnection::toHost(std::byte* data, std::size_t bytes) {
    if (!callback_) {
        std::memcpy(next_, data, bytes);
        advance(bytes);
        return;
    }
    callback_->fetch(data);
    callback_->complete();
}

RemoteBufferStore::RemoteBufferStore(const GraphModel& model) : model_(model) {
    for (std::uint32_t b = 0; b < model.remoteBuffers.size(); ++b)
        data_.emplace_back(model.remoteBuffers[b].repeats * rowBytes(b));
}

std::size_t RemoteBufferStore::rowBytes(std::uint32_t buffer) const {
    const auto& b = model_.remoteBuffers[buffer];
    return b.numElements * elementSize(b.type);
}

std::uint32_t RemoteBufferStore::find(const std::string& handle, const char* what) const {
    if (const auto id = indexOfHandle(model_.remoteBuffers, handle))
        return *id;
    throw poplar::index_error(std::string(what) + ": the graph has no remote buffer '" + handle +
                              "' (remote buffers: " + handleList(model_.remoteBuffers) + ")");
}

void RemoteBufferStore::checkRows(std::uint32_t buffer, const std::vector<std::uint64_t>& rows,
                                  const std::string& what) const {
    const auto& b = model_.remoteBuffers[buffer];
    for (auto r : rows)
        if (r >= b.repeats)
            throw poplar::index_error(what + ": offset " + std::to_string(r) +
                                      " is out of range for remote buffer '" + b.handle + "' of " +
                                      std::to_string(b.repeats) + " repeats");
}

void RemoteBufferStore::read(std::uint32_t buffer, const std::vector<std::uint64_t>& rows,
                             std::byte* out, const std::string& what) const {
    checkRows(buffer, rows, what);
    const std::size_t size = rowBytes(buffer);
    for (std::size_t i = 0; i < rows.size(); ++i)
        std::memcpy(out + i * size, data_[buffer].data() + rows[i] * size, size);
}

void RemoteBufferStore::write(std::uint32_t buffer, const std::vector<std::uint64_t>& rows,
                              const std::byte* in, const std::string& what) {
    checkRows(buffer, rows, what);
    const std::size_t size = rowBytes(buffer);
    for (std::size_t i = 0; i < rows.size(); ++i)
        std::memcpy(data_[buffer].data() + rows[i] * size, in + i * size, size);
}

} // namespace tilescope::sim
