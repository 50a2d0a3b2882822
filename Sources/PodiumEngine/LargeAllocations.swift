import CCsound

/// Where Csound's big blocks come from when the audio thread allocates them.
///
/// Csound allocates on the audio thread when a compile merges (a table's storage for `ftgen`,
/// the stub a staged table is copied into). glibc's malloc serves a block of 128 KiB or more
/// with `mmap` (fresh zero pages: `calloc` has nothing to clear, pages are touched only as they
/// are written) — but it raises that threshold every time such a block is freed, up to 32 MiB.
/// Once a big table had been freed (a staging engine's, a replaced one's), the next 8 MiB table
/// came from the heap instead, and `calloc` cleared all of it on the audio thread: 2,048 page
/// faults, a 7 ms callback for a 2^20-point stub at period 256 (2 ms for 2^18 points).
/// A fixed threshold keeps big blocks on `mmap` for the whole performance (setting it turns the
/// adjustment off).
public enum LargeAllocations {
    /// Blocks this large or larger are always mapped fresh.
    public static let mmapThreshold: Int32 = 256 * 1024

    // Thread: NRT (owner, before the client is activated; idempotent)
    public static func keepOnMmap() {
        _ = podium_keep_large_blocks_on_mmap(mmapThreshold)
    }
}
