import PodiumEngine

// String channels stored by the callback. Csound guards a string channel with a spin lock that
// the non-real-time side may hold (while Csound reallocates the string, say): the callback only
// tries it, and a store that finds it held waits in a small preallocated queue, retried at the
// start of each k-cycle (counted: deferredStrings; droppedStrings when the queue is full).

/// Applies a `.setString` command: now, or deferred while its channel's lock is held.
// Thread: RT
@_noLocks @_noAllocation
func storeString(_ s: UnsafeMutablePointer<RTState>, _ command: Command) {
    guard let storage = command.storage else { return }
    // A newer value for a channel with a store still waiting replaces it (order kept).
    for i in 0..<s.pointee.deferredStringCount where s.pointee.deferredStrings[i].storage == storage {
        s.pointee.deferredStrings[i] = command
        counterAdd(s, .deferredStrings, 1)
        return
    }
    if tryStore(command) == .busy {
        guard s.pointee.deferredStringCount < s.pointee.deferredStringCapacity else {
            counterAdd(s, .droppedStrings, 1)
            return
        }
        s.pointee.deferredStrings[s.pointee.deferredStringCount] = command
        s.pointee.deferredStringCount += 1
        counterAdd(s, .deferredStrings, 1)
    }
}

/// Tries the stores still waiting; those whose lock is still held wait on (in order).
// Thread: RT
@_noLocks @_noAllocation
func retryDeferredStrings(_ s: UnsafeMutablePointer<RTState>) {
    var kept = 0
    for i in 0..<s.pointee.deferredStringCount {
        let command = s.pointee.deferredStrings[i]
        if tryStore(command) == .busy {
            s.pointee.deferredStrings[kept] = command
            kept += 1
        }
    }
    s.pointee.deferredStringCount = kept
}

// Thread: RT
@_noLocks @_noAllocation
func tryStore(_ command: Command) -> RTEngine.StringStore {
    guard let storage = command.storage else { return .tooLong }
    var fields = command.pfields
    let count = Int(command.count), lock = command.lock
    return withUnsafeBytes(of: &fields) { p in
        RTEngine.tryStoreString(storage, lock: lock, p.baseAddress!.assumingMemoryBound(to: CChar.self), count: count)
    }
}
